"""Short display names: the core's (:mod:`bleu_core.display.names`), which the CLI's LaTeX table uses too."""

from __future__ import annotations

from bleu_core.display.names import labels, short_names

__all__ = ["labels", "short_names"]
