"""TER's edit script: the shifts, then match/sub/ins/del, that make sacreBLEU's TER count for one sentence.

Its non-match steps are sacreBLEU's ``num_edits`` for the reference sacreBLEU picks (the fewest edits), and
applied to the hypothesis they give that reference: what "TER counts these edits" means, shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from bleu_core.errors import InputError

from .ter import Engine, Ter, choose_engine, kernel_alignment
from .ter_align import Alignment, align, perform_shift
from .ter_tokenizer import tercom_steps

__all__ = ["EditKind", "EditOp", "Normalization", "TerEdits", "ter_edits"]

EditKind = Literal["match", "sub", "ins", "del", "shift"]


@dataclass(frozen=True, slots=True)
class EditOp:
    """One step of TER's edit script, on normalised tokens.

    Attributes:
        kind: ``shift`` (a block moved; one edit), ``match`` (no edit), ``sub``, ``ins`` (a reference word
            added), ``del`` (a hypothesis word removed).
        hyp_words: the hypothesis words it takes: the moved block, or the one word matched, substituted or
            deleted; none for ``ins``.
        ref_words: the reference word it gives (``match``, ``sub``, ``ins``); none for ``del`` and ``shift``.
        hyp_pos: a shift's block start before the move; otherwise the word's position in the shifted
            hypothesis (for ``ins``, the position of the next hypothesis word).
        ref_pos: the reference position (-1 for ``del`` and ``shift``).
        to_pos: a shift's block start after the move (-1 otherwise).
    """

    kind: EditKind
    hyp_words: tuple[str, ...]
    ref_words: tuple[str, ...]
    hyp_pos: int
    ref_pos: int = -1
    to_pos: int = -1

    @property
    def is_edit(self) -> bool:
        """Whether TER counts it (every op but ``match``)."""
        return self.kind != "match"


@dataclass(frozen=True, slots=True)
class Normalization:
    """What sacreBLEU's TER preprocessing did to one line.

    Attributes:
        original: the line as given.
        steps: ``(step, text after it)`` for each step that changed it (:func:`~bleu_core.metrics.ter_tokenizer.
            tercom_steps`); a reference's second pass (sacreBLEU preprocesses references twice) is marked
            ``(again)``.
        tokens: the tokens TER compares.
    """

    original: str
    steps: tuple[tuple[str, str], ...]
    tokens: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TerEdits:
    """The edit script behind a sentence's TER (:func:`ter_edits`).

    Attributes:
        ops: the shifts in the order applied, then the match/sub/ins/del steps from left to right.
        hypothesis: the hypothesis's normalisation.
        reference: the chosen reference's normalisation.
        ref_index: which reference (0-based) gave the fewest edits (the first on a tie, as sacreBLEU).
        ref_length: the references' average length (the score's denominator).
        candidates: shift candidates the search evaluated (sacreBLEU stops at 1,000).
    """

    ops: tuple[EditOp, ...]
    hypothesis: Normalization
    reference: Normalization
    ref_index: int
    ref_length: float
    candidates: int

    @property
    def num_edits(self) -> int:
        """The edits counted: every op that is not a match (sacreBLEU's ``num_edits`` for this reference)."""
        return sum(op.is_edit for op in self.ops)

    @property
    def score(self) -> float:
        """Sentence TER from these edits (sacreBLEU's ``sentence_ter``)."""
        if self.ref_length > 0:
            return 100 * (self.num_edits / self.ref_length)
        return 100.0 if self.num_edits else 0.0

    def apply(self) -> tuple[str, ...]:
        """The hypothesis's tokens with the shifts, then the other ops, applied: the reference's tokens.

        Example:
            >>> e = ter_edits("d e f g h a b c", "a b c d e f g h")
            >>> e.apply() == e.reference.tokens
            True
        """
        words = list(self.hypothesis.tokens)
        out: list[str] = []
        for op in self.ops:
            if op.kind == "shift":
                n = len(op.hyp_words)
                if tuple(words[op.hyp_pos : op.hyp_pos + n]) != op.hyp_words:
                    raise InputError(f"shift of {op.hyp_words!r} does not find them at {op.hyp_pos}", "ops")
                block = words[op.hyp_pos : op.hyp_pos + n]
                del words[op.hyp_pos : op.hyp_pos + n]
                words[op.to_pos : op.to_pos] = block
            elif op.kind in ("match", "sub"):
                if words[op.hyp_pos] != op.hyp_words[0]:
                    raise InputError(f"{op.kind} expects {op.hyp_words[0]!r} at {op.hyp_pos}", "ops")
                out.append(op.ref_words[0])
            elif op.kind == "ins":
                out.append(op.ref_words[0])
        return tuple(out)

    def format(self) -> str:
        """The script as text, one op a line.

        Example:
            >>> print(ter_edits("d e f g h a b c", "a b c d e f g h").format().splitlines()[0])
            shift 'a b c' from 5 to 0
        """
        lines = []
        for op in self.ops:
            if op.kind == "shift":
                lines.append(f"shift {' '.join(op.hyp_words)!r} from {op.hyp_pos} to {op.to_pos}")
            elif op.kind == "match":
                lines.append(f"match {op.hyp_words[0]!r}")
            elif op.kind == "sub":
                lines.append(f"sub   {op.hyp_words[0]!r} -> {op.ref_words[0]!r}")
            elif op.kind == "ins":
                lines.append(f"ins   {op.ref_words[0]!r}")
            else:
                lines.append(f"del   {op.hyp_words[0]!r}")
        return "\n".join(lines)


def _alignment(hyp: list[str], ref: list[str], engine: Literal["kernel", "explain"]) -> Alignment:
    return align(hyp, ref) if engine == "explain" else kernel_alignment(hyp, ref)


def _ops(hyp: list[str], ref: list[str], a: Alignment) -> tuple[EditOp, ...]:
    ops: list[EditOp] = []
    words = list(hyp)
    for start, length, target in a.shifts:
        dest = target if target <= start + length else target - length
        ops.append(EditOp("shift", tuple(words[start : start + length]), (), start, -1, dest))
        words = perform_shift(words, start, length, target)
    i = j = 0
    for letter in a.trace:
        if letter in (" ", "s"):
            ops.append(EditOp("match" if letter == " " else "sub", (words[i],), (ref[j],), i, j))
            i, j = i + 1, j + 1
        elif letter == "d":
            ops.append(EditOp("del", (words[i],), (), i))
            i += 1
        else:
            ops.append(EditOp("ins", (), (ref[j],), i, j))
            j += 1
    return tuple(ops)


def ter_edits(
    hypothesis: str,
    references: str | Sequence[str],
    *,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
    case_sensitive: bool = False,
    engine: Engine = "auto",
    **unknown: object,
) -> TerEdits:
    """The edits TER counts for one sentence: against the reference with the fewest (as sacreBLEU picks it),
    the shifts and then match/sub/ins/del on the normalised tokens; their non-matches are sacreBLEU's
    ``num_edits``, and applied to the hypothesis they give the reference (:meth:`TerEdits.apply`).

    Example:
        >>> e = ter_edits("The cat sat on mat", ["the cat sat on the mat", "a cat sat on the mat"])
        >>> e.num_edits, e.ref_index, [op.kind for op in e.ops if op.is_edit], e.hypothesis.steps[0][0]
        (1, 0, ['ins'], 'lowercase')
    """
    opts = Ter(
        normalized=normalized, no_punct=no_punct, asian_support=asian_support, case_sensitive=case_sensitive, **unknown
    ).options
    if not isinstance(hypothesis, str):
        raise InputError(f"must be a string, got {type(hypothesis).__name__}", "hypothesis")
    refs = [references] if isinstance(references, str) else list(references)
    if not refs or not all(isinstance(r, str) for r in refs):
        raise InputError("must be a reference string or a non-empty list of them", "references")
    hyp_steps = tercom_steps(hypothesis, opts)
    hyp_tokens = (hyp_steps[-1][1] if hyp_steps else hypothesis).split()
    chars = len(hypothesis) + sum(len(r) for r in refs)
    chosen = choose_engine(engine, 1, chars)
    best: tuple[int, int, Alignment, list[str], tuple[tuple[str, str], ...]] | None = None
    total = 0
    for k, ref in enumerate(refs):
        first = tercom_steps(ref, opts)
        once = first[-1][1] if first else ref
        again = tercom_steps(once, opts)
        steps = first + tuple((f"{name} (again)", text) for name, text in again)
        ref_tokens = (steps[-1][1] if steps else ref).split()
        a = _alignment(hyp_tokens, ref_tokens, chosen)
        total += len(ref_tokens)
        if best is None or a.num_edits < best[0]:
            best = (a.num_edits, k, a, ref_tokens, steps)
    assert best is not None
    _, k, a, ref_tokens, steps = best
    return TerEdits(
        _ops(hyp_tokens, ref_tokens, a),
        Normalization(hypothesis, hyp_steps, tuple(hyp_tokens)),
        Normalization(refs[k], steps, tuple(ref_tokens)),
        k,
        total / len(refs),
        a.candidates,
    )
