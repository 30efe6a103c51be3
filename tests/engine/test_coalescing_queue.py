"""CoalescingQueue: puts ring the consumer at most once per interval unless asked, yet nothing
put is ever lost or reordered, whether the consumer is busy, looking or asleep."""

from __future__ import annotations

import threading
import time

from backend.engine.coalescing_queue import CoalescingQueue


def consume(queue: CoalescingQueue, n: int) -> tuple[threading.Thread, list]:
    got: list = []
    thread = threading.Thread(target=lambda: got.extend(queue.get() for _ in range(n)),
                              daemon=True)
    thread.start()
    return thread, got


def test_puts_within_the_interval_ring_once():
    queue: CoalescingQueue[int] = CoalescingQueue(wake_every_s=60)
    queue.put(1)
    assert queue._bell.is_set()  # the first put rings
    queue._bell.clear()
    queue.put(2)
    assert not queue._bell.is_set()  # the wake a put would cost the producer
    queue.put(3, wake=True)
    assert queue._bell.is_set()
    assert [queue.get(), queue.get(), queue.get()] == [1, 2, 3]


def test_items_put_unrung_reach_the_consumer_in_order():
    queue: CoalescingQueue[int] = CoalescingQueue(wake_every_s=0.005)
    thread, got = consume(queue, 500)
    for i in range(500):
        queue.put(i)
    thread.join(10)
    assert got == list(range(500))


def test_an_item_put_just_after_a_ring_is_found_without_another():
    # the consumer takes the rung item, then looks again before it sleeps until rung
    queue: CoalescingQueue[str] = CoalescingQueue(wake_every_s=0.5)
    thread, got = consume(queue, 2)
    queue.put("rung")
    while not got:
        time.sleep(0.001)
    queue.put("unrung")
    assert not queue._bell.is_set()
    thread.join(10)
    assert got == ["rung", "unrung"]


def test_a_sleeping_consumer_is_woken_by_the_next_put():
    queue: CoalescingQueue[int] = CoalescingQueue(wake_every_s=0.01)
    for round_ in range(20):
        thread, got = consume(queue, 1)
        time.sleep(0.03)  # past its look: asleep until rung, no timer left
        queue.put(round_)
        thread.join(10)
        assert got == [round_]


def test_get_all_takes_everything_queued():
    queue: CoalescingQueue[str] = CoalescingQueue(wake_every_s=0.01)
    for item in "abc":
        queue.put(item)
    assert queue.get_all() == ["a", "b", "c"]
    queue.put("d", wake=True)
    assert queue.get_all() == ["d"]  # nothing of the first three left behind
