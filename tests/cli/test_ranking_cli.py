"""`bleu-explorer compare`: the ranking into significance clusters, the one trial policy, sacreBLEU's own
signature and the LaTeX table, on 16 WMT21 en-de systems."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from bleu_cli.cli import main
from tests.conftest import DATA, compile_latex
from tests.core.test_ranking import _check_rule

WMT21 = DATA / "wmt21-news-en-de"
SYSTEMS = sorted((WMT21 / "systems").glob("*.de"))[:16]


def _run(capsys, *extra: str) -> tuple[int, str, str]:
    rc = main(["compare", str(WMT21 / "reference.A.de"), "-i", *map(str, SYSTEMS), *extra])
    out = capsys.readouterr()
    return rc, out.out, out.err


@pytest.fixture(scope="module")
def default_json():
    import contextlib
    import io

    buf, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(err):
        rc = main(["compare", str(WMT21 / "reference.A.de"), "-i", *map(str, SYSTEMS), "--json"])
    assert rc == 0
    return json.loads(buf.getvalue()), err.getvalue()


def test_default_trials_let_holm_reach_alpha_and_clusters_follow_the_matrix(default_json) -> None:
    out, err = default_json
    assert out["trials"] == 5000  # 120 pairs: 1000 draws would floor Holm at 0.120
    assert out["warning"] is None
    assert err == ""
    holm = [[float("nan") if v is None else v for v in row] for row in out["pairwise"]["holm"]]
    scores = [s["score"] for s in out["systems"]]
    from bleu_core.significance.ranking import rank_systems

    ranking = rank_systems([s["system"] for s in out["systems"]], scores, holm, out["alpha"])
    _check_rule(ranking, scores, holm, out["alpha"])
    for s, placed in zip(out["systems"], sorted(ranking.systems, key=lambda r: r.index), strict=True):
        assert (s["rank"], tuple(s["rank_range"]), s["cluster"]) == (placed.rank, placed.rank_range, placed.cluster)
    assert 1 < max(s["cluster"] for s in out["systems"]) < 16
    # the baseline's row of the pairwise matrix is the paired test against the baseline (same draws)
    for j, s in enumerate(out["systems"][1:], start=1):
        assert out["pairwise"]["p_values"][0][j] == pytest.approx(s["p_value"], abs=1e-12)
    smallest = min(v for row in out["pairwise"]["holm"] for v in row if v is not None)
    assert smallest < 0.05


def test_explicit_trials_are_kept_and_warned_about(capsys) -> None:
    rc, out, err = _run(capsys, "--paired-bs", "1000")
    assert rc == 0
    assert "paired bootstrap, 1000 resamples" in out
    assert err.startswith("bleu-explorer: warning: With 16 systems (120 pairs) and 1000 trials")
    assert "use at least 2400 trials" in err
    text_ranks = re.findall(r"^\s+(\d+)\s+(\d+(?:-\d+)?)\s+(\S+)\s+(\d+\.\d\d)$", out, re.M)
    assert [int(r[0]) for r in text_ranks] == list(range(1, 17))


@pytest.mark.slow  # sacreBLEU's own CLI resampling WMT21, the oracle
def test_sacrebleu_signature_is_what_sacrebleu_prints(capsys, python: str) -> None:
    two = [str(SYSTEMS[0]), str(SYSTEMS[1])]
    rc = main(["compare", str(WMT21 / "reference.A.de"), "-i", *two, "--paired-bs", "1000"])
    ours = capsys.readouterr().out
    assert rc == 0
    sacrebleu = Path(python).parent / "sacrebleu"
    theirs = subprocess.run(
        [str(sacrebleu), str(WMT21 / "reference.A.de"), "-i", *two, "--paired-bs", "-m", "bleu", "-f", "text"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    expected = re.search(r"- BLEU\s+(\S+)", theirs)
    assert expected is not None
    assert f"sacreBLEU signature: {expected.group(1)}\n" in ours


@pytest.mark.slow  # out of make test-core (the one-minute loop); make test runs it
def test_paper_tokenizer_has_no_sacrebleu_signature(capsys) -> None:
    rc, out, _ = _run(capsys, "--preset", "paper", "--paired-bs", "5000")
    assert rc == 0
    assert re.search(r"^sacreBLEU signature: none \(.+\)$", out, re.M)


@pytest.fixture(scope="module")
def latex() -> str:
    """The 16 systems' ranking as ``--latex -`` prints it (once for the tests below)."""
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        rc = main(["compare", str(WMT21 / "reference.A.de"), "-i", *map(str, SYSTEMS), "--latex", "-"])
    assert rc == 0
    return buf.getvalue()


def test_latex_table(latex: str) -> None:
    assert latex.startswith("\\begin{table}")
    body = latex.split("\\toprule")[1].split("\\bottomrule", maxsplit=1)[0]
    assert len([ln for ln in body.splitlines() if ln.endswith("\\\\")]) == 17  # header + 16 systems
    assert "& BUPT\\_rush &" in latex  # the name without what every name shares (.de)


@pytest.mark.tex
def test_latex_table_compiles(latex: str, tmp_path: Path) -> None:
    compile_latex(latex, tmp_path)


def test_bad_alpha_is_one_line(capsys) -> None:
    rc, _, err = _run(capsys, "--alpha", "2")
    assert rc == 2
    assert err == "bleu-explorer: error: --alpha: must be between 0 and 1, got 2.0\n"
