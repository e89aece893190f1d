"""What ``bleu-explorer compare`` prints: the text, our JSON, sacreBLEU's JSON (``-f json``) and the LaTeX tables,
from one :class:`~bleu_cli.compare_run.Run`. Every form marks the same test (the run's family) and says which."""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bleu_core.errors import InputError

from .files import write_text
from .power_out import print_power, test_set_json
from .sacrebleu_format import paired_json
from .slicing import warn
from .wmt_input import DOC_LEVEL

if TYPE_CHECKING:
    from bleu_core.significance import SystemsComparison
    from bleu_core.significance.families import FamilyTest
    from bleu_core.significance.ranking import Ranking

    from .compare_run import MetricResult, Run

__all__ = ["display_names", "json_text", "print_text", "rows", "sacrebleu_json", "write_latex"]


def rows(
    names: Sequence[str],
    both: SystemsComparison,
    tested: FamilyTest,
    ranking: Ranking,
    differences: Sequence[Any],
    *,
    clusters: bool,
) -> list[dict[str, Any]]:
    """One row per system (display order): score, interval, its comparison's raw and Holm-corrected p-value and
    mark, rank (and, with clusters, its range and cluster), BLEU's decomposition."""
    comparison = both.against_baseline
    place = {s.index: s for s in ranking.systems}
    decomposed = iter(differences)
    out: list[dict[str, Any]] = []
    for j, name in enumerate(names):
        ci = comparison.baseline_ci if j == 0 else _interval(comparison.results[j - 1])
        mean, half, low, high = ci if ci is not None else (math.nan,) * 4
        against = tested.against[j]
        row: dict[str, Any] = {
            "system": name,
            "baseline": j == 0 and tested.family != "consecutive",
            "score": both.pairwise.scores[j],
            "mean": mean,
            "ci": half,
            "low": low,
            "high": high,
            "against": None if against is None else names[against],
            "p_value": tested.raw[j],
            "p_holm": tested.adjusted[j],
            "significant": tested.marked(j),
            "rank": place[j].rank,
            "rank_range": list(place[j].rank_range) if clusters else None,
            "cluster": place[j].cluster if clusters else None,
        }
        if against is not None and differences:
            row["difference"] = next(decomposed).to_dict()
        out.append(row)
    return out


def _interval(r: Any) -> tuple[float, float, float, float]:
    return (r.mean, r.half_width, r.low, r.high)


def _nulls(matrix: Sequence[Sequence[float]]) -> list[list[float | None]]:
    """JSON has no NaN: the diagonal (no test of a system with itself) is null."""
    return [[None if math.isnan(v) else v for v in row] for row in matrix]


def _clean(value: Any) -> Any:
    return None if isinstance(value, float) and math.isnan(value) else value


def _sacre(result: MetricResult, run: Run) -> tuple[str | None, str | None, str | None]:
    """sacreBLEU's signature of the paired test (long, short), or why it has none. Its CLI computes no interval
    in AR mode, so no ``bs:`` key there (researcher-walk W2)."""
    from collections.abc import Callable

    sign: Callable[..., str | None] = result.metric.sacrebleu_signature
    long = sign(result.nrefs, test=run.method, trials=run.trials, seed=run.seed)
    if long is not None:
        return long, sign(result.nrefs, test=run.method, trials=run.trials, seed=run.seed, short=True), None
    from bleu_core.metrics.signature import sacrebleu_signature

    config = getattr(result.metric, "config", None)
    why = sacrebleu_signature(config, result.nrefs).why_none if config is not None else "no sacreBLEU setting"
    return None, None, why


def _with_delta(rows_: Sequence[dict[str, Any]], fitted: str | None) -> list[dict[str, Any]]:
    """Each system's row with its difference from the baseline (the first system) and the share of human judges
    expected to agree with a difference that size (Kocmi et al. 2024; null where the metric was not fitted)."""
    from bleu_core.significance.thresholds import human_accuracy

    base = rows_[0]["score"]
    out = []
    for j, row in enumerate(rows_):
        delta = None if j == 0 else row["score"] - base
        accuracy = None if delta is None or fitted is None else human_accuracy(delta, fitted)
        out.append({**{k: _clean(v) for k, v in row.items()}, "delta": delta, "human_accuracy": accuracy})
    return out


def _metric_json(result: MetricResult, run: Run) -> dict[str, Any]:
    from bleu_core.significance.thresholds import fitted_as

    long, short, why = _sacre(result, run)
    fitted = fitted_as(result.metric.sacrebleu_name, result.metric.name)
    pairwise = result.both.pairwise
    bs = run.method == "bs"
    return {
        "name": result.metric.name,
        "higher_is_better": result.metric.higher_is_better,
        "signature": result.both.against_baseline.signature,
        "interval_signature": result.metric.signature(result.nrefs, bs=run.trials if bs else 1000, rs=run.seed),
        "sacrebleu_signature": {"long": long, "short": short, "none_because": why},
        "systems": _with_delta(result.rows, fitted),
        "human_accuracy_fitted_as": fitted,
        "pairwise": {
            "systems": list(pairwise.names),
            "p_values": _nulls(pairwise.p_values),
            "holm": _nulls(pairwise.adjusted),
            "differences": [list(r) for r in pairwise.differences],
        },
    }


def json_text(run: Run) -> str:
    """Ours: the run's settings, its mark in words, the first metric's fields at the top (as before), and every
    metric's in ``metrics``."""
    from bleu_core.significance.testsize import size_note
    from bleu_core.significance.thresholds import CITATION

    per_metric = [_metric_json(r, run) for r in run.results]
    out: dict[str, Any] = {
        "method": run.method,
        "trials": run.trials,
        "seed": run.seed,
        "alpha": run.alpha,
        "family": run.family,
        "mark": run.results[0].family.words,
        "warning": run.warning,
        "slice": run.slice,
        "level": run.level,
        "human_accuracy_source": CITATION,
    }
    bleu = [r for r in run.results if r.metric.sacrebleu_name == "bleu"]
    if bleu:
        note = size_note(run.segments, [row["high"] - row["low"] for row in bleu[0].rows], unit=run.level)
        out["test_set"] = {"segments": note.segments, "widest_interval": note.width, "small": note.small}
        out["test_set"].update(test_set_json(bleu[0], run))
    else:
        out["test_set"] = {"segments": run.segments, "widest_interval": None, "small": None}
    out.update({k: v for k, v in per_metric[0].items() if k not in ("name", "higher_is_better")})
    out["metrics"] = per_metric
    return json.dumps(out, ensure_ascii=False, indent=1)


def sacrebleu_json(run: Run, given: Sequence[str]) -> str:
    """sacreBLEU's ``--paired-bs/--paired-ar -f json`` for the same call: systems in the order given, metrics in
    ``-m``'s order, ``mean``/``ci`` null in AR mode and for nothing else but the baseline's p-value."""
    for r in run.results:
        if _sacre(r, run)[0] is None:
            raise InputError(f"sacreBLEU cannot express this {r.metric.name} setting, so it has no JSON to match", "-f")
    position = {f: i for i, f in enumerate(run.files)}
    systems = []
    for f in given:
        j = position[f]
        results = []
        for r in run.results:
            row = r.rows[j]
            mean, ci = (row["mean"], row["ci"]) if run.method == "bs" else (None, None)
            results.append(
                {"name": r.metric.name, "score": row["score"], "p_value": row["p_value"], "mean": mean, "ci": ci}
            )
        systems.append((f, results))
    return paired_json(systems)


def display_names(names: Sequence[str], renames: Sequence[str]) -> dict[str, str]:
    """The LaTeX table's name of each system (its file's base name): without what every name shares, and as
    ``--name OLD=NEW`` says; checked before anything is computed.

    Raises:
        InputError: a bad ``--name`` pair, or two systems that would be shown alike (naming ``--name``).
    """
    from bleu_core.display.names import parse_renames, short_names

    try:
        chosen = parse_renames(renames, names)
    except ValueError as exc:
        raise InputError(str(exc), "--name") from None
    shown = dict(zip(names, short_names(names), strict=True))
    shown.update(chosen)
    values = list(shown.values())
    taken = [n for n in values if values.count(n) > 1]
    if taken:  # a new name that another system's shortened one already reads
        raise InputError(f"two systems would both be shown as {taken[0]!r}", "--name")
    return shown


def write_latex(target: str, run: Run, shown: dict[str, str]) -> None:
    """One table per metric (``tab:bleu``, ``tab:ter``...) to ``target`` (``-`` for standard output), the systems
    named as ``shown`` (:func:`display_names`); the warnings (names pdflatex cannot print, invisible characters)
    on stderr."""
    from bleu_core.display.latex import latex_table

    texts = []
    for r in run.results:
        long, _, why = _sacre(r, run)
        table = latex_table(
            r.ranking,
            intervals={row["system"]: (row["low"], row["high"]) for row in r.rows},
            baseline=run.names[0] if run.family != "consecutive" else None,
            marks={row["system"]: row["p_holm"] for row in r.rows if row["p_holm"] is not None},
            mark_words=r.family.words,
            signature=r.both.against_baseline.signature,
            sacrebleu_signature=long,
            against={row["system"]: row["against"] for row in r.rows if row["against"] is not None},
            names=shown,
            metric=r.metric.name,
            clusters=run.family == "all",
            in_order=run.family == "consecutive",
            label=f"tab:{r.metric.sacrebleu_name or r.metric.name.lower()}",
        )
        for w in table.warnings:
            warn(f"--latex: {w}")
        if long is None:
            warn(f"--latex: no sacreBLEU signature in the {r.metric.name} caption ({why})")
        texts.append(table.text)
    tex = "\n".join(texts)
    if target == "-":
        sys.stdout.write(tex)
        return
    write_text(target, tex)


def print_text(run: Run) -> None:
    for k, r in enumerate(run.results):
        if len(run.results) > 1:
            print(
                ("\n" if k else "")
                + f"== {r.metric.name} ({'higher' if r.metric.higher_is_better else 'lower'} is better) =="
            )
        _print_metric(r, run)
    if run.slice is not None:
        print(f"slice: {run.slice}")


def _print_metric(result: MetricResult, run: Run) -> None:
    from bleu_core.significance.testsize import size_note

    rows_, name = result.rows, result.metric.name
    width = max(len("system"), *(len(str(r["system"])) for r in rows_))
    print(f"{'system':<{width}}  {name:>6}  {'mean ± 95% CI':>16}  {'p-value':>9}  {'Holm p':>9}")
    for row in rows_:
        ci = f"{row['mean']:.2f} ± {row['ci']:.2f}"
        p, adj = row["p_value"], row["p_holm"]
        p_text = "(baseline)" if row["baseline"] else "(first)" if p is None else f"{p:.4f}"
        adj_text = "" if adj is None else f"{adj:.4f}{'*' if row['significant'] else ' '}"
        print(f"{row['system']!s:<{width}}  {row['score']:>6.2f}  {ci:>16}  {p_text:>9}  {adj_text:>9}".rstrip())
    if result.metric.sacrebleu_name == "bleu":
        print(size_note(run.segments, [row["high"] - row["low"] for row in rows_], unit=run.level).text)
    bs = run.method == "bs"
    label = "paired bootstrap" if bs else "paired approximate randomization"
    if run.level == "document":
        label = f"{DOC_LEVEL}; document-block {label} (whole documents resampled)"
    print(f"\n{label}, {run.trials} {'resamples' if bs else 'trials'}, seed {run.seed}; * {result.family.words}")
    print_power(result, run)
    if result.differences:
        what = "the previous system" if run.family == "consecutive" else "the baseline"
        print(f"\nwhy each system differs from {what} (log BLEU split exactly; terms in BLEU points):")
        for row, d in zip([r for r in rows_ if r["against"] is not None], result.differences, strict=True):
            print(d.format(row["against"], row["system"]))
    _print_ranking(result, run, width)
    _print_signatures(result, run)


def _print_ranking(result: MetricResult, run: Run, width: int) -> None:
    rows_, ranking, n = result.rows, result.ranking, len(result.rows)
    clusters = run.family == "all"
    if clusters:
        print(
            f"\nranking: every pair of the {n} systems ({n * (n - 1) // 2} pairs), Holm-corrected, alpha "
            f"{run.alpha:g}; a line between two clusters means every system above is significantly better than "
            "every system below"
        )
    else:
        print(f"\nranking by {result.metric.name} (no clusters: not every pair was tested)")
    print(f"{'rank':>5}  {'range':>7}  {'system':<{width}}  {result.metric.name:>6}")
    for pos, s in enumerate(ranking.systems, start=1):
        if clusters and pos > 1 and pos - 1 in ranking.boundaries:
            print("-" * (5 + 2 + 7 + 2 + width + 2 + 6))
        lo, hi = s.rank_range if clusters else (s.rank, s.rank)
        rng = str(lo) if lo == hi else f"{lo}-{hi}"
        print(f"{s.rank:>5}  {rng:>7}  {rows_[s.index]['system']!s:<{width}}  {s.score:>6.2f}")


def _print_signatures(result: MetricResult, run: Run) -> None:
    long, short, why = _sacre(result, run)
    print(f"\nsignature: {result.both.against_baseline.signature}")
    if run.method == "ar":  # sacreBLEU's CLI gives no interval in AR mode: ours come from their own resamples
        print(f"intervals (mean ± 95% CI): {result.metric.signature(result.nrefs, bs=1000, rs=run.seed)}")
    if long is not None:
        print(f"sacreBLEU signature: {long}")
        print(f"sacreBLEU signature (short): {short}")
    else:
        print(f"sacreBLEU signature: none ({why})")
