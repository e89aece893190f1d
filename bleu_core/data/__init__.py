"""Test sets as values and what reads them: :mod:`.corpus` (texts, systems, corpora and their checks),
:mod:`.readers` (bytes and files in, lines out; the folder, table, JSONL and human-score formats), :mod:`.files`
(corpus BLEU of files of any size, streamed), :mod:`.slices` (the ``--where`` language and the one
``slice_corpus``), :mod:`.diagnostics` (degenerate lines), :mod:`.languages` (scripts, and sacreBLEU's tokenizer
for a target language), :mod:`.wordfreq` (F-measure by reference word frequency).

Nothing is imported here: a reader does not load numpy.
"""
