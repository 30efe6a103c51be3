"""A token's text asked from two threads at once (the engine's thread and the event worker,
step_events.py) is each token's own: llama_token_to_piece releases the GIL, so a buffer shared
between calls would hand one thread the other's bytes."""

from __future__ import annotations

import threading

from engine.runner import loaded_engine


def test_pieces_asked_from_two_threads_are_each_tokens_own(test_models):
    with loaded_engine(test_models / "count-target.gguf", n_ctx=256, n_threads=1) as engine:
        model = engine._target
        tokens = range(min(model.n_vocab, 20_000))
        want = [model.piece(t) for t in tokens]
        for _ in range(3):
            model._pieces.clear()  # every call goes to llama.cpp again
            got: dict[str, list[bytes]] = {}
            start = threading.Barrier(2)

            def read(name: str, order: list[int], start=start, got=got) -> None:
                start.wait()
                got[name] = [model.piece(t) for t in order]

            forward, backward = list(tokens), list(reversed(tokens))
            threads = [threading.Thread(target=read, args=("forward", forward)),
                       threading.Thread(target=read, args=("backward", backward))]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert got["forward"] == want
            assert got["backward"] == want[::-1]
