"""The loop detector under an answer: loops found wherever the token limit cut them, prose and
short refrains left alone."""

from __future__ import annotations

from backend.repetition import repeats_itself

SENTENCE = "The little fox ran into the forest to find his friend. "


def test_a_sentence_written_again_and_again_is_a_loop_wherever_it_is_cut():
    story = "Once upon a time there was a fox. " + SENTENCE * 12
    for cut in range(len(SENTENCE)):
        assert repeats_itself(story[: len(story) - cut]), cut


def test_prose_lists_and_short_refrains_are_not_loops():
    prose = ("Speculative decoding lets a small model propose tokens that the large model "
             "checks in one batch. When the guesses are right, several tokens come out of one "
             "step; when they are wrong, nothing is lost but a little time. ")
    assert not repeats_itself(prose)
    assert not repeats_itself("1. a\n2. b\n3. c\n4. d\n")
    assert not repeats_itself("ha ha ha ha ha")  # shorter than a loop's unit
    assert not repeats_itself(SENTENCE * 2)  # twice may be a quotation
    assert not repeats_itself("")


def test_only_the_tail_is_read():
    fresh = " ".join(f"Then came day {i}, which brought weather number {i * 7}." for i in range(60))
    assert not repeats_itself(SENTENCE * 10 + fresh)
    assert repeats_itself("x" * 100_000 + SENTENCE * 4)


def test_a_loop_with_other_joins_between_its_copies():
    """As the demo model writes it: the same sentences, now with a space, now a blank line."""
    copy = ("The fox had been a curious and adventurous creature, and had been exploring "
            "the forest for many years.")
    text = "A story.\n\n" + "\n\n".join(" ".join([copy] * 4) for _ in range(4))
    assert repeats_itself(text + " The fox had been a curious and")
