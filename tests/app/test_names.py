"""Short display names: what all names share goes; what tells systems apart stays, distinct and non-empty."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings, strategies as st

from bleu_app.frames.names import short_names
from tests.conftest import examples

DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"


def test_wmt_file_names() -> None:
    files = sorted(p.name for p in (DATA / "wmt21-news-en-de" / "systems").iterdir())
    short = short_names(files)
    assert "Online-A" in short
    assert "Facebook-AI" in short
    assert not any(s.endswith(".de") for s in short)
    wmt17 = [f"newstest2017.{s}.0.en-de" for s in ("online-A", "online-B", "uedin-nmt", "KIT", "LMU-nmt-reranked")]
    assert short_names(wmt17) == ["online-A", "online-B", "uedin-nmt", "KIT", "LMU-nmt-reranked"]


@settings(max_examples=examples(300), deadline=None, derandomize=True)
@given(
    st.lists(st.text(alphabet=st.sampled_from("ab.-_ 1"), min_size=1, max_size=12), min_size=1, max_size=6, unique=True)
)
def test_short_names_stay_distinct_parts_of_the_names(names: list[str]) -> None:
    short = short_names(names)
    assert len(short) == len(names)
    assert len(set(short)) == len(short)
    for s, n in zip(short, names, strict=True):
        assert s
        assert s in n
