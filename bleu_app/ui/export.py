"""Downloads: lazy download buttons, and the comparison as a LaTeX table."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import streamlit as st

from bleu_app.frames.corpus import BLEU, BP, CI_HIGH, CI_LOW, RATIO, SYSTEM

PER_ROW = 3  # download buttons per row: "Chart: precisions HTML" fits a third of the page


def downloads(label: str, items: dict[str, tuple[Callable[[], bytes | str], str, str]], key: str) -> None:
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


def csv(frame: pd.DataFrame, signature: str) -> str:
    """The frame as CSV whose first line is ``# signature: ...`` (pandas reads it back with ``comment="#"``).

    Example:
        >>> csv(pd.DataFrame({"BLEU": [1.5]}), "nrefs:1|bs:1000|rs:12345")
        '# signature: nrefs:1|bs:1000|rs:12345\\nBLEU\\n1.5\\n'
    """
    return f"# signature: {signature}\n" + str(frame.to_csv(index=False))


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
    repl = {
        "\\": "\\textbackslash{}",
        "&": "\\&",
        "%": "\\%",
        "$": "\\$",
        "#": "\\#",
        "_": "\\_",
        "{": "\\{",
        "}": "\\}",
        "~": "\\textasciitilde{}",
        "^": "\\textasciicircum{}",
    }
    return "".join(repl.get(ch, ch) for ch in s)
