"""PolledQueue: a put wakes nobody unless asked, yet nothing put is ever lost or reordered,
whether its consumer polls or dozes."""

from __future__ import annotations

import threading

from backend.engine.polled_queue import PolledQueue


def consume(queue: PolledQueue, n: int) -> tuple[threading.Thread, list]:
    got: list = []
    thread = threading.Thread(target=lambda: got.extend(queue.get() for _ in range(n)),
                              daemon=True)
    thread.start()
    return thread, got


def test_a_put_to_a_polling_consumer_rings_no_bell():
    queue: PolledQueue[int] = PolledQueue(poll_s=0.001, idle_s=60)
    queue.put(1)
    assert not queue._bell.is_set()  # the wake a put would cost the producer
    queue.put(2, wake=True)
    assert queue._bell.is_set()
    assert [queue.get(), queue.get()] == [1, 2]


def test_items_put_unrung_reach_a_polling_consumer_in_order():
    queue: PolledQueue[int] = PolledQueue(poll_s=0.001, idle_s=60)
    thread, got = consume(queue, 500)
    for i in range(500):
        queue.put(i)
    thread.join(10)
    assert got == list(range(500))


def test_a_dozing_consumer_is_woken_by_the_first_put():
    # idle_s 0: the consumer dozes (no timer) whenever it finds nothing; a poll of an hour
    # would never find the item if the put did not ring it
    queue: PolledQueue[int] = PolledQueue(poll_s=3600, idle_s=0)
    for round_ in range(50):
        thread, got = consume(queue, 1)
        queue.put(round_)
        thread.join(10)
        assert got == [round_]


def test_get_all_takes_everything_queued():
    queue: PolledQueue[str] = PolledQueue(poll_s=0.001)
    for item in "abc":
        queue.put(item)
    assert queue.get_all() == ["a", "b", "c"]
    assert len(queue) == 0
