"""Text from a model, a server or a file, made safe to print on a terminal: the terminal gets
text, never commands (an escape sequence that retitles the window, clears the screen or
forges a line)."""

from __future__ import annotations

import re

# Code points a terminal obeys instead of showing: C0 controls (but for newlines and tabs,
# which `lines` keeps), DEL, C1, the bidi embeddings, overrides and isolates, and lone
# surrogates (no terminal encoding carries them, and printing one stops the command).
_COMMANDS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069"
                       "\ud800-\udfff]")
_COMMANDS_AND_LINES = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069"
                                 "\ud800-\udfff]")
# A value that is not the answer itself (a name, a stop reason, a server's message) is cut
# at this many characters, its length said.
VALUE_LIMIT = 300


def terminal_text(text: str, *, lines: bool = False, limit: int | None = VALUE_LIMIT) -> str:
    """Text from a model, a server or a file, safe to print: each control character shown as
    an escape (`\\x1b`, `\\u202e`), newlines and tabs kept only with `lines`, and text
    longer than `limit` cut with its length said."""
    if limit is not None and len(text) > limit:
        text = f"{text[:limit]}… ({len(text):,} characters)"
    return (_COMMANDS if lines else _COMMANDS_AND_LINES).sub(_escape, text)


_NAMED_ESCAPES = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    named = _NAMED_ESCAPES.get(char)
    return named or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
