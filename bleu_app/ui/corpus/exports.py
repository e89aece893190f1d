"""The compare page's downloads: the systems table and every chosen metric's significance matrix as CSV (with their
signatures), each metric's ranking and BLEU's table as LaTeX, and each metric's charts as PNG, SVG or HTML."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import partial

import altair as alt
import pandas as pd

from bleu_app.charts import style
from bleu_app.frames import corpus as corpus_frames, metrics as metric_frames
from bleu_app.frames.names import with_short_names
from bleu_app.ui import cached
from bleu_app.ui.components import export
from bleu_app.ui.components.export import Item
from bleu_app.ui.corpus.metrics import MetricResult
from bleu_core.config import BleuConfig
from bleu_core.data.corpus import Corpus
from bleu_core.metrics import Bleu
from bleu_core.metrics.bleu import make_signature

METRIC = "metric"  # the significance CSV's column naming each row's metric


def section(
    corpus: Corpus,
    config: BleuConfig,
    found: Sequence[MetricResult],
    baseline: str,
    views: tuple[pd.DataFrame, pd.DataFrame, alt.TopLevelMixin, alt.TopLevelMixin],
    test: tuple[str, int, int],
) -> None:
    """The downloads. ``views``: the A-vs-B sentences, the n-gram differences, the scatter and the precision bars
    as shown (BLEU's); ``test``: the significance test's method, trials and seed. Everything a button writes is
    read here: Streamlit runs the buttons' callables in another thread, where a session's cache may not be read."""
    pairs, ngrams, scatter, bars = views
    method, trials, seed = test
    nrefs = cached.nrefs(corpus)
    sig_text = make_signature(config, nrefs)

    def ci_sig(r: MetricResult) -> str:
        return r.shown.metric.signature(nrefs, bs=cached.CI_DRAWS, rs=cached.DEFAULT_SEED)

    def test_sig(r: MetricResult) -> str:
        return r.shown.metric.signature(nrefs, **{method: trials}, rs=seed)

    short = found[0].view.labels  # the names of the page's charts; the full ones in a column beside them
    table = with_short_names(
        metric_frames.side_by_side([(r.shown.metric, r.systems) for r in found], found[0].view.order), short
    )
    every_ci = [
        metric_frames.signed(r.shown.metric, nrefs, {"bs": cached.CI_DRAWS, "rs": cached.DEFAULT_SEED}) for r in found
    ]
    every_test = [metric_frames.signed(r.shown.metric, nrefs, {method: trials, "rs": seed}) for r in found]
    sentence = [metric_frames.signed(Bleu(replace(config, use_effective_order=True)), nrefs, what="sentence BLEU")]
    counts = [metric_frames.signed(Bleu(config), nrefs, what="n-gram counts")]
    matrices = pd.concat([r.significance.assign(**{METRIC: r.shown.name}) for r in found], ignore_index=True)
    matrices = matrices[[METRIC, *[c for c in matrices.columns if c != METRIC]]]
    matrices = with_short_names(matrices, short, (corpus_frames.ROW, corpus_frames.COL))
    csvs: dict[str, Item] = {
        "systems": (lambda: export.csv(table, every_ci), "systems.csv", "text/csv"),
        "significance": (lambda: export.csv(matrices, every_test), "significance.csv", "text/csv"),
        "A vs B": (lambda: export.csv(pairs, sentence), "sentences_a_vs_b.csv", "text/csv"),
        "n-grams": (lambda: export.csv(ngrams, counts), "ngrams.csv", "text/csv"),
    }
    export.downloads("CSV:", csvs, "compare.csv")
    latex = _latex(found, baseline, every_test, sig_text)
    export.downloads("LaTeX:", latex, "compare.tex")
    items = _charts(found, ci_sig, test_sig, (bars, scatter), sig_text)
    export.downloads("Chart:", items, "compare.chart")
    every = {f"CSV: {k}": v for k, v in csvs.items()} | {f"LaTeX: {k}": v for k, v in latex.items()}
    every |= {f"Chart: {k}": v for k, v in items.items() if not k.endswith(" PNG")}  # the SVGs: the PNGs' vectors
    signed = [
        *(replace(s, what=f"{s.what} (95% intervals)") for s in every_ci),
        *(replace(s, what=f"{s.what} (the paired test)") for s in every_test),
        *sentence,
        *counts,
    ]
    size = (len(corpus.systems), corpus.n_segments, nrefs)
    readme = bundle_readme(size, baseline, test, found[0].view.mark_note, every, signed)
    zipped: Item = (lambda: export.zip_bundle(every, readme), "compare.zip", "application/zip")
    export.downloads("Everything:", {"zip": zipped}, "compare.zip")


def _charts(
    found: Sequence[MetricResult],
    ci_sig: Callable[[MetricResult], str],
    test_sig: Callable[[MetricResult], str],
    bleu_charts: tuple[alt.TopLevelMixin, alt.TopLevelMixin],
    sig_text: str,
) -> dict[str, Item]:
    """Each metric's interval chart and matrix (PNG and SVG, each with its signature), BLEU's precision bars and the
    A-vs-B scatter (HTML)."""
    bars, scatter = bleu_charts
    items: dict[str, Item] = {}
    for r in found:
        stem = _file_stem(r.shown.name)
        suffix = "" if r.shown.is_bleu else f" ({r.shown.name})"
        ci, matrix = r.view.ci_chart, r.view.heatmap
        items |= _chart_items(f"CIs{suffix}", ci, ci_sig(r), "bleu_ci" if r.shown.is_bleu else f"{stem}_ci")
        matrix_file = "significance" if r.shown.is_bleu else f"{stem}_significance"
        items |= _chart_items(f"matrix{suffix}", matrix, test_sig(r), matrix_file)
    items["precisions HTML"] = (lambda: style.export(bars, "html", sig_text), "precisions.html", "text/html")
    items["scatter HTML"] = (lambda: style.export(scatter, "html", sig_text), "scatter.html", "text/html")
    return items


def bundle_readme(
    size: tuple[int, int, int],
    baseline: str,
    test: tuple[str, int, int],
    marks: str,
    files: Mapping[str, Item],
    signed: Sequence[metric_frames.Signed],
) -> str:
    """The zip's README.txt: what was compared (``size``: systems, segments, references) and how (``marks``: what
    the rankings' ``*`` is, as the page says), each file, and every signature of the numbers in them (the files
    carry theirs too). The baseline's name is the corpus's, as plain text.

    Example:
        >>> sig = metric_frames.Signed("BLEU", "nrefs:1|bs:1000", "nrefs:1|bs:1000|v:2")
        >>> files = {"s": (str, "systems.csv", "")}
        >>> text = bundle_readme((2, 2, 1), "x", ("bs", 1000, 12345), "* = p < 0.05", files, [sig])
        >>> print(text.split("Files:")[0].strip())
        BLEU Explorer, Compare: 2 systems (baseline x), 2 segments, 1 reference.
        Test: paired bootstrap, 1000 trials, seed 12345. * = p < 0.05
    """
    method, trials, seed = test
    systems, segments, refs = size
    tests = {"bs": "paired bootstrap", "ar": "paired approximate randomization"}
    lines = [
        f"BLEU Explorer, Compare: {systems} systems (baseline {baseline}), {segments} segments, "
        f"{refs} reference{'s' if refs != 1 else ''}.",
        f"Test: {tests.get(method, method)}, {trials} trials, seed {seed}. {marks}",
        "",
        "Files:",
        *(f"  {file_name:<28} {label}" for label, (_, file_name, _) in files.items()),
        "",
        "Signatures (each CSV has its numbers' own in its last two columns, each chart and LaTeX table in its text):",
    ]
    for s in signed:
        lines.append(f"  {s.what}: {s.ours}")
        lines.append(f"  {s.what}, sacreBLEU: {s.sacrebleu_cell}")
    return "\n".join(lines) + "\n"


def _latex(
    found: Sequence[MetricResult], baseline: str, tests: Sequence[metric_frames.Signed], sig: str
) -> dict[str, Item]:
    """Each shown metric's ranking (the CLI's ``compare --latex`` table, its test's two signatures in the caption)
    and BLEU's comparison table (its BP and precisions) when BLEU is shown."""
    items: dict[str, Item] = {}
    for r, test_sig in zip(found, tests, strict=True):
        name, view = r.shown.name, r.view
        label = "ranking" if r.shown.is_bleu else f"ranking ({name})"
        tex = partial(export.ranking_latex, view, baseline, test_sig, metric=name)
        items[label] = (tex, "ranking.tex" if r.shown.is_bleu else f"{_file_stem(name)}_ranking.tex", "text/x-tex")
    bleu = next((r for r in found if r.shown.is_bleu), None)
    if bleu is not None:
        systems = with_short_names(bleu.view.systems, bleu.view.labels)
        items["table"] = (lambda: export.latex_table(systems, signature=sig), "comparison.tex", "text/x-tex")
    return items


def _chart_items(what: str, chart: alt.TopLevelMixin, sig: str, stem: str) -> dict[str, Item]:
    return {
        f"{what} PNG": (lambda: style.export(chart, "png", sig), f"{stem}.png", "image/png"),
        f"{what} SVG": (lambda: style.export(chart, "svg", sig), f"{stem}.svg", "image/svg+xml"),
    }


def _file_stem(name: str) -> str:
    """A metric's name as part of a file name (letters, digits, ``+``, ``-``).

    Example:
        >>> _file_stem("chrF2++"), _file_stem("da z/1")
        ('chrF2++', 'da_z_1')
    """
    return "".join(c if c.isalnum() or c in "+-" else "_" for c in name) or "metric"
