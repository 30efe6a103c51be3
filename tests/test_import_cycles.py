"""The import graph of app/ and backend/: no module imports itself through others, and no
module is named like a standard library one.

Every `import` and `from … import` counts, wherever it stands: at the top, under
`if TYPE_CHECKING:` (a circle a type checker needs is still a circle a reader has to
untangle) and inside functions (a deferred import hides a circle, it does not remove it).
`from pkg import name` is an edge to the module pkg.name when there is one, else to pkg; a
package's `__init__` is not counted as imported by its submodules' imports (as import-linter's
graph does not).
"""

from __future__ import annotations

import ast
import itertools
import sys
import textwrap
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("app", "backend")


@dataclass(frozen=True)
class Edge:
    """One module importing another, where it first does."""

    source: str
    target: str
    path: str  # the importing file, relative to the root
    line: int
    where: str  # "" at module level, "TYPE_CHECKING", or "in f()"

    def __str__(self) -> str:
        where = f", {self.where}" if self.where else ""
        return f"{self.source} → {self.target}  ({self.path}:{self.line}{where})"


def module_files(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    """{dotted module name: file} for every .py under `packages` (a package by its
    __init__.py)."""
    modules = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            if "__pycache__" in path.parts:
                continue
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.Module):
    """(node, where) for every import statement in `tree`, nested ones included."""
    todo: list[tuple[ast.AST, str]] = [(tree, "")]
    while todo:
        node, where = todo.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node, where
        elif isinstance(node, ast.If) and _is_type_checking(node.test) and not where:
            todo.extend((child, "TYPE_CHECKING") for child in node.body)
            todo.extend((child, where) for child in node.orelse)
            continue
        inner = where
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            inner = f"in {node.name}()"
        todo.extend((child, inner) for child in ast.iter_child_nodes(node))


def _resolve(node: ast.Import | ast.ImportFrom, module: str, is_package: bool,
             known: dict[str, Path]) -> list[str]:
    """The modules of `known` that `node`, in `module`, imports."""
    if isinstance(node, ast.Import):
        out = []
        for alias in node.names:
            name = alias.name
            while name and name not in known:  # `import a.b.c` of a module outside: its prefix
                name = name.rpartition(".")[0]
            if name:
                out.append(name)
        return out
    base = node.module or ""
    if node.level:
        package = module if is_package else module.rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = f"{package}.{base}" if base else package
    out = []
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        if alias.name != "*" and sub in known:
            out.append(sub)
        elif base in known:
            out.append(base)
    return out


def import_graph(root: Path, packages: tuple[str, ...] = PACKAGES) -> dict[str, dict[str, Edge]]:
    """{module: {imported module: the edge's first occurrence}} among `packages`' modules."""
    known = module_files(root, packages)
    graph: dict[str, dict[str, Edge]] = {name: {} for name in known}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        is_package = path.name == "__init__.py"
        found = sorted(_imports(tree), key=lambda item: item[0].lineno)
        for node, where in found:
            for target in _resolve(node, name, is_package, known):
                graph[name].setdefault(target, Edge(
                    name, target, path.relative_to(root).as_posix(), node.lineno, where))
    return graph


def strongly_connected(graph: dict[str, dict[str, Edge]]) -> list[list[str]]:
    """The sets of modules that reach one another (Tarjan's algorithm, iterative), each
    sorted; only those that hold a circle: two or more modules, or one importing itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in graph[node]:
                    out.append(sorted(component))
    return sorted(out)


def shortest_cycle(graph: dict[str, dict[str, Edge]], start: str,
                   within: set[str]) -> list[str]:
    """The shortest path start → … → start inside `within` (breadth first)."""
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for child in sorted(graph[node]):
            if child == start:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return [*reversed(path), start]
            if child in within and child not in came_from:
                came_from[child] = node
                queue.append(child)
    return []


def cycles_report(graph: dict[str, dict[str, Edge]]) -> str:
    """Each circle's modules, and short cycles through them that between them pass every one,
    each import with its file and line; "" when there is none."""
    components = strongly_connected(graph)
    if not components:
        return ""
    lines = [f"{len(components)} import circle(s) in {', '.join(PACKAGES)}:"]
    for number, component in enumerate(components, 1):
        lines.append(textwrap.fill(
            f"circle {number}, {len(component)} modules: {', '.join(component)}",
            width=100, initial_indent="\n", subsequent_indent="    "))
        covered: set[str] = set()
        for module in component:
            if module in covered:
                continue
            cycle = shortest_cycle(graph, module, set(component))
            covered.update(cycle)
            lines.append("  " + " → ".join(cycle))
            lines.extend(f"      {graph[a][b]}" for a, b in itertools.pairwise(cycle))
    return "\n".join(lines)


def stdlib_shadows(root: Path, packages: tuple[str, ...] = PACKAGES) -> list[str]:
    """Files and packages under `packages` whose own name is a standard library module's."""
    return sorted(f"{name} ({path.relative_to(root).as_posix()})"
                  for name, path in module_files(root, packages).items()
                  if name.rpartition(".")[2] in sys.stdlib_module_names)


# -- the project --------------------------------------------------------------------------


def test_app_and_backend_have_no_import_circle():
    report = cycles_report(import_graph(ROOT))
    if report:
        pytest.fail("\n" + report, pytrace=False)


def test_no_module_is_named_like_a_standard_library_module():
    shadows = stdlib_shadows(ROOT)
    if shadows:
        pytest.fail("named like a standard library module (a reader, a debugger or a script "
                    "run from that folder takes one for the other): " + ", ".join(shadows),
                    pytrace=False)


# -- the checks themselves, on a made-up tree ---------------------------------------------


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


def test_a_circle_through_type_checking_and_a_function_level_relative_import_is_named(
        tmp_path):
    root = _tree(tmp_path, {
        "app/__init__.py": "",
        "app/a.py": ("from typing import TYPE_CHECKING\n"
                     "if TYPE_CHECKING:\n    from app.b import B\n"),
        "app/b.py": "def f():\n    from . import c\n",
        "app/c.py": "import app.a\n",
        "app/d.py": "from app import a\n",  # imports into the circle, is not on it
        "backend/__init__.py": "",
        "backend/x.py": "from backend.y import thing\nimport json\n",
        "backend/y.py": "from . import x\n",
    })
    graph = import_graph(root)
    assert strongly_connected(graph) == [["app.a", "app.b", "app.c"], ["backend.x", "backend.y"]]
    report = cycles_report(graph)
    assert "app.a → app.b → app.c → app.a" in report
    assert "app.a → app.b  (app/a.py:3, TYPE_CHECKING)" in report
    assert "app.b → app.c  (app/b.py:2, in f())" in report
    assert "backend.x → backend.y → backend.x" in report
    assert "app.d" not in report


def test_a_tree_without_circles_passes_and_a_package_import_is_its_init(tmp_path):
    root = _tree(tmp_path, {
        "app/__init__.py": "from app.sub import leaf\n",
        "app/sub/__init__.py": "",
        "app/sub/leaf.py": "from app.sub import helper\nfrom .. import sub\n",
        "app/sub/helper.py": "",
        "backend/__init__.py": "",
    })
    graph = import_graph(root)
    assert set(graph["app.sub.leaf"]) == {"app.sub.helper", "app.sub"}
    assert cycles_report(graph) == ""


def test_a_module_named_like_the_standard_library_is_listed(tmp_path):
    root = _tree(tmp_path, {"app/__init__.py": "", "app/inspect.py": "", "app/fine.py": "",
                            "backend/__init__.py": "", "backend/trace/__init__.py": ""})
    assert stdlib_shadows(root) == ["app.inspect (app/inspect.py)",
                                    "backend.trace (backend/trace/__init__.py)"]
