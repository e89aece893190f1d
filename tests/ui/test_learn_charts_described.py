"""Every chart on the Learn page has a text description (issue 34: charts without a text alternative on Learn): the
spec's Vega-Lite ``description``, written from the chart's own data, which Streamlit makes the chart's accessible
name (its aria-label: ``tests/browser/test_learn_slides.py`` reads it), on the page and on a presenter's slides."""

from __future__ import annotations

import json
import math
import re

from bleu_core import BleuConfig, explain_segment
from bleu_core.teaching.paper import EXAMPLE_1
from tests.ui.conftest import open_learn


def _descriptions(at) -> list[str]:
    return [json.loads(el.proto.spec).get("description", "") for el in at.get("vega_lite_chart")]


def test_every_chart_of_the_page_and_the_slides_is_described_with_its_numbers():
    pages = [open_learn(), *(open_learn(present="1", step=k) for k in ("decay", "brevity", "logdomain"))]
    seen = 0
    for at in pages:
        assert not at.exception
        for description in _descriptions(at):
            seen += 1
            assert description
            assert re.search(r"\d", description), description  # the numbers, not only the chart's kind
    assert seen >= 8  # page: 2 decay, BP, log terms; slides: 2 + 1 + 1


def test_a_description_says_what_the_chart_draws():
    at = open_learn(present="1", step="decay")
    c1 = explain_segment(EXAMPLE_1.candidates[0], list(EXAMPLE_1.references), BleuConfig.paper())
    first, second = _descriptions(at)
    for o in c1.orders:
        assert f"p{o.n} = {o.matches}/{o.total}" in first
    assert "p3 = 0/12, p4 = 0/11 are 0" in second  # Candidate 2's zero precisions, which the log axis cannot draw
    assert "marked on the floor" in second
    log = open_learn(present="1", step="logdomain")
    (alt,) = _descriptions(log)
    assert f"log BLEU = {math.log(c1.score.score / 100):.4f}" in alt
