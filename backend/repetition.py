"""Whether an answer ended by repeating itself: the loop a small model falls into under greedy
decoding, which Regenerate at temperature 0 would only write again.

Only the end of the answer is read (TAIL_CHARS), so the check costs the same for any length.
"""

from __future__ import annotations

TAIL_CHARS = 1500
MIN_UNIT = 8  # a repeated stretch shorter than this is a refrain, not a loop
MIN_REPEATS = 3
# Loops of a small model vary their joins ("years. The fox…", "years.\n\nThe fox…"), so
# words are compared too: in a loop most runs of GRAM words were written before in the tail.
GRAM = 5
MIN_WORDS = 60
LOOP_SHARE = 0.6


def repeats_itself(text: str) -> bool:
    """True when the answer's end is one stretch written again and again: exactly (of
    MIN_UNIT characters or more, MIN_REPEATS times in a row, the last copy maybe cut short by
    the token limit), or word for word with other spaces and line breaks between."""
    tail = text[-TAIL_CHARS:].rstrip()
    return _periodic(tail) or _words_repeat(tail)


def _periodic(tail: str) -> bool:
    # periodicity, not alignment: a last copy cut short still counts
    for unit in range(MIN_UNIT, len(tail) // MIN_REPEATS + 1):
        end = tail[-unit * MIN_REPEATS:]
        if end[unit:] == end[:-unit] and end[:unit].strip():
            return True
    return False


def _words_repeat(tail: str) -> bool:
    words = tail.split()[1:]  # the first may be cut in the middle
    if len(words) < MIN_WORDS:
        return False
    seen: set[tuple[str, ...]] = set()
    repeated = 0
    grams = [tuple(words[i:i + GRAM]) for i in range(len(words) - GRAM + 1)]
    for gram in grams:
        repeated += gram in seen
        seen.add(gram)
    return repeated >= LOOP_SHARE * len(grams)


# K auto's hint (backend/engine/adaptive_k.py, EXPLORE_MAX): the text copies itself when the
# last ECHO_GRAM tokens were written before within the last ECHO_WINDOW.
ECHO_GRAM = 4
ECHO_WINDOW = 256


def echoes(tokens: list[int]) -> bool:
    """Whether the last ECHO_GRAM tokens occur earlier in the last ECHO_WINDOW tokens: the
    text has started to repeat (a list, code written again, a loop), where a drafter is most
    likely to be right. Reads a fixed window, so it costs the same for any length."""
    if len(tokens) <= ECHO_GRAM:
        return False
    window = tokens[-ECHO_WINDOW:]
    key = window[-ECHO_GRAM:]
    first = key[0]
    for i in range(len(window) - ECHO_GRAM):
        if window[i] == first and window[i:i + ECHO_GRAM] == key:
            return True
    return False
