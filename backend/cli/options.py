"""Command-line options made from the settings declarations (`backend.settings_schema`):
the same type, range, default and help as the settings file and the window's panel."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from backend.settings_schema import Option

_DEFAULT: Any = object()  # "the declaration's default"


def add_option(parser: argparse.ArgumentParser, option: Option, *, flag: str = "",
               default: Any = _DEFAULT, help_default: str = "", **kwargs: Any) -> None:
    """`flag` (default: `option.cli`) checked against `option`. `default` overrides the
    declared default (e.g. None for "decided later"), `help_default` says what it means."""
    if default is _DEFAULT:
        default = option.default
    parts = [option.tooltip]
    if option.minval is not None:
        parts.append(option.range_text())
    parts.append(f"default: {help_default or option.default}")
    if option.choices is not None:
        kwargs["choices"] = option.choices()
        kwargs.setdefault("metavar", "TYPE")
        parts.insert(1, ", ".join(option.choices()))
    parser.add_argument(
        flag or option.cli, type=parse_as(option), default=default,
        help="; ".join(parts).replace("%", "%%"), **kwargs,
    )


def parse_as(option: Option) -> Callable[[str], Any]:
    """argparse's `type` for `option`: a value the declaration accepts, or a usage error
    that says why."""
    def parse(text: str) -> Any:
        if option.special and text == option.special:  # "auto", "random": the minimum's word
            return option.minval
        try:
            value = option.kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{text!r} is not {'a number' if option.kind is float else 'a whole number'}"
            ) from None
        if option.choices is None:  # argparse itself says which choices there are
            reason = option.problem(value)
            if reason is not None:
                raise argparse.ArgumentTypeError(f"{text} {reason}")
        return value

    parse.__name__ = option.name
    return parse
