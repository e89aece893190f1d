"""bleu_core results -> tidy pandas DataFrames; column names are module constants.

Split by page family: ``sentence`` (learn + sentence pages) and ``corpus`` (corpus + compare pages).
"""
