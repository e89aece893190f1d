"""Output components shared by pages: score headline with signature, exact fractions, errors."""

from __future__ import annotations

from fractions import Fraction

import streamlit as st

from bleu_core import BleuScore


def fraction(matches: float, total: float) -> str:
    """``17/18`` for integer counts, a decimal pair otherwise (add-k smoothing adds k)."""
    if float(matches).is_integer() and float(total).is_integer():
        return f"{int(matches)}/{int(total)}"
    return f"{matches:g}/{total:g}"


def reduced(matches: int, total: int) -> str:
    """The reduced fraction, when it differs (``10/16 = 5/8``)."""
    if not total:
        return ""
    f = Fraction(int(matches), int(total))
    return "" if f.denominator == total else f"{f.numerator}/{f.denominator}"


def score_headline(label: str, score: BleuScore, *, paper_scale: bool = True) -> None:
    """A metric with BLEU on both scales and the signature right under it."""
    value = f"{score.score:.2f}"
    if paper_scale:
        value += f"  ({score.score / 100:.4f})"
    st.metric(label, value, help="BLEU on sacreBLEU's 0-100 scale (the paper's 0-1 scale in brackets).")
    signature(score.signature)


def signature(sig: str) -> None:
    """Show a signature as a quiet line of code."""
    st.caption(f"`{sig}`")
