"""The Corpus and Compare wing: getting a corpus in, slicing it, and the sections of both pages."""
