"""Every quotation the Learn and Sentence texts put in double quotes is the paper's (or a named other source's)
text, word for word, held against the seed file (issue 20: every sentence about the paper quotes it)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SEED = next((ROOT.parent.parent / "shared" / "seeds").glob("003_*.txt"), None) or next(
    Path("/work/shared/seeds").glob("003_*.txt")
)
# quotations that are not the paper's: names of things, and the other sources the texts name
NOT_THE_PAPER = {
    "Stop Using BLEU – Neural Metrics Are Better and More Robust",  # WMT22 metrics task title (Freitag et al.)
    "Intuition Behind BLEU Score",  # Feng Li's article's title
    "commands.",  # a token, not a quote
    "commands",
    "The paper",  # the preset's name
    "East Asian economy",  # also the paper's, but split over a line in the seed
    # After BLEU (docs/learn/after_*.md): each names its source beside it
    "chrF: character n-gram F-score for automatic MT evaluation",  # Popović (2015), the paper's title
    "A Study of Translation Edit Rate with Targeted Human Annotation",  # Snover et al. (2006), the paper's title
    "Navigating the Metrics Maze: Reconciling Score Magnitudes and Accuracies",  # Kocmi et al. (2024), title
    "what point difference in metric is required between two systems for humans to notice?",  # its abstract
    "Ten years ago a single metric, BLEU, governed progress in machine translation research. For better or worse, "
    "there is no such consensus today",  # its abstract
    "To Ship or Not to Ship",  # Kocmi et al. (2021), the paper's title
    # Kocmi et al. (2021), its abstract:
    "the sole use of BLEU impeded the development of improved models leading to bad deployment decisions",
    "throw[s] away a sentence's reference n-grams whenever the hypothesis shares no character or word n-gram with "
    "any of its references. Those n-grams never make it into the corpus-level recall denominator, so the corpus "
    "score comes out too high.",  # torchmetrics issue #3480
    "so the first reference is always kept",  # torchmetrics pull request #3481
    "replacing a partly correct translation with pure garbage can *raise* the corpus score",  # issue #3480
}


def normalise(text: str) -> str:
    """The seed is a PDF's text: words broken at line ends ("ade- quacy"), curly quotes, runs of spaces."""
    text = text.replace("“", '"').replace("”", '"').replace("’", "'").replace("‘", "'")
    text = re.sub(r"(\w)- (\w)", r"\1\2", text)
    text = text.replace("na¨ıve", "naïve")
    # no spaces and no hyphens at all: the seed glues words ("matchhuman", "atest") and splits them
    # ("position- independent")
    return "".join(text.split()).replace("-", "").lower()


PAPER = normalise(SEED.read_text(encoding="utf-8"))


def quotes(text: str) -> list[str]:
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)  # code (an article's excerpt) quotes nothing
    flat = " ".join(text.split())
    return [
        q for q in re.findall(r'"([^"]*)"', flat) if len(q) >= 8
    ]  # straight quotes delimit; curly ones are the paper's own, inside


# the seed prints footnotes 5 and 6 in the middle of this sentence ("mono- 5 The geometric ... lingual")
ACROSS_A_FOOTNOTE = {
    "we obtain the best correlation with monolingual human judgments using a maximum n-gram order of 4, although "
    "3-grams and 5-grams give comparable results": (
        "we obtain the best correlation with mono-",
        "lingual human judgments using a maximum n-gram order of 4, although 3-grams and 5-grams give comparable "
        "results",
    )
}


def learn_texts() -> list[Path]:
    return sorted((ROOT / "docs" / "learn").rglob("*.md"))  # the lessons' texts (docs/learn/lessons/) too


@pytest.mark.parametrize("path", learn_texts(), ids=lambda p: str(p.relative_to(ROOT / "docs" / "learn")))
def test_every_quotation_is_in_the_paper(path: Path) -> None:
    text = path.read_text(encoding="utf-8").replace("[sic]", "")
    missing = []
    for q in quotes(text):
        if q in NOT_THE_PAPER:
            continue
        for raw in ACROSS_A_FOOTNOTE.get(q) or re.split(r"\s*…\s*", q):
            piece = raw.strip(" .")
            if piece and normalise(piece) not in PAPER:
                missing.append(piece)
    assert not missing, f"{path.name}: not in the paper: {missing}"


def test_the_check_can_fail() -> None:
    assert normalise("a weighted linear average ignores the decay") not in PAPER
    assert normalise("case folding is the only text normalization performed") in PAPER
