"""The two docs a newcomer reads first stay readable and true: ARCHITECTURE.md and BENCHMARKS.md
are short enough to read in ten minutes, no paragraph is a wall, and every repository path they
name in backticks exists, so a moved or renamed module cannot leave them pointing at nothing.

A paragraph is a run of non-blank lines outside code fences and tables; a heading or a list
item starts a new one (a list of short items is not a wall).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ("docs/ARCHITECTURE.md", "docs/BENCHMARKS.md")
MAX_LINES = 320
MAX_PARAGRAPH = 12

# Top-level folders of the repository: a backticked word starting with one of them is a path.
TOP = ("app", "backend", "bench", "tests", "scripts", "packaging", "resources", "docs")
_SPAN = re.compile(r"`([^`\n]+)`")
_PATH = re.compile(rf"^(?:{'|'.join(TOP)})/[\w./*-]*$")
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+\.)\s")


def paragraphs(text: str) -> list[tuple[int, int]]:
    """(first line number, length) of every paragraph outside code fences and tables."""
    found: list[tuple[int, int]] = []
    start, length, fenced = 0, 0, False

    def close() -> None:
        nonlocal length
        if length:
            found.append((start, length))
        length = 0

    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith("```"):
            close()
            fenced = not fenced
            continue
        if fenced or not stripped or stripped.startswith("|"):
            close()
            continue
        if stripped.startswith("#") or _ITEM.match(line):
            close()
        if not length:
            start = number
        length += 1
    close()
    return found


def named_paths(text: str) -> set[str]:
    """Repository paths named in backticks, commands' arguments included."""
    paths = set()
    for span in _SPAN.findall(text):
        for word in span.split():
            word = word.rstrip(",;:)")
            if _PATH.match(word):
                paths.add(word)
    return paths


def missing(paths: set[str], root: Path) -> list[str]:
    return sorted(p for p in paths if not (any(root.glob(p)) if "*" in p else (root / p).exists()))


@pytest.mark.parametrize("doc", DOCS)
def test_short_enough_to_read_in_ten_minutes(doc):
    n = len((ROOT / doc).read_text(encoding="utf-8").splitlines())
    assert n <= MAX_LINES, f"{doc} has {n} lines; at most {MAX_LINES} (history lives in git)"


@pytest.mark.parametrize("doc", DOCS)
def test_no_paragraph_is_a_wall(doc):
    text = (ROOT / doc).read_text(encoding="utf-8")
    walls = [(line, n) for line, n in paragraphs(text) if n > MAX_PARAGRAPH]
    assert not walls, f"{doc}: paragraphs over {MAX_PARAGRAPH} lines at (line, length) {walls}"


@pytest.mark.parametrize("doc", DOCS)
def test_every_path_it_names_exists(doc):
    text = (ROOT / doc).read_text(encoding="utf-8")
    assert named_paths(text), f"{doc} names no path at all: the check would be empty"
    gone = missing(named_paths(text), ROOT)
    assert not gone, f"{doc} names paths that do not exist: {gone}"


# The checks themselves can fail --------------------------------------------------------------

def test_a_long_paragraph_is_found_but_fences_tables_and_list_items_split():
    wall = "\n".join(f"line {i}" for i in range(13))
    assert paragraphs(wall) == [(1, 13)]
    fenced = "a\n```\n" + wall + "\n```\nb"
    assert paragraphs(fenced) == [(1, 1), (17, 1)]
    table = "| a |\n|---|\n" + "\n".join("| x |" for _ in range(20))
    assert paragraphs(table) == []
    items = "\n".join(f"- item {i}\n  more" for i in range(10))
    assert max(n for _, n in paragraphs(items)) == 2


def test_a_path_that_does_not_exist_is_named(tmp_path):
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "real.py").write_text("")
    text = ("`app/real.py`, `python bench/gone.py --repeats 5`, `app/old_window.py`, "
            "`Engine.generate`, `draftlight --open FILE`")
    assert named_paths(text) == {"app/real.py", "bench/gone.py", "app/old_window.py"}
    assert missing(named_paths(text), tmp_path) == ["app/old_window.py", "bench/gone.py"]
