"""A report that travels: one self-contained HTML file of a comparison (``bleu-explorer report`` and the compare
page's download button).

Every chart is the app's own (``bleu_app.charts``) rendered to inline SVG by vl-convert, so the file needs no
script, no font and no network: it opens offline in any browser, prints, and can be mailed. Nothing is loaded
from outside (no ``src``/``href`` to another host, no ``@import``, no ``url()`` but the SVGs' own
``#fragment`` references, which are renamed per chart so that charts never clip each other). All user text
(system and corpus names, sentences) is escaped; Vega escapes the text it draws.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import altair as alt
import numpy as np
import pandas as pd

from bleu_app import markup
from bleu_app.charts import corpus as charts, human as human_charts
from bleu_app.frames import (
    agreement,
    corpus as frames,
    difference as diff_frames,
    human as human_frames,
    pair_buckets as pb_frames,
)
from bleu_app.frames.metrics import decimals, signatures
from bleu_app.frames.names import labels as short_labels
from bleu_app.frames.power import mde_html
from bleu_app.views.difference import AXIS_NOTE, difference_view, pick_pair
from bleu_app.views.pair_buckets import FREQ_NOTE, LENGTH_NOTE, PairBucketsView, pair_buckets_view
from bleu_app.views.ranking import RankingView, ranking_view
from bleu_core import __version__
from bleu_core.config import BleuConfig
from bleu_core.data.corpus import Corpus
from bleu_core.engine import ReferenceSet
from bleu_core.metrics import Bleu, Metric
from bleu_core.metrics.bleu import make_signature
from bleu_core.metrics.imported import Imported
from bleu_core.significance.families import Family
from bleu_core.significance.power import power_analysis
from bleu_core.significance.testsize import size_note
from bleu_core.significance.trials import holm_warning

__all__ = ["ReportOptions", "build_report", "corpus_matrices"]

CSS = """
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; margin: 2rem auto;
  max-width: 1100px; padding: 0 1rem; color: #1a1a1a; background: #fff; line-height: 1.45; }
h1 { font-size: 1.7rem; margin-bottom: 0.2rem; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: 0.8rem 0; font-size: 0.9rem; }
th, td { border: 1px solid #ddd; padding: 0.25rem 0.5rem; text-align: right; vertical-align: top; }
th { background: #f3f3f3; } td.name, th.name { text-align: left; } td:not(.text) { white-space: nowrap; }
td.text, th.text { text-align: left; max-width: 28rem; overflow-wrap: anywhere; }
.sig { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 0.8rem; color: #333;
  background: #f6f6f6; padding: 0.2rem 0.4rem; overflow-wrap: anywhere; }
.chart { margin: 0.8rem 0; overflow-x: auto; } .note { color: #444; font-size: 0.9rem; }
.gain { color: #00734f; } .loss { color: #b34700; } .warn { color: #b34700; font-weight: 600; }
.scroll { max-width: 100%; overflow-x: auto; }
"""


@dataclass(frozen=True, slots=True)
class ReportOptions:
    """What a report shows.

    Attributes:
        baseline: the system the others are compared with (default: the first).
        a: system A of the waterfall and the sentence list (default: the baseline).
        b: system B (default: the best-scoring other system).
        method: ``bs`` (paired bootstrap) or ``ar`` (approximate randomization) for the matrix.
        trials: resamples or shuffles.
        seed: the generator's seed.
        top: how many sentences to list.
        metrics: further metrics to report beside BLEU (chrF, TER, imported scores: ``bleu_core.metrics``), each
            with its systems table, intervals, significance matrix and ranking after BLEU's sections.
        family: which comparisons the rankings' ``*`` marks (``bleu_core.significance.families``: the CLI's
            default ``all``, ``baseline`` for ``--baseline-only``, ``consecutive``).
    """

    baseline: str | None = None
    a: str | None = None
    b: str | None = None
    method: str = "bs"
    trials: int = 1000
    seed: int = 12345
    top: int = 15
    metrics: tuple[Metric, ...] = ()
    family: Family = "all"


def corpus_matrices(corpus: Corpus, config: BleuConfig) -> dict[str, np.ndarray]:
    """Every system's statistics matrix, references counted once (what the app caches per session)."""
    refs = ReferenceSet.from_config([list(r.lines) for r in corpus.references], config)
    return {s.name: refs.stats(list(s.lines), config.max_ngram_order) for s in corpus.systems}


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _named(name: str, short: Mapping[str, str]) -> str:
    """A system's short name (the page's), escaped, with its full name on hover when they differ."""
    shown = short.get(name, name)
    return _e(shown) if shown == name else f'<span title="{_e(name)}">{_e(shown)}</span>'


def _num(x: object, fmt: str) -> str:
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "—"
    return format(x, fmt)


def _table(
    headers: Sequence[str], rows: Sequence[Sequence[str]], text_cols: Sequence[int] = (), name_col: int | None = 0
) -> str:
    """An HTML table; cells are already-escaped strings. ``name_col`` (a system name) does not wrap."""

    def cls(i: int) -> str:
        return "name" if i == name_col else ("text" if i in text_cols else "")

    head = "".join(f'<th class="{cls(i)}">{_e(h)}</th>' for i, h in enumerate(headers))
    body = "".join("<tr>" + "".join(f'<td class="{cls(i)}">{c}</td>' for i, c in enumerate(r)) + "</tr>" for r in rows)
    return f'<div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


_ID = re.compile(r'\bid="([^"]+)"')


def _svg(chart: alt.TopLevelMixin, key: str, width: int | None = 640) -> str:
    """The chart as inline SVG; its ids (clip paths, gradients) prefixed with ``key`` so charts stay apart."""
    import vl_convert as vlc

    if width is not None:
        chart = chart.properties(width=width)
    svg = str(vlc.vegalite_to_svg(chart.to_json()))
    for ident in set(_ID.findall(svg)):
        new = f"{key}-{ident}"
        svg = svg.replace(f'id="{ident}"', f'id="{new}"').replace(f"url(#{ident})", f"url(#{new})")
        svg = svg.replace(f'href="#{ident}"', f'href="#{new}"')
    return f'<div class="chart">{svg}</div>'


def _signature(sig: str) -> str:
    return f'<p>Signature: <span class="sig">{_e(sig)}</span></p>'


def build_report(
    corpus: Corpus,
    config: BleuConfig,
    options: ReportOptions = ReportOptions(),
    *,
    matrices: Mapping[str, np.ndarray] | None = None,
    significance: pd.DataFrame | None = None,
    metric_matrices: Mapping[str, Mapping[str, np.ndarray]] | None = None,
) -> str:
    """The report as one HTML document (a string).

    Args:
        corpus: the test set and its systems (at least one; the matrix and differences need two).
        config: the BLEU settings.
        options: baseline, A and B, the significance test and how many sentences to list.
        matrices: the systems' statistics matrices, if already counted (the app's cache).
        significance: the pairwise significance frame (``frames.significance_frame``) for ``options``'
            method, trials and seed, if already computed (the compare page's).
        metric_matrices: the statistics of ``options.metrics`` by metric name, if already counted (imported
            scores are read from ``corpus.scores`` otherwise).
    """
    mats = dict(matrices) if matrices is not None else corpus_matrices(corpus, config)
    names = list(corpus.names)
    baseline = options.baseline if options.baseline in names else names[0]
    nrefs = len(corpus.references)
    sig = make_signature(config, nrefs)
    ci_sig = make_signature(config, nrefs, bs=1000, rs=12345)
    method = "ar" if options.method == "ar" else "bs"
    test_sig = make_signature(config, nrefs, **{method: options.trials}, rs=options.seed)
    human = corpus.human_scores() or None
    systems = frames.system_table(mats, config, nrefs=nrefs, baseline=baseline, human=human)
    parts = _header(corpus, baseline, sig)
    # the significance matrix and the ranking it gives: every table and chart below is in score order
    view = None
    if len(names) > 1:
        if significance is None:
            p, ph, delta = frames.pairwise(
                [mats[n] for n in names], config, method=method, trials=options.trials, seed=options.seed
            )
            significance = frames.significance_frame(names, p, ph, delta)
        view = ranking_view(systems, significance, names, baseline, family=options.family)
        systems = view.systems
    parts += _systems(corpus, config, systems, baseline, view, ci_sig)
    if view is not None:
        parts += _significance(view, options, method, len(names), baseline, test_sig)
    parts += _precisions_and_bp(config, mats, baseline)
    if len(names) > 1:
        parts += _difference(corpus, config, mats, baseline, options)
    parts += _human(corpus, systems)
    further = []
    for metric in options.metrics:
        given = (metric_matrices or {}).get(metric.name)
        further.append(given or _matrices_of(corpus, metric))
        parts += _metric_section(corpus, metric, further[-1], options, method, baseline)
    parts += _agreement(len(names), [Bleu(config), *options.metrics], [mats, *further])
    parts.append("<h2>Signatures</h2><ul>")
    for what, s in (("BLEU", sig), ("95% intervals", ci_sig), *((("significance", test_sig),) if view else ())):
        parts.append(f'<li>{_e(what)}: <span class="sig">{_e(s)}</span></li>')
    parts.append("</ul></body></html>")
    return "\n".join(parts)


def _header(corpus: Corpus, baseline: str, sig: str) -> list[str]:
    named = _named(baseline, short_labels(list(corpus.names)))
    return [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>BLEU report: {_e(corpus.name)}</title>",
        f"<style>{CSS}</style></head><body>",
        f"<h1>BLEU report: {_e(corpus.name)}</h1>",
        f'<p class="note">{corpus.n_segments} segments, {len(corpus.references)} reference(s), '
        f"{len(corpus.systems)} system(s); baseline {named}. Made by bleu-explorer {_e(__version__)}; every "
        "number is exact (sacreBLEU's arithmetic) and carries its signature. This file loads nothing from outside.</p>",
        _signature(sig),
    ]


def _systems(
    corpus: Corpus, config: BleuConfig, systems: pd.DataFrame, baseline: str, view: RankingView | None, ci_sig: str
) -> list[str]:
    """The systems table (best first), their intervals as a chart, and the modified precisions."""
    human = bool(corpus.human_scores())
    short = short_labels(list(corpus.names))  # the page's names, the full ones on hover
    head = ["system", "BLEU", "95% CI", "vs baseline", "its 95% CI", "BP", "c/r"]
    if human:
        head.append(f"human ({corpus.human_label or 'score'})")
    rows = []
    for _, r in systems.iterrows():
        row = [
            _named(r[frames.SYSTEM], short) + (" (baseline)" if r[frames.SYSTEM] == baseline else ""),
            _num(r[frames.BLEU], ".2f"),
            f"[{_num(r[frames.CI_LOW], '.2f')}, {_num(r[frames.CI_HIGH], '.2f')}]",
            _num(r.get("vs baseline"), "+.2f"),
            f"[{_num(r.get(frames.VS_LOW), '+.2f')}, {_num(r.get(frames.VS_HIGH), '+.2f')}]",
            _num(r[frames.BP], ".3f"),
            _num(r[frames.RATIO], ".3f"),
        ]
        if human:
            row.append(_num(r.get(frames.HUMAN), ".4f"))
        rows.append(row)
    ci_chart = view.ci_chart if view is not None else charts.systems_ci_chart(systems, baseline, labels=short)
    order = config.max_ngram_order
    prec_rows = [
        [
            _named(r[frames.SYSTEM], short),
            *(f"{_num(r[f'p{n}'], '.2f')} ({_e(r[f'p{n} fraction'])})" for n in range(1, order + 1)),
        ]
        for _, r in systems.iterrows()
    ]
    note = size_note(corpus.n_segments, (systems[frames.CI_HIGH] - systems[frames.CI_LOW]).tolist())
    return [
        "<h2>Systems and 95% confidence intervals</h2>",
        _table(head, rows),
        f'<p class="note">Best first. Intervals: sacreBLEU\'s bootstrap, 1000 resamples of the {corpus.n_segments} '
        "segments, seed 12345.</p>",
        f'<p class="{"warn" if note.small else "note"} size-note">{_e(note.text)}</p>',
        _signature(ci_sig),
        _svg(ci_chart, "ci"),
        *_curve(view),
        "<h2>Modified precisions</h2>",
        _table(["system", *(f"p{n} % (matched/total)" for n in range(1, order + 1))], prec_rows),
    ]


def _significance(
    view: RankingView, options: ReportOptions, method: str, n_systems: int, baseline: str, test_sig: str
) -> list[str]:
    """The Holm-corrected matrix and the ranking in clusters."""
    label = "paired bootstrap" if method == "bs" else "paired approximate randomization"
    out = [
        "<h2>Which differences are significant?</h2>",
        f'<p class="note">{label}, {options.trials} trials, seed {options.seed}, Holm-corrected over '
        f"{n_systems * (n_systems - 1) // 2} pairs; * in a cell = that pair's Holm p &lt; 0.05. A significant BLEU "
        "difference says the gap is unlikely to come from which sentences were tested, not that people prefer the "
        "system.</p>",
    ]
    too_few = holm_warning(n_systems, options.trials)
    if too_few:
        out.append(f'<p class="warn">{_e(too_few)}</p>')
    return [
        *out,
        _signature(test_sig),
        _svg(view.heatmap, "sig", width=None),
        "<h3>Ranked by BLEU, in significance clusters</h3>",
        _ranking(view, baseline),
        '<p class="note">A line between two clusters: every system above it is significantly better than every '
        "system below it (Holm-corrected p &lt; 0.05). Ranks possible: the ranks a system could take given the "
        "significant pairs.</p>",
    ]


def _precisions_and_bp(config: BleuConfig, mats: Mapping[str, np.ndarray], baseline: str) -> list[str]:
    curve, points = frames.bp_frames(mats[baseline], config)
    short = short_labels(list(mats))
    return [
        "<h2>Precision decay</h2>",
        _svg(charts.precision_decay(frames.precision_frame({short[n]: m for n, m in mats.items()})), "decay", 560),
        "<h2>Brevity penalty</h2>",
        '<p class="note">c/r and BP per system are in the table above; the chart shows the baseline\'s sentences '
        "on the BP curve and its corpus point (BP uses the summed lengths, not the mean of sentence BPs).</p>",
        _svg(charts.bp_chart(curve, points).properties(title=f"Brevity penalty: {short[baseline]}"), "bp", 560),
    ]


def _human(corpus: Corpus, systems: pd.DataFrame) -> list[str]:
    """BLEU against the human scores over systems, with intervals, and the human names that match no system."""
    hframe, agree = human_frames.human_frame(systems)
    unmatched = human_frames.unmatched_human(corpus.human, corpus.names)
    out = ["<h2>BLEU against human scores</h2>"] if len(hframe) or unmatched else []
    if len(hframe):
        out.append(
            f"<p>Over {len(hframe)} systems (human score: {_e(corpus.human_label or 'as given')}); 95% intervals: "
            f"bootstrap over systems, {agree.trials} draws, seed {agree.seed}. The statistics are the ones WMT's "
            "metrics task reports at system level; the gold (the file's column) and these intervals are not "
            "mt-metrics-eval's, which resamples segments.</p>"
        )
        if agree.note:
            out.append(f"<p>{_e(agree.note)}</p>")
        else:
            rows = [
                [
                    _e(r[human_frames.STATISTIC]),
                    _num(r[human_frames.VALUE], ".3f"),
                    _num(r[frames.CI_LOW], ".3f"),
                    _num(r[frames.CI_HIGH], ".3f"),
                ]
                for _, r in human_frames.agreement_frame(agree).iterrows()
            ]
            out.append(_table(["statistic", "value", "95% low", "95% high"], rows))
        out.append(_svg(human_charts.human_chart(hframe, corpus.human_label or "human"), "human", 560))
    if unmatched:
        out.append(f"<p>Names in the human scores that match no system (not used): {_e(', '.join(unmatched))}</p>")
    return out


def _difference(
    corpus: Corpus,
    config: BleuConfig,
    mats: Mapping[str, np.ndarray],
    baseline: str,
    options: ReportOptions,
) -> list[str]:
    a, b = pick_pair(mats, config, baseline, options.a, options.b)
    view = difference_view(corpus, mats, config, baseline=baseline, a=a, b=b, unit="points", top=options.top)
    short = short_labels(list(mats))
    out = _power(config, mats, (a, b), (short[a], short[b]), len(corpus.references))
    out.append("<h2>Why do A and B differ? The difference, split exactly</h2>")
    out.append(
        '<p class="note">log(BLEU_B / BLEU_A) = (log BP_B − log BP_A) + Σ_n w_n (log p_n,B − log p_n,A), with '
        f"the precisions under {_e(config.smooth_method)} smoothing; the terms in BLEU points are the log terms "
        "times the logarithmic mean of the two scores, so they add up to the difference exactly.</p>"
    )
    out.append(_decomposition(config, mats, baseline, short))
    if view.versus is not None:
        out.append(_svg(view.versus, "vsbase"))
    if view.waterfall is not None:
        out.append(_svg(view.waterfall, "waterfall"))
        out.append(f'<p class="note">{AXIS_NOTE}</p>')
    else:
        out.append(
            f"<p>{_e(short[b])} − {_e(short[a])}: the log ratio is not finite ({_e(view.decomposition.note)}).</p>"
        )
    out.append(_signature(view.signature))
    gap = view.gap
    shares = view.shares
    out.append(f"<h2>Each sentence's share of the gap: {_e(short[b])} (B) vs {_e(short[a])} (A)</h2>")
    caption = diff_frames.gap_caption(shares.gap, len(gap), _e(short[a]), _e(short[b]), shares=shares.finite)
    out.append(
        f"<p class=\"note\">{caption} With both systems' sentence BLEU (effective order, as sacreBLEU's "
        "sentence_bleu).</p>"
    )
    if not shares.finite:
        out.append(f'<p class="note">No share of the gap is defined for this pair: {_e(shares.note)}.</p>')
    out.append(_gap_table(corpus, gap, shares=shares.finite))
    if view.curve is not None:
        out.append(_svg(view.curve, "gapcurve", 560))
    out.extend(_buckets_and_ngrams(corpus, config, mats, a, b))
    return out


def _power(
    config: BleuConfig, mats: Mapping[str, np.ndarray], pair: tuple[str, str], shown: tuple[str, str], nrefs: int
) -> list[str]:
    """The compare page's MDE line for A and B (``pair``, named as ``shown``): 1,000 resamples, seed 12345, 80%
    power (Card et al. 2020)."""
    (power,) = power_analysis(mats[pair[0]], [mats[pair[1]]], config, nrefs=nrefs)
    return [
        "<h2>How small a difference can this test set detect?</h2>",
        f'<p class="note mde">{mde_html(power, *shown)}</p>',
        _signature(power.signature),
    ]


def _decomposition(config: BleuConfig, mats: Mapping[str, np.ndarray], baseline: str, short: Mapping[str, str]) -> str:
    """Every system's difference from the baseline, split into its terms (HTML table; ``short``: the names shown)."""
    table, decs = diff_frames.decomposition_table(mats, config, baseline)
    term_names = diff_frames.term_names(config.max_ngram_order)
    head = ["system", f"− {short[baseline]}", "log ratio", *(f"{t} (points)" for t in term_names), "note"]
    rows = []
    for (_, r), d in zip(table.iterrows(), decs, strict=True):
        rows.append(
            [
                _named(r[diff_frames.SYSTEM], short),
                _num(d.bleu, "+.2f"),
                _num(d.log_ratio, "+.4f"),
                *(_num(v, "+.2f") for v in [d.points_bp, *d.points_precision_terms]),
                _e(d.note),
            ]
        )
    return _table(head, rows, text_cols=(len(head) - 1,))


def _gap_table(corpus: Corpus, gap: pd.DataFrame, *, shares: bool) -> str:
    """The sentences with the largest shares of the gap (by the leave-one-out effect when no share is defined),
    with both numbers, both scores and the texts (HTML table)."""

    def signed_cell(x: float) -> str:
        return f'<span class="{"gain" if x >= 0 else "loss"}">{_num(x, "+.3f")}</span>'

    rows = [
        [
            str(int(r[diff_frames.SEGMENT])),
            *([signed_cell(float(r[diff_frames.SHARE]))] if shares else []),
            signed_cell(float(r[diff_frames.EFFECT])),
            _num(float(r[diff_frames.BLEU_A]), ".1f"),
            _num(float(r[diff_frames.BLEU_B]), ".1f"),
            *([_e(corpus.source.lines[int(r[diff_frames.SEGMENT]) - 1])] if corpus.source is not None else []),
            _e(r["A"]),
            _e(r["B"]),
            _e(r[diff_frames.REF]),
        ]
        for _, r in gap.iterrows()
    ]
    texts = ["source"] if corpus.source is not None else []
    numbers = ["share of B − A", "without it"] if shares else ["without it"]
    head = ["segment", *numbers, "BLEU A", "BLEU B", *texts, "A", "B", "reference"]
    first_text = 3 + len(numbers)
    return _table(head, rows, text_cols=tuple(range(first_text, len(head))), name_col=None)


def _ci(low: object, high: object) -> str:
    return f"[{_num(low, '.2f')}, {_num(high, '.2f')}]"


def _pair_buckets(view: PairBucketsView, short: Mapping[str, str]) -> list[str]:
    """The A-vs-B buckets (``views.pair_buckets``): by reference length and by word frequency, with intervals."""
    a, b = _e(short[view.a]), _e(short[view.b])
    (lo_a, hi_a), (lo_b, hi_b), (lo_d, hi_d) = frames.PAIR_CI
    length_rows = [
        [
            _e(r[frames.BUCKET]),
            str(int(r[frames.COUNT])),
            _num(r[frames.BLEU_A], ".2f"),
            _ci(r[lo_a], r[hi_a]),
            _num(r[frames.BLEU_B], ".2f"),
            _ci(r[lo_b], r[hi_b]),
            _num(r[frames.B_MINUS_A], "+.2f"),
            _ci(r[lo_d], r[hi_d]),
        ]
        for _, r in view.length.iterrows()
    ]
    head = ["reference length (tokens)", "sentences", "BLEU A", "95% CI", "BLEU B", "95% CI", "B − A", "95% CI"]
    t = pb_frames
    freq_rows = [
        [
            _e(r[t.FREQ_BUCKET]),
            str(int(r[t.REF_WORDS])),
            str(int(r[t.OUT_A])),
            str(int(r[t.OUT_B])),
            _num(r[t.F_A], ".2f"),
            _ci(r[t.F_A_LOW], r[t.F_A_HIGH]),
            _num(r[t.F_B], ".2f"),
            _ci(r[t.F_B_LOW], r[t.F_B_HIGH]),
            _num(r[t.F_DIFF], "+.2f"),
            _ci(r[t.F_DIFF_LOW], r[t.F_DIFF_HIGH]),
        ]
        for _, r in view.freq.iterrows()
    ]
    freq_head = ["frequency", "reference words", "words in A", "words in B", "F A", "95% CI", "F B", "95% CI"]
    freq_head += ["B − A", "95% CI"]
    return [
        f"<h2>By reference length: {b} (B) vs {a} (A)</h2>",
        _table(head, length_rows),
        f'<p class="note">{_e(LENGTH_NOTE)}</p>',
        _signature(view.signature),
        _svg(view.length_chart, "pairlen"),
        f"<h2>By word frequency in the references: {b} (B) vs {a} (A)</h2>",
        _table(freq_head, freq_rows),
        f'<p class="note">{_e(FREQ_NOTE)}</p>',
        _svg(view.freq_chart, "pairfreq"),
    ]


def _buckets_and_ngrams(
    corpus: Corpus, config: BleuConfig, mats: Mapping[str, np.ndarray], a: str, b: str
) -> list[str]:
    """compare-mt's two views of where B and A differ: by sentence length, and the n-grams one system gets right
    more often than the other."""
    short = short_labels(list(corpus.names))
    out = _pair_buckets(pair_buckets_view(corpus, mats, config, a=a, b=b), short)
    refs = ReferenceSet.from_config(corpus.ref_streams, config)
    diff = refs.ngram_diff(list(corpus.system(a).lines), list(corpus.system(b).lines), config.max_ngram_order)
    ngrams = frames.ngram_diff(diff)
    out.append(f"<h2>n-grams one system matches more often: {_e(short[b])} (B) vs {_e(short[a])} (A)</h2>")
    if ngrams.empty:
        out.append("<p>No n-gram separates the two systems.</p>")
        return out
    out.append(
        _table(
            ["n-gram", "n", "matched by A only", "matched by B only", "log-odds z", "favours"],
            [
                [
                    _e(r[frames.NGRAM]),
                    str(int(r[frames.N])),
                    str(int(r[frames.ONLY_A])),
                    str(int(r[frames.ONLY_B])),
                    _num(float(r[frames.LOG_ODDS]), "+.2f"),
                    "A" if r[frames.FAVOURS] == "A" else "B",
                ]
                for _, r in ngrams.iterrows()
            ],
            text_cols=(0,),
            name_col=None,
        )
    )
    out.append(
        '<p class="note">Matched: an occurrence credited against the references (clipped counts), in sentences where '
        "the other system does not match it as often; z: the log-odds ratio over its standard error "
        "(Monroe et al.'s smoothed log-odds, as on the compare page).</p>"
    )
    return out


def _matrices_of(corpus: Corpus, metric: Metric) -> dict[str, np.ndarray]:
    """Every system's statistics under ``metric``: counted from the texts, or the corpus's imported scores."""
    if isinstance(metric, Imported):
        scores = next(s for s in corpus.scores if s.metric == metric)
        return {name: scores.matrix(name) for name in corpus.names}
    refs = metric.prepare(corpus.ref_streams)
    return {s.name: refs.stats(list(s.lines)) for s in corpus.systems}


def _metric_section(
    corpus: Corpus,
    metric: Metric,
    mats: Mapping[str, np.ndarray],
    options: ReportOptions,
    method: str,
    baseline: str,
) -> list[str]:
    """One further metric: its systems table (best first) with intervals and differences to the baseline, the
    interval chart, and with two systems or more its significance matrix and ranking; both signatures."""
    names, nrefs, name = list(corpus.names), len(corpus.references), metric.name
    digits = decimals(metric)
    systems = frames.system_table(mats, metric, nrefs=nrefs, baseline=baseline)
    ours, theirs = signatures(metric, nrefs, bs=1000, rs=12345)
    out = [f"<h2>{_e(name)}{'' if metric.higher_is_better else ' (lower is better)'}</h2>"]
    chart, ranking = None, []
    if len(names) > 1:
        p, ph, delta = frames.pairwise(
            [mats[n] for n in names], metric, method=method, trials=options.trials, seed=options.seed
        )
        sig_frame = frames.significance_frame(names, p, ph, delta)
        view = ranking_view(systems, sig_frame, names, baseline, metric=metric, family=options.family)
        systems, chart = view.systems, view.heatmap
        test_ours, test_theirs = signatures(metric, nrefs, **{method: options.trials}, rs=options.seed)
        ranking = [
            _svg(view.heatmap, f"sig-{_slug(name)}", width=None),
            _both_signatures(test_ours, test_theirs),
            f"<h3>Ranked by {_e(name)}, in significance clusters</h3>",
            _ranking(view, baseline),
        ]
        ci = view.ci_chart
    else:
        ci = charts.systems_ci_chart(systems, baseline, score=name, higher_is_better=metric.higher_is_better)
    rows = [
        [
            _named(r[frames.SYSTEM], short_labels(list(systems[frames.SYSTEM])))
            + (" (baseline)" if r[frames.SYSTEM] == baseline else ""),
            _num(r[name], f".{digits}f"),
            f"[{_num(r[frames.CI_LOW], f'.{digits}f')}, {_num(r[frames.CI_HIGH], f'.{digits}f')}]",
            _num(r.get(frames.VS_BASELINE), f"+.{digits}f"),
            f"[{_num(r.get(frames.VS_LOW), f'+.{digits}f')}, {_num(r.get(frames.VS_HIGH), f'+.{digits}f')}]",
        ]
        for _, r in systems.iterrows()
    ]
    out += [
        _table(["system", name, "95% CI", "vs baseline", "its 95% CI"], rows),
        _both_signatures(ours, theirs),
        _svg(ci, f"ci-{_slug(name)}"),
    ]
    return out + ranking if chart is not None else out


def _curve(view: RankingView | None) -> list[str]:
    """The learning curve when the systems are checkpoints (nothing otherwise)."""
    if view is None or view.curve is None:
        return []
    return [
        "<h3>Learning curve</h3>",
        '<p class="note">The systems\' names differ only by their numbers: checkpoints of one run, in natural '
        "order (ckpt-2 before ckpt-10), with the intervals above.</p>",
        _svg(view.curve, "curve"),
    ]


def _ranking(view: RankingView, baseline: str) -> str:
    """The ranked table with its marked column, and what the mark is."""
    table = markup.ranking_html(
        view.ranked, view.labels, baseline, score=view.score, digits=view.digits, vs=view.vs, vs_head=view.vs_head
    )
    return table + f'<p class="note">{_e(view.mark_note)}</p>'


def _both_signatures(ours: str, theirs: str | None) -> str:
    """Our signature, and sacreBLEU's for the same setting where it has one."""
    out = _signature(ours)
    return out if theirs is None else out + f'<p>sacreBLEU\'s signature: <span class="sig">{_e(theirs)}</span></p>'


def _slug(name: str) -> str:
    """A metric's name as part of an SVG id.

    Example:
        >>> _slug("chrF2++")
        'chrF2--'
    """
    return "".join(c if c.isalnum() else "-" for c in name)


def _agreement(n_systems: int, metrics: Sequence[Metric], mats: Sequence[Mapping[str, np.ndarray]]) -> list[str]:
    """The systems ranked by each metric side by side (a rank another metric gives differently marked) and
    Kendall's tau-b between every two metrics' rankings; nothing with one metric or one system."""
    if len(metrics) < 2 or n_systems < 2:
        return []
    scores = agreement.corpus_scores(metrics, mats)
    table = agreement.rank_table(scores, metrics)
    first = agreement.rank_column(metrics[0].name)
    rows = []
    for _, r in table.iterrows():
        ranks = [int(r[agreement.rank_column(m.name)]) for m in metrics]
        cells = [str(k) if k == int(r[first]) else f"<mark>{k}</mark>" for k in ranks]
        rows.append([_named(r[frames.SYSTEM], short_labels(list(table[frames.SYSTEM]))), *cells, _e(r[agreement.MOVE])])
    taus = agreement.tau_table(scores, metrics)
    tau_rows = [
        [_e(r["metric A"]), _e(r["metric B"]), _num(float(r[agreement.TAU]), ".3f")] for _, r in taus.iterrows()
    ]
    return [
        "<h2>Do the metrics rank the systems alike?</h2>",
        _table([frames.SYSTEM, *(agreement.rank_column(m.name) for m in metrics), agreement.MOVE], rows),
        f"<p>Rows in {_e(metrics[0].name)}'s order (rank 1: the best; an error rate's best is its lowest); marked: "
        "a rank another metric gives differently (▲ up, ▼ down).</p>",
        _table(["metric A", "metric B", agreement.TAU], tau_rows, name_col=None),
        "<p>Kendall's tau-b between two metrics' system rankings: 1 when they order every pair of systems alike, "
        "-1 when they reverse every pair.</p>",
    ]
