"""The C kernel (bleu_core/engine/_kernel.c); everything else is in pyproject.toml.

The extension is optional: without a C compiler the install still succeeds and bleu_core.engine counts
on the explainable path (same numbers, about 30x slower on WMT22). tests/core/test_kernel.py fails if it is missing.
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
        )
    ]
)
