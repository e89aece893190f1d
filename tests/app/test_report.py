"""``bleu-explorer report``: one self-contained HTML file. Parsed, not grepped: nothing it references may lie
outside the file, every system and signature is in it, user text stays text."""

from __future__ import annotations

import math
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

from bleu_app.report import ReportOptions, build_report
from bleu_app.samples import demo_corpus
from bleu_cli.cli import main
from bleu_core import BleuConfig, corpus_bleu
from bleu_core.metrics.bleu import make_signature

XSS = '<img src=x onerror="alert(1)">'
SYSTEMS = ("Online-A", "Facebook-AI", "happypoet", "ICL", "UF")


class Parsed(HTMLParser):
    """Every tag, every attribute value that can load something, the text of style blocks, table rows."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.links: list[tuple[str, str, str]] = []  # (tag, attribute, value)
        self.styles: list[str] = []
        self.rows: list[list[str]] = []
        self._in_style = False
        self._cell: list[str] | None = None
        self._row: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        for k, v in attrs:
            if k in ("src", "href", "xlink:href", "action", "data", "poster", "srcset", "background") and v:
                self.links.append((tag, k, v))
            if k == "style" and v:
                self.styles.append(v)
        if tag == "style":
            self._in_style = True
        elif tag == "tr":
            self._row = []
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag == "style":
            self._in_style = False
        elif tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append("".join(self._cell).strip())
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.rows.append(self._row)
            self._row = None

    def handle_data(self, data):
        if self._in_style:
            self.styles.append(data)
        if self._cell is not None:
            self._cell.append(data)


def parse(text: str) -> Parsed:
    p = Parsed()
    p.feed(text)
    p.close()
    return p


def assert_self_contained(text: str) -> Parsed:
    p = parse(text)
    for tag, attr, value in p.links:
        assert value.startswith("#"), f"<{tag} {attr}={value!r}> points outside the file"
    for css in [*p.styles, *re.findall(r'style="([^"]*)"', text)]:
        assert "@import" not in css
    for url in re.findall(r"url\(\s*['\"]?([^)'\"]*)", text):
        assert url.startswith("#"), f"url({url}) points outside the file"
    assert not {"script", "link", "iframe", "object", "embed", "img", "audio", "video"} & set(p.tags)
    assert not re.search(r"\bimport\s*\(|\bimport\s+[\w{*]", text.split("<body", 1)[0])  # no module imports
    return p


@pytest.fixture(scope="module")
def wmt21_report(data_dir, tmp_path_factory) -> tuple[str, Path]:
    src = data_dir / "wmt21-news-en-de"
    work = tmp_path_factory.mktemp("report")
    sys_dir = work / "systems"
    sys_dir.mkdir()
    for name in SYSTEMS:
        shutil.copy(src / "systems" / f"{name}.de", sys_dir / f"{name}.de")
    hostile = [
        f"<script>alert('x')</script> {XSS} {line}"
        for line in (src / "systems" / "UEdin.de").read_text(encoding="utf-8").splitlines(keepends=True)
    ]
    (sys_dir / f"{XSS}.de").write_text("".join(hostile), encoding="utf-8")
    out = work / "report.html"
    args = ["report", str(src / "reference.A.de"), "-i", *(str(sys_dir / f"{n}.de") for n in SYSTEMS)]
    args += [str(sys_dir / f"{XSS}.de"), "-o", str(out), "--human", str(src / "human_scores.tsv"), "--b", XSS]
    args += ["--source", str(src / "source.en")]
    assert main([*args, "--paired-bs", "200"]) == 0
    return out.read_text(encoding="utf-8"), src


@pytest.mark.slow  # the 20-system WMT21 report (wmt21_report); the demo's reports below stay in make test-core
def test_report_is_self_contained(wmt21_report):
    text, _ = wmt21_report
    p = assert_self_contained(text)
    assert p.tags.count("svg") >= 7  # CIs, matrix, decay, BP, every system vs baseline, waterfall, human


@pytest.mark.slow  # the 20-system WMT21 report (wmt21_report); the demo's reports below stay in make test-core
def test_report_has_every_system_with_its_exact_score(wmt21_report):
    text, src = wmt21_report
    refs = [(src / "reference.A.de").read_text(encoding="utf-8").splitlines()]
    rows: dict[str, list[str]] = {}
    for r in parse(text).rows:  # the systems table comes first
        if r and r[0]:
            rows.setdefault(r[0].removesuffix(" (baseline)"), r)
    for name in SYSTEMS:
        hyps = (src / "systems" / f"{name}.de").read_text(encoding="utf-8").splitlines()
        assert rows[name][1] == f"{corpus_bleu(hyps, refs).score:.2f}", name
    assert XSS in rows  # the hostile name is a row, as text


@pytest.mark.slow  # the 20-system WMT21 report (wmt21_report); the demo's reports below stay in make test-core
def test_report_signatures_and_sections(wmt21_report):
    text, _ = wmt21_report
    sig = make_signature(BleuConfig(), 1)
    assert sig in text
    assert make_signature(BleuConfig(), 1, bs=200, rs=12345) in text  # the significance test's
    assert make_signature(BleuConfig(), 1, bs=1000, rs=12345) in text  # the intervals'
    for head in (
        "Systems and 95% confidence intervals",
        "Which differences are significant?",
        "Precision decay",
        "Brevity penalty",
        "Why do A and B differ? The difference, split exactly",
        "Each sentence's share of the gap",
        "BLEU against human scores",
    ):
        assert f"<h2>{head}" in text.replace("&amp;", "&"), head


@pytest.mark.slow  # the 20-system WMT21 report (wmt21_report); the demo's reports below stay in make test-core
def test_report_decomposition_and_human_correlation_are_exact(wmt21_report):
    text, src = wmt21_report
    refs = [(src / "reference.A.de").read_text(encoding="utf-8").splitlines()]
    scores = {
        n: corpus_bleu((src / "systems" / f"{n}.de").read_text(encoding="utf-8").splitlines(), refs).score
        for n in SYSTEMS
    }
    rows = parse(text).rows
    diff_rows = {r[0]: r for r in rows if len(r) > 2 and re.fullmatch(r"[+-]\d+\.\d{4}", r[2] or "")}
    for name in SYSTEMS[1:]:
        assert diff_rows[name][1] == f"{scores[name] - scores['Online-A']:+.2f}"
        assert diff_rows[name][2] == f"{math.log(scores[name] / scores['Online-A']):+.4f}"
    m = re.search(r"Over (\d+) systems", text)
    assert m is not None
    assert int(m.group(1)) == len(SYSTEMS)  # the hostile copy has no human score
    stats = {r[0]: r for r in rows if r and r[0] in ("Pearson r", "Spearman ρ", "Kendall τ-b", "pairwise accuracy")}
    assert len(stats) == 4
    assert float(stats["Pearson r"][2]) <= float(stats["Pearson r"][1]) <= float(stats["Pearson r"][3])


@pytest.mark.slow  # the 20-system WMT21 report (wmt21_report); the demo's reports below stay in make test-core
def test_user_text_is_escaped(wmt21_report):
    text, _ = wmt21_report
    p = parse(text)
    assert "script" not in p.tags
    assert "img" not in p.tags
    assert "&lt;img src=x onerror=" in text
    assert "&lt;script&gt;alert(" in text
    assert "<img" not in text
    assert "<script" not in text


@pytest.mark.slow  # over 1 s: make test runs it; test-core stays under a minute
def test_demo_report_from_the_app_options():
    corpus = demo_corpus()
    text = build_report(corpus, BleuConfig.paper(), ReportOptions(baseline="terse", a="terse", b="careful", trials=100))
    assert_self_contained(text)
    assert "terse (A) → careful (B)<" in text  # the waterfall's title, two lines (cut at 390 px on one)
    assert "not significant" in text  # the matrix legend, drawn
    assert make_signature(BleuConfig.paper(), 2, bs=100, rs=12345) in text
    for name in corpus.names:
        assert f">{name}<" in text


def test_report_bad_input_is_one_line(tmp_path, capsys):
    ref = tmp_path / "ref.txt"
    ref.write_text("a\nb\n", encoding="utf-8")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("a\n", encoding="utf-8")
    assert main(["report", str(ref), "-i", str(hyp), "-o", str(tmp_path / "r.html")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert "hyp.txt" in err[0]
    assert not (tmp_path / "r.html").exists()
    hyp.write_text("a\nb\n", encoding="utf-8")
    assert main(["report", str(ref), "-i", str(hyp), "-o", str(tmp_path / "r.html"), "--baseline", "zz"]) == 2
    assert "--baseline" in capsys.readouterr().err


@pytest.mark.slow  # over 1 s: make test runs it; test-core stays under a minute
def test_pearson_in_report_matches_numpy():
    corpus = demo_corpus()
    text = build_report(corpus, BleuConfig.paper(), ReportOptions(trials=100))
    human = corpus.human_scores()
    refs = corpus.ref_streams
    bleu = [
        corpus_bleu(list(corpus.system(n).lines), refs, tokenize="paper", lowercase=True, smooth_method="none").score
        for n in human
    ]
    r = float(np.corrcoef(bleu, list(human.values()))[0, 1])
    row = next(row for row in parse(text).rows if row and row[0] == "Pearson r")
    assert row[1] == f"{r:.3f}"


@pytest.mark.slow  # out of make test-core (the one-minute loop); make test runs it
def test_the_pages_significance_frame_gives_the_same_report():
    from bleu_app.frames import corpus as frames
    from bleu_app.report import corpus_matrices

    corpus, config = demo_corpus(), BleuConfig()
    options = ReportOptions(method="ar", trials=300, seed=7)
    mats = corpus_matrices(corpus, config)
    names = list(corpus.names)
    p, ph, delta = frames.pairwise([mats[n] for n in names], config, method="ar", trials=300, seed=7)
    given = build_report(
        corpus, config, options, matrices=mats, significance=frames.significance_frame(names, p, ph, delta)
    )
    assert given == build_report(corpus, config, options)
    assert make_signature(config, 2, ar=300, rs=7) in given


@pytest.mark.slow  # the 20-system WMT21 report (wmt21_report); the demo's reports below stay in make test-core
def test_report_ranks_in_clusters_and_shows_the_source(wmt21_report):
    """Issue 21: the ranking with its cluster lines, in score order; --source honoured (the gap sentences show
    their source line); compare-mt's two sections (length buckets, n-grams)."""
    text, src = wmt21_report
    ranking = text.split('class="bleu-ranking"', 1)[1].split("</table>", 1)[0]
    ranked = re.findall(r'<tr class="([^"]*)"><td>(\d+)</td><td>([^<]*)</td><td class="name" title="([^"]*)">', ranking)
    assert [int(r[1]) for r in ranked] == list(range(1, len(SYSTEMS) + 2))
    rows: dict[str, list[str]] = {}
    for r in parse(text).rows:  # the systems table comes first
        if r and r[0]:
            rows.setdefault(r[0].removesuffix(" (baseline)"), r)
    from html import unescape

    scores = [float(rows[unescape(r[3])][1]) for r in ranked]
    assert scores == sorted(scores, reverse=True)
    source = (src / "source.en").read_text(encoding="utf-8").splitlines()
    head = ["segment", "share of B − A", "without it", "BLEU A", "BLEU B", "source"]
    gap = next(r for r in parse(text).rows if r[:6] == head)
    assert gap
    gap_rows = [r for r in parse(text).rows if len(r) == 9 and r[0].isdigit()]
    assert len(gap_rows) >= 10
    for r in gap_rows:
        assert r[5] == source[int(r[0]) - 1].strip()
    # length buckets: bucket, sentences, BLEU A, its CI, BLEU B, its CI, B − A, its CI (issue 22.6)
    buckets = [r for r in parse(text).rows if len(r) == 8 and re.fullmatch(r"\d+(-\d+)? tokens", r[0] or "")]
    assert sum(int(r[1]) for r in buckets) == len(source)
    for r in buckets:
        assert float(r[6]) == pytest.approx(float(r[4]) - float(r[2]), abs=0.011)
        assert re.fullmatch(r"\[-?\d+\.\d\d, -?\d+\.\d\d\]", r[7])
    assert "n-grams one system matches more often" in text


@pytest.mark.slow  # sacreBLEU's TER and every chart drawn: 20 s
def test_report_with_further_metrics_gives_their_tables_matrices_and_rankings(data_dir, wmt21) -> None:
    """TER and imported MQM scores after BLEU's sections: each table sacreBLEU's (TER on the same lines) or the
    file's means, both signatures, its matrix drawn and its ranking in its metric's direction; still one
    self-contained file."""
    import sacrebleu

    from bleu_core.data.scores import parse_segment_scores
    from bleu_core.metrics import get_metric
    from tests.core.test_imported_scores import mqm_case

    corpus, tsv, floats = mqm_case(data_dir, wmt21)
    corpus = corpus.with_scores(parse_segment_scores(tsv, "mqm.tsv", corpus))
    from bleu_core.data.slices import slice_corpus

    corpus = slice_corpus(corpus, "line 1..120", "13a").corpus  # sacreBLEU's TER takes seconds a system
    ter, mqm = get_metric("ter"), corpus.scores[0].metric
    html = build_report(corpus, BleuConfig(), ReportOptions(trials=300, metrics=(ter, mqm)))
    parsed = assert_self_contained(html)
    assert "<h2>TER (lower is better)</h2>" in html
    assert "<h2>MQM</h2>" in html
    refs = [list(corpus.references[0].lines)]
    # the metrics' tables: system, score, interval, vs baseline, the difference's interval
    rows = [r for r in parsed.rows if len(r) == 5 and r[2].startswith("[")]
    base = next(r for r in rows if r[0].endswith(" (baseline)"))
    assert base[3:] == ["+0.00", "[+0.00, +0.00]"]  # the baseline against itself
    others = [r for r in rows if not r[0].endswith(" (baseline)")]
    assert all(r[4].startswith("[") and r[4] != "[—, —]" for r in others), others
    scorer = sacrebleu.metrics.TER()
    for s in corpus.systems:
        expected = scorer.corpus_score(list(s.lines), refs).score
        assert [s.name, f"{expected:.2f}"] in [[r[0].removesuffix(" (baseline)"), r[1]] for r in rows], s.name
        mean = float(floats[s.name][:120].mean())
        assert [s.name, f"{mean:.4f}"] in [[r[0].removesuffix(" (baseline)"), r[1]] for r in rows], s.name
    theirs = str(scorer.get_signature()).replace("nrefs:1|", "nrefs:1|bs:1000|seed:12345|")  # the intervals'
    assert f'sacreBLEU\'s signature: <span class="sig">{theirs}</span>' in html
    assert "Ranked by TER, in significance clusters" in html
    assert "Ranked by MQM, in significance clusters" in html
    assert html.count("<svg") >= 4 + 4  # BLEU's charts, then each metric's interval chart and matrix
