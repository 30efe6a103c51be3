"""Split an answer into prose and fenced code blocks for the Markdown view.

Code blocks are rendered by our own widget (plain text, monospace, a copy button), so only the
prose goes through QTextDocument.setMarkdown. Qt-free.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)[^`]*$")
# An HTML entity: setMarkdown would decode it, showing "&" where the model wrote "&amp;".
_ENTITY = re.compile(r"&(?=#?\w+;)")
# A character after which a line cannot wrap: not a space, nor a character of the scripts
# that wrap between any two characters (Thai, CJK, Hangul, full-width forms).
_UNBREAKABLE = ("[^\\s\u0e00-\u0e7f\u2e80-\u9fff\ua000-\ua4cf\uac00-\ud7af\uf900-\ufaff"
                "\ufe30-\ufe4f\uff00-\uffef]")


@dataclass(frozen=True)
class Block:
    kind: str  # "prose" | "code"
    text: str
    language: str = ""
    start: int = 0  # where the block's first line begins in the text (its fence, for code)


def split_blocks(text: str) -> list[Block]:
    """Fenced code blocks (``` or ~~~, CommonMark's closing rule) and the prose around them.
    An unclosed fence (an answer still streaming, or cut off) runs to the end."""
    blocks: list[Block] = []
    prose: list[str] = []
    code: list[str] = []
    fence: str | None = None
    language = ""
    at = start = 0  # the current line's offset, and the current block's
    for line in text.split("\n"):
        if fence is None:
            m = _FENCE.match(line)
            if m:
                if prose:
                    blocks.append(Block("prose", "\n".join(prose), start=start))
                    prose = []
                fence, language, start = m.group(1), m.group(2), at
            else:
                if not prose:
                    start = at
                prose.append(line)
        elif line.strip().startswith(fence[0] * len(fence)) and not line.strip().strip(fence[0]):
            blocks.append(Block("code", "\n".join(code), language, start))
            code, fence = [], None
        else:
            code.append(line)
        at += len(line) + 1
    if fence is not None:
        blocks.append(Block("code", "\n".join(code), language, start))
    elif prose:
        blocks.append(Block("prose", "\n".join(prose), start=start))
    return [b for b in blocks if b.kind == "code" or b.text.strip()]


def protect_prose(text: str) -> str:
    """Prose ready for setMarkdown: the caller also disables HTML (MarkdownNoHTML), and entity
    references are escaped, so what the model wrote is shown exactly as text."""
    return _ENTITY.sub(r"\\&", text)


def cut_runs(text: str, limit: int, cut: Callable[[str, int], str]) -> str:
    """`text` with each run of more than `limit` characters that cannot wrap (no space)
    replaced by `cut(run, limit)`: Qt lays such a run out in time that grows faster than its
    length. The lookbehind starts a match only where a run starts, so this is linear."""
    if len(text) <= limit:
        return text
    run = re.compile(f"(?<!{_UNBREAKABLE}){_UNBREAKABLE}{{{limit + 1},}}")
    return run.sub(lambda m: cut(m.group(), limit), text)
