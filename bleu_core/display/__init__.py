"""Result types shown to people: :mod:`.notebook` (Jupyter's HTML of scores, explanations, comparisons, rankings;
it fills the registry of :mod:`bleu_core.rendering`, which the result types ask) and :mod:`.latex` (a ranking as
a booktabs table, every name escaped).

Nothing is imported here; ``bleu_core`` imports :mod:`.notebook` itself.
"""
