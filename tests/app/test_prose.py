"""The app's prose reader (``bleu_app.prose``): the lessons' texts come back from Markdown exactly as written, with
their computed numbers filled in and their step references left for the page."""

from __future__ import annotations

import pytest

from bleu_app import prose
from bleu_app.lessons import spot

LESSONS = ("cards", "exercise", "lab", "opening", "quiz", "spot")


@pytest.mark.parametrize("name", LESSONS)
def test_every_lesson_file_reads_into_entries_with_text_in_every_field(name: str) -> None:
    entries = prose.entries(name)
    assert entries
    for key, fields in entries.items():
        assert fields, key
        assert all(value.strip() for value in fields.values()), key
        assert not any("\n### " in value or value.startswith("## ") for value in fields.values()), key


def test_a_code_excerpt_keeps_its_lines_and_indentation() -> None:
    text = spot.SPOTS["count"].text
    assert text.startswith("        for ngram in pred_ngram:\n")  # the article's indentation, as printed
    assert text.count("\n") == 3
    assert "```" not in text


def test_prose_is_joined_into_paragraphs_and_slots_are_filled() -> None:
    assert prose.paragraphs("a\nb\n\n  c\n") == "a b\n\nc"
    assert prose.fill("{a} and {step:zero}", a=1) == "1 and {step:zero}"
    with pytest.raises(KeyError):
        prose.fill("{missing}")
    with pytest.raises(KeyError):
        prose.entries("spot")["nosuchexcerpt"]
    assert prose.quotes('- 2.2.2: "the "best match length.""') == (("2.2.2", 'the "best match length."'),)
