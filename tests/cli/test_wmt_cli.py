"""``score``, ``compare`` and ``report`` on a WMT XML file in place of REF and -i (issue 35): every system's score
against sacreBLEU on the same plain text, ``--ref-translator``, ``--doc-level`` against sacreBLEU on the joined
documents, ``--where origlang/domain`` against sacreBLEU's own ``filter_subset``, the MDE of ``compare`` and its
``--power``, and each malformed file as one line naming file, document and segment.

The XML files are built in the test's temporary folder from the real WMT21 en-de data (tests/wmt_files.py)."""

from __future__ import annotations

import json
import logging
import math
from pathlib import Path
from statistics import NormalDist

import pytest
from sacrebleu.metrics import BLEU

from tests.cli.conftest import Cli, one_error_line
from tests.conftest import RealSet
from tests.wmt_files import DOC, WmtSet, wmt_set, write_xml

logging.getLogger("sacrebleu").setLevel(logging.ERROR)

TOL = 1e-9


@pytest.fixture(scope="module")
def whole(wmt21: RealSet) -> WmtSet:
    return wmt_set(wmt21)


@pytest.fixture(scope="module")
def xml(whole: WmtSet, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_xml(whole, tmp_path_factory.mktemp("wmt") / "newstest2021.en-de.xml")


@pytest.fixture(scope="module")
def four(wmt21: RealSet, tmp_path_factory: pytest.TempPathFactory) -> tuple[WmtSet, Path]:
    """Four systems on the first 400 segments (16 documents): what compare's resampling can afford."""
    w = wmt_set(wmt21, systems=4, segments=400)
    return w, write_xml(w, tmp_path_factory.mktemp("wmt4") / "four.xml")


def _scores(cli: Cli, *argv: str) -> dict[str, float]:
    rc, out, err = cli("score", *argv, "--json")
    assert rc == 0, err
    return {o["system"]: o["score"] for o in json.loads(out)}


@pytest.mark.slow  # 1.3 s or more: make test runs it, the one-minute loop leaves it out
def test_every_system_from_the_xml_scores_as_sacrebleu_on_the_plain_text(cli: Cli, xml: Path, whole: WmtSet) -> None:
    ours = _scores(cli, str(xml))
    assert list(ours) == list(whole.systems)
    assert len(ours) == 20
    bleu = BLEU(references=list(whole.refs.values()))
    for name, hyps in whole.systems.items():
        assert abs(ours[name] - bleu.corpus_score(hyps, None).score) <= TOL, name


@pytest.mark.slow  # over 1 s: make test runs it; test-core stays under a minute
def test_a_translator_chosen_scores_against_that_reference_only(cli: Cli, four: tuple[WmtSet, Path]) -> None:
    w, path = four
    ours = _scores(cli, str(path), "--ref-translator", "C")
    for name, hyps in w.systems.items():
        assert abs(ours[name] - BLEU().corpus_score(hyps, [w.refs["C"]]).score) <= TOL
    rc, out, err = cli("score", str(path), "--ref-translator", "B")
    assert "no reference by translator 'B' (the file has: 'A', 'C', 'D')" in one_error_line(rc, out, err)


def test_text_output_says_what_was_read_and_signs_it(cli: Cli, four: tuple[WmtSet, Path]) -> None:
    _, path = four
    rc, out, _ = cli("score", str(path))
    assert rc == 0
    assert "input: WMT XML, en-de: 400 segments in 16 documents, 3 references (translator A, C, D of A, C, D), " in out
    assert "sacreBLEU signature: nrefs:3|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0" in out


def _joined(w: WmtSet, lines: list[str], keep: list[range]) -> list[str]:
    return [" ".join(lines[i] for i in b) for b in keep]


@pytest.mark.slow  # 1.3 s or more: make test runs it, the one-minute loop leaves it out
def test_doc_level_scores_are_sacrebleus_on_the_joined_documents(cli: Cli, four: tuple[WmtSet, Path]) -> None:
    w, path = four
    ours = _scores(cli, str(path), "--doc-level")
    blocks = w.blocks()
    refs = [_joined(w, r, blocks) for r in w.refs.values()]
    for name, hyps in w.systems.items():
        want = BLEU().corpus_score(_joined(w, hyps, blocks), refs).score
        assert abs(ours[name] - want) <= TOL
        assert ours[name] != pytest.approx(BLEU().corpus_score(hyps, list(w.refs.values())).score, abs=0.01)
    _, out, _ = cli("score", str(path), "--doc-level")
    assert "level: document level: each document one segment (its segments joined by a space: d-BLEU); 16 " in out
    _, out, _ = cli("score", str(path), "--doc-level", "--json")
    assert {o["level"] for o in json.loads(out)} == {"document"}


def _sacrebleu_subset(xml: Path, tmp: Path, monkeypatch: pytest.MonkeyPatch, **subset: str | None) -> list[int]:
    """The lines sacreBLEU's own ``filter_subset`` keeps of our file, registered as a WMT XML test set."""
    import sacrebleu.utils as su
    from sacrebleu.dataset.wmt_xml import WMTXMLDataset

    raw = tmp / "wmtx" / "raw"
    raw.mkdir(parents=True, exist_ok=True)
    (raw / xml.name).write_bytes(xml.read_bytes())
    monkeypatch.setitem(su.DATASETS, "wmtx", WMTXMLDataset("wmtx", langpairs={"en-de": [xml.name]}))
    monkeypatch.setattr(su, "SACREBLEU_DIR", str(tmp))
    n = len(WMTXMLDataset._unwrap_wmt21_or_later(str(xml))["src"])
    (kept,) = su.filter_subset([list(range(n))], "wmtx", "en-de", subset.get("origlang"), subset.get("subset"))
    return list(kept)


@pytest.mark.parametrize(
    ("where", "sacre"),
    [
        ('origlang == "de"', {"origlang": "de"}),
        ('origlang != "en"', {"origlang": "non-en"}),
        ('domain ~ "news"', {"subset": "news"}),
        ('origlang != "de" and domain ~ "news|so"', {"origlang": "non-de", "subset": "news|so"}),
    ],
)
def test_where_on_documents_keeps_what_sacrebleus_subsets_keep(
    cli: Cli,
    four: tuple[WmtSet, Path],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    where: str,
    sacre: dict[str, str],
) -> None:
    w, path = four
    kept = _sacrebleu_subset(path, tmp_path, monkeypatch, **sacre)
    assert 0 < len(kept) < 400
    ours = _scores(cli, str(path), "--where", where)
    refs = [[r[i] for i in kept] for r in w.refs.values()]
    for name, hyps in w.systems.items():
        assert abs(ours[name] - BLEU().corpus_score([hyps[i] for i in kept], refs).score) <= TOL


def test_where_doc_chooses_documents_by_id(cli: Cli, four: tuple[WmtSet, Path]) -> None:
    w, path = four
    _, out, _ = cli("score", str(path), "--where", r'doc ~ "\.00[12]$"', "--json")
    first = json.loads(out)[0]
    hyps = w.systems[first["system"]][DOC : 3 * DOC]
    want = BLEU().corpus_score(hyps, [r[DOC : 3 * DOC] for r in w.refs.values()]).score
    assert abs(first["score"] - want) <= TOL
    assert first["slice"] == r'where: doc ~ "\.00[12]$" (50 of 400 lines)'


def test_where_on_documents_of_plain_text_files_is_one_line(cli: Cli, wmt21: RealSet) -> None:
    ref, hyp = str(wmt21.ref_paths[0]), str(wmt21.sys_paths[0])
    rc, out, err = cli("score", ref, "-i", hyp, "--where", 'origlang == "de"')
    assert one_error_line(rc, out, err).startswith("--where: the expression uses documents (origlang), but this")
    rc, out, err = cli("score", ref, "-i", hyp, "--doc-level")
    assert one_error_line(rc, out, err) == "--doc-level: needs a WMT XML or JSONL file as REF (it has the documents)"


def test_compare_states_the_mde_and_the_segments_a_difference_needs(cli: Cli, four: tuple[WmtSet, Path]) -> None:
    w, path = four
    rc, out, err = cli("compare", str(path), "--json", "--power", "0.5")
    assert rc == 0, err
    run = json.loads(out)
    test_set, power = run["test_set"], run["test_set"]["power"]
    assert test_set["segments"] == 400
    assert set(test_set) >= {"widest_interval", "small", "mde"}
    z = NormalDist().inv_cdf(0.95) + NormalDist().inv_cdf(0.8)  # sacreBLEU's bootstrap is one-tailed
    scores = {row["system"]: row["score"] for row in run["systems"]}
    names = list(w.systems)
    for pair in power["pairs"]:
        assert pair["against"] == names[0]
        assert pair["difference"] == pytest.approx(scores[pair["system"]] - scores[names[0]], abs=1e-9)
        assert pair["mde"] == pytest.approx(z * pair["se"], rel=1e-12)
        assert pair["needed"] == math.ceil(400 * (pair["mde"] / 0.5) ** 2 - 1e-9)
    mdes = sorted(p["mde"] for p in power["pairs"])
    assert test_set["mde"] == pytest.approx(mdes[1])  # the median of three
    assert "Card et al. 2020" in power["citation"]
    assert "independent" in power["assumptions"]
    assert power["unit"] == "segment"
    assert power["signature"].startswith("nrefs:3|bs:1000|rs:12345|")
    rc, text, _ = cli("compare", str(path), "--power", "0.5")
    assert f"this test set detects differences of about {test_set['mde']:.2f} BLEU with 80% power" in text
    d = power["pairs"][0]
    assert f"{d['system']} − {names[0]} = {d['difference']:+.2f} (MDE {d['mde']:.2f}" in text
    assert f"to detect 0.5 BLEU with 80% power: about {power['needed']} segments (this test set has 400)" in text


def test_compare_doc_level_resamples_documents_and_says_so(cli: Cli, four: tuple[WmtSet, Path]) -> None:
    w, path = four
    rc, out, err = cli("compare", str(path), "--doc-level", "--json")
    assert rc == 0, err
    run = json.loads(out)
    assert run["level"] == "document"
    assert run["test_set"]["segments"] == 16
    assert "|block:doc|" in run["signature"]
    assert run["test_set"]["power"]["unit"] == "document"
    blocks = w.blocks()
    refs = [_joined(w, r, blocks) for r in w.refs.values()]
    for row in run["systems"]:
        want = BLEU().corpus_score(_joined(w, w.systems[row["system"]], blocks), refs).score
        assert abs(row["score"] - want) <= TOL
    rc, text, _ = cli("compare", str(path), "--doc-level")
    assert "document-block paired bootstrap (whole documents resampled), 1000 resamples" in text


@pytest.mark.slow  # 1.3 s or more: make test runs it, the one-minute loop leaves it out
def test_report_takes_the_xml(cli: Cli, four: tuple[WmtSet, Path], tmp_path: Path) -> None:
    _, path = four
    rc, out, err = cli("report", str(path), "-o", str(tmp_path / "r.html"), "--where", 'origlang == "de"')
    assert rc == 0, err
    assert out.startswith(f"wrote {tmp_path / 'r.html'} (")
    assert out.endswith(", 4 systems)\n")
    assert "where: origlang == &quot;de&quot; (" in (tmp_path / "r.html").read_text(encoding="utf-8")


def test_wmt_jsonl_segment_records_and_document_records_score_as_sacrebleu(
    cli: Cli, four: tuple[WmtSet, Path], tmp_path: Path
) -> None:
    w, _ = four
    n = 100
    # WMT24's segment records: the references and systems by name in tgt_text
    rows = [
        {
            "doc_id": f"test-en-news_{w.doc_id(i // DOC)}_#_{i}",
            "src_text": w.source[i],
            "tgt_text": {"refA": w.refs["A"][i], **{s: lines[i] for s, lines in w.systems.items()}},
        }
        for i in range(n)
    ]
    segments = tmp_path / "wmt24.jsonl"
    segments.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    ours = _scores(cli, str(segments))
    for name, hyps in w.systems.items():
        assert abs(ours[name] - BLEU().corpus_score(hyps[:n], [w.refs["A"][:n]]).score) <= TOL
    # WMT25's document records, one file per system given with -i, each document one segment here
    docs = tmp_path / "wmt25.jsonl"
    blocks = [range(d * DOC, (d + 1) * DOC) for d in range(n // DOC)]
    records = [
        {
            "doc_id": f"en-de_DE_#_news_#_d{d}",
            "src_text": "\n".join(w.source[i] for i in b),
            "src_lang": "en",
            "tgt_lang": "de_DE",
            "refs": {"refA": {"ref": "\n".join(w.refs["A"][i] for i in b)}},
        }
        for d, b in enumerate(blocks)
    ]
    docs.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in records) + "\n", encoding="utf-8")
    files = []
    for name, lines in w.systems.items():
        f = tmp_path / f"{name}.jsonl"
        hyp = [{"doc_id": r["doc_id"], "hypothesis": "\n".join(lines[i] for i in b)} for r, b in zip(records, blocks)]
        f.write_text("\n".join(json.dumps(h, ensure_ascii=False) for h in hyp) + "\n", encoding="utf-8")
        files.append(str(f))
    ours = _scores(cli, str(docs), "-i", *files)

    def clean(lines: list[str]) -> list[str]:  # one paragraph per document, its white space cleaned as sacreBLEU's
        return [" ".join(t.split()) for t in _joined(w, lines, blocks)]

    for name, hyps in w.systems.items():
        assert abs(ours[name] - BLEU().corpus_score(clean(hyps), [clean(w.refs["A"])]).score) <= TOL
    rc, out, err = cli("score", str(docs))
    assert one_error_line(rc, out, err) == f"{docs}: has no systems: give each system's JSONL file with -i"


# --- the target language and its tokenizer ------------------------------------------------------------------


def _tiny(lang: str, hyp: str = "") -> str:
    seg = '<p><seg id="1">{}</seg><seg id="2">{}</seg></p>'
    return (
        '<dataset><doc id="d1" origlang="en"><src lang="en">' + seg.format("a", "b") + "</src>"
        f'<ref lang="{lang}" translator="A">' + seg.format("我们今天去了北京。", "天气很好。") + "</ref>"
        f'<hyp system="S" lang="{lang}">'
        + (hyp or seg.format("我们今天去北京。", "天气好。"))
        + "</hyp></doc></dataset>"
    )


def test_the_target_language_picks_the_tokenizer_as_l_would(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "zh.xml"
    path.write_text(_tiny("zh"), encoding="utf-8")
    rc, out, err = cli("score", str(path), "--json")
    assert rc == 0, err
    want = BLEU(tokenize="zh").corpus_score(["我们今天去北京。", "天气好。"], [["我们今天去了北京。", "天气很好。"]])
    assert abs(json.loads(out)["score"] - want.score) <= TOL
    assert "|tok:zh|" in json.loads(out)["sacrebleu_signature"]
    rc, out, _ = cli("score", str(path), "--json", "--tokenize", "13a")  # an explicit choice wins
    assert "|tok:13a|" in json.loads(out)["sacrebleu_signature"]


def test_a_missing_optional_tokenizer_names_the_extra(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bleu_core.engine import tokenizers
    from bleu_core.errors import InputError

    real = tokenizers.get_tokenizer

    def without_mecab(name: str):  # as on a machine without the ja extra
        if name == "ja-mecab":
            raise InputError(
                "the ja-mecab tokenizer needs optional packages that are not installed (pip install "
                "'bleu-explorer[ja]')",
                "tokenize",
            )
        return real(name)

    monkeypatch.setattr(tokenizers, "get_tokenizer", without_mecab)
    path = tmp_path / "ja.xml"
    path.write_text(_tiny("ja"), encoding="utf-8")
    rc, out, err = cli("score", str(path))
    assert one_error_line(rc, out, err) == (
        f"{path}: its target language 'ja' is scored with ja-mecab, but the ja-mecab tokenizer needs optional "
        "packages that are not installed (pip install 'bleu-explorer[ja]')"
    )


# --- malformed files: one line naming file, document and segment --------------------------------------------

_GOOD = (
    '<dataset>\n<doc id="d1" origlang="en">\n<src lang="en"><p><seg id="1">a</seg><seg id="2">b</seg></p></src>\n'
    '<ref lang="de" translator="A"><p><seg id="1">x</seg><seg id="2">y</seg></p></ref>\n'
    '<hyp system="S" lang="de"><p><seg id="1">x</seg><seg id="2">y</seg></p></hyp>\n</doc>\n'
    '<doc id="d2" origlang="de">\n<src lang="en"><p><seg id="1">c</seg></p></src>\n'
    '<ref lang="de" translator="A"><p><seg id="1">z</seg></p></ref>\n'
    '<hyp system="S" lang="de"><p><seg id="1">z</seg></p></hyp>\n</doc>\n</dataset>\n'
)

BAD = {
    "unclosed tag": (
        ("</p></hyp>\n</doc>\n<doc", "</hyp>\n</doc>\n<doc"),
        ":5: <p> opened at line 5 is not closed (mismatched tag at column ",
    ),
    "segment missing from a system": (
        (
            '<hyp system="S" lang="de"><p><seg id="1">x</seg><seg id="2">y</seg>',
            '<hyp system="S" lang="de"><p><seg id="1">x</seg>',
        ),
        """:5: system 'S' has no <seg id="2"> in document 'd1'""",
    ),
    "duplicate ids": (
        ('<seg id="1">a</seg><seg id="2">b</seg>', '<seg id="1">a</seg><seg id="1">b</seg>'),
        ":3: document 'd1': two segments with id 1 in the source (lines 3 and 3)",
    ),
    "two source languages": (
        ('<src lang="en"><p><seg id="1">c</seg>', '<src lang="fr"><p><seg id="1">c</seg>'),
        ":8: two source languages ('en' at line 3, 'fr' at line 8); a WMT file holds one language pair",
    ),
    "empty document": (
        ('<src lang="en"><p><seg id="1">c</seg></p></src>', '<src lang="en"><p></p></src>'),
        ":7: document 'd2' is empty: its source has no <seg>",
    ),
    "system missing a document": (
        ('<hyp system="S" lang="de"><p><seg id="1">z</seg></p></hyp>\n', ""),
        ":7: system 'S' has no translation of document 'd2'",
    ),
}


@pytest.mark.parametrize("case", list(BAD))
def test_a_malformed_file_is_one_line_naming_file_document_and_segment(cli: Cli, tmp_path: Path, case: str) -> None:
    (old, new), message = BAD[case]
    assert old in _GOOD
    path = tmp_path / "bad.xml"
    path.write_text(_GOOD.replace(old, new, 1), encoding="utf-8")
    for command in ("score", "compare"):
        rc, out, err = cli(command, str(path))
        line = one_error_line(rc, out, err)
        assert line.startswith(f"{path}{message}"), line


def test_the_good_file_scores(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "good.xml"
    path.write_text(_GOOD, encoding="utf-8")
    rc, out, err = cli("score", str(path), "--json")
    assert rc == 0, err
    assert json.loads(out)["counts"] == BLEU().corpus_score(["x", "y", "z"], [["x", "y", "z"]]).counts == [3, 0, 0, 0]
    rc, out, err = cli("score", str(path), "-i", str(path))
    assert one_error_line(rc, out, err) == f"-i: {path} has its systems (1); give no -i beside it"


def test_a_text_file_with_seg_markup_is_refused_not_scored(cli: Cli, four: tuple[WmtSet, Path], tmp_path: Path) -> None:
    w, _ = four
    name = next(iter(w.systems))
    ref, hyp = tmp_path / "ref.de", tmp_path / "hyp.de"
    ref.write_text("".join(f"{line}\n" for line in w.refs["A"][:20]), encoding="utf-8")
    hyp.write_text("".join(f'<seg id="{i + 1}">{line}</seg>\n' for i, line in enumerate(w.systems[name][:20])))
    scored_as_text = BLEU().corpus_score(hyp.read_text(encoding="utf-8").splitlines(), [w.refs["A"][:20]]).score
    assert abs(scored_as_text - BLEU().corpus_score(w.systems[name][:20], [w.refs["A"][:20]]).score) > 1  # tags count
    rc, out, err = cli("score", str(ref), "-i", str(hyp))
    assert one_error_line(rc, out, err) == (
        f"{hyp}:1: holds markup ('<seg id=\"1\">'); scored as text the tags would count as words: give the WMT XML "
        "file itself, or remove the markup"
    )


@pytest.mark.slow  # 1.3 s or more: make test runs it, the one-minute loop leaves it out
def test_the_report_states_the_mde_of_a_and_b_as_compare_does(
    cli: Cli, four: tuple[WmtSet, Path], tmp_path: Path
) -> None:
    w, path = four
    names = list(w.systems)
    rc, out, err = cli("compare", str(path), "--json")
    assert rc == 0, err
    pairs = {p["system"]: p for p in json.loads(out)["test_set"]["power"]["pairs"]}
    refs = list(w.refs.values())
    best = max(names[1:], key=lambda s: BLEU().corpus_score(w.systems[s], refs).score)  # the report's default B
    rc, _, err = cli("report", str(path), "-o", str(tmp_path / "r.html"))
    assert rc == 0, err
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    mde, diff = pairs[best]["mde"], pairs[best]["difference"]
    assert (
        f"This test set detects differences of about <strong>{mde:.2f} BLEU</strong> with 80% power; "
        f"{best} − {names[0]} = <strong>{diff:+.2f}</strong>" in page
    )
    assert "over 1000 resamples of the 400 segments; it assumes independent segments" in page
    assert "Card et al. 2020" in page
    assert 'Signature: <span class="sig">nrefs:3|bs:1000|rs:12345|' in page


def test_the_small_test_set_note_counts_documents_under_doc_level(cli: Cli, four: tuple[WmtSet, Path]) -> None:
    _, path = four
    for command in ("compare", "score"):
        rc, text, err = cli(command, str(path), "--doc-level")
        assert rc == 0, err
        (note,) = [line for line in text.splitlines() if line.startswith("Small test set:")]
        assert note.startswith("Small test set: 16 documents (fewer than 500 scored units); widest 95% interval")
        assert "segments" not in note
