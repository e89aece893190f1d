"""What sacreBLEU 2.6.0's CLI prints with ``-b`` and ``-f json``, field for field, from our numbers.

``score`` of one system: each metric's ``Score.format(is_json=True)`` object (name, score rounded to the width,
signature, confidence fields with ``--confidence``, BLEU's ``verbose_score``, then the signature's keys), a list of
them for several metrics in sacreBLEU's order; of several systems: ``[{"system": FILE, "BLEU": "27.6", ...}]``
(``print_results_table``). ``compare``: ``[{"system": "Baseline: FILE", "BLEU": {"score", "p_value", "mean",
"ci"}}, ...]`` with the numbers unrounded (``Result.__dict__``). Names are the files as given, as sacreBLEU has them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bleu_core.errors import InputError

__all__ = ["MetricScore", "paired_json", "score_lines", "single_json", "systems_json"]


@dataclass(frozen=True, slots=True)
class MetricScore:
    """One metric's score of one system, as sacreBLEU formats it.

    Attributes:
        name: sacreBLEU's score name (``BLEU``, ``chrF2``, ``TER``).
        score: the corpus score.
        signature: sacreBLEU's signature of the setting (None: sacreBLEU cannot express it).
        verbose: BLEU's precisions and brevity penalty (``_verbose``), or ``""``.
        interval: ``(mean, half width)`` with ``--confidence``.
        why_none: why there is no sacreBLEU signature.
    """

    name: str
    score: float
    signature: str | None
    verbose: str = ""
    interval: tuple[float, float] | None = None
    why_none: str = ""

    def checked(self) -> str:
        if self.signature is None:
            raise InputError(
                f"sacreBLEU cannot express this {self.name} setting ({self.why_none}), so it has no output to match; "
                "use --json",
                "--format",
            )
        return self.signature

    def text(self, width: int) -> str:
        """sacreBLEU's ``-b`` line: the score (and ``(μ = mean ± ci)`` with ``--confidence``)."""
        out = f"{self.score:.{width}f}"
        if self.interval is not None:
            out += f" (μ = {self.interval[0]:.{width}f} ± {self.interval[1]:.{width}f})"
        return out

    def json(self, width: int) -> str:
        """``Score.format(width, signature=..., is_json=True)``."""
        signature = self.checked()
        d: dict[str, Any] = {"name": self.name, "score": float(f"{self.score:.{width}f}"), "signature": signature}
        if self.interval is not None:
            mean, ci = f"{self.interval[0]:.{width}f}", f"{self.interval[1]:.{width}f}"
            d["confidence_mean"], d["confidence_var"] = float(mean), float(ci)
            d["confidence"] = f"μ = {mean} ± {ci}"
        if self.verbose:
            d["verbose_score"] = self.verbose
        for param in signature.split("|"):
            key, value = param.split(":")
            d[key] = value
        return json.dumps(d, indent=1, ensure_ascii=False)


def score_lines(scores: Sequence[MetricScore], width: int) -> list[str]:
    """``-b``: one line per score (sacreBLEU's ``-b -f text``)."""
    return [s.text(width) for s in scores]


def single_json(scores: Sequence[MetricScore], width: int) -> str:
    """One system's ``-f json`` (``print_single_results``): an object, or a list of them for several metrics."""
    results = [s.json(width) for s in scores]
    return results[0] if len(results) == 1 else "[\n" + ",\n".join(results) + "\n]"


def systems_json(systems: Sequence[tuple[str, Sequence[MetricScore]]], width: int) -> str:
    """Several systems' ``-f json`` without a paired test: each score as the string ``-b`` prints."""
    rows = []
    for name, scores in systems:
        row: dict[str, Any] = {"system": name}
        for s in scores:
            s.checked()
            row[s.name] = f"{s.score:.{width}f}"
        rows.append(row)
    return json.dumps(rows, indent=4)


def paired_json(systems: Sequence[tuple[str, Sequence[dict[str, Any]]]]) -> str:
    """``--paired-bs/--paired-ar -f json``: per system (the baseline's name prefixed ``Baseline: ``) each metric's
    ``{"score", "p_value", "mean", "ci"}``, unrounded (``mean``/``ci`` null where sacreBLEU computes none: the
    baseline's p-value, every interval of ``--paired-ar``). Each dict carries ``name`` (the key) and those four."""
    rows = []
    for i, (name, results) in enumerate(systems):
        row: dict[str, Any] = {"system": f"Baseline: {name}" if i == 0 else name}
        for r in results:
            row[r["name"]] = {k: r[k] for k in ("score", "p_value", "mean", "ci")}
        rows.append(row)
    return json.dumps(rows, indent=4)
