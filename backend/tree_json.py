"""A tree step's draft tree as one compact JSON text: how an answer's token columns keep it
(the chat store's `tree` column, on the step's first token, and a conversation exported from
it), read back checked.

Each node is a list of `TreeNode`'s fields in order, as `verification_to_json` writes a
Verification: one string per tree step, which the garbage collector never scans. A record is
checked whole when read: every node's values within the trace format's bounds
(backend/traces.py `ENGINE_FIELDS`; a field added to TreeNode later is marked `LATER`, so
older records still read) and the tree's shape (`tree_problem`). What came from a file or a
database is data: a damaged record is refused in words, and a reader leaves that tree out.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Mapping, Sequence
from typing import Annotated

from backend.engine.events import TreeNode
from backend.traces import ENGINE_FIELDS, MAX_TOKEN_TEXT, MAX_TREE_NODES, tree_problem
from backend.typed_json import NOT_A_RECORD, REFUSED, Bounds, Schema, SchemaError, parse_json
from backend.words import words

log = logging.getLogger(__name__)

TREE_NODES = Annotated[tuple[TreeNode, ...], Bounds(most=MAX_TREE_NODES)]
TREE_TEXT = Annotated[str, Bounds(most=MAX_TOKEN_TEXT)]  # one record, as stored
_SCHEMA = Schema(fields=ENGINE_FIELDS)
_FIELDS = tuple(f.name for f in dataclasses.fields(TreeNode))


def tree_to_json(tree: Sequence[TreeNode]) -> str:
    # ensure_ascii: a lone surrogate in a token's piece stays a JSON escape, never bad UTF-8
    return json.dumps([[getattr(node, name) for name in _FIELDS] for node in tree],
                      ensure_ascii=True, separators=(",", ":"))


def tree_from_json(text: object, where: str = "tree") -> tuple[TreeNode, ...]:
    """The tree a record holds; SchemaError, naming `where`, when it is not one."""
    checked: str = _SCHEMA.decode_value(TREE_TEXT, text, where)
    try:
        raw = parse_json(checked)
    except (ValueError, SchemaError):
        raise SchemaError(words(NOT_A_RECORD, where=where)) from None
    tree: tuple[TreeNode, ...] = _SCHEMA.decode_value(TREE_NODES, raw, where, positional=True)
    said = tree_problem(tree)
    if said is not None:
        raise SchemaError(words(REFUSED, where=where, error=said))
    return tree


def tree_column(steps: Sequence[int], trees: Mapping[int, Sequence[TreeNode]], start: int,
                end: int) -> list[str | None]:
    """The `tree` column of tokens [start, end) of an answer whose tokens' steps are `steps`:
    each tree step's record on its first token, None elsewhere (a step begun before `start`
    had its tree saved with its first token)."""
    out: list[str | None] = []
    for i in range(start, end):
        tree = trees.get(steps[i]) if i == 0 or steps[i] != steps[i - 1] else None
        out.append(tree_to_json(tree) if tree else None)
    return out


def trees_of(steps: Sequence[int], column: Sequence[object],
             where: str = "answer") -> dict[int, tuple[TreeNode, ...]]:
    """An answer's trees by step number, read from its `tree` column (the first record of a
    step counts). A damaged record is left out, with one warning for the answer: its tokens
    and its other trees stay as they were."""
    trees: dict[int, tuple[TreeNode, ...]] = {}
    damaged: list[str] = []
    for step, text in zip(steps, column, strict=False):  # a stored column may be short
        if text is None or not isinstance(step, int) or step in trees:
            continue
        try:
            trees[step] = tree_from_json(text, f"step {step}'s tree")
        except SchemaError as exc:
            damaged.append(str(exc))
    if damaged:
        log.warning("%s: %d damaged draft trees left out (%s)", where, len(damaged), damaged[0])
    return trees
