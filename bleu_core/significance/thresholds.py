"""What a difference in a metric means to people: the share of human judges expected to agree with it.

Kocmi, Zouhar, Federmann and Post (ACL 2024, "Navigating the Metrics Maze: Reconciling Score Magnitudes and
Accuracies") fitted, per metric, how often a system-level difference of ``delta`` points orders two systems as
human judges do::

    accuracy(delta) = a / (1 + exp(-b * delta))     (percent)

with ``a`` and ``b`` fitted on one human-evaluation campaign's pairs of systems (their constants, as their
``mt-thresholds`` package publishes them). So a difference of 1 BLEU point agrees with people about 64% of the
time, 2 points about 77%, and BLEU never above 88% (``a``); chrF reaches 80% at about 1.6 points. The curve is
theirs, fitted on their data: it says how often such a difference held up with people there, not a test of this
pair. Only BLEU and chrF are here (the metrics this package computes that they fitted); TER was not fitted.
"""

from __future__ import annotations

import math
from typing import Final

__all__ = ["CITATION", "HUMAN_ACCURACY", "delta_for_accuracy", "fitted_as", "human_accuracy"]

CITATION: Final = (
    "Kocmi, Zouhar, Federmann and Post (ACL 2024), Navigating the Metrics Maze: Reconciling Score Magnitudes and "
    "Accuracies; fitted on one campaign's system pairs"
)
HUMAN_ACCURACY: Final[dict[str, tuple[float, float]]] = {
    # (a, b) as the authors' mt-thresholds 1.0.4 publishes them, by sacreBLEU's metric name
    "bleu": (88.33333333333225, 0.9663926931178954),
    "chrf": (92.999999999972, 1.1142732157139852),
}


def human_accuracy(delta: float, metric: str = "bleu") -> float | None:
    """The percentage of human judges expected to agree with a system-level difference of ``delta`` points
    (its size: the sign only says which system is ahead); ``None`` for a metric without fitted constants.

    Example:
        >>> round(human_accuracy(1.0), 1), round(human_accuracy(-2.0), 1), round(human_accuracy(1.6, "chrf"), 1)
        (64.0, 77.2, 79.6)
        >>> human_accuracy(1.0, "ter") is None
        True
    """
    if metric not in HUMAN_ACCURACY or not math.isfinite(delta):
        return None
    a, b = HUMAN_ACCURACY[metric]
    return a / (1 + math.exp(-b * abs(delta)))


def fitted_as(sacrebleu_name: str, name: str) -> str | None:
    """The fitted metric a scored metric is (a key of :data:`HUMAN_ACCURACY`), or ``None``: any BLEU, and chrF
    as they ran it (sacreBLEU's default chrF2: beta 2, no word n-grams); not chrF++, another beta, TER or an
    imported score.

    Example:
        >>> fitted_as("bleu", "BLEU"), fitted_as("chrf", "chrF2"), fitted_as("chrf", "chrF2++"), fitted_as("", "COMET")
        ('bleu', 'chrf', None, None)
    """
    if sacrebleu_name == "bleu":
        return "bleu"
    if sacrebleu_name == "chrf" and name == "chrF2":
        return "chrf"
    return None


def delta_for_accuracy(accuracy: float, metric: str = "bleu") -> float | None:
    """The difference (points) that ``accuracy`` percent of judges are expected to agree with; ``None`` when the
    metric has no constants or never reaches that accuracy (BLEU's ceiling is 88.3%).

    Example:
        >>> round(delta_for_accuracy(80.0), 2), delta_for_accuracy(90.0)
        (2.34, None)
    """
    if metric not in HUMAN_ACCURACY:
        return None
    a, b = HUMAN_ACCURACY[metric]
    if not a / 2 < accuracy < a:
        return None
    return -math.log(a / accuracy - 1) / b
