"""BLEU on purpose: what teaches BLEU's own quantities, which other metrics do not have. :mod:`.explain` (clipping
tables, matched spans, leave-one-out), :mod:`.decomposition` (a difference split exactly into BP and the
precisions), :mod:`.variants` (the labelled misimplementations and NLTK), :mod:`.every` (one corpus under every
BLEU), :mod:`.blocktest` (the paper's block test), :mod:`.mteval` (NIST's sentence rule), :mod:`.paper` (the
paper's examples), and one chrF misimplementation for the lecture (:mod:`.chrf_lab`).

Nothing is imported here: the paper's examples do not load numpy.
"""
