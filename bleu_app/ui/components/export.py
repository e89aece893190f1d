"""Downloads: lazy download buttons, CSV with the signature in a column (formula-safe), the comparison and the
ranking as LaTeX tables, and everything of a page in one zip with a README that says what each file is."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable, Mapping, Sequence

import pandas as pd
import streamlit as st

from bleu_app.frames.corpus import BLEU, BP, CI_HIGH, CI_LOW, RATIO, SYSTEM
from bleu_app.frames.metrics import Signed
from bleu_app.views.ranking import RankingView
from bleu_core.display import latex as core_latex
from bleu_core.display.latex import escape_latex

PER_ROW = 3  # download buttons per row: "Chart: precisions HTML" fits a third of the page


Item = tuple[Callable[[], bytes | str], str, str]  # make the data, the file's name, its MIME type


def zip_bundle(items: Mapping[str, Item], readme: str) -> bytes:
    """Every item's file in one zip (each made now: the buttons' callables), with ``readme`` as README.txt first;
    the names are the app's own file names (never a user's text), one folder deep at most.

    Example:
        >>> data = zip_bundle({"a": (lambda: "x,y", "a.csv", "text/csv"), "b": (lambda: b"<svg/>", "b.svg", "")},
        ...                   "what is here")
        >>> with zipfile.ZipFile(io.BytesIO(data)) as z:
        ...     z.namelist(), z.read("a.csv"), z.read("README.txt")
        (['README.txt', 'a.csv', 'b.svg'], b'x,y', b'what is here')
    """
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("README.txt", readme)
        for make, file_name, _ in items.values():
            data = make()
            z.writestr(file_name, data.encode("utf-8") if isinstance(data, str) else data)
    return buffer.getvalue()


def downloads(label: str, items: Mapping[str, Item], key: str) -> None:
    """Lazy download buttons, at most ``PER_ROW`` to a row (six in one row cut their labels to "Chart: matrix …"):
    name -> (make data, file name, mime)."""
    entries = list(items.items())
    cols = [col for start in range(0, len(entries), PER_ROW) for col in st.columns(PER_ROW)][: len(entries)]
    for col, (name, (make, file_name, mime)) in zip(cols, entries, strict=True):
        col.download_button(
            f"{label} {name}",
            data=make,
            file_name=file_name,
            mime=mime,
            key=f"{key}.{name}",
            on_click="ignore",
            icon=":material/download:",
        )


SIGNATURE = "signature"
SACREBLEU_SIGNATURE = "sacreBLEU signature"
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _as_text(value: object) -> object:
    """A text cell a spreadsheet would run as a formula (``=``, ``+``, ``-``, ``@``, tab, CR first) gets a ``'``
    in front (OWASP's advice for CSV injection); numbers and other cells are left as they are."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def csv(frame: pd.DataFrame, signed: Sequence[Signed]) -> str:
    """The frame as CSV with the signatures of its numbers in two last columns of their own, sacreBLEU's and ours
    (``BLEU: nrefs:1|...`` per number kind, ``;`` between kinds; a ``# signature`` first line is read as data by
    spreadsheets and by ``pandas.read_csv`` without ``comment=``); text that a spreadsheet would run as a formula
    is neutralised.

    Example:
        >>> sig = Signed("BLEU", "nrefs:1|bs:1000", None, "no such setting")
        >>> print(csv(pd.DataFrame({"system": ["=HYPERLINK()"], "BLEU": [-1.5]}), [sig]), end="")
        system,BLEU,sacreBLEU signature,signature
        '=HYPERLINK(),-1.5,BLEU: none (no such setting),BLEU: nrefs:1|bs:1000
    """
    safe = frame.copy()
    for column in safe.columns:
        if not pd.api.types.is_numeric_dtype(safe[column]):
            safe[column] = [_as_text(v) for v in safe[column]]
    safe.columns = [str(_as_text(str(c))) for c in safe.columns]
    safe[SACREBLEU_SIGNATURE] = _as_text(" ; ".join(f"{s.what}: {s.sacrebleu_cell}" for s in signed))
    safe[SIGNATURE] = _as_text(" ; ".join(f"{s.what}: {s.ours}" for s in signed))
    return str(safe.to_csv(index=False))


def latex_table(systems: pd.DataFrame, *, signature: str, caption: str = "BLEU with 95% bootstrap CIs") -> str:
    r"""A booktabs LaTeX table of the comparison (system, BLEU [CI], p_1..p_4, BP, c/r), escaped.

    Example:
        >>> df = pd.DataFrame({SYSTEM: ["a_b"], BLEU: [1.0], CI_LOW: [0.5], CI_HIGH: [1.5], BP: [1.0],
        ...                    RATIO: [1.0], "p1": [50.0]})
        >>> "a\\_b & 1.00 [0.50, 1.50] & 50.0 & 1.000 & 1.000" in latex_table(df, signature="s")
        True
    """
    pcols = [c for c in systems.columns if c.startswith("p") and c[1:].isdigit()]
    head = ["System", "BLEU [95\\% CI]", *[f"$p_{c[1:]}$" for c in pcols], "BP", "$c/r$"]
    lines = [
        "\\begin{table}[t]",
        "\\centering",
        "\\begin{tabular}{l" + "r" * (len(head) - 1) + "}",
        "\\toprule",
        " & ".join(head) + " \\\\",
        "\\midrule",
    ]
    for _, row in systems.iterrows():
        cells = [
            _tex(str(row[SYSTEM])),
            f"{row[BLEU]:.2f} [{row[CI_LOW]:.2f}, {row[CI_HIGH]:.2f}]",
            *[f"{row[c]:.1f}" for c in pcols],
            f"{row[BP]:.3f}",
            f"{row[RATIO]:.3f}",
        ]
        lines.append(" & ".join(cells) + " \\\\")
    lines += [
        "\\bottomrule",
        "\\end{tabular}",
        f"\\caption{{{_tex(caption)}. \\texttt{{{_tex(signature)}}}}}",
        "\\end{table}",
    ]
    return "\n".join(lines) + "\n"


def _tex(s: str) -> str:
    return escape_latex(s)


def ranking_latex(view: RankingView, baseline: str, signatures: Signed, *, metric: str = "BLEU") -> str:
    """The ranking as ``bleu_core.display.latex``'s booktabs table (the one ``bleu-explorer compare --latex`` writes),
    marked with the view's test (its family, as the page's ranking) and both signatures of that test; ``metric``
    names the score in the header, the caption and the label.

    Intervals, marks and the baseline go by system name: the view's table is sorted by score, the ranking's input
    is not."""
    systems = view.systems
    intervals = {
        str(n): (float(lo), float(hi))
        for n, lo, hi in zip(systems[SYSTEM], systems[CI_LOW], systems[CI_HIGH], strict=True)
    }
    marks = view.marks
    assert marks is not None  # a view always has them (ranking_view)
    family = marks.test.family
    against = {n: a for n in marks.order if (a := marks.against(n)) is not None}
    return core_latex.latex_table(
        view.ranking,
        intervals=intervals,
        baseline=None if family == "consecutive" else baseline,
        marks={n: p for n in marks.order if (p := marks.adjusted(n)) is not None},
        mark_words=marks.words,
        signature=signatures.ours,
        sacrebleu_signature=signatures.theirs,
        against=against if family == "consecutive" else None,
        clusters=family == "all",
        metric=metric,
        label="tab:" + metric.lower().replace(" ", "-"),  # escaped by latex_table
    ).text
