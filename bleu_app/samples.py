"""Built-in examples for the app: the paper's Examples 1-4 as sentence samples and as a tiny corpus.

Plain data and small helpers, no Streamlit. The paper's text and expected fractions live in
``bleu_core.teaching.paper``; this module names the app's views of them (one candidate against its references).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Final

from bleu_core.data.corpus import Corpus
from bleu_core.data.readers import parse_folder
from bleu_core.teaching.paper import BEST_MATCH_EXAMPLE, EXAMPLE_1, EXAMPLES, PaperExample

__all__ = [
    "BEST_MATCH_EXAMPLE",
    "CLASSROOM_SAMPLES",
    "EXAMPLES",
    "PAPER_CORPUS",
    "SENTENCE_SAMPLES",
    "SentenceSample",
    "demo_corpus",
    "demo_files",
    "paper_corpus_streams",
    "sample",
]


@dataclass(frozen=True, slots=True)
class SentenceSample:
    """One candidate with its references, as the sentence page loads it.

    Attributes:
        key: a short id used in URLs (``ex1``, ``ex1c2``).
        label: its name in the example picker.
        hyp: the candidate.
        refs: the references.
        example: the paper example it comes from.
    """

    key: str
    label: str
    hyp: str
    refs: tuple[str, ...]
    example: PaperExample


# (URL key, label in the picker, paper example, candidate index)
_SAMPLE_TABLE: Final = (
    ("ex1", "Example 1, Candidate 1 (17/18)", "ex1", 0),
    ("ex1c2", "Example 1, Candidate 2 (8/14)", "ex1", 1),
    ("ex2", "Example 2: the the the ... (2/7)", "ex2", 0),
    ("ex3", "Example 3: 'of the' (brevity)", "ex3", 0),
    ("ex4", "Example 4, Candidate 1 (recalls every synonym)", "ex4", 0),
    ("ex4c2", "Example 4, Candidate 2", "ex4", 1),
)


def _samples() -> dict[str, SentenceSample]:
    return {
        key: SentenceSample(key, label, EXAMPLES[ex].candidates[i], EXAMPLES[ex].references, EXAMPLES[ex])
        for key, label, ex, i in _SAMPLE_TABLE
    }


SENTENCE_SAMPLES: Final[dict[str, SentenceSample]] = _samples()

# Every candidate of Examples 1-4, one segment each: a six-sentence corpus with 2-3 references per
# segment, on which every misimplementation in ``bleu_core.teaching.variants`` gives a visibly different number.
PAPER_CORPUS: Final[tuple[SentenceSample, ...]] = tuple(SENTENCE_SAMPLES.values())

# The Sentence page's one-click samples for a class (button label, candidate, references): a repetition that
# plain precision rewards, a fluent paraphrase of Example 1's Candidate 1, footnote 4's East Asian economy, and wrong
# inflections (chrF's partial credit where BLEU gives none).
CLASSROOM_SAMPLES: Final[dict[str, tuple[str, str, tuple[str, ...]]]] = {
    "repeat": ("Repetition", "the the the the", ("the cat is on the mat",)),
    "paraphrase": (
        "Paraphrase",
        "It is a guide to action that makes sure the army always follows the orders of the party.",
        EXAMPLE_1.references,
    ),
    "eastasia": (
        "East Asian economy",
        "the East Asian economy grew quickly",
        ("the economy of East Asia grew quickly",),
    ),
    # wrong inflections (made up): BLEU gives no 4-gram and 0, chrF partial credit for the shared stems
    "inflection": (
        "Wrong inflection",
        "She wrote letter to her friend every week",
        ("She writes letters to her friends every week",),
    ),
}


def sample(key: str) -> SentenceSample | None:
    """The sentence sample with this key, or None.

    Example:
        >>> sample("ex2").refs[0]
        'The cat is on the mat.'
        >>> sample("nope") is None
        True
    """
    return SENTENCE_SAMPLES.get(key)


def paper_corpus_streams(
    samples: tuple[SentenceSample, ...] = PAPER_CORPUS,
) -> tuple[tuple[str, ...], tuple[tuple[str | None, ...], ...]]:
    """The samples as sacreBLEU streams: (hypotheses, references[k][i]), padded with None.

    Example:
        >>> hyps, refs = paper_corpus_streams()
        >>> len(hyps), len(refs), refs[2][2]
        (6, 3, None)
    """
    width = max((len(s.refs) for s in samples), default=0)
    hyps = tuple(s.hyp for s in samples)
    refs = tuple(tuple(s.refs[k] if k < len(s.refs) else None for s in samples) for k in range(width))
    return hyps, refs


# --- corpus and compare: the built-in demo corpus ------------------------------------------------------

DEMO_DIR: Final = Path(__file__).resolve().parent / "demo"
DEMO_NAME: Final = "demo"


def demo_files() -> list[tuple[str, bytes]]:
    """The demo corpus as (path, bytes) pairs, the shape a folder upload has (README left out)."""
    out = []
    for path in sorted(DEMO_DIR.rglob("*")):
        if path.is_file() and path.suffix in (".txt", ".tsv"):
            out.append((f"{DEMO_NAME}/{path.relative_to(DEMO_DIR).as_posix()}", path.read_bytes()))
    return out


def demo_corpus() -> Corpus:
    """The demo: 30 English segments, two references, four systems (careful, literal, terse, chatty).

    Written for this project (see ``bleu_app/demo/README.md``); its human scores are invented ratings.
    """
    return parse_folder(demo_files())
