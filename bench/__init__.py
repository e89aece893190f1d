"""Side-by-side benchmarks against sacrebleu and bleuscore (``make bench`` / ``python -m bench``)."""
