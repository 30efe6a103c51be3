"""What pyproject.toml cannot say: the root folder `resources/` goes into the wheel as the
package `draftlight_resources` (app/resources.py reads it with importlib.resources), beside the
packages found under app/ and backend/; and the engine's one C module, `_rowstats` (a row of
logits read in one pass, backend/engine/_rowstats.c), built where a C compiler is found and
otherwise left out (`optional`): the engine then reads rows in numpy, slower at large
vocabularies, with the same results. Everything else is in pyproject.toml."""

import sys

from setuptools import Extension, find_packages, setup

# -fopenmp-simd: the module's `omp simd` loops vectorize without the OpenMP runtime;
# -fno-math-errno lets the compiler inline the C library's math without changing a result.
FLAGS = [] if sys.platform == "win32" else ["-O3", "-fno-math-errno", "-fopenmp-simd"]

setup(
    packages=[*find_packages(include=["app*", "backend*"]), "draftlight_resources"],
    package_dir={"draftlight_resources": "resources"},
    ext_modules=[Extension("backend.engine._rowstats", ["backend/engine/_rowstats.c"],
                           extra_compile_args=FLAGS, optional=True)],
)
