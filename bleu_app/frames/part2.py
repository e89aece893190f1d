"""Part II of the Learn page, "Does BLEU work?" (the paper's sections 3-6): the paper's own numbers as printed,
and what the app recomputes beside them (on the paper's examples, its tables and the built-in demo corpus).

Every number in ``PAPER_*`` is a string exactly as the paper prints it (a test finds each in the paper's text);
everything else here is computed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

import pandas as pd

from bleu_core.config import BleuConfig
from bleu_core.data.corpus import Corpus
from bleu_core.teaching.blocktest import student_t_critical
from bleu_core.teaching.explain import explain_corpus, explain_segment
from bleu_core.teaching.paper import EXAMPLE_1

__all__ = [
    "PAPER_HUMAN",
    "PAPER_SET",
    "PAPER_TABLE_1",
    "PAPER_TABLE_2",
    "PAPER_T_NOTE",
    "SYSTEMS",
    "blind_spots_frame",
    "demo_references_frame",
    "fisher_interval",
    "paper_numbers",
    "references_frame",
    "systems_frame",
    "t_critical",
    "table_1_frame",
    "table_2_frame",
]

SYSTEMS: Final = ("S1", "S2", "S3", "H1", "H2")
# section 3: "Table 1: BLEU on 500 sentences" (two references)
PAPER_TABLE_1: Final = ("0.0527", "0.0829", "0.0930", "0.1934", "0.2571")
# section 3: "Table 2: Paired t-statistics on 20 blocks"
PAPER_TABLE_2: Final = {
    "Mean": ("0.051", "0.081", "0.090", "0.192", "0.256"),
    "StdDev": ("0.017", "0.025", "0.020", "0.030", "0.039"),
    "t": ("—", "6", "3.4", "24", "11"),
}
PAPER_T_NOTE: Final = "1.7"  # section 3: "a paired t-statistic of 1.7 or above is 95% significant"
PAPER_SET: Final = {  # section 3
    "sentences": "500",
    "stories": "40",
    "blocks": "20",
    "block size": "25",
    "four references": "0.3468",
    "two references": "0.2571",
}
PAPER_HUMAN: Final = {  # sections 4 and 5
    "judges per group": "10",
    "pairs": "250",
    "S2 - S1 (monolingual)": "0.326",
    "S3 - S2 (monolingual)": "0.114",
    "r monolingual (Figure 5)": "0.99",
    "r bilingual (Figure 6)": "0.96",
}
BLOCKS: Final = 20


def paper_numbers() -> list[str]:
    """Every number this module quotes from the paper (for the test that finds each in the paper's text)."""
    out = [*PAPER_TABLE_1, PAPER_T_NOTE, *PAPER_SET.values(), *PAPER_HUMAN.values()]
    for row in PAPER_TABLE_2.values():
        out += [x for x in row if x != "—"]
    return out


def table_1_frame() -> pd.DataFrame:
    """Table 1 as printed, and the same scores linearly normalized by their range, as the paper does for Figure 7
    (section 5: "linearly normalized them by their corresponding range") — computed from Table 1 here."""
    scores = [float(x) for x in PAPER_TABLE_1]
    lo, hi = min(scores), max(scores)
    return pd.DataFrame(
        {
            "system": SYSTEMS,
            "BLEU (Table 1, 0-1)": PAPER_TABLE_1,
            "normalized by the range (computed)": [f"{(s - lo) / (hi - lo):.3f}" for s in scores],
        }
    ).set_index("system")


SYSTEM: Final = "system"
TABLE_1_BLEU: Final = "BLEU on 500 sentences (Table 1)"
BLOCK_MEAN: Final = "mean of 20 blocks (Table 2)"
BLOCK_SD: Final = "StdDev of 20 blocks (Table 2)"
BLOCK_LOW: Final = "mean − StdDev"
BLOCK_HIGH: Final = "mean + StdDev"


def systems_frame() -> pd.DataFrame:
    """The five systems as the paper scores them (section 3): Table 1's BLEU on the 500 sentences, and Table 2's
    mean and standard deviation of BLEU over its 20 blocks of 25 sentences (with mean ± StdDev, computed), numbers
    for the Part II chart (issue 34: Part II printed the tables and drew nothing).

    Example:
        >>> systems_frame().loc[4].to_dict()[TABLE_1_BLEU], systems_frame()[BLOCK_HIGH].tolist()
        (0.2571, [0.068, 0.106, 0.11, 0.222, 0.295])
    """
    means = [float(x) for x in PAPER_TABLE_2["Mean"]]
    sds = [float(x) for x in PAPER_TABLE_2["StdDev"]]
    return pd.DataFrame(
        {
            SYSTEM: SYSTEMS,
            TABLE_1_BLEU: [float(x) for x in PAPER_TABLE_1],
            BLOCK_MEAN: means,
            BLOCK_SD: sds,
            BLOCK_LOW: [round(m - s, 3) for m, s in zip(means, sds, strict=True)],
            BLOCK_HIGH: [round(m + s, 3) for m, s in zip(means, sds, strict=True)],
        }
    )


@lru_cache(maxsize=64)
def t_critical(df: int, alpha: float = 0.05, *, one_sided: bool = True) -> float:
    """The t above which a t statistic with ``df`` degrees of freedom is significant at ``alpha`` (one-sided, or
    two-sided: alpha split over both tails): the core's ``student_t_critical``, the block test's own, computed
    once per process (it was a Simpson's-rule integration redone on every visit: 40% of a Learn page's run)."""
    return student_t_critical(df, alpha if one_sided else alpha / 2)


def table_2_frame() -> pd.DataFrame:
    """Table 2 as printed, with the t an *unpaired* test would give from its means and standard deviations
    (computed: (m2 - m1) / sqrt((s1² + s2²) / 20)) — pairing is what makes S3 vs S2 significant."""
    means = [float(x) for x in PAPER_TABLE_2["Mean"]]
    sds = [float(x) for x in PAPER_TABLE_2["StdDev"]]
    unpaired = ["—"] + [
        f"{(means[i] - means[i - 1]) / math.sqrt((sds[i] ** 2 + sds[i - 1] ** 2) / BLOCKS):.2f}"
        for i in range(1, len(SYSTEMS))
    ]
    return pd.DataFrame(
        {
            "system": SYSTEMS,
            "Mean": PAPER_TABLE_2["Mean"],
            "StdDev": PAPER_TABLE_2["StdDev"],
            "paired t vs left neighbour (Table 2)": PAPER_TABLE_2["t"],
            "unpaired t from Mean and StdDev (computed)": unpaired,
        }
    ).set_index("system")


def fisher_interval(r: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% confidence interval of a Pearson correlation r over n points (Fisher's z transformation)."""
    centre, se = math.atanh(r), 1 / math.sqrt(n - 3)
    return math.tanh(centre - z * se), math.tanh(centre + z * se)


def references_frame(config: BleuConfig) -> pd.DataFrame:
    """Example 1's Candidate 1 against all three references and against each one alone (BLEU, 0-100)."""
    hyp, refs = EXAMPLE_1.candidates[0], list(EXAMPLE_1.references)
    rows = [("all three references", explain_segment(hyp, refs, config).score)]
    rows += [(f"Reference {k + 1} alone", explain_segment(hyp, [ref], config).score) for k, ref in enumerate(refs)]
    return pd.DataFrame(
        {
            "references": [name for name, _ in rows],
            "BLEU": [f"{s.score:.2f}" for _, s in rows],
            "p₁ … p₄": [" · ".join(f"{c}/{t}" for c, t in zip(s.counts, s.totals, strict=True)) for _, s in rows],
            "BP": [f"{s.bp:.4f}" for _, s in rows],
        }
    )


def demo_references_frame(corpus: Corpus, config: BleuConfig) -> pd.DataFrame:
    """Each system of a corpus scored against all its references and against each one alone (BLEU, 0-100),
    with the rank each setting gives it: the paper's single-reference question on the built-in demo."""
    streams = [list(r.lines) for r in corpus.references]
    settings: list[tuple[str, Sequence[Sequence[str]]]] = [(f"{len(streams)} references", streams)]
    settings += [(f"{r.name} alone", [s]) for r, s in zip(corpus.references, streams, strict=True)]
    data: dict[str, list[str]] = {"system": [s.name for s in corpus.systems]}
    for label, refs in settings:
        scores = [explain_corpus(list(s.lines), refs, config).score.score for s in corpus.systems]
        order = sorted(range(len(scores)), key=lambda i: -scores[i])
        rank = {i: k + 1 for k, i in enumerate(order)}
        data[label.split("/")[-1]] = [f"{x:.2f} (#{rank[i]})" for i, x in enumerate(scores)]
    return pd.DataFrame(data).set_index("system")


EAST_ASIA: Final = ("the East Asian economy grew quickly", "the economy of East Asia grew quickly")


def blind_spots_frame(config: BleuConfig) -> pd.DataFrame:
    """What BLEU does not see, computed: footnote 4's fluent "East Asian economy" against a reference that reads
    "economy of East Asia", and each human reference of Example 1 scored against the other two (BLEU, 0-100)."""
    rows = []
    s = explain_segment(EAST_ASIA[0], [EAST_ASIA[1]], config).score
    rows.append((f"'{EAST_ASIA[0]}' against '{EAST_ASIA[1]}'", s))
    refs = list(EXAMPLE_1.references)
    for k, ref in enumerate(refs):
        others = refs[:k] + refs[k + 1 :]
        rows.append(
            (
                f"Example 1's Reference {k + 1} (a human translation) against the other two",
                explain_segment(ref, others, config).score,
            )
        )
    return pd.DataFrame(
        {
            "candidate": [name for name, _ in rows],
            "BLEU": [f"{x.score:.2f}" for _, x in rows],
            "p₁ … p₄": [" · ".join(f"{c}/{t}" for c, t in zip(x.counts, x.totals, strict=True)) for _, x in rows],
        }
    )
