"""What pyproject.toml cannot say: the root folder `resources/` goes into the wheel as the
package `draftlight_resources` (app/resources.py reads it with importlib.resources), beside the
packages found under app/ and backend/; and the engine's two C modules, `_rowstats` (a row of
logits read in one pass, backend/engine/_rowstats.c) and `_greedy_loop` (a plain greedy answer's
tokens decided and decoded without Python between them), built where a C compiler is found and
otherwise left out (`optional`): the engine then reads rows in numpy and decides in Python,
slower at large vocabularies, with the same results. Everything else is in pyproject.toml."""

import sys

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

# -fno-math-errno lets the compiler inline the C library's math without changing a result.
# -fopenmp: the row read in slices by llama.cpp's own OpenMP team (libgomp, which its CPU
# backend links); where the compiler has no OpenMP (Apple's clang), -fopenmp-simd alone: the
# module's `omp simd` loops still vectorize, and the slices are read one after another.
FLAGS = [] if sys.platform == "win32" else ["-O3", "-fno-math-errno"]
OPENMP = [] if sys.platform == "win32" else ["-fopenmp"]
SIMD_ONLY = [] if sys.platform == "win32" else ["-fopenmp-simd"]
ARGMAX = "backend/engine/_row_argmax.h"  # the argmax both modules read rows with


class BuildWithoutOpenMPIfNeeded(build_ext):
    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception:  # the compiler's or linker's refusal of -fopenmp
            if not OPENMP or OPENMP[0] not in ext.extra_compile_args:
                raise
            ext.extra_compile_args = [*FLAGS, *SIMD_ONLY]
            ext.extra_link_args = []
            super().build_extension(ext)


setup(
    packages=[*find_packages(include=["app*", "backend*"]), "draftlight_resources"],
    package_dir={"draftlight_resources": "resources"},
    ext_modules=[Extension("backend.engine._rowstats", ["backend/engine/_rowstats.c"],
                           depends=[ARGMAX], extra_compile_args=[*FLAGS, *OPENMP],
                           extra_link_args=OPENMP, optional=True),
                 Extension("backend.engine._greedy_loop", ["backend/engine/_greedy_loop.c"],
                           depends=[ARGMAX], extra_compile_args=[*FLAGS, *SIMD_ONLY],
                           optional=True)],
    cmdclass={"build_ext": BuildWithoutOpenMPIfNeeded},
)
