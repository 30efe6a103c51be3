"""An answer's event trace as a JSON file: what was asked, with which models, and every event.

The events are the engine's own frozen dataclasses (`backend.engine.events`), so a trace read
back drives a view exactly as the live stream did, and a later Draftlight can replay, inspect
or export an answer without the models. The file is refused in words when it is not ours,
not this version, or damaged: a replay must never run on half-read data.

A trace is read whole before anything uses it: a regular file of at most MAX_TRACE_BYTES
(backend/typed_json.py reads it), checked against the events' own declarations plus
`ENGINE_FIELDS`' bounds (counts and times not negative, probabilities 0 to 1, inspection
records that decode) and `ENGINE_CHECKS`' invariants (no more drafts accepted than drafted).
A finished answer's text must be its emitted tokens' texts put together, as the engine makes
it: a file where they differ would show one answer coloured and copy, export or continue
another, so it is refused rather than shown (`text_problem`; chat imports apply the same
rule).
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from backend import __version__
from backend.engine.events import (
    EVENT_NAMES,
    Candidate,
    Event,
    GenerationFailed,
    GenerationFinished,
    GenerationStarted,
    Stats,
    StepVerified,
    Token,
    TreeNode,
    Verification,
    event_to_dict,
)
from backend.engine.request import GenerationRequest, SamplingSettings
from backend.typed_json import (
    MAX_INT,
    NOT_AN_OBJECT,
    Bounds,
    Check,
    Encoded,
    Schema,
    SchemaError,
    parse_json,
    read_file,
    safe_template,
)
from backend.words import Words, words, words_from_dict, words_of

FORMAT = "draftlight-trace"
# The one declaration of the format's version: raise it when a reader of the old version
# would misread a new file (a renamed or retyped field), not for an added field with a default.
VERSION = 1
# A trace is one answer: tens of megabytes with every token's inspection record.
MAX_TRACE_BYTES = 256 << 20
MAX_EVENTS = 1 << 22
MAX_TOKEN_TEXT = 1 << 20  # characters: a server's token is a piece of its stream
MAX_NAME = 256  # characters of a spec type's or an origin's name
MAX_STEP_TOKENS = 4096  # tokens drafted or emitted in one step
MAX_CANDIDATES = 256  # an inspection record's most likely tokens
MAX_TREE_NODES = 64  # a draft tree's nodes (GenerationRequest.tree_nodes)

_EVENT_TYPES: dict[str, type] = {name: cls for cls, name in EVENT_NAMES.items()}
# `Stats.to_dict` adds its derived figures for readers of the JSON; they are recomputed.
_DERIVED_STATS = frozenset(Stats().to_dict()) - {f.name for f in dataclasses.fields(Stats)}

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
UNKNOWN_KIND = "damaged: {where} is of unknown kind {kind}."
NO_ENDING = "damaged or cut short: the answer's last event (finished or failed) is missing."
EVENTS_FOLLOW = "damaged: the answer ends at event {n} but events follow."
NO_KEY = "damaged: {where} has no \"{key}\"."
NOT_KIND = "damaged: \"{key}\" in {where} is not a JSON {kind}."
TOO_MANY_EVENTS = "damaged: it has {n} events, more than {most}."
TEXT_NOT_TOKENS = ("damaged: the text of {where} is not its tokens' texts put together (they "
                   "differ from character {at} on).")
MORE_ACCEPTED = "it has more drafts accepted ({accepted}) than drafted ({drafted})."
MORE_DRAFT_STEPS = "it has more drafting steps ({draft_steps}) than steps ({steps})."
TREE_PARENT = "its tree node {node} follows node {parent}, which is not one before it."
TREE_SIBLING = "its tree node {node} has the rank or the token of a sibling before it."
TREE_KEPT = "its tree node {node} is kept, but not on one branch with the other kept nodes."
STEP_ACCEPTS_MORE = ("it accepts {n} drafts, more than it drafted ({drafted}) or emitted "
                     "({emitted}).")
NOT_A_SENTENCE = "its sentence is not one Draftlight can fill in."
JSON_OBJECT = "object"
JSON_LIST = "list"
JSON_STRING = "string"

# Bounds the engine's events do not declare themselves, shared by the formats that carry
# them (a trace, an exported chat's tokens and stats).
PROBABILITY = Annotated[float, Bounds(0.0, 1.0 + 1e-6)]  # float32 rounds a hair above 1
TOKEN_ID = Annotated[int, Bounds(-1, MAX_INT)]  # -1: a server's token, its id unknown
TOKEN_TEXT = Annotated[str, Bounds(most=MAX_TOKEN_TEXT)]
NAME = Annotated[str, Bounds(most=MAX_NAME)]
INSPECTION = Annotated[str | None, Encoded(Verification), Bounds(most=MAX_TOKEN_TEXT)]
STEP_TOKENS = Annotated[tuple[Token, ...], Bounds(most=MAX_STEP_TOKENS)]
CANDIDATES = Annotated[tuple[Candidate, ...], Bounds(most=MAX_CANDIDATES)]
_SIGNED_INT = Annotated[int, Bounds(-MAX_INT, MAX_INT)]
_SIGNED_FLOAT = Annotated[float, Bounds(-float(MAX_INT), None)]
ENGINE_FIELDS: dict[tuple[type, str], Any] = {
    (Token, "id"): TOKEN_ID, (Token, "text"): TOKEN_TEXT, (Token, "origin"): NAME,
    (Token, "p_target"): PROBABILITY | None, (Token, "p_draft"): PROBABILITY | None,
    (Token, "inspection"): INSPECTION,
    (Candidate, "p"): PROBABILITY, (Candidate, "text"): TOKEN_TEXT,
    (Verification, "draw"): PROBABILITY | None, (Verification, "accept_prob"): PROBABILITY | None,
    (Verification, "residual_p"): PROBABILITY | None,
    (Verification, "top_target"): CANDIDATES, (Verification, "top_draft"): CANDIDATES,
    (StepVerified, "drafted"): STEP_TOKENS, (StepVerified, "emitted"): STEP_TOKENS,
    (StepVerified, "tree"): Annotated[tuple[TreeNode, ...], Bounds(most=MAX_TREE_NODES)],
    (TreeNode, "id"): TOKEN_ID, (TreeNode, "text"): TOKEN_TEXT,
    (TreeNode, "q"): PROBABILITY | None, (TreeNode, "p"): PROBABILITY | None,
    (TreeNode, "rank"): Annotated[int, Bounds(0, MAX_TREE_NODES)],
    (TreeNode, "parent"): Annotated[int, Bounds(-1, MAX_TREE_NODES)],
    (GenerationStarted, "spec_type"): NAME, (GenerationRequest, "spec_type"): NAME,
    # A request checks these itself, against the settings' declared ranges (its refusal
    # names the setting and its range), so they are left to it.
    **{(GenerationRequest, name): _SIGNED_INT for name in ("n_draft_max", "n_draft_min",
                                                             "max_tokens")},
    (GenerationRequest, "p_min"): _SIGNED_FLOAT,
    **{(SamplingSettings, name): _SIGNED_FLOAT for name in ("temperature", "top_p", "min_p",
                                                            "repeat_penalty")},
    **{(SamplingSettings, name): _SIGNED_INT for name in ("top_k", "seed")},
}


def _stats_problem(s: Stats) -> Words | None:
    if s.n_accepted > s.n_drafted:
        return words(MORE_ACCEPTED, accepted=s.n_accepted, drafted=s.n_drafted)
    if s.n_draft_steps > s.n_steps:
        return words(MORE_DRAFT_STEPS, draft_steps=s.n_draft_steps, steps=s.n_steps)
    return None


def _step_problem(step: StepVerified) -> Words | None:
    if step.n_accepted > min(len(step.drafted), len(step.emitted)):
        return words(STEP_ACCEPTS_MORE, n=step.n_accepted, drafted=len(step.drafted),
                     emitted=len(step.emitted))
    return tree_problem(step.tree)


def tree_problem(tree: Sequence[TreeNode]) -> Words | None:
    """Why a step's tree is not one the engine makes (backend/engine/tree/structure.py): each
    node after its parent, siblings of distinct ranks and tokens, the kept nodes one branch
    down from the root; None when it is. Views draw a tree from these, and the transcript marks
    where its kept branch left the first choices."""
    siblings: set[tuple[int, str, int]] = set()
    kept_under: set[int] = set()  # parents with a kept child
    for i, node in enumerate(tree):
        if not -1 <= node.parent < i:
            return words(TREE_PARENT, node=i, parent=node.parent)
        rank, token = (node.parent, "rank", node.rank), (node.parent, "id", node.id)
        if rank in siblings or token in siblings:
            return words(TREE_SIBLING, node=i)
        siblings.update((rank, token))
        if node.kept:
            if node.parent in kept_under or (node.parent >= 0 and not tree[node.parent].kept):
                return words(TREE_KEPT, node=i)
            kept_under.add(node.parent)
    return None


def _sentence_problem(said: Words) -> Words | None:
    return None if plain_words(said) else words(NOT_A_SENTENCE)


ENGINE_CHECKS: dict[type, Check] = {Stats: _stats_problem, StepVerified: _step_problem,
                                    Words: _sentence_problem}
_SCHEMA = Schema(fields=ENGINE_FIELDS, checks=ENGINE_CHECKS, ignored={
    Stats: _DERIVED_STATS,
    # Fields older traces carry that no longer mean anything: read and dropped. (A plain
    # speed from another moment than the answer's, which the speedup no longer divides by.)
    GenerationStarted: frozenset({"plain_tokens_per_second"})})


def plain_words(said: Words, depth: int = 0) -> bool:
    """Whether a sentence read from a file fills in only its own plain values (nested
    sentences likewise, a few deep), so that showing it reads nothing else."""
    if depth > 8 or not safe_template(said.template, {k for k, _ in said.values}):
        return False
    return all(plain_words(v, depth + 1) for _, value in said.values
               for v in (value if isinstance(value, tuple) else (value,)) if isinstance(v, Words))


def text_problem(text: str, pieces: list[str], where: str) -> Words | None:
    """Why the answer at `where` has a text that is not its emitted tokens' texts put
    together; None when it is."""
    joined = "".join(pieces)
    if joined == text:
        return None
    at = next((i for i, (a, b) in enumerate(zip(joined, text, strict=False)) if a != b),
              min(len(joined), len(text)))
    return words(TEXT_NOT_TOKENS, where=where, at=at + 1)


def start_without_tokens(text: str, emitted: str) -> str | None:
    """The beginning of an answer's `text` that its tokens (`emitted`, their texts put
    together) do not make, when they make only its end: an answer continued from one saved
    without tokens. "" when they make all of it; None when they make another text."""
    if emitted == text:
        return ""
    return text[: len(text) - len(emitted)] if text.endswith(emitted) else None


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
        raw = read_file(path, MAX_TRACE_BYTES)
    except OSError as exc:
        raise TraceError(words(CANNOT_READ, name=path.name, error=exc.strerror or exc)) from exc
    except SchemaError as exc:  # not a regular file, or too large
        raise TraceError(words_of(exc)) from None
    try:
        data = parse_json(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        said = (words(NOT_JSON_AT, name=path.name, line=exc.lineno, column=exc.colno,
                      error=exc.msg)
                if isinstance(exc, json.JSONDecodeError) else words(NOT_JSON, name=path.name))
        raise TraceError(said) from exc
    except SchemaError as exc:
        raise TraceError(words(IN_FILE, name=path.name, error=words_of(exc))) from None
    try:
        return trace_from_dict(data)
    except TraceError as exc:
        raise TraceError(words(IN_FILE, name=path.name, error=words_of(exc))) from None


def trace_from_dict(data: object) -> Trace:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise TraceError(words(NOT_A_TRACE))
    version = data.get("version")
    if version != VERSION:
        raise TraceError(words(OTHER_VERSION, version=repr(version)[:40], supported=VERSION))
    try:
        models = _field(data, "models", dict, "the trace")
        target = _SCHEMA.decode_value(NAME_OF_FILE, _field(models, "target", str, "models"),
                                      "models: target")
        draft = _SCHEMA.decode_value(NAME_OF_FILE, _field(models, "draft", str, "models"),
                                     "models: draft")
        request = _SCHEMA.decode(GenerationRequest, _field(data, "request", dict, "the trace"),
                                 "request")
        raw_events = _field(data, "events", list, "the trace")
        if len(raw_events) > MAX_EVENTS:
            raise TraceError(words(TOO_MANY_EVENTS, n=len(raw_events), most=MAX_EVENTS))
        events = tuple(_decode_event(i, e) for i, e in enumerate(raw_events))
    except SchemaError as exc:
        raise TraceError(words_of(exc)) from None
    _check_ending(events)
    return Trace(request=request, events=events, target_model=target, draft_model=draft)


NAME_OF_FILE = Annotated[str, Bounds(most=4096)]


def _decode_event(i: int, raw: object) -> Event:
    where = f"event {i + 1}"
    if not isinstance(raw, dict):
        raise TraceError(words(NOT_AN_OBJECT, where=where))
    kind = raw.get("event")
    cls = _EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise TraceError(words(UNKNOWN_KIND, where=where, kind=repr(kind)[:40]))
    fields = {k: v for k, v in raw.items() if k != "event"}
    said = fields.pop("words", None) if cls is GenerationFailed else None
    event: Event = _SCHEMA.decode(cls, fields, f"{where} ({kind})")
    if said is not None and isinstance(event, GenerationFailed):
        event = dataclasses.replace(event, words=_decode_words(said, f"{where} ({kind}): words"))
    return event


def _decode_words(raw: object, where: str) -> Words:
    try:
        if not isinstance(raw, dict):
            raise TypeError(raw)
        said = words_from_dict(raw)
        if not plain_words(said):
            raise ValueError(said)
        str(said)  # every placeholder has its value
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, RecursionError):
        raise TraceError(words(NOT_AN_OBJECT, where=where)) from None
    return said


def _check_ending(events: tuple[Event, ...]) -> None:
    """A trace holds one whole answer: it ends with its one finish or failure, and a finished
    answer's text is its tokens' texts."""
    ends = [i for i, e in enumerate(events) if isinstance(e, GenerationFinished | GenerationFailed)]
    if not ends:
        raise TraceError(words(NO_ENDING))
    if ends != [len(events) - 1]:
        raise TraceError(words(EVENTS_FOLLOW, n=ends[0] + 1))
    last = events[-1]
    steps = [e for e in events if isinstance(e, StepVerified)]
    if isinstance(last, GenerationFinished) and steps:
        said = text_problem(last.text, [t.text for s in steps for t in s.emitted],
                            f"event {len(events)} (finished)")
        if said is not None:
            raise TraceError(said)


def _field(d: dict, key: str, kind: type, where: str) -> Any:
    if key not in d:
        raise TraceError(words(NO_KEY, where=where, key=key))
    value = d[key]
    if not isinstance(value, kind):
        raise TraceError(words(NOT_KIND, key=key, where=where, kind=_JSON_NAMES[kind]))
    return value


_JSON_NAMES: dict[type, Words] = {dict: words(JSON_OBJECT), list: words(JSON_LIST),
                                  str: words(JSON_STRING)}
