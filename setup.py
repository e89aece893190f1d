"""The C kernels (bleu_core/_kernel.c, bleu_core/metrics/_chrf_kernel.c); everything else is in pyproject.toml.

The extensions are optional: without a C compiler the install still succeeds and bleu_core.engine counts
on the explainable path (same numbers, about 30x slower on WMT22), as bleu_core.metrics.chrf does with Counters.
tests/core/test_kernel.py and tests/core/test_chrf_kernel.py fail if they are missing.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "bleu_core._kernel",
            ["bleu_core/_kernel.c"],
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
        Extension(
            "bleu_core.metrics._chrf_kernel",
            ["bleu_core/metrics/_chrf_kernel.c"],
            # no fused multiply-add: the best reference is picked by f-scores that must round as Python's do
            extra_compile_args=["-O3", "-std=c11", "-ffp-contract=off", "-Wall", "-Wextra", "-Wno-unused-parameter"],
            optional=True,
        ),
    ]
)
