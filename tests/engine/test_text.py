"""Text pieces are UTF-8 safe and stop strings never leak into the answer."""

from __future__ import annotations

from backend.engine.text import AnswerText


def _pieces(chunks: list[bytes], stop=()) -> tuple[list[str], AnswerText]:
    a = AnswerText(stop)
    out = [a.push(c) for c in chunks]
    if not a.stopped:
        out[-1] += a.flush()
    return out, a


def test_a_character_split_over_tokens_appears_whole_on_the_last_one():
    data = "a😀b€".encode()
    chunks = [data[:1], data[1:3], data[3:5], data[5:6], data[6:8], data[8:]]
    pieces, a = _pieces(chunks)
    assert "".join(pieces) == a.text == "a😀b€"
    assert pieces[1] == "" and pieces[2] == "😀"


def test_invalid_bytes_become_replacement_characters_not_errors():
    pieces, a = _pieces([b"ok", b"\xff", b"!"])
    assert "".join(pieces) == a.text == "ok\ufffd!"


def test_stop_string_is_cut_and_pieces_still_add_up():
    pieces, a = _pieces([b"Hello", b" <|im", b"_end", b"|> more"], stop=("<|im_end|>",))
    assert a.stopped
    assert a.text == "Hello "
    assert "".join(pieces) == a.text


def test_held_back_prefix_is_released_when_no_stop_follows():
    pieces, a = _pieces([b"x <", b"|im", b" not a stop"], stop=("<|im_end|>",))
    assert not a.stopped
    assert "".join(pieces) == a.text == "x <|im not a stop"


def test_the_answer_ends_before_the_first_stop_string_whatever_the_pieces():
    """Fuzzed: the text released (kept as pieces, with only the end read for stop strings)
    is the whole text up to the first stop string, and the pieces add up to it."""
    import random

    rng = random.Random(5)
    stops = ("<|a", "b|>", "aab", "|||")
    for _ in range(500):
        full = "".join(rng.choice("ab<|> ") for _ in range(rng.randrange(1, 80)))
        cuts = sorted({*rng.sample(range(1, len(full) + 1), min(len(full), rng.randrange(1, 12))),
                       len(full)})
        chunks = [full[i:j].encode() for i, j in zip([0, *cuts], cuts, strict=False)]
        pieces, a = _pieces(chunks, stop=stops)
        found = [i for i in (full.find(s) for s in stops) if i >= 0]
        expected = full[:min(found)] if found else full
        assert a.text == "".join(pieces) == expected, (full, chunks)
        assert a.stopped == bool(found)
