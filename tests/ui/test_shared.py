"""The Learn page's content is built once per settings for every session (``bleu_app.ui.cached``'s global caches)."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pytest
from streamlit.testing.v1 import AppTest

from bleu_app.charts import paper as paper_charts, sentence as charts
from bleu_app.frames import sentence as frames
from bleu_app.ui import cached, cached_human
from bleu_core import BleuConfig
from tests.ui.conftest import open_app

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def _session() -> AppTest:
    return open_app()


def _charts(app: AppTest) -> list[dict]:
    out = []
    for el in app.get("vega_lite_chart"):
        spec = json.loads(el.proto.spec)
        datasets = {d.name: pa.ipc.open_stream(d.data.data).read_all() for d in el.proto.datasets}
        out.append({"spec": spec, "datasets": datasets})
    return out


@pytest.fixture
def counted(monkeypatch):
    """Count the chart builders' and the explainer's calls (the costly work a session would repeat)."""
    calls = {"charts": 0, "explain": 0}

    def wrap(module, name, what):
        real = getattr(module, name)

        def counting(*a, **k):
            calls[what] += 1
            return real(*a, **k)

        monkeypatch.setattr(module, name, counting)

    for name in ("decay_chart", "log_terms_chart", "bp_curve_chart"):
        wrap(charts, name, "charts")
    wrap(paper_charts, "systems_chart", "charts")
    wrap(cached, "explain_segment", "explain")
    cached.example.clear()
    cached.decay_spec.clear()
    cached.log_terms.clear()
    cached.bp_spec.clear()
    cached_human.systems_spec.clear()
    return calls


def test_a_second_session_builds_nothing(counted):
    first = _session()
    built = dict(counted)
    assert built["charts"] == 5  # two decay charts, the log terms, the BP curve, Part II's five systems
    assert built["explain"] >= 6  # the six candidates of Examples 1-4
    second = _session()  # a new session (another student)
    assert counted == built  # served from the global caches: no chart built, nothing explained again
    drawn = _charts(second)
    assert len(drawn) == 5
    assert drawn == _charts(first)


def test_shared_charts_carry_their_data():
    app = _session()
    drawn = _charts(app)
    assert len(drawn) == 5
    decay = drawn[0]
    (table,) = decay["datasets"].values()
    # Example 1, Candidate 1 under the paper's settings: p1..p4 = 17/18, 10/17, 7/16, 4/15
    assert table.column(frames.FRACTION).to_pylist() == ["17/18", "10/17", "7/16", "4/15"]
    assert decay["spec"]["layer"][0]["mark"]["type"] == "line"
    assert all("config" not in c["spec"] or "view" not in c["spec"]["config"] for c in drawn)  # no Altair theme
    # the cached spec is not emptied by drawing it (Streamlit moves datasets out of the dict it is given)
    assert "datasets" in cached.decay_spec("ex1", BleuConfig.paper())


def test_vega_spec_is_what_altair_chart_sends():
    e = cached.example("ex3", BleuConfig.paper())
    chart = charts.bp_curve_chart(frames.bp_curve_frame(e.closest_ref_len, c_max=e.hyp_len), frames.bp_points_frame(e))
    spec = cached.vega_spec(chart)
    assert isinstance(next(iter(spec["datasets"].values())), bytes)  # Arrow already: nothing to convert per run
    assert spec["layer"][0]["mark"]["type"] == "line"
