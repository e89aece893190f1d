"""``bleu-explorer compare``: text and JSON output, agreement with the API, input errors."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bleu_cli.cli import main
from bleu_core.engine import ReferenceSet
from bleu_core.significance import bootstrap_ci, paired_ar, paired_bootstrap


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    ref = ["the cat sat on the mat .", "a quick brown fox jumps over the dog", "hello world , how are you ?"] * 10
    base = ["the cat sat on a mat .", "a quick fox jumps over the lazy dog", "hello world how are you"] * 10
    better = ["the cat sat on the mat .", "a quick brown fox jumps over a dog", "hello world , how are you"] * 10
    out = {}
    for name, lines in (("ref.txt", ref), ("base.txt", base), ("better.txt", better), ("short.txt", base[:-1])):
        out[name] = tmp_path / name
        out[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_json_bootstrap_matches_the_api(files, capsys) -> None:
    out = _json(
        capsys,
        [
            "compare",
            str(files["ref.txt"]),
            "-i",
            str(files["base.txt"]),
            str(files["better.txt"]),
            "--json",
            "--seed",
            "5",
            "--paired-bs",
            "200",
        ],
    )
    assert (out["method"], out["trials"], out["seed"]) == ("bs", 200, 5)
    assert "|bs:200|rs:5|" in out["signature"]
    base, better = out["systems"]
    assert (base["system"], base["baseline"], base["p_value"]) == ("base.txt", True, None)
    assert better["system"] == "better.txt"
    assert not better["baseline"]
    ref_set = ReferenceSet([files["ref.txt"].read_text().split("\n")[:-1]])
    mats = [ref_set.stats(files[n].read_text().split("\n")[:-1]) for n in ("base.txt", "better.txt")]
    (want,) = paired_bootstrap(mats[0], mats[1:], n_samples=200, seed=5)
    assert better["score"] == want.score
    assert better["p_value"] == want.p_value
    assert (better["mean"], better["ci"], better["low"], better["high"]) == (
        want.mean,
        want.half_width,
        want.low,
        want.high,
    )
    assert (base["mean"], base["ci"]) == bootstrap_ci(mats[0], n_samples=200, seed=5)[:2]
    assert better["score"] > base["score"]
    assert better["p_value"] < 0.05


def test_json_ar_default_trials_and_reproducible(files, capsys) -> None:
    again = files["base.txt"].with_name("base-again.txt")  # the same name twice is refused (as in sacrebleu)
    again.write_bytes(files["base.txt"].read_bytes())
    argv = [
        "compare",
        str(files["ref.txt"]),
        "-i",
        str(files["base.txt"]),
        str(files["better.txt"]),
        str(again),
        "--json",
        "--paired-ar",
        "500",
    ]
    a, b = _json(capsys, argv), _json(capsys, argv)
    assert a == b
    assert (a["method"], a["trials"], a["seed"]) == ("ar", 500, 12345)
    assert len(a["systems"]) == 3
    assert a["systems"][2]["p_value"] == pytest.approx(1 / 501)  # the baseline against itself
    ref_set = ReferenceSet([files["ref.txt"].read_text().split("\n")[:-1]])
    mats = [ref_set.stats(files[n].read_text().split("\n")[:-1]) for n in ("base.txt", "better.txt")]
    assert a["systems"][1]["p_value"] == paired_ar(mats[0], mats[1:], n_trials=500)[0].p_value
    default = _json(capsys, argv[:-2])
    assert (default["method"], default["trials"]) == ("bs", 1000)


def test_text_table(files, capsys) -> None:
    assert (
        main(
            [
                "compare",
                str(files["ref.txt"]),
                "-i",
                str(files["base.txt"]),
                str(files["better.txt"]),
                "--paired-bs",
                "100",
                "--lowercase",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["system", "BLEU", "mean", "±", "95%", "CI", "p-value", "Holm", "p"]
    assert out[1].startswith("base.txt")
    assert out[1].endswith("(baseline)")
    assert out[2].startswith("better.txt")
    assert out[2].rstrip().endswith("*")
    assert "±" in out[2]
    assert out[-3].startswith("signature: nrefs:1|bs:100|rs:12345|case:lc|")
    assert out[-2] == "sacreBLEU signature: nrefs:1|bs:100|seed:12345|case:lc|eff:no|tok:13a|smooth:exp|version:2.6.0"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--paired-bs", "10", "--paired-ar", "10"], "not allowed with argument"),
        (["--paired-bs", "0"], "--paired-bs: must be a positive whole number"),
        (["--seed", "x"], "invalid int value"),
        (["--max-order", "12"], "--max-order"),
    ],
)
def test_option_errors_exit_2_with_one_line(files, capsys, extra: list[str], message: str) -> None:
    code = main(["compare", str(files["ref.txt"]), "-i", str(files["base.txt"]), str(files["better.txt"]), *extra])
    err = capsys.readouterr()
    assert code == 2
    assert err.out == ""
    assert err.err.count("\n") == 1, err.err
    assert message in err.err, err.err


def test_input_errors_exit_2_naming_the_file(files, capsys, tmp_path: Path) -> None:
    ref, base = str(files["ref.txt"]), str(files["base.txt"])
    cases = [
        (["-i", base], "-i: give a baseline and at least one system"),
        (["-i", base, str(files["short.txt"])], "short.txt: has 29 lines but"),
        (["-i", base, str(tmp_path / "missing.txt")], "missing.txt: no such file"),
    ]
    for argv, message in cases:
        assert main(["compare", ref, *argv]) == 2
        err = capsys.readouterr()
        assert err.out == ""
        assert err.err.count("\n") == 1, err.err
        assert message in err.err, err.err


def test_console_script_runs(files, python: str) -> None:
    proc = subprocess.run(
        [
            python,
            "-m",
            "bleu_cli",
            "compare",
            str(files["ref.txt"]),
            "-i",
            str(files["base.txt"]),
            str(files["better.txt"]),
            "--json",
            "--paired-bs",
            "50",
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["trials"] == 50


@pytest.mark.slow  # sacreBLEU's own CLI resampling WMT21, the oracle
@pytest.mark.parametrize("flag", ["--paired-bs", "--paired-ar"])
def test_sacrebleu_signature_is_what_the_sacrebleu_cli_prints(
    flag: str, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Researcher-walk W2: the line we label "sacreBLEU signature" is the one `sacrebleu --paired-ar/-bs` prints
    for the same call (its CLI, run here, is the oracle); our intervals' own draws are signed apart."""
    data = data_dir / "wmt21-news-en-de"
    ref = data / "reference.A.de"
    systems = [str(data / "systems" / n) for n in ("Facebook-AI.de", "HuaweiTSC.de")]
    n = "1000" if flag == "--paired-ar" else "100"
    sacrebleu = shutil.which("sacrebleu", path=str(Path(sys.executable).parent))
    assert sacrebleu is not None
    theirs = subprocess.run(
        [sacrebleu, str(ref), "-i", *systems, flag, f"{flag}-n", n, "-f", "text"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    expected = next(line.split(None, 2)[2] for line in theirs.splitlines() if line.startswith(" - BLEU "))
    assert main(["compare", str(ref), "-i", *systems, flag, n, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["sacrebleu_signature"]["long"] == expected
    key = "ar" if flag == "--paired-ar" else "bs"
    assert f"|{key}:{n}|" in out["signature"]
    assert "|bs:" in out["interval_signature"]


def _sacrebleu_p_values(refs: list[list[str]], named: list[tuple[str, list[str]]], test: str, n: int) -> list[float]:
    """sacreBLEU's PairedTest of every system against the first (its p-values, in order)."""
    from sacrebleu.metrics import BLEU
    from sacrebleu.significance import PairedTest

    ps = PairedTest(named, {"BLEU": BLEU(references=refs)}, references=None, test_type=test, n_samples=n)
    return [r.p_value for r in ps()[1]["BLEU"][1:]]


@pytest.mark.slow
@pytest.mark.parametrize(("flag", "n"), [("--paired-bs", 1000), ("--paired-ar", 2000)])
def test_every_p_value_is_sacrebleus_paired_test_on_wmt21(real, capsys, flag: str, n: int) -> None:
    """compare draws once for the baseline's column and the pairwise matrix (issue 31); every p-value it prints,
    against the baseline and for each pair (i, j), is what sacreBLEU's PairedTest gives j against i as baseline."""
    wmt21 = real["wmt21-news-en-de"]
    by_name = {p.name: p for p in wmt21.sys_paths}
    names = ["UEdin.de", "Online-W.de", "HuaweiTSC.de", "eTranslation.de"]
    ref = wmt21.ref_paths[0]
    out = _json(capsys, ["compare", str(ref), "-i", *(str(by_name[s]) for s in names), flag, str(n), "--json"])
    pairwise = out["pairwise"]["p_values"]
    assert [row["p_value"] for row in out["systems"][1:]] == pairwise[0][1:]  # one pass: the same numbers
    outputs = [(s, wmt21.system(by_name[s])) for s in names]
    for i in range(len(names) - 1):
        theirs = _sacrebleu_p_values([wmt21.refs()[0]], outputs[i:], flag[-2:], n)
        assert pairwise[i][i + 1 :] == theirs, (names[i], pairwise[i], theirs)
    assert any(0.01 < p < 0.99 for row in pairwise for p in row if p is not None), "pick an informative set"
