"""The metrics, by name: sacreBLEU's ``-m`` names, one registry line per metric (as sacreBLEU's ``METRICS``).

A metric is a :class:`~bleu_core.metrics.base.Metric`: statistics per segment, a vectorised score of their sums,
and the signatures. The significance tests, the trial policy, rankings and slices read nothing else of it, so a new
metric is one module and one line below. Where a :class:`~bleu_core.config.BleuConfig` is given instead (the
documented calls, ``compare(a, b, config)``), it means BLEU under that configuration (:func:`as_metric`).

Example:
    >>> get_metric("bleu", max_ngram_order=2).width
    6
    >>> get_metric("meteor")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bleu_core.errors.InputError: metric: unknown metric 'meteor' (known: bleu...)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from bleu_core.config import BleuConfig
from bleu_core.errors import InputError

from .base import Metric, PreparedReferences
from .bleu import Bleu
from .chrf import Chrf
from .ter import Ter

__all__ = ["METRICS", "Bleu", "Chrf", "Metric", "PreparedReferences", "Ter", "as_metric", "get_metric", "register"]

METRICS: Final[dict[str, Callable[..., Metric]]] = {
    "bleu": Bleu.from_options,
    "chrf": Chrf.from_options,
    "ter": Ter,
}
"""Each metric's factory by sacreBLEU's name; the keyword options are the metric's own (``max_ngram_order``...)."""


def get_metric(name: str, **options: object) -> Metric:
    """The metric called ``name`` (sacreBLEU's ``-m`` spelling), with its options."""
    factory = METRICS.get(name)
    if factory is None:
        raise InputError(f"unknown metric {name!r} (known: {', '.join(METRICS)})", "metric")
    return factory(**options)


def register(name: str, factory: Callable[..., Metric]) -> None:
    """Add a metric under ``name`` (one not taken).

    Raises:
        InputError: the name is taken.
    """
    if name in METRICS:
        raise InputError(f"a metric called {name!r} is registered already", "metric")
    METRICS[name] = factory


def as_metric(metric: Metric | BleuConfig) -> Metric:
    """``metric`` itself, or BLEU under a :class:`~bleu_core.config.BleuConfig`: what every function that takes a
    metric accepts, so that the documented calls with a configuration keep working.

    Example:
        >>> as_metric(BleuConfig(max_ngram_order=2)) == Bleu(BleuConfig(max_ngram_order=2))
        True
    """
    return Bleu(metric) if isinstance(metric, BleuConfig) else metric
