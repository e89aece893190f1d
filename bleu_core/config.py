"""BleuConfig: every option that changes a BLEU number, as one frozen, hashable value."""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, replace
from typing import Final, Literal, get_args

from .errors import InputError

__all__ = ["SMOOTH_DEFAULTS", "BleuConfig", "SmoothMethod"]

SmoothMethod = Literal["none", "floor", "add-k", "exp"]

# sacrebleu's defaults (Chen & Cherry 2014): floor 0.1, add-k 1; none and exp take no value.
SMOOTH_DEFAULTS: Final[dict[str, float | None]] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}

MAX_ORDER_LIMIT: Final = 9


@dataclass(frozen=True, slots=True)
class BleuConfig:
    """The options of a BLEU computation (sacrebleu's names and defaults).

    ``BleuConfig()`` is sacrebleu's corpus default; ``BleuConfig.sentence()`` its sentence default;
    ``BleuConfig.paper()`` the settings that reproduce the paper's fractions.

    Example:
        >>> BleuConfig.paper().tokenize, BleuConfig.paper().lowercase
        ('paper', True)
        >>> BleuConfig(max_ngram_order=0)
        Traceback (most recent call last):
        ...
        bleu_core.errors.InputError: max_ngram_order: must be between 1 and 9, got 0
    """

    tokenize: str = "13a"
    lowercase: bool = False
    smooth_method: SmoothMethod = "exp"
    smooth_value: float | None = None
    use_effective_order: bool = False
    max_ngram_order: int = 4
    weights: tuple[float, ...] | None = None
    force: bool = False

    def __post_init__(self) -> None:
        # imported here: the engine's modules read this one, so the engine package loads after it
        from .engine.tokenizers import get_tokenizer

        get_tokenizer(self.tokenize)
        if self.smooth_method not in get_args(SmoothMethod):
            raise InputError(
                f"unknown smoothing method {self.smooth_method!r} (known: {', '.join(get_args(SmoothMethod))})",
                "smooth_method",
            )
        order = self.max_ngram_order
        # numpy integers and floats are numbers too (numbers.Integral / Real): accept and normalise them
        if isinstance(order, bool) or not isinstance(order, numbers.Integral) or not 1 <= order <= MAX_ORDER_LIMIT:
            raise InputError(f"must be between 1 and {MAX_ORDER_LIMIT}, got {order!r}", "max_ngram_order")
        order = int(order)
        object.__setattr__(self, "max_ngram_order", order)
        if self.smooth_value is not None:
            if (
                not isinstance(self.smooth_value, numbers.Real)
                or not math.isfinite(self.smooth_value)
                or self.smooth_value < 0
            ):
                raise InputError(f"must be a finite number >= 0, got {self.smooth_value!r}", "smooth_value")
            if not isinstance(self.smooth_value, (int, float)):
                object.__setattr__(self, "smooth_value", float(self.smooth_value))
        if self.weights is not None:
            w = tuple(float(x) for x in self.weights)
            object.__setattr__(self, "weights", w)
            if len(w) != order:
                raise InputError(f"{len(w)} weights given for max order {order}; give one per order", "weights")
            if any(not math.isfinite(x) or x < 0 for x in w):
                raise InputError(f"weights must be finite and >= 0, got {w}", "weights")
            if not math.isclose(sum(w), 1.0, rel_tol=0, abs_tol=1e-6):
                raise InputError(f"weights must sum to 1, they sum to {sum(w):.6g}", "weights")

    @classmethod
    def sentence(cls, **changes: object) -> BleuConfig:
        """sacrebleu's ``sentence_bleu`` defaults: exp smoothing with effective order."""
        return replace(cls(use_effective_order=True), **changes)  # type: ignore[arg-type]

    @classmethod
    def paper(cls) -> BleuConfig:
        """The paper's arithmetic: its word tokens, case folded, no smoothing."""
        return cls(tokenize="paper", lowercase=True, smooth_method="none")

    @property
    def effective_smooth_value(self) -> float | None:
        """The smoothing value in force (the method's default when none is given)."""
        return SMOOTH_DEFAULTS[self.smooth_method] if self.smooth_value is None else self.smooth_value

    @property
    def uniform(self) -> bool:
        """True when the weights are sacrebleu's uniform 1/N."""
        return self.weights is None
