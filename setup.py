"""The one thing pyproject.toml cannot say: the root folder `resources/` goes into the wheel as
the package `draftlight_resources` (app/resources.py reads it with importlib.resources), beside
the packages found under app/ and backend/. Everything else is in pyproject.toml."""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["app*", "backend*"]), "draftlight_resources"],
    package_dir={"draftlight_resources": "resources"},
)
