"""Files from elsewhere read into typed, bounded values, or refused in one sentence.

A file format is declared once, as dataclasses: each field's annotation is its type (bool,
int, float, str, None, a Literal, `tuple[X, ...]`, a fixed tuple, a nested dataclass) and
`Annotated[X, Bounds(...)]` its range or size. A `Schema` says the rest of one format: the
bounds of numbers, texts and lists not declared otherwise, annotations for fields of classes
declared elsewhere (the engine's events), invariants between fields, and whether fields it
does not know are refused or ignored. `Schema.decode` walks the JSON along the declaration,
so nothing half-checked reaches a view or a store: every number finite and in range (a count
is never negative), every text and list bounded, or a `SchemaError` naming the place
("event 3 (step): drafted[0]: p_draft") and what is wrong with it.

`read_file` reads such a file: a regular file only, opened without waiting (a FIFO is
refused, not waited on) and read to at most a limit (/dev/zero is refused before any read);
`parse_json` turns its bytes into JSON values, a too-deep nesting or a number of thousands of
digits refused in words rather than raised from Python's depths.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import os
import re
import stat
import string
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from backend.words import Words, words

MAX_INT = 10**15  # below 2**53: every whole number JSON carries exactly
MAX_TEXT = 1 << 24  # characters in one text, unless its field says otherwise
MAX_ITEMS = 1 << 24  # items in one list, unless its field says otherwise
_MAX_DIGITS = 40  # a number written with more digits is beyond any bound here
_SHOWN = 40  # characters of a refused value quoted in a refusal

# Why a file or a value in it is refused, as templates (backend/words.py). `where` names the
# place in the file (a path such as "event 3 (step): drafted[0]: p_draft"), not translated.
NOT_A_FILE = "Cannot read {name}: it is not a file but a folder, a pipe or a device."
TOO_LARGE = "Cannot read {name}: it is larger than {limit} MB, more than Draftlight reads."
TOO_DEEP = "damaged: its JSON is nested too deeply to be read."
NOT_AN_OBJECT = "damaged: {where} is not an object."
UNKNOWN_FIELDS = "damaged: {where} has unknown fields {names}."
NO_FIELD = "damaged: {where} has no {name}."
REFUSED = "damaged: {where} is refused: {error}"
NOT_ONE_OF = "damaged: {where} is {value}, not one of {choices}."
NOT_A_LIST = "damaged: {where} is not a list."
SHOULD_BE = "damaged: {where} should be {kind}, not {value:.40}."
BELOW = "damaged: {where} is {value}, less than {low}."
ABOVE = "damaged: {where} is {value}, more than {high}."
HUGE = "damaged: {where} is a number of {digits} digits."
NOT_FINITE = "damaged: {where} is {value}, not a finite number."
TOO_MANY = "damaged: {where} has {n} items, more than {most}."
TOO_LONG = "damaged: {where} is {n} characters long, more than {most}."
WRONG_LENGTH = "damaged: {where} has {n} items, not {expected}."
NOT_A_RECORD = "damaged: {where} is not a record Draftlight wrote (its JSON cannot be read)."
A_NUMBER = "a number"
A_WHOLE_NUMBER = "a whole number"
TEXT = "text"
TRUE_OR_FALSE = "true or false"


class SchemaError(ValueError):
    """A file, or a value in it, refused: its one argument says why, as Words."""

    def __init__(self, message: Words) -> None:
        super().__init__(message)


@dataclass(frozen=True)
class Bounds:
    """A number's range (`low` to `high`), or a text's or a list's most characters or items."""

    low: float | None = None
    high: float | None = None
    most: int | None = None


@dataclass(frozen=True)
class Encoded:
    """A text that holds a record as compact JSON: `cls`'s fields as a list, in order (nested
    dataclasses likewise), as `backend.engine.events.verification_to_json` writes them."""

    cls: type


# A check of a whole object once its fields are read: why it is refused, or None.
Check = Callable[[Any], Words | None]


@dataclass(frozen=True)
class Schema:
    """How one format is read (see the module's docstring)."""

    ints: Bounds = Bounds(0, MAX_INT)  # counts, ids, steps: negative only where declared
    floats: Bounds = Bounds(0.0, None)  # times, rates, probabilities: finite, not negative
    most_text: int = MAX_TEXT
    most_items: int = MAX_ITEMS
    unknown_fields: Literal["refuse", "ignore"] = "refuse"
    # (class, field) -> its annotation here, for classes declared without bounds elsewhere
    fields: Mapping[tuple[type, str], Any] = field(default_factory=dict)
    ignored: Mapping[type, frozenset[str]] = field(default_factory=dict)  # read and dropped
    checks: Mapping[type, Check] = field(default_factory=dict)

    def decode(self, cls: type, raw: object, where: str) -> Any:
        """Dataclass `cls` built from its JSON object (its `asdict` form), every value
        checked against the declaration; SchemaError when anything is wrong."""
        return _Reader(self).dataclass(cls, raw, where, positional=False)

    def decode_value(self, tp: Any, raw: object, where: str, *, positional: bool = False) -> Any:
        """One value of annotation `tp` (a dataclass's field, or a file's top-level value);
        `positional`: its records written as lists of their fields' values (see `Encoded`)."""
        return _Reader(self).value(tp, raw, where, Bounds(), positional=positional)


def read_file(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes. SchemaError when it is something
    else (nothing is read from a device; a FIFO is not waited on) or larger; OSError when it
    cannot be opened or read."""
    path = Path(path)
    # O_NONBLOCK: opening a FIFO without a writer returns at once instead of waiting
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise SchemaError(words(NOT_A_FILE, name=path.name))
        too_large = SchemaError(words(TOO_LARGE, name=path.name, limit=limit >> 20))
        if info.st_size > limit:
            raise too_large
        chunks, size = [], 0
        while chunk := os.read(fd, min(1 << 20, limit + 1 - size)):  # a growing file stops
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise too_large
        return b"".join(chunks)
    finally:
        os.close(fd)


class TooManyDigits:
    """A JSON number of more digits than any bound here allows, kept as such so that the
    schema refuses it at its place (Python refuses to convert more than 4300 digits)."""

    def __init__(self, text: str) -> None:
        self.digits = len(text.lstrip("-"))

    def __repr__(self) -> str:
        return f"<{self.digits} digits>"


def parse_json(raw: bytes | str) -> object:
    """JSON values (json.JSONDecodeError or UnicodeDecodeError when it is not JSON; NaN and
    Infinity are read, for the schema to refuse where they are). SchemaError when nested too
    deeply for Python's parser."""
    def number(text: str) -> int | TooManyDigits:
        return int(text) if len(text) <= _MAX_DIGITS else TooManyDigits(text)

    try:
        return json.loads(raw, parse_int=number)
    except RecursionError:
        raise SchemaError(words(TOO_DEEP)) from None


def safe_template(template: str, names: frozenset[str] | set[str]) -> bool:
    """Whether a template from a file fills in only its own values, plainly: `{name}` or a
    precision such as `{value:.40}`, so that filling it in reads no attribute and builds no
    text of a million spaces."""
    try:
        parts = list(string.Formatter().parse(template))
    except ValueError:
        return False
    return all(name is None or (name in names and conversion in (None, "r", "s")
                                and _PLAIN_FORMAT.fullmatch(spec or "") is not None)
               for _, name, spec, conversion in parts)


_PLAIN_FORMAT = re.compile(r"(\.\d{1,3})?[dfg%]?")


class _Reader:
    def __init__(self, schema: Schema) -> None:
        self.schema = schema

    def dataclass(self, cls: type, raw: object, where: str, *, positional: bool) -> Any:
        fields = dataclasses.fields(cls)
        if positional:  # a record written as a list of its fields' values, in order
            if not isinstance(raw, list):
                raise SchemaError(words(NOT_A_LIST, where=where))
            # a record written before its class gained its `LATER` fields lacks them
            least = _required_prefix(fields)
            if not least <= len(raw) <= len(fields):
                expected = (str(len(fields)) if least == len(fields)
                            else f"{least}–{len(fields)}")
                raise SchemaError(words(WRONG_LENGTH, where=where, n=len(raw),
                                        expected=expected))
            raw = {f.name: v for f, v in zip(fields, raw, strict=False)}
        if not isinstance(raw, dict):
            raise SchemaError(words(NOT_AN_OBJECT, where=where))
        hints = _hints(cls)
        names = {f.name for f in fields}
        unknown = set(raw) - names - self.schema.ignored.get(cls, frozenset())
        if unknown and self.schema.unknown_fields == "refuse":
            listed = ", ".join(sorted(_brief(str(n)) for n in unknown)[:10])
            raise SchemaError(words(UNKNOWN_FIELDS, where=where, names=listed))
        values = {}
        for f in fields:
            if f.name in raw:
                tp = self.schema.fields.get((cls, f.name), hints[f.name])
                values[f.name] = self.value(tp, raw[f.name], f"{where}: {f.name}", Bounds(),
                                            positional)
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise SchemaError(words(NO_FIELD, where=where, name=f.name))
        try:
            made = cls(**values)
        except (TypeError, ValueError) as exc:  # a class's own checks (a request's ranges)
            raise SchemaError(words(REFUSED, where=where, error=exc)) from exc
        check = self.schema.checks.get(cls)
        said = check(made) if check is not None else None
        if said is not None:
            raise SchemaError(words(REFUSED, where=where, error=said))
        return made

    def value(self, tp: Any, v: object, where: str, bounds: Bounds, positional: bool) -> Any:
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            inner, *meta = typing.get_args(tp)
            bounds = next((m for m in meta if isinstance(m, Bounds)), bounds)
            encoded = next((m for m in meta if isinstance(m, Encoded)), None)
            if encoded is not None:
                return self._encoded(encoded, inner, v, where, bounds)
            return self.value(inner, v, where, bounds, positional)
        if origin in (types.UnionType, typing.Union):
            args = typing.get_args(tp)
            if v is None and type(None) in args:
                return None
            (inner,) = [a for a in args if a is not type(None)]
            return self.value(inner, v, where, bounds, positional)
        if origin is Literal:
            if v not in typing.get_args(tp):
                raise SchemaError(words(NOT_ONE_OF, where=where, value=_brief(repr(v)),
                                        choices=", ".join(map(repr, typing.get_args(tp)))))
            return v
        if origin is tuple:
            return self._tuple(typing.get_args(tp), v, where, bounds, positional)
        if dataclasses.is_dataclass(tp):
            return self.dataclass(typing.cast(type, tp), v, where, positional=positional)
        if tp is object:  # a value of any plain kind (a sentence's values)
            if v is None or isinstance(v, str | bool):
                return self.value(str, v, where, bounds, positional) if isinstance(v, str) else v
            return self.value(float if isinstance(v, float) else int, v, where,
                              Bounds(-MAX_INT, MAX_INT), positional)
        if tp in (int, float):
            return self._number(tp, v, where, bounds)
        if tp is str and isinstance(v, str):
            most = bounds.most if bounds.most is not None else self.schema.most_text
            if len(v) > most:
                raise SchemaError(words(TOO_LONG, where=where, n=len(v), most=most))
            return v
        if tp is bool and isinstance(v, bool):
            return v
        raise SchemaError(words(SHOULD_BE, where=where, kind=_KINDS.get(tp, str(tp)),
                                value=_brief(repr(v))))

    def _tuple(self, args: tuple, v: object, where: str, bounds: Bounds,
               positional: bool) -> tuple:
        if not isinstance(v, list | tuple):  # JSON gives lists, `asdict` keeps tuples
            raise SchemaError(words(NOT_A_LIST, where=where))
        if len(args) == 2 and args[1] is Ellipsis:
            most = bounds.most if bounds.most is not None else self.schema.most_items
            if len(v) > most:
                raise SchemaError(words(TOO_MANY, where=where, n=len(v), most=most))
            return tuple(self.value(args[0], x, f"{where}[{i}]", Bounds(), positional)
                         for i, x in enumerate(v))
        if len(v) != len(args):
            raise SchemaError(words(WRONG_LENGTH, where=where, n=len(v), expected=len(args)))
        return tuple(self.value(a, x, f"{where}[{i}]", Bounds(), positional)
                     for i, (a, x) in enumerate(zip(args, v, strict=True)))

    def _number(self, tp: type, v: object, where: str, bounds: Bounds) -> int | float:
        default = self.schema.ints if tp is int else self.schema.floats
        low = bounds.low if bounds.low is not None else default.low
        high = bounds.high if bounds.high is not None else default.high
        if isinstance(v, TooManyDigits):
            raise SchemaError(words(HUGE, where=where, digits=v.digits))
        if isinstance(v, bool) or not isinstance(v, int | float) or (
                tp is int and not isinstance(v, int)):
            raise SchemaError(words(SHOULD_BE, where=where, kind=_KINDS[tp],
                                    value=_brief(repr(v))))
        if isinstance(v, float) and not math.isfinite(v):
            raise SchemaError(words(NOT_FINITE, where=where, value=repr(v)))
        if low is not None and v < low:
            raise SchemaError(words(BELOW, where=where, value=_brief(repr(v)),
                                    low=_number_text(low)))
        if high is not None and v > high:
            raise SchemaError(words(ABOVE, where=where, value=_brief(repr(v)),
                                    high=_number_text(high)))
        return float(v) if tp is float else v

    def _encoded(self, enc: Encoded, tp: Any, v: object, where: str, bounds: Bounds) -> Any:
        text = self.value(tp, v, where, bounds, positional=False)
        if text is None:
            return None
        try:
            record = parse_json(text)
        except (ValueError, SchemaError):
            raise SchemaError(words(NOT_A_RECORD, where=where)) from None
        self.dataclass(enc.cls, record, where, positional=True)
        return text


LATER = "later"  # a field's metadata key: added after records were written without it


def _required_prefix(fields: tuple[dataclasses.Field, ...]) -> int:
    """How many of a record's fields, in order, a positional record must give: all but the
    trailing ones marked `LATER` (each with a default)."""
    n = len(fields)
    while n and fields[n - 1].metadata.get(LATER):
        n -= 1
    return n


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    """A dataclass's field annotations, resolved once (a trace has thousands of tokens)."""
    return typing.get_type_hints(cls, include_extras=True)


def _brief(text: str) -> str:
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def _number_text(value: float | None) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


_KINDS: dict[object, Words] = {float: words(A_NUMBER), int: words(A_WHOLE_NUMBER),
                               str: words(TEXT), bool: words(TRUE_OR_FALSE)}
