"""An answer's event trace as a JSON file: what was asked, with which models, and every event.

The events are the engine's own frozen dataclasses (`backend.engine.events`), so a trace read
back drives a view exactly as the live stream did, and a later Draftlight can replay, inspect
or export an answer without the models. The file is refused in words when it is not ours,
not this version, or damaged: a replay must never run on half-read data.
"""

from __future__ import annotations

import dataclasses
import json
import os
import types
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from backend import __version__
from backend.engine.events import (
    EVENT_NAMES,
    Event,
    GenerationFailed,
    GenerationFinished,
    GenerationStarted,
    Stats,
    event_to_dict,
)
from backend.engine.request import GenerationRequest
from backend.words import Words, words, words_from_dict, words_of

FORMAT = "draftlight-trace"
# The one declaration of the format's version: raise it when a reader of the old version
# would misread a new file (a renamed or retyped field), not for an added field with a default.
VERSION = 1

_EVENT_TYPES: dict[str, type] = {name: cls for cls, name in EVENT_NAMES.items()}
# `Stats.to_dict` adds its derived figures for readers of the JSON; they are recomputed.
_DERIVED_STATS = frozenset(Stats().to_dict()) - {f.name for f in dataclasses.fields(Stats)}
# Fields older traces carry that no longer mean anything: read and dropped. (A plain speed
# from another moment than the answer's, which the speedup no longer divides by.)
_RETIRED: dict[type, frozenset[str]] = {
    GenerationStarted: frozenset({"plain_tokens_per_second"})}

# Why a file is refused, for a window that translates them (backend/words.py). `where` names
# the place in the file (a JSON path such as "event 3 (step): candidates"), not translated.
CANNOT_READ = "Cannot read {name}: {error}."
NOT_JSON = "{name} is not a Draftlight trace: it is not JSON."
NOT_JSON_AT = ("{name} is not a Draftlight trace: it is not JSON (line {line}, column {column}: "
               "{error}).")
IN_FILE = "{name}: {error}"
NOT_A_TRACE = "not a Draftlight trace (it has no \"format\": \"draftlight-trace\")."
OTHER_VERSION = ("a Draftlight trace of version {version}; this Draftlight reads version "
                 "{supported}.")
NOT_AN_OBJECT = "damaged: {where} is not an object."
UNKNOWN_KIND = "damaged: {where} is of unknown kind {kind}."
NO_ENDING = "damaged or cut short: the answer's last event (finished or failed) is missing."
EVENTS_FOLLOW = "damaged: the answer ends at event {n} but events follow."
NO_KEY = "damaged: {where} has no \"{key}\"."
NOT_KIND = "damaged: \"{key}\" in {where} is not a JSON {kind}."
UNKNOWN_FIELDS = "damaged: {where} has unknown fields {names}."
NO_FIELD = "damaged: {where} has no {name}."
REFUSED = "damaged: {where} is refused: {error}"
NOT_ONE_OF = "damaged: {where} is {value}, not one of {choices}."
NOT_A_LIST = "damaged: {where} is not a list."
SHOULD_BE = "damaged: {where} should be {kind}, not {value:.40}."
JSON_OBJECT = "object"
JSON_LIST = "list"
JSON_STRING = "string"
A_NUMBER = "a number"
A_WHOLE_NUMBER = "a whole number"
TEXT = "text"
TRUE_OR_FALSE = "true or false"


class TraceError(Exception):
    """A trace file that cannot be read, told in one sentence (Words, see backend/words.py)."""

    def __init__(self, message: Words) -> None:
        super().__init__(message)


@dataclass(frozen=True)
class Trace:
    """One answer: the request, the models' file names (never their folders: a trace is
    made to be shared) and the events in the order the engine yielded them."""

    request: GenerationRequest
    events: tuple[Event, ...]
    target_model: str = ""
    draft_model: str = ""  # "" when no draft model took part


def trace_to_dict(trace: Trace) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "written_by": f"Draftlight {__version__}",
        "models": {"target": trace.target_model, "draft": trace.draft_model},
        "request": dataclasses.asdict(trace.request),
        "events": [event_to_dict(e) for e in trace.events],
    }


def write_trace(path: str | os.PathLike[str], trace: Trace) -> None:
    """Write atomically, so an interrupted write never leaves a half trace under the name.

    ASCII-only JSON: a model can emit a lone surrogate in a rejected draft's text, which
    UTF-8 cannot encode but a JSON escape carries exactly.
    """
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(trace_to_dict(trace), indent=1) + "\n", encoding="ascii")
    os.replace(tmp, path)


def read_trace(path: str | os.PathLike[str]) -> Trace:
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise TraceError(words(CANNOT_READ, name=path.name, error=exc.strerror or exc)) from exc
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        said = (words(NOT_JSON_AT, name=path.name, line=exc.lineno, column=exc.colno,
                      error=exc.msg)
                if isinstance(exc, json.JSONDecodeError) else words(NOT_JSON, name=path.name))
        raise TraceError(said) from exc
    try:
        return trace_from_dict(data)
    except TraceError as exc:
        raise TraceError(words(IN_FILE, name=path.name, error=words_of(exc))) from None


def trace_from_dict(data: object) -> Trace:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise TraceError(words(NOT_A_TRACE))
    version = data.get("version")
    if version != VERSION:
        raise TraceError(words(OTHER_VERSION, version=repr(version), supported=VERSION))
    models = _field(data, "models", dict, "the trace")
    target = _field(models, "target", str, "models")
    draft = _field(models, "draft", str, "models")
    request = _decode(GenerationRequest, _field(data, "request", dict, "the trace"), "request")
    raw_events = _field(data, "events", list, "the trace")
    events = tuple(_decode_event(i, e) for i, e in enumerate(raw_events))
    _check_ending(events)
    return Trace(request=request, events=events, target_model=target, draft_model=draft)


def _decode_event(i: int, raw: object) -> Event:
    where = f"event {i + 1}"
    if not isinstance(raw, dict):
        raise TraceError(words(NOT_AN_OBJECT, where=where))
    kind = raw.get("event")
    cls = _EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise TraceError(words(UNKNOWN_KIND, where=where, kind=repr(kind)))
    fields = {k: v for k, v in raw.items() if k != "event"}
    said = fields.pop("words", None) if cls is GenerationFailed else None
    event: Event = _decode(cls, fields, f"{where} ({kind})")
    if said is not None and isinstance(event, GenerationFailed):
        event = dataclasses.replace(event, words=_decode_words(said, f"{where} ({kind}): words"))
    return event


def _decode_words(raw: object, where: str) -> Words:
    try:
        if not isinstance(raw, dict):
            raise TypeError(raw)
        said = words_from_dict(raw)
        str(said)  # every placeholder has its value
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        raise TraceError(words(NOT_AN_OBJECT, where=where)) from None
    return said


def _check_ending(events: tuple[Event, ...]) -> None:
    """A trace holds one whole answer: it ends with its one finish or failure."""
    ends = [i for i, e in enumerate(events) if isinstance(e, GenerationFinished | GenerationFailed)]
    if not ends:
        raise TraceError(words(NO_ENDING))
    if ends != [len(events) - 1]:
        raise TraceError(words(EVENTS_FOLLOW, n=ends[0] + 1))


def _field(d: dict, key: str, kind: type, where: str) -> Any:
    if key not in d:
        raise TraceError(words(NO_KEY, where=where, key=key))
    value = d[key]
    if not isinstance(value, kind):
        raise TraceError(words(NOT_KIND, key=key, where=where, kind=_JSON_NAMES[kind]))
    return value


_JSON_NAMES: dict[type, Words] = {dict: words(JSON_OBJECT), list: words(JSON_LIST),
                                  str: words(JSON_STRING)}


def _decode(cls: type, raw: object, where: str) -> Any:
    """Rebuild dataclass `cls` from its `asdict` form, checking every value against the
    field's annotation, so a damaged file is refused here rather than failing in a view."""
    if not isinstance(raw, dict):
        raise TraceError(words(NOT_AN_OBJECT, where=where))
    hints = typing.get_type_hints(cls)
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = (set(raw) - names - (_DERIVED_STATS if cls is Stats else set())
               - _RETIRED.get(cls, frozenset()))
    if unknown:
        raise TraceError(words(UNKNOWN_FIELDS, where=where, names=", ".join(sorted(unknown))))
    values = {}
    for f in dataclasses.fields(cls):
        if f.name in raw:
            values[f.name] = _value(hints[f.name], raw[f.name], f"{where}: {f.name}")
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise TraceError(words(NO_FIELD, where=where, name=f.name))
    try:
        return cls(**values)
    except (TypeError, ValueError) as exc:  # a request's own range checks
        raise TraceError(words(REFUSED, where=where, error=exc)) from exc


def _value(tp: Any, v: object, where: str) -> Any:
    origin = typing.get_origin(tp)
    if origin in (types.UnionType, typing.Union):
        if v is None and type(None) in typing.get_args(tp):
            return None
        (inner,) = [a for a in typing.get_args(tp) if a is not type(None)]
        return _value(inner, v, where)
    if origin is typing.Literal:
        if v not in typing.get_args(tp):
            raise TraceError(words(NOT_ONE_OF, where=where, value=repr(v),
                                   choices=", ".join(map(repr, typing.get_args(tp)))))
        return v
    if origin is tuple:  # tuple[X, ...]
        if not isinstance(v, list | tuple):  # JSON gives lists, `asdict` keeps tuples
            raise TraceError(words(NOT_A_LIST, where=where))
        item = typing.get_args(tp)[0]
        return tuple(_value(item, x, f"{where}[{i}]") for i, x in enumerate(v))
    if dataclasses.is_dataclass(tp):
        return _decode(typing.cast(type, tp), v, where)
    if tp is float and isinstance(v, int | float) and not isinstance(v, bool):
        return float(v)
    if tp in (int, str, bool) and isinstance(v, tp) and (tp is bool or not isinstance(v, bool)):
        return v
    raise TraceError(words(SHOULD_BE, where=where, kind=_WORDS.get(tp, str(tp)), value=repr(v)))


_WORDS: dict[object, Words] = {float: words(A_NUMBER), int: words(A_WHOLE_NUMBER),
                               str: words(TEXT), bool: words(TRUE_OR_FALSE)}
