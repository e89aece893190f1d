"""The C kernels (bleu_core/engine/_kernel.c, bleu_core/metrics/_ter_kernel.c and _chrf_kernel.c); everything else
is in pyproject.toml.

The extensions are optional: without a C compiler the install still succeeds and bleu_core.engine counts
on the explainable path (same numbers, about 30x slower on WMT22), as bleu_core.metrics.chrf does with Counters.
tests/core/test_kernel.py and tests/core/test_chrf_kernel.py fail if they are missing.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "bleu_core.engine._kernel",
            ["bleu_core/engine/_kernel.c"],
            extra_compile_args=[
                "-O3",
                "-std=c11",
                "-Wall",
                "-Wextra",
                "-Wno-unused-parameter",
                "-Wno-missing-field-initializers",
                "-Wno-cast-function-type",
            ],
            optional=True,
        ),
        # TER's beam edit distance and shift search (bleu_core.metrics.ter falls back to ter_align without it)
        Extension(
            "bleu_core.metrics._ter_kernel",
            ["bleu_core/metrics/_ter_kernel.c"],
            extra_compile_args=[
                "-O3",
                "-std=c11",
                "-Wall",
                "-Wextra",
                "-Wno-unused-parameter",
                "-Wno-missing-field-initializers",
            ],
            optional=True,
        ),
        # chrF's statistics (bleu_core.metrics.chrf counts with Counters without it); no fused multiply-add: the best
        # reference is picked by f-scores that must round as Python's do
        Extension(
            "bleu_core.metrics._chrf_kernel",
            ["bleu_core/metrics/_chrf_kernel.c"],
            extra_compile_args=["-O3", "-std=c11", "-ffp-contract=off", "-Wall", "-Wextra", "-Wno-unused-parameter"],
            optional=True,
        ),
    ]
)
