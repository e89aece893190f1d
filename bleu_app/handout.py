"""A printable handout of the paper's worked numbers (issue 20, teaching review proposal I): Examples 1-4 and the
toy corpus, every number computed by ``bleu_core`` under the paper's preset, beside the fractions the paper
prints for them.

``handout()`` gives the numbers as data (what the tests hold against the engine and the paper); ``handout_html()``
one self-contained HTML file: no script, no stylesheet or image from anywhere, no link; every text escaped. The
Learn page offers it as a download and ``bleu-explorer handout`` writes it.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Final

from bleu_app import samples
from bleu_core import __version__
from bleu_core.config import BleuConfig
from bleu_core.engine.stats import closest_ref_len
from bleu_core.metrics.bleu import brevity_penalty, make_signature
from bleu_core.teaching.explain import SegmentExplanation, explain_corpus, explain_segment
from bleu_core.teaching.paper import BEST_MATCH_EXAMPLE, EXAMPLES, PaperExample

__all__ = ["PAPER_PRINTS", "Candidate", "Corpus", "Handout", "handout", "handout_html"]

# What the paper prints for each candidate, per order (section 2.1 and 2.2, word for word as numbers): the
# handout shows these beside the computed fractions. Example 2's bigram precision is printed as "0".
PAPER_PRINTS: Final[dict[tuple[str, int], dict[int, str]]] = {
    ("ex1", 0): {1: "17/18", 2: "10/17"},
    ("ex1", 1): {1: "8/14", 2: "1/13"},
    ("ex2", 0): {1: "2/7", 2: "0"},
    ("ex3", 0): {1: "2/2", 2: "1/1"},
}
PAPER_PLAIN: Final = {("ex2", 0): "7/7"}  # section 2.1: "its standard unigram precision is 7/7"


@dataclass(frozen=True, slots=True)
class Candidate:
    """One candidate's worked numbers.

    Attributes:
        example: the paper example's key (``ex1``).
        index: the candidate's index in it (0-based).
        text: the candidate as the paper prints it.
        fractions: per order n = 1..N, (clipped matches, candidate n-grams).
        paper: per order, what the paper prints (only where it does).
        plain: the unclipped unigram precision (matches, total).
        c: the candidate's length in tokens.
        ref_lens: the references' lengths.
        r: the best match length (the closest reference length, ties to the shorter).
        bp: the brevity penalty.
        bleu: BLEU on the paper's 0-1 scale.
    """

    example: str
    index: int
    text: str
    fractions: tuple[tuple[int, int], ...]
    paper: dict[int, str]
    plain: tuple[int, int]
    c: int
    ref_lens: tuple[int, ...]
    r: int
    bp: float
    bleu: float


@dataclass(frozen=True, slots=True)
class Corpus:
    """The toy corpus (the six candidates as one corpus): pooled fractions, lengths, BP, BLEU and the mean of the
    six sentence scores (not BLEU), all on the 0-1 scale."""

    fractions: tuple[tuple[int, int], ...]
    c: int
    r: int
    bp: float
    bleu: float
    sentence_mean: float
    signature: str


@dataclass(frozen=True, slots=True)
class Handout:
    """Everything the handout prints."""

    examples: tuple[tuple[PaperExample, tuple[Candidate, ...], str], ...]  # (example, its candidates, signature)
    best_match: tuple[tuple[int, int, float], ...]  # section 2.2.2's references 12/15/17: (c, r, BP)
    corpus: Corpus
    config: BleuConfig


def _candidate(ex: PaperExample, i: int, config: BleuConfig) -> tuple[Candidate, SegmentExplanation]:
    e = explain_segment(ex.candidates[i], list(ex.references), config)
    plain = sum(r.count for r in e.orders[0].rows if r.max_ref_count > 0), e.orders[0].total
    return Candidate(
        ex.key,
        i,
        ex.candidates[i],
        tuple((o.matches, o.total) for o in e.orders),
        PAPER_PRINTS.get((ex.key, i), {}),
        plain,
        e.hyp_len,
        tuple(e.ref_lens),
        e.closest_ref_len,
        e.score.bp,
        e.score.score / 100,
    ), e


def handout() -> Handout:
    """The worked numbers of Examples 1-4 and the toy corpus under the paper's preset."""
    config = BleuConfig.paper()
    examples = []
    for ex in EXAMPLES.values():
        cands = tuple(_candidate(ex, i, config)[0] for i in range(len(ex.candidates)))
        examples.append((ex, cands, make_signature(config, len(ex.references))))
    _, lens = BEST_MATCH_EXAMPLE
    best = []
    for c in (12, 14, 16):
        r = closest_ref_len(c, lens)
        best.append((c, r, brevity_penalty(c, r)))
    hyps, streams = samples.paper_corpus_streams()
    whole = explain_corpus(list(hyps), [list(s) for s in streams], config)
    sentences = [explain_segment(s.hyp, list(s.refs), config).score.score for s in samples.PAPER_CORPUS]
    s = whole.score
    corpus = Corpus(
        tuple((int(m), int(t)) for m, t in zip(s.counts, s.totals, strict=True)),
        int(s.sys_len),
        int(s.ref_len),
        s.bp,
        s.score / 100,
        sum(sentences) / len(sentences) / 100,
        make_signature(config, "var"),
    )
    return Handout(tuple(examples), tuple(best), corpus, config)


# --- HTML --------------------------------------------------------------------------------------------------
CSS: Final = """
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; margin: 1.5rem auto;
  max-width: 900px; padding: 0 1rem; color: #111; background: #fff; line-height: 1.4; }
h1 { font-size: 1.5rem; margin: 0 0 0.2rem; } h2 { font-size: 1.15rem; margin: 1.4rem 0 0.3rem;
  border-bottom: 1px solid #bbb; } h3 { font-size: 1rem; margin: 0.8rem 0 0.2rem; }
table { border-collapse: collapse; margin: 0.3rem 0 0.6rem; font-size: 0.92rem; }
th, td { border: 1px solid #999; padding: 0.15rem 0.5rem; text-align: right; }
th { background: #eee; } td.l, th.l { text-align: left; }
.text { font-style: italic; } .refs { margin: 0.2rem 0 0.4rem 1rem; padding: 0; font-size: 0.9rem; }
.sig { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 0.8rem; overflow-wrap: anywhere; }
.note { font-size: 0.88rem; color: #333; }
.cand, table, p { break-inside: avoid; } h2, h3 { break-after: avoid; }
@page { margin: 1.2cm 1.4cm; }
@media print { body { margin: 0; max-width: none; font-size: 10.5pt; line-height: 1.3; }
  h1 { font-size: 15pt; } h2 { font-size: 12.5pt; margin: 0.9rem 0 0.2rem; }
  h3 { font-size: 10.5pt; margin: 0.5rem 0 0.1rem; }
  table { font-size: 10pt; margin: 0.2rem 0 0.3rem; } .refs, .note { font-size: 10pt; } .sig { font-size: 9pt; }
  p { margin: 0.25rem 0; } }
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _bp(x: float) -> str:
    """BP to 4 decimals, or to 6 when it is below 0.01 (Example 3's e^-7 = 0.000912)."""
    return f"{x:.4f}" if x >= 0.01 else f"{x:.6f}"


def _frac(m: int, t: int) -> str:
    return f"{m}/{t}"


def _candidate_html(c: Candidate, label: str, ident: str) -> str:
    rows = []
    for n, (m, t) in enumerate(c.fractions, start=1):
        p = "undefined (0/0)" if t == 0 else f"{m / t:.4f}"
        rows.append(
            f"<tr><td>{n}</td><td>{m}</td><td>{t}</td><td>{_frac(m, t)}</td><td>{p}</td>"
            f"<td>{_e(c.paper.get(n, ''))}</td></tr>"
        )
    plain = ""
    if (c.example, c.index) in PAPER_PLAIN:
        plain = (
            f"<p>Plain (unclipped) unigram precision: <b>{_frac(*c.plain)}</b> "
            f"(the paper prints {_e(PAPER_PLAIN[(c.example, c.index)])}).</p>"
        )
    return (
        f'<div class="cand"><h3>{_e(label)}: <span class="text">{_e(c.text)}</span></h3>'
        f'<table id="{_e(ident)}"><thead><tr><th>n</th><th>clipped matches</th><th>candidate n-grams</th>'
        f"<th>p<sub>n</sub></th><th>value</th><th>the paper prints</th></tr></thead><tbody>{''.join(rows)}</tbody>"
        "</table>"
        f"{plain}"
        f'<p id="{_e(ident)}-bleu">c = <b>{c.c}</b> · reference lengths {_e(", ".join(map(str, c.ref_lens)))} '
        f"· r (best match length) = <b>{c.r}</b> · BP = <b>{_bp(c.bp)}</b> · BLEU = <b>{c.bleu:.4f}</b> "
        f"({100 * c.bleu:.2f} on sacreBLEU's 0-100 scale)</p></div>"
    )


def handout_html(h: Handout | None = None) -> str:
    """The handout as one self-contained, printable HTML page."""
    h = h or handout()
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>BLEU: the paper's worked numbers</title>",
        f"<style>{CSS}</style></head><body>",
        "<h1>BLEU: the paper's worked numbers</h1>",
        '<p class="note">Papineni, Roukos, Ward and Zhu (2002), <i>BLEU: a Method for Automatic Evaluation of '
        "Machine Translation</i>, ACL. Every number is computed by BLEU Explorer "
        f"{_e(__version__)} under the paper's preset: case folded (section 2.3), words split at spaces with "
        "punctuation dropped (inferred from the paper's 17/18), N = 4, uniform weights, no smoothing. The column "
        "<i>the paper prints</i> holds the paper's own figures where it gives them; BLEU is on the paper's 0-1 "
        "scale. p<sub>n</sub> = clipped matches / candidate n-grams; BP = 1 if c &gt; r, else "
        "exp(1 &minus; r/c); BLEU = BP &middot; (p<sub>1</sub> p<sub>2</sub> p<sub>3</sub> p<sub>4</sub>)"
        "<sup>1/4</sup> (section 2.3). A zero (or 0/0) precision makes BLEU 0.</p>",
    ]
    for ex, cands, sig in h.examples:
        parts.append(f'<section><h2>{_e(ex.title)}</h2><p>References:</p><ol class="refs">')
        parts.extend(f"<li>{_e(r)}</li>" for r in ex.references)
        parts.append("</ol>")
        for c in cands:
            label = f"Candidate {c.index + 1}" if len(cands) > 1 else "Candidate"
            parts.append(_candidate_html(c, label, f"{c.example}-c{c.index + 1}"))
        parts.append(f'<p class="note">Signature: <span class="sig">{_e(sig)}</span></p></section>')
    parts.append(
        "<section><h2>The best match length (section 2.2.2)</h2><p>References of 12, 15 and 17 words: r is the "
        "reference length closest to c (ties: the shorter). The paper: a terse 12-word candidate gets BP 1.</p>"
        '<table id="best-match"><thead><tr><th>c</th><th>r</th><th>BP</th></tr></thead><tbody>'
        + "".join(f"<tr><td>{c}</td><td>{r}</td><td>{_bp(bp)}</td></tr>" for c, r, bp in h.best_match)
        + "</tbody></table></section>"
    )
    k = h.corpus
    rows = "".join(
        f"<tr><td>{n}</td><td>{m}</td><td>{t}</td><td>{_frac(m, t)}</td><td>{m / t:.4f}</td></tr>"
        for n, (m, t) in enumerate(k.fractions, start=1)
    )
    parts.append(
        "<section><h2>A toy corpus: the six candidates together (section 2.1.1)</h2>"
        "<p>Not one system's output: the six candidates above as six segments, each with its own references. "
        "Counts are added over the corpus before dividing, and one BP is computed from the summed lengths.</p>"
        '<table id="corpus"><thead><tr><th>n</th><th>clipped matches</th><th>candidate n-grams</th>'
        f"<th>p<sub>n</sub></th><th>value</th></tr></thead><tbody>{rows}</tbody></table>"
        f'<p id="corpus-bleu">c = <b>{k.c}</b> · r = <b>{k.r}</b> · BP = <b>{_bp(k.bp)}</b> · corpus BLEU = '
        f"<b>{k.bleu:.4f}</b> ({100 * k.bleu:.2f}) · mean of the six sentence BLEU scores = "
        f"<b>{k.sentence_mean:.4f}</b> ({100 * k.sentence_mean:.2f}): not BLEU.</p>"
        f'<p class="note">Signature: <span class="sig">{_e(k.signature)}</span></p></section>',
    )
    parts.append(_after_html())
    parts.append("</body></html>")
    return "\n".join(parts)


def _after_html() -> str:
    """After BLEU (issue 33): chrF beside BLEU on the lecture's sentences and TER's count on Candidate 2, with
    their signatures; computed by the core as the Learn page's steps are."""
    from bleu_app.frames import after  # pandas: only when the handout is made

    config = BleuConfig.paper()
    table = after.chrf_frame(config)
    rows = "".join(  # the sentences by name only: the handout stays within three printed pages
        f"<tr><td>{_e(r.sentence)}</td><td>{_e(r.BLEU)}</td><td>{_e(r.chrF)}</td></tr>"
        for r in table.itertuples(index=False)
    )
    n = after.ter_summary()
    sigs = "".join(
        f'<p class="note">{_e(what)}: <span class="sig">{_e(sig)}</span></p>' for what, sig in after.signatures(config)
    )
    return (
        "<section><h2>After BLEU: chrF and TER (not the paper)</h2>"
        "<p>chrF (Popović, 2015): character n-grams of 1 to 6, precision and recall in an F-score weighing recall "
        "twice (sacreBLEU's defaults), beside sentence BLEU under the paper's preset.</p>"
        '<table id="after-chrf"><thead><tr><th>sentence</th><th>BLEU</th><th>chrF</th></tr>'
        f"</thead><tbody>{rows}</tbody></table>"
        f'<p id="after-ter">TER (Snover et al., 2006): Candidate 2 of Example 1 needs <b>{_e(n["edits"])}</b> edits '
        f"to become Reference {_e(n['reference'])}, over an average reference length of {_e(n['length'])} words: "
        f"TER = <b>{_e(n['ter'])}</b> (0-100 scale; lower is better).</p>{sigs}</section>"
    )
