"""The metrics a page shows: the sidebar's choice (keys of the core's registry, and the imported scores of the loaded
corpus) resolved to metrics, with their labels, number formats and signatures.

A choice is a key: sacreBLEU's ``-m`` name for a registered metric (``bleu``, ``chrf``, ``ter``: whatever
``bleu_core.metrics.METRICS`` holds, so a metric registered there is offered here with no change), or
``scores:LABEL`` for a column of imported segment scores. BLEU runs under the sidebar's settings; the others under
sacreBLEU's defaults.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import pandas as pd

from bleu_app.frames import corpus as f
from bleu_core.config import BleuConfig
from bleu_core.data.corpus import Corpus
from bleu_core.errors import InputError
from bleu_core.metrics import METRICS, Bleu, Metric, get_metric
from bleu_core.metrics.imported import Imported, SegmentScores
from bleu_core.metrics.signature import sacrebleu_signature

__all__ = [
    "IMPORTED",
    "PAGE_DEFAULTS",
    "Shown",
    "Signed",
    "decimals",
    "imported_key",
    "label",
    "number_format",
    "options",
    "page_default",
    "resolve",
    "side_by_side",
    "signatures",
    "signed",
]

IMPORTED: Final = "scores:"
"""The key prefix of an imported metric (``scores:COMET``)."""
PAGE_DEFAULTS: Final[dict[str, tuple[str, ...]]] = {
    "": ("bleu",),
    "learn": ("bleu",),
    "sentence": ("bleu",),
    "class": ("bleu",),
    "corpus": ("bleu", "chrf"),
    "compare": ("bleu", "chrf"),
}
"""What each page (by url_path) shows until the user chooses; a metric not registered (yet) is left out."""


@dataclass(frozen=True, slots=True)
class Shown:
    """A chosen metric: its key (the choice) and the metric it stands for."""

    key: str
    metric: Metric

    @property
    def name(self) -> str:
        return self.metric.name

    @property
    def is_bleu(self) -> bool:
        return isinstance(self.metric, Bleu)

    @property
    def imported(self) -> bool:
        return isinstance(self.metric, Imported)

    @property
    def stats_key(self) -> tuple[str, ...]:
        """What the metric's statistics depend on (a cache key): BLEU's tokenization (its smoothing is only in
        the scores), imported scores' content (a slice changes it), else the metric's options.

        Example:
            >>> Shown("bleu", Bleu(BleuConfig(smooth_method="floor"))).stats_key
            ('bleu', '13a', 'False', '4')
        """
        m = self.metric
        if isinstance(m, Bleu):
            c = m.config
            return ("bleu", c.tokenize, str(c.lowercase), str(c.max_ngram_order))
        if isinstance(m, Imported):
            return ("scores", m.label, m.digest)
        return (self.key, repr(m))

    @property
    def score_key(self) -> tuple[str, str]:
        """What the metric's scores depend on (a cache key): all of its options."""
        return (self.key, repr(self.metric))


def imported_scores(corpus: Corpus, metric: Imported) -> SegmentScores:
    """The corpus's imported scores of ``metric``.

    Raises:
        InputError: the corpus has none (a corpus loaded after the metric was chosen).
    """
    found = next((s for s in corpus.scores if s.metric == metric), None)
    if found is None:
        raise InputError(f"no imported scores called {metric.label!r} in this corpus", metric.file)
    return found


def imported_key(label: str) -> str:
    """The choice key of an imported metric.

    Example:
        >>> imported_key("COMET")
        'scores:COMET'
    """
    return IMPORTED + label


def page_default(page: str) -> list[str]:
    """The metrics ``page`` opens on, among the registered ones (BLEU at least).

    Example:
        >>> page_default("sentence")
        ['bleu']
    """
    keys = [k for k in PAGE_DEFAULTS.get(page, ("bleu",)) if k in METRICS]
    return keys or ["bleu"]


def options(corpus: Corpus | None) -> list[str]:
    """Every metric the sidebar offers: the registry's, then the loaded corpus's imported scores."""
    imported = [imported_key(s.metric.label) for s in corpus.scores] if corpus is not None else []
    return [*METRICS, *imported]


def label(key: str) -> str:
    """How the sidebar names a choice: the metric's own name under its defaults, imported scores marked.

    Example:
        >>> label("ter"), label("scores:COMET")
        ('TER', 'COMET (imported)')
    """
    if key.startswith(IMPORTED):
        return f"{key.removeprefix(IMPORTED)} (imported)"
    try:
        return get_metric(key).name
    except Exception:  # a registry entry that cannot be built with no options: its key
        return key


def resolve(keys: Iterable[str], config: BleuConfig, corpus: Corpus | None = None) -> list[Shown]:
    """The chosen metrics, in the order chosen: BLEU under ``config``, imported scores from ``corpus`` (skipped
    when it has none of that name), any other registered metric under its defaults; BLEU when none is left.

    Example:
        >>> [s.name for s in resolve(["ter", "bleu", "scores:COMET"], BleuConfig())]
        ['TER', 'BLEU']
    """
    out = []
    for key in dict.fromkeys(keys):
        if key == "bleu":
            out.append(Shown(key, Bleu(config)))
        elif key.startswith(IMPORTED):
            scores = corpus.imported(key.removeprefix(IMPORTED)) if corpus is not None else None
            if scores is not None:
                out.append(Shown(key, scores.metric))
        elif key in METRICS:
            out.append(Shown(key, get_metric(key)))
    return out or [Shown("bleu", Bleu(config))]


def bleu(config: BleuConfig) -> Shown:
    """BLEU under ``config`` as a choice (what the pages' BLEU sections read through the per-metric caches)."""
    return Shown("bleu", Bleu(config))


def decimals(metric: Metric) -> int:
    """Decimals a score is shown with: 2 on sacreBLEU's 0-100 scale, 4 for imported scores (COMET's 0-1).

    Example:
        >>> decimals(Bleu()), decimals(Imported("COMET", "c.tsv", "x", 4))
        (2, 4)
    """
    return 4 if isinstance(metric, Imported) else 2


def number_format(metric: Metric, *, signed: bool = False) -> str:
    """A printf format for a score column of ``metric``.

    Example:
        >>> number_format(Bleu()), number_format(Bleu(), signed=True)
        ('%.2f', '%+.2f')
    """
    return f"%{'+' if signed else ''}.{decimals(metric)}f"


def signatures(metric: Metric, nrefs: int | str, **test: int) -> tuple[str, str | None]:
    """Our signature and sacreBLEU's (None where sacreBLEU cannot express the setting) of ``metric`` against
    ``nrefs`` references, with a test (``bs=1000, rs=12345``; ``ar=...``) when given.

    Example:
        >>> ours, theirs = signatures(get_metric("ter"), 1, bs=1000, rs=12345)
        >>> theirs
        'nrefs:1|bs:1000|seed:12345|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.6.0'
    """
    ours = metric.signature(nrefs, **test)
    method = next((k for k in ("bs", "ar") if k in test), None)
    theirs = metric.sacrebleu_signature(
        nrefs,
        test=method,
        trials=test.get(method) if method else None,
        seed=test.get("rs") if method else None,
    )
    return ours, theirs


_NO_SETTING: Final = "sacreBLEU has no such setting"


@dataclass(frozen=True, slots=True)
class Signed:
    """The signatures of one kind of number in an export: what it is (``BLEU``, ``sentence BLEU``, ``chrF2``), our
    signature and sacreBLEU's (None, with the reason, where sacreBLEU cannot express the setting)."""

    what: str
    ours: str
    theirs: str | None
    why_none: str = _NO_SETTING

    @property
    def sacrebleu_cell(self) -> str:
        """sacreBLEU's signature, or ``none (why)``."""
        return self.theirs if self.theirs is not None else f"none ({self.why_none})"


def signed(
    metric: Metric, nrefs: int | str, test: Mapping[str, int] | None = None, *, what: str | None = None
) -> Signed:
    """:func:`signatures` of ``metric`` (with ``test``: ``{"bs": 1000, "rs": 12345}``) as a :class:`Signed` named
    ``what`` (default: the metric's name).

    Example:
        >>> s = signed(Bleu(BleuConfig(use_effective_order=True)), 2, what="sentence BLEU")
        >>> s.what, s.theirs
        ('sentence BLEU', 'nrefs:2|case:mixed|eff:yes|tok:13a|smooth:exp|version:2.6.0')
        >>> signed(Bleu(BleuConfig.paper()), 1).sacrebleu_cell
        "none (sacreBLEU has no 'paper' tokenizer (the paper's words are this app's own))"
    """
    ours, theirs = signatures(metric, nrefs, **(test or {}))
    why = sacrebleu_signature(metric.config, nrefs).why_none if isinstance(metric, Bleu) else None
    return Signed(what or metric.name, ours, theirs, why or _NO_SETTING)


def names(shown: Sequence[Shown]) -> str:
    """The metrics' names for a caption: ``BLEU``, ``BLEU and chrF2``, ``BLEU, chrF2 and TER``.

    Example:
        >>> names(resolve(["bleu", "ter"], BleuConfig()))
        'BLEU and TER'
    """
    n = [s.name for s in shown]
    return n[0] if len(n) == 1 else ", ".join(n[:-1]) + " and " + n[-1]


def ci_columns(name: str) -> tuple[str, str]:
    """A metric's interval columns in the side-by-side table.

    Example:
        >>> ci_columns("chrF2")
        ('chrF2 CI low', 'chrF2 CI high')
    """
    return f"{name} {f.CI_LOW}", f"{name} {f.CI_HIGH}"


def vs_baseline(name: str) -> str:
    """A metric's difference-to-the-baseline column in the side-by-side table."""
    return f"{name} {f.VS_BASELINE}"


def vs_interval(name: str) -> tuple[str, str]:
    """A metric's columns of the difference's 95% interval in the side-by-side table.

    Example:
        >>> vs_interval("BLEU")
        ('BLEU vs baseline low', 'BLEU vs baseline high')
    """
    return f"{name} {f.VS_LOW}", f"{name} {f.VS_HIGH}"


def side_by_side(tables: Sequence[tuple[Metric, pd.DataFrame]], order: Sequence[str]) -> pd.DataFrame:
    """One systems table of several metrics (each ``frames.corpus.system_table``), rows in ``order``: the system,
    then per metric its score, interval and difference to the baseline, then what only BLEU has (BP, lengths,
    precisions, in the first BLEU table's columns) and the human score.

    Example:
        >>> ci = {f.CI_LOW: [19.0, 29.0], f.CI_HIGH: [21.0, 31.0]}
        >>> a = pd.DataFrame({f.SYSTEM: ["x", "y"], "BLEU": [20.0, 30.0], **ci})
        >>> t = pd.DataFrame({f.SYSTEM: ["x", "y"], "TER": [60.0, 50.0], **ci})
        >>> list(side_by_side([(Bleu(), a), (get_metric("ter"), t)], ["y", "x"]).columns)
        ['system', 'BLEU', 'BLEU CI low', 'BLEU CI high', 'TER', 'TER CI low', 'TER CI high']
    """
    out = pd.DataFrame({f.SYSTEM: list(order)})
    extra: pd.DataFrame | None = None
    for metric, table in tables:
        name = metric.name
        by = table.set_index(f.SYSTEM)
        low, high = ci_columns(name)
        out[name] = out[f.SYSTEM].map(by[name])
        out[low] = out[f.SYSTEM].map(by[f.CI_LOW])
        out[high] = out[f.SYSTEM].map(by[f.CI_HIGH])
        if f.VS_BASELINE in by:
            out[vs_baseline(name)] = out[f.SYSTEM].map(by[f.VS_BASELINE])
        if f.VS_LOW in by:
            for column, source in zip(vs_interval(name), (f.VS_LOW, f.VS_HIGH), strict=True):
                out[column] = out[f.SYSTEM].map(by[source])
        if extra is None and isinstance(metric, Bleu):
            own = [name, f.CI_LOW, f.CI_HIGH, f.VS_BASELINE, f.VS_LOW, f.VS_HIGH, f.HUMAN]
            extra = by.drop(columns=own, errors="ignore")
    if extra is not None:
        for column in extra.columns:
            out[column] = out[f.SYSTEM].map(extra[column])
    human = next((t.set_index(f.SYSTEM)[f.HUMAN] for _, t in tables if f.HUMAN in t), None)
    if human is not None:
        out[f.HUMAN] = out[f.SYSTEM].map(human)
    return out


def segment_column(metric: Metric) -> str:
    """The sentence table's column of a metric's segment scores.

    Example:
        >>> segment_column(get_metric("ter")), segment_column(Imported("COMET", "c.tsv", "x", 4))
        ('sentence TER', 'COMET')
    """
    return metric.name if isinstance(metric, Imported) else f"sentence {metric.name}"


def segment_scores(metric: Metric, matrix: np.ndarray) -> np.ndarray:
    """Each segment's score under ``metric``: its row scored alone (for chrF and TER what sacreBLEU's
    ``sentence_chrf`` and ``sentence_ter`` give; for imported scores the file's number).

    Example:
        >>> segment_scores(get_metric("ter"), np.array([[1, 4], [0, 3]])).tolist()
        [25.0, 0.0]
    """
    if not len(matrix):
        return np.zeros(0)
    out: np.ndarray = metric.score_many(matrix)
    return out


def after_sentence_bleu(columns: Sequence[str], metric_columns: Sequence[str]) -> list[str]:
    """A sentence table's column order with the metrics' columns among its key numbers: after sentence BLEU and
    its effect on BLEU, before the text.

    Example:
        >>> after_sentence_bleu(["segment", "sentence BLEU", "hypothesis", "sentence TER"], ["sentence TER"])
        ['segment', 'sentence BLEU', 'sentence TER', 'hypothesis']
    """
    rest = [c for c in columns if c not in metric_columns]
    last = next((c for c in (f.LOO, f.SENT_BLEU) if c in rest), None)
    at = rest.index(last) + 1 if last is not None else len(rest)
    return [*rest[:at], *metric_columns, *rest[at:]]
