""" "After BLEU" on the Learn page (issue 33): chrF and TER on the paper's sentences, and what a difference in BLEU
or chrF means to people. Every number is computed here by ``bleu_core`` (chrF and TER exactly as sacreBLEU
computes them under its defaults); the sources of the claims are in ``docs/learn/after_*.md``."""

from __future__ import annotations

from typing import Final

import pandas as pd

from bleu_app import samples
from bleu_core import sentence_chrf, sentence_ter, ter_edits
from bleu_core.config import BleuConfig
from bleu_core.metrics import Chrf, Ter
from bleu_core.metrics.bleu import make_signature
from bleu_core.significance.thresholds import delta_for_accuracy, human_accuracy
from bleu_core.teaching.chrf_lab import ZERO_OVERLAP, score_both
from bleu_core.teaching.explain import explain_segment
from bleu_core.teaching.paper import EXAMPLE_1

__all__ = [
    "MORPHOLOGY",
    "PARAPHRASE",
    "chrf_frame",
    "chrf_lab_frame",
    "people_frame",
    "signatures",
    "ter_by_kind",
    "ter_frame",
    "ter_summary",
]

PARAPHRASE: Final = ("the East Asian economy grew quickly", "the economy of East Asia grew quickly")
"""Footnote 4's fluent phrase in a sentence, against a reference that reads "economy of East Asia"."""
MORPHOLOGY: Final = (samples.CLASSROOM_SAMPLES["inflection"][1], samples.CLASSROOM_SAMPLES["inflection"][2][0])
"""Wrong inflections (tense and number): the words' stems are right, the words are not (made up for the lecture)."""
DELTAS: Final = (0.5, 1.0, 2.0, 3.0, 5.0)


def _rows() -> list[tuple[str, str, list[str]]]:
    c1, c2 = EXAMPLE_1.candidates[:2]
    refs = list(EXAMPLE_1.references)
    return [
        ("Example 1, Candidate 1", c1, refs),
        ("Example 1, Candidate 2", c2, refs),
        ("Footnote 4's paraphrase", PARAPHRASE[0], [PARAPHRASE[1]]),
        ("Wrong inflections", MORPHOLOGY[0], [MORPHOLOGY[1]]),
    ]


def chrf_frame(config: BleuConfig) -> pd.DataFrame:
    """Sentence BLEU under ``config`` (the lecture's settings) beside sentence chrF (sacreBLEU's defaults) on the
    paper's two candidates, footnote 4's paraphrase and a wrong inflection, each against its references.

    Example:
        >>> chrf_frame(BleuConfig.paper())["chrF"].tolist()
        ['62.40', '33.16', '67.83', '62.47']
    """
    rows = _rows()
    return pd.DataFrame(
        {
            "sentence": [name for name, _, _ in rows],
            "candidate": [hyp for _, hyp, _ in rows],
            "references": [len(refs) for _, _, refs in rows],
            "BLEU": [f"{explain_segment(hyp, refs, config).score.score:.2f}" for _, hyp, refs in rows],
            "chrF": [f"{sentence_chrf(hyp, refs).score:.2f}" for _, hyp, refs in rows],
        }
    )


def signatures(config: BleuConfig) -> tuple[tuple[str, str], ...]:
    """(what, signature) of the numbers in :func:`chrf_frame`: BLEU's under ``config``, chrF's and TER's under
    sacreBLEU's defaults (``nrefs`` varies by row: 3 for Example 1, 1 for the others)."""
    return (
        ("BLEU", make_signature(config, -1)),
        ("chrF", Chrf().signature(-1)),
        ("TER", Ter().signature(len(EXAMPLE_1.references))),
    )


def ter_frame() -> pd.DataFrame:
    """TER's edits turning Example 1's Candidate 2 into its closest reference, one row per operation, in the
    order of the reference (after the shifts, which come first)."""
    e = ter_edits(EXAMPLE_1.candidates[1], list(EXAMPLE_1.references))
    what = {"match": "keep", "sub": "substitute", "ins": "insert", "del": "delete", "shift": "shift (move)"}
    return pd.DataFrame(
        {
            "edit": [what[op.kind] for op in e.ops],
            "candidate's words": [" ".join(op.hyp_words) for op in e.ops],
            "reference's words": [" ".join(op.ref_words) for op in e.ops],
            "counts": [int(op.is_edit) for op in e.ops],
        }
    )


def ter_by_kind(frame: pd.DataFrame) -> pd.DataFrame:
    """:func:`ter_frame`'s edits grouped by kind, one line each (a slide's table): the words each edit touched.

    Example:
        >>> ter_by_kind(ter_frame())["edits"].tolist()
        [1, 2, 8]
    """
    edits = frame[frame["counts"] == 1]
    rows = []
    for kind, group in edits.groupby("edit", sort=False):
        words = [
            f"{h} → {r}" if h and r else (h or r)
            for h, r in zip(group["candidate's words"], group["reference's words"])
        ]
        rows.append({"edit": kind, "edits": len(group), "words": ", ".join(words)})
    return pd.DataFrame(rows)


def ter_summary() -> dict[str, str]:
    """The numbers the TER step quotes: edits, the closest reference, the average reference length, TER.

    Example:
        >>> ter_summary()["ter"]
        '66.00'
    """
    refs = list(EXAMPLE_1.references)
    e = ter_edits(EXAMPLE_1.candidates[1], refs)
    return {
        "edits": str(e.num_edits),
        "reference": str(e.ref_index + 1),
        "length": f"{e.ref_length:.2f}",
        "ter": f"{sentence_ter(EXAMPLE_1.candidates[1], refs).score:.2f}",
    }


def people_frame() -> pd.DataFrame:
    """The share of human judges expected to agree with a system-level difference of 0.5-5 points in BLEU and
    in chrF (Kocmi et al., 2024), and the difference at which each metric reaches 80%.

    Example:
        >>> people_frame().iloc[1].tolist()
        ['1 point', '64%', '70%']
    """
    rows = [(f"{d:g} point" + ("" if d == 1 else "s"), d) for d in DELTAS]
    frame = pd.DataFrame(
        {
            "difference": [label for label, _ in rows],
            "BLEU": [f"{human_accuracy(d, 'bleu') or 0:.0f}%" for _, d in rows],
            "chrF": [f"{human_accuracy(d, 'chrf') or 0:.0f}%" for _, d in rows],
        }
    )
    at80 = {m: delta_for_accuracy(80.0, m) for m in ("bleu", "chrf")}
    extra = {"difference": "for 80% agreement", **{k.replace("bleu", "BLEU").replace("chrf", "chrF"): "" for k in at80}}
    extra["BLEU"] = f"{at80['bleu'] or 0:.2f} points"
    extra["chrF"] = f"{at80['chrf'] or 0:.2f} points"
    return pd.concat([frame, pd.DataFrame([extra])], ignore_index=True)


def chrf_lab_frame() -> pd.DataFrame:
    """The prediction round's answer: each system's corpus chrF as sacreBLEU computes it and with the references of
    sentences that match nothing dropped (torchmetrics before #3481), with the ranks each gives A and B.

    Example:
        >>> chrf_lab_frame()["rank, dropped"].tolist()
        ['2', '1', '']
    """
    pairs = score_both(ZERO_OVERLAP.systems, [list(ZERO_OVERLAP.references)])
    ranked = pairs[:2]  # A and B compete; the last row is B with a partly right third sentence

    def rank(value: float, key: str) -> str:
        return str(1 + sum(getattr(p, key) > value for p in ranked))

    return pd.DataFrame(
        {
            "system": [p.name for p in pairs],
            "sentences matching nothing": [p.unmatched for p in pairs],
            "chrF (sacreBLEU)": [f"{p.right:.2f}" for p in pairs],
            "chrF, dropped": [f"{p.dropped:.2f}" for p in pairs],
            "rank": [rank(p.right, "right") if p in ranked else "" for p in pairs],
            "rank, dropped": [rank(p.dropped, "dropped") if p in ranked else "" for p in pairs],
        }
    )
