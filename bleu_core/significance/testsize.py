"""When is a test set small? The one rule behind the small-test-set note on every score (app, CLI, report).

A score is shown with the number of segments it was computed on and the width of its 95% bootstrap interval
(sacreBLEU's: 1,000 resamples, seed 12345). :func:`size_note` turns those two into a sentence and says whether
the test set is *small* by :func:`is_small`'s rule.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

__all__ = ["MAX_WIDTH", "MIN_SEGMENTS", "SizeNote", "is_small", "size_note"]

MIN_SEGMENTS: Final = 500
"""Fewer segments than this make a test set small (see :func:`is_small` for why)."""

MAX_WIDTH: Final = 5.0
"""A 95% interval wider than this many BLEU points (high − low) makes a test set small."""


def is_small(n_segments: int, width: float | None = None) -> bool:
    """Whether a test set of ``n_segments`` whose widest 95% interval is ``width`` BLEU points is small.

    The rule: under :data:`MIN_SEGMENTS` (500) segments, or an interval wider than :data:`MAX_WIDTH` (5 BLEU
    points). Why these numbers: the WMT news/general test sets, on which published differences of one or two
    BLEU points are claimed, have 1,000 to 2,000 segments, and there sacreBLEU's bootstrap interval is about
    2 points wide (WMT22 zh-en, 1,875 segments: 1.72 to 2.45 points for its 12 systems against both references,
    1.62 to 2.38 against reference A; ``bleu-explorer compare REF... -i SYSTEMS... --json``, ``high - low``).
    Half of the smallest of those sets (500 segments) widens an interval by about sqrt(2) (the bootstrap's width
    falls as one over the square root of the segments), so differences of a point or two stop being
    separable; an interval over 5 points (each side ±2.5) cannot separate systems that far apart, whatever the
    segment count (few long segments, or a very noisy system). Either condition alone makes the set small.

    Example:
        >>> is_small(30), is_small(1875, 1.9), is_small(1875, 6.0), is_small(499, 1.0), is_small(500)
        (True, False, True, True, False)
    """
    if n_segments < MIN_SEGMENTS:
        return True
    return width is not None and math.isfinite(width) and width > MAX_WIDTH


@dataclass(frozen=True)
class SizeNote:
    """The note shown beside a score.

    Attributes:
        segments: how many segments the score was computed on.
        width: the widest 95% interval among the scores it stands beside, in BLEU points (``None``: not known).
        small: :func:`is_small` of the two.
        text: the sentence to show (plain text: no markup).
    """

    segments: int
    width: float | None
    small: bool
    text: str


def size_note(
    n_segments: int, widths: Sequence[float] = (), *, unit: Literal["segment", "document"] = "segment"
) -> SizeNote:
    """The note for scores on ``n_segments`` segments whose 95% intervals are ``widths`` wide (high − low, BLEU
    points; the widest counts). ``unit="document"``: the scores are document-level (each document one segment),
    so the note counts documents, the units scored and resampled; the rule is the same.

    Example:
        >>> print(size_note(1875, [1.62, 2.01]).text)
        Test set: 1875 segments; widest 95% interval 2.01 BLEU points.
        >>> n = size_note(30, [14.2])
        >>> n.small, n.text  # doctest: +NORMALIZE_WHITESPACE
        (True, 'Small test set: 30 segments (fewer than 500); widest 95% interval 14.20 BLEU points (wider than 5).
        Differences smaller than the interval are not reliable.')
        >>> print(size_note(16, [9.1], unit="document").text)  # doctest: +NORMALIZE_WHITESPACE
        Small test set: 16 documents (fewer than 500 scored units); widest 95% interval 9.10 BLEU points (wider
        than 5). Differences smaller than the interval are not reliable.
    """
    finite = [float(w) for w in widths if math.isfinite(float(w))]
    width = max(finite) if finite else None
    small = is_small(n_segments, width)
    width_text = "" if width is None else f"widest 95% interval {width:.2f} BLEU points"
    if not small:
        text = f"Test set: {n_segments} {unit}s" + (f"; {width_text}." if width_text else ".")
        return SizeNote(n_segments, width, False, text)
    fewer = f" (fewer than {MIN_SEGMENTS}" + (" scored units)" if unit == "document" else ")")
    parts = [f"{n_segments} {unit}s" + (fewer if n_segments < MIN_SEGMENTS else "")]
    if width_text:
        parts.append(width_text + (f" (wider than {MAX_WIDTH:g})" if width is not None and width > MAX_WIDTH else ""))
    text = "Small test set: " + "; ".join(parts) + ". Differences smaller than the interval are not reliable."
    return SizeNote(n_segments, width, True, text)
