"""The lookups see the conversation at the cost of what each step added.

Within an answer the engine's history is one list that only grows; the lookups used to copy
and compare all of it every step (100-300 µs a step at 32,000 tokens). Counted as tokens
read, not time: a list that counts what its slices hand out.
"""

from __future__ import annotations

from backend.engine.drafters.history_array import HistoryArray, SeenHistory
from backend.engine.drafters.lookup_rounds import LastRound
from backend.engine.drafters.ngram import NgramDrafter
from engine.counting_list import CountingList


def grow(history: list[int], steps: int, per_step: int = 5) -> None:
    for s in range(steps):
        history.extend((7 * s + i) % 11 for i in range(per_step))


def test_a_growing_history_is_read_for_what_it_added():
    history = CountingList(range(20_000))
    seen, array = SeenHistory(), HistoryArray()
    drafter, rounds = NgramDrafter(), LastRound()

    def last_round(h: list[int]) -> None:
        rounds.accepted(h)
        rounds.record(h, [1, 2], [None, None])

    looks = {"seen": seen.take, "array": array.sync, "ngram": lambda h: drafter.propose(h, 8),
             "last round": last_round}
    for name, look in looks.items():
        look(history)  # the first look reads the whole history
        CountingList.read = 0
        before = len(history)
        for _ in range(100):
            grow(history, 1)
            look(history)
        added = len(history) - before
        # each later one what was added (a lookup a few tokens more: its n-grams, the drafts
        # it copies), where copying the history read 20,000 tokens a look
        assert CountingList.read <= 20 * added, (name, CountingList.read)


def test_another_list_is_compared_whole():
    seen = SeenHistory()
    first = [1, 2, 3, 4]
    assert seen.take(first) == 0
    first.append(5)
    assert seen.take(first) == 4  # the same list, grown
    assert seen.take([1, 2, 3, 4, 5, 6]) == 5  # another list going on from it
    assert seen.take([1, 2, 9, 4, 5, 6, 7]) == 0  # another list, edited: seen afresh
    assert seen.tokens == [1, 2, 9, 4, 5, 6, 7]
    assert seen.take([1, 2]) == 0  # shorter: afresh
    assert seen.goes_on([1, 2, 3], 2) and not seen.goes_on([1, 3, 3], 2)
    assert not seen.goes_on([1], 2)


def test_the_last_round_counts_the_drafts_a_history_kept():
    rounds = LastRound()
    history = [5, 6, 7]
    rounds.record(history, [8, 9, 10], [None, None, None])
    history.extend([8, 9, 4])  # two drafts kept, then the target's own token
    assert rounds.accepted(history) == 2
    assert rounds.accepted(history) is None  # read once
    rounds.record(history, [1], [None])
    assert rounds.accepted([5, 6, 0, 8, 9, 4, 1, 2]) is None  # not this history's continuation
