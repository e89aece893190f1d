# The chrF kernel (bleu_core/metrics/_chrf_kernel.c). Statistics are int64, native order.
from collections.abc import Sequence

class References:
    def __init__(self, streams: Sequence[Sequence[str | None]], whitespace: bool, words: bool) -> None: ...
    @property
    def n_segments(self) -> int: ...
    def stats(
        self,
        hypotheses: Sequence[str],
        char_order: int,
        word_order: int,
        factor: float,
        onep: float,
        eps_smoothing: bool,
        start: int = 0,
        stop: int = ...,
    ) -> bytearray: ...
