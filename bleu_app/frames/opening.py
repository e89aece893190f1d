"""The Learn page's opening (issue 20, teaching review proposal A): Example 1 before any number, then what each
candidate shares with the references, as the paper lists it (section 2) and as the engine finds it.

Plain data, no Streamlit. Everything is computed under the paper's preset (the list it is held against ignores
capitalization, section 2), whatever the sidebar says.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bleu_core.config import BleuConfig
from bleu_core.teaching.explain import SegmentExplanation, explain_segment
from bleu_core.teaching.paper import EXAMPLE_1

__all__ = ["PAPER_SHARED", "Run", "Shared", "explained", "paper_list", "shared_runs", "summary"]

# Section 2, word for word: what Candidate 1 shares with which reference (the paper's own list, in its order).
PAPER_SHARED: Final = (
    ("It is a guide to action", (1,)),
    ("which", (2,)),
    ("ensures that the military", (1,)),
    ("always", (2, 3)),
    ("commands", (1,)),
    ("of the party", (2,)),
)


@dataclass(frozen=True, slots=True)
class Shared:
    """One phrase of the paper's list and where the engine finds it.

    Attributes:
        phrase: the phrase as the paper prints it.
        paper_refs: the references the paper names (1-based).
        found_in: the references whose tokens contain the phrase's tokens in a row (1-based, computed).
    """

    phrase: str
    paper_refs: tuple[int, ...]
    found_in: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Run:
    """A stretch of the candidate: the longest run of its tokens, from here on, that one reference contains.

    Attributes:
        tokens: the run's tokens.
        refs: the references (1-based) that contain the whole run; empty for a word no reference has.
    """

    tokens: tuple[str, ...]
    refs: tuple[int, ...]


def _contains(ref: tuple[str, ...], toks: tuple[str, ...]) -> bool:
    n = len(toks)
    return n > 0 and any(ref[i : i + n] == toks for i in range(len(ref) - n + 1))


def _found_in(refs: tuple[tuple[str, ...], ...], toks: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(k + 1 for k, ref in enumerate(refs) if _contains(ref, toks))


def explained(candidate: int, config: BleuConfig | None = None) -> SegmentExplanation:
    """Example 1's candidate ``candidate`` (0 or 1) against its three references (the paper's preset by default)."""
    return explain_segment(EXAMPLE_1.candidates[candidate], list(EXAMPLE_1.references), config or BleuConfig.paper())


def paper_list(config: BleuConfig | None = None) -> tuple[Shared, ...]:
    """The paper's list with, for each phrase, the references that contain it (tokenized as the candidate is)."""
    cfg = config or BleuConfig.paper()
    refs = explained(0, cfg).ref_tokens
    out = []
    for phrase, paper_refs in PAPER_SHARED:
        toks = explain_segment(phrase, [phrase], cfg).hyp_tokens
        out.append(Shared(phrase, paper_refs, _found_in(refs, toks)))
    return tuple(out)


def shared_runs(expl: SegmentExplanation) -> tuple[Run, ...]:
    """The candidate cut into runs, left to right: at each token the longest run that some single reference
    contains (a word that no reference has is a run of its own with no references)."""
    toks, refs = expl.hyp_tokens, expl.ref_tokens
    out, i = [], 0
    while i < len(toks):
        j = i + 1
        if _found_in(refs, toks[i:j]):
            while j < len(toks) and _found_in(refs, toks[i : j + 1]):
                j += 1
        out.append(Run(tuple(toks[i:j]), _found_in(refs, toks[i:j])))
        i = j
    return tuple(out)


def summary(expl: SegmentExplanation) -> dict[str, str]:
    """The counts the reveal shows for one candidate: shared words and word pairs (clipped, as the paper counts
    them: step 2), the longest shared run and how many words no reference has."""
    runs = shared_runs(expl)
    uni, bi = expl.orders[0], expl.orders[1]
    return {
        "words in some reference (clipped)": f"{uni.matches} of {uni.total}",
        "word pairs in some reference (clipped)": f"{bi.matches} of {bi.total}",
        "longest run shared with one reference": f"{max((len(r.tokens) for r in runs if r.refs), default=0)} words",
        "words in no reference": str(sum(1 for r in runs if not r.refs)),
    }
