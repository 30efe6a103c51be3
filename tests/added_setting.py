"""A test-only setting, added the way a real one is: one declaration registered in the schema
(`backend/settings_schema.py`). It offers the repeat penalty's window, a request field the
engine already reads (`SamplingSettings.repeat_last_n`), so nothing else is written for it;
the settings file, the command line, the request and an answer's record must pick it up."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from backend import settings_schema as schema

REPEAT_LAST_N = schema.Option(
    "generation.repeat_last_n", label="Repeat window",
    tooltip="How many of the last tokens the repeat penalty looks at (0 = off)",
    cli="--repeat-last-n", request="sampling.repeat_last_n",
)


@contextmanager
def registered() -> Iterator[schema.Option]:
    """The setting declared for the duration of a test."""
    with schema.registered(REPEAT_LAST_N) as option:
        yield option
