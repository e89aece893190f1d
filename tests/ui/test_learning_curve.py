"""The compare page draws the learning curve when the systems are checkpoints (issue 30), and only then."""

from __future__ import annotations

import json
from typing import Any

import pyarrow as pa

from bleu_app.ui import state
from tests.ui.conftest import open_app, uploader

SYSTEMS = {"ckpt-1000": "UF", "ckpt-2": "ICL", "ckpt-30": "Online-A", "ckpt-10": "Manifold"}
NATURAL = ["ckpt-2", "ckpt-10", "ckpt-30", "ckpt-1000"]
TITLE = "BLEU by checkpoint"


def _curves(at) -> list[Any]:
    return [c.proto for c in at.get("vega_lite_chart") if TITLE in c.proto.spec]


def _rows(proto: Any) -> list[dict[str, Any]]:
    """The chart's data as Streamlit sends it (Arrow, beside the spec)."""
    (dataset,) = proto.datasets
    return pa.ipc.open_stream(dataset.data.data).read_all().to_pylist()


def test_checkpoints_get_a_learning_curve_in_natural_order(wmt21):
    files = [("run/reference.A.de", wmt21.ref_paths[0].read_bytes(), "text/plain")]
    files += [(f"run/systems/{n}.de", wmt21.path(s).read_bytes(), "text/plain") for n, s in SYSTEMS.items()]
    at = open_app("pages/compare.py")
    assert _curves(at) == []  # the demo's systems are not checkpoints
    at.multiselect(key=state.METRICS_BOX).set_value(["bleu"]).run()
    uploader(at, "compare.in_folder").set_value(files).run()
    assert not at.exception, [e.value for e in at.exception]
    (proto,) = _curves(at)
    assert json.loads(proto.spec)["title"] == "BLEU by checkpoint, with its 95% interval"
    rows = _rows(proto)
    assert [r["system"] for r in sorted(rows, key=lambda r: r["rank"])] == NATURAL
    assert any("read as checkpoints" in c.value for c in at.caption)
