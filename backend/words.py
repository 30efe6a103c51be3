"""Sentences backend/ composes at run time, as an English template and its values.

backend/ stays English and Qt-free: an error, an advice or a refusal is `Words`, whose `str()`
is the English sentence (logs, the command line, `str(exc)`), and the window translates the
template (in the context "backend", app/backend_text.py) and fills in the same values. A
template is a module-level constant with named placeholders, used as `words(TEMPLATE, n=…)`;
`declared_templates()` finds every one for lupdate by reading backend/'s source, so a new
template needs no list to be added to.

An exception carries its Words as its one argument (`EngineError(words(…))`): `str(exc)` is
the English sentence as before, `words_of(exc)` the Words (any other exception's text becomes
Words without values, which a window shows as it is unless it is itself a declared template).
"""

from __future__ import annotations

import ast
import numbers
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any


@dataclass(frozen=True, slots=True)
class Words:
    """One sentence as its English template and values: `str()` is the sentence, and a window
    can translate the template and fill in the same values. A value may itself be Words, or a
    tuple of Words joined by "; ". A template without values is shown as it is (no
    formatting), so any text can be Words."""

    template: str
    values: tuple[tuple[str, object], ...] = ()

    def __str__(self) -> str:
        return self.filled(self.template, str)

    def filled(self, template: str, say: Callable[[Words], str]) -> str:
        """`template` (this sentence's own, or its translation) with the values filled in, a
        value that is itself Words (or a tuple of them, joined by "; ") said by `say`;
        without values, `template` as it is."""
        def shown(value: object) -> object:
            if isinstance(value, Words):
                return say(value)
            if isinstance(value, tuple) and all(isinstance(v, Words) for v in value):
                return "; ".join(say(v) for v in value)
            return value

        if not self.values:
            return template
        return template.format(**{k: shown(v) for k, v in self.values})


def _kept(value: object) -> object:
    """A value as Words keeps it: plain values, Words and tuples of Words as they are, anything
    else (a path, an exception) as its text, so Words stay picklable and JSON-ready."""
    if value is None or isinstance(value, str | bool | int | float | Words):
        return value
    if isinstance(value, numbers.Integral):  # numpy's, as plain numbers
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    if isinstance(value, tuple) and all(isinstance(v, Words) for v in value):
        return value
    if isinstance(value, BaseException):
        return words_of(value)
    return str(value)


def words(template: str, **values: object) -> Words:
    """`template` (a module-level constant) with its values."""
    return Words(template, tuple((k, _kept(v)) for k, v in values.items()))


def declared(text: str) -> Words:
    """A text declared elsewhere (a setting's label, a reason) as Words without values, to go
    inside a sentence: a window translates it where it is a declared text, else shows it as
    it is."""
    return Words(text)


def words_of(exc: BaseException) -> Words:
    """The Words an exception was raised with, else its text as Words without values."""
    if len(exc.args) == 1 and isinstance(exc.args[0], Words):
        return exc.args[0]
    return Words(str(exc))


def words_to_dict(w: Words) -> dict[str, Any]:
    """JSON-ready: {"template": …, "values": {name: value}} (nested Words as such dicts)."""
    def encoded(value: object) -> object:
        if isinstance(value, Words):
            return words_to_dict(value)
        if isinstance(value, tuple):
            return [words_to_dict(v) for v in value]
        return value

    return {"template": w.template, "values": {k: encoded(v) for k, v in w.values}}


def words_from_dict(data: dict[str, Any]) -> Words:
    def decoded(value: object) -> object:
        if isinstance(value, dict):
            return words_from_dict(value)
        if isinstance(value, list):
            return tuple(words_from_dict(v) for v in value)
        return value

    values = data.get("values") or {}
    return Words(str(data["template"]), tuple((str(k), decoded(v)) for k, v in values.items()))


@dataclass(frozen=True, slots=True)
class TemplateUse:
    """One `words(…)` / `Words(…)` call in backend/'s source: where, its template (None when it
    is not a string literal or a module-level string constant) and its values' names."""

    where: str
    template: str | None
    names: frozenset[str]
    all_values: bool  # False when some values come from a **mapping


@cache
def template_uses() -> tuple[TemplateUse, ...]:
    """Every `words(…)` / `Words(…)` call in backend/, read from its source (no imports, so
    no llama.cpp): its first argument is a literal or a constant of its own module or
    imported from another backend module, and each is found there."""
    root = Path(__file__).resolve().parent
    trees = {_module(root, p): ast.parse(p.read_text(encoding="utf-8"), str(p))
             for p in sorted(root.rglob("*.py"))}
    constants = {m: _constants(tree) for m, tree in trees.items()}
    uses = []
    for module, tree in trees.items():
        if module == __name__:  # the machinery itself
            continue
        imported = {alias.asname or alias.name: (node.module, alias.name)
                    for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
                    for alias in node.names}
        for node in ast.walk(tree):
            first = template_argument(node)
            if first is None:
                continue
            assert isinstance(node, ast.Call)
            # `words(A if cond else B, …)`: both are templates
            choices = [first.body, first.orelse] if isinstance(first, ast.IfExp) else [first]
            for choice in choices:
                template = _string(choice)
                if isinstance(choice, ast.Name):
                    template = constants[module].get(choice.id)
                    if template is None and choice.id in imported:
                        source, name = imported[choice.id]
                        template = constants.get(source, {}).get(name)
                uses.append(TemplateUse(
                    f"{module}:{node.lineno}", template,
                    frozenset(k.arg for k in node.keywords if k.arg is not None),
                    all(k.arg is not None for k in node.keywords)))
    return tuple(uses)


def declared_templates() -> tuple[str, ...]:
    """Every template backend/ says things with, once each, for lupdate
    (scripts/update_translations.py): found in the source, so no list has to be kept."""
    return tuple(dict.fromkeys(u.template for u in template_uses() if u.template))


def _module(root: Path, path: Path) -> str:
    parts = ("backend", *path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _constants(tree: ast.Module) -> dict[str, str]:
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            value = _string(node.value)
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if value is not None and isinstance(t, ast.Name):
                    found[t.id] = value
    return found


def template_argument(node: ast.AST) -> ast.expr | None:
    """The template argument of a `words(…)` / `Words(…)` call node, else None."""
    if not isinstance(node, ast.Call) or not node.args:
        return None
    func = node.func
    name = func.id if isinstance(func, ast.Name) else (
        func.attr if isinstance(func, ast.Attribute) else None)
    return node.args[0] if name in ("words", "Words") else None


def _string(node: ast.expr | None) -> str | None:
    """A string literal's value (implicit concatenation included); None for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None
