"""Text a server sent, made safe to keep, save and show.

JSON can carry what is not text: `"\\ud800"` decodes to a lone surrogate, which no file, database
or terminal can encode. Such a code point is shown as U+FFFD; a surrogate pair split over two
pieces of a stream is joined, not replaced (`Pieces`).
"""

from __future__ import annotations

import re

REPLACEMENT = "\ufffd"
_SURROGATE = re.compile("[\ud800-\udfff]")
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]+")


def readable(text: str) -> str:
    """`text` with each lone surrogate as U+FFFD (and adjacent halves of a pair joined)."""
    if _SURROGATE.search(text) is None:
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def said(text: str, limit: int = 200) -> str:
    """A server's own words quoted inside one sentence: readable, on one line, at most
    `limit` characters."""
    text = " ".join(_CONTROL.sub(" ", readable(text)).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Pieces:
    """The streamed pieces of an answer, readable: a piece ending in the first half of a
    surrogate pair keeps it back until the next piece says whether the pair is whole."""

    def __init__(self) -> None:
        self._held = ""

    def add(self, piece: str) -> str:
        piece = self._held + piece
        self._held = ""
        if piece and "\ud800" <= piece[-1] <= "\udbff":
            piece, self._held = piece[:-1], piece[-1]
        return readable(piece)

    def rest(self) -> str:
        """What is still held back, once no piece follows."""
        held, self._held = self._held, ""
        return readable(held)
