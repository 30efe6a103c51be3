"""A scripted stand-in for backend.engine.Engine: same methods, same events, no llama.cpp.

It replays a recorded event sequence (or one built by `counting_stream`), honours cancel()
between steps like the real engine, and records what it was asked, so UI tests can drive the
real window, worker thread and renderer deterministically.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace

from backend.engine.errors import EngineError, LoadCancelled
from backend.engine.events import (
    GenerationFinished,
    GenerationStarted,
    PromptProcessed,
    Stats,
    StepVerified,
    Token,
)
from backend.engine.model_info import ModelInfo
from backend.engine.request import GenerationRequest


def FakeModelInfo(path: str, name: str, *, n_mtp_heads: int = 0,
                  on_gpu: bool = False) -> ModelInfo:
    """The engine's own ModelInfo, with the numbers of a small real model."""
    return ModelInfo(path=path, name=name, architecture="llama", n_params=135_000_000,
                     size_bytes=140_000_000, n_ctx_train=8192, n_vocab=49152,
                     n_mtp_heads=n_mtp_heads, on_gpu=on_gpu)


WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "eleven")


def counting_stream(n_steps: int, k: int = 4, *, spec_type: str = "draft",
                    reject_at: Callable[[int], int] = lambda step: 3,
                    origin: str = "draft", step_ms: float = 1.0) -> list:
    """A full event sequence: step s drafts k counting words and accepts `reject_at(s)` of
    them (k: all), then the target adds its own word. Rejected drafts are "wrong" words."""
    events: list = [GenerationStarted(1, spec_type, k, 5), PromptProcessed(5, 0, 2.0)]
    pos = 0
    texts: list[str] = []
    n_drafted = n_accepted = 0
    for s in range(n_steps):
        n_acc = min(reject_at(s), k)
        drafted = []
        for j in range(k):
            ok = j < n_acc
            word = WORDS[(pos + j) % len(WORDS)] if ok else "X" + WORDS[(pos + j + 1) % 12]
            drafted.append(Token(1000 + pos + j, " " + word, origin, ok, p_target=0.9 if ok
                                 else 0.01, p_draft=0.8, head=j if origin == "mtp" else None))
        accepted = tuple(t for t in drafted if t.accepted)
        target = Token(2000 + pos, " " + WORDS[(pos + n_acc) % len(WORDS)], "target", True,
                       p_target=0.95)
        emitted = (*accepted, target)
        events.append(StepVerified(s, tuple(drafted), n_acc, emitted, 0.2, step_ms))
        texts += [t.text for t in emitted]
        pos += len(emitted)
        n_drafted += k
        n_accepted += n_acc
    stats = Stats(n_prompt=5, n_generated=pos, n_steps=n_steps, n_draft_steps=n_steps,
                  n_drafted=n_drafted,
                  n_accepted=n_accepted, prompt_ms=2.0, generation_ms=n_steps * (step_ms + 0.2),
                  draft_ms=n_steps * 0.2, verify_ms=n_steps * step_ms, ttft_ms=3.0)
    events.append(GenerationFinished("length", "".join(texts), stats))
    return events


class ScriptedEngine:
    """An `EngineLike` (backend.engine.protocol) over a script: a list of events, or a function
    of the request returning one."""

    def __init__(self, script: list | Callable[[GenerationRequest], Iterable] | None = None,
                 *, step_delay_s: float = 0.0, load_delay_s: float = 0.0,
                 mtp_heads: int = 0, bad_drafts: dict[str, str] | None = None) -> None:
        self.script = script if script is not None else counting_stream(20)
        self.step_delay_s = step_delay_s
        self.load_delay_s = load_delay_s
        self.mtp_heads = mtp_heads
        self.on_gpu = False  # the target's layers on a GPU, as a CUDA build loads them
        self.bad_drafts = bad_drafts or {}
        self.target: FakeModelInfo | None = None
        self.draft: FakeModelInfo | None = None
        self.requests: list[GenerationRequest] = []
        self.load_calls: list[tuple[str, str]] = []
        self.cache_resets = 0
        self.closed = False
        self.threads: set[int] = set()  # every thread that called a non-cancel method
        self._cancel = threading.Event()

    def _on_thread(self) -> None:
        self.threads.add(threading.get_ident())

    def _load(self, path: str, progress) -> None:
        for i in range(11):
            if progress is not None and not progress(i / 10):
                raise LoadCancelled(f"Loading {path} was cancelled.")
            time.sleep(self.load_delay_s / 10)
        if "missing" in str(path):
            raise EngineError(f"{path} does not exist.")

    def load_target(self, path, *, n_ctx=4096, n_threads=None, progress=None):
        self._on_thread()
        self.load_calls.append(("target", str(path)))
        self.draft = None
        self._load(str(path), progress)
        self.target = FakeModelInfo(str(path), str(path).rsplit("/", 1)[-1].split(".")[0],
                                    n_mtp_heads=self.mtp_heads, on_gpu=self.on_gpu)
        return self.target

    def load_demo(self, *, n_ctx=4096, n_threads=None, progress=None):
        target, draft = "/models/demo-target.gguf", "/models/demo-draft.gguf"
        self.load_target(target, n_ctx=n_ctx, n_threads=n_threads, progress=progress)
        return target, draft

    def load_draft(self, path, *, progress=None):
        self._on_thread()
        self.load_calls.append(("draft", str(path)))
        if self.target is None:
            raise EngineError("Load a target model before choosing a draft model.")
        self._load(str(path), progress)
        if str(path) in self.bad_drafts:
            raise EngineError(self.bad_drafts[str(path)])
        self.draft = FakeModelInfo(str(path), "draft")
        return self.draft

    def unload_draft(self) -> None:
        self._on_thread()
        self.draft = None

    def reset_cache(self) -> None:
        self._on_thread()
        self.cache_resets += 1

    def cancel(self) -> None:
        self._cancel.set()

    def close(self) -> None:
        self._on_thread()
        self.closed = True

    def generate(self, request: GenerationRequest) -> Iterator:
        self._on_thread()
        self.requests.append(request)
        self._cancel.clear()
        events = self.script(request) if callable(self.script) else self.script
        texts: list[str] = []
        for event in events:
            if isinstance(event, StepVerified):
                if self._cancel.is_set():
                    yield GenerationFinished("cancelled", "".join(texts), Stats())
                    return
                # Always sleep, if only for 0 s: the real engine releases the GIL every step
                # (inside llama_decode). A fake that never does holds the GIL against the GUI
                # thread, whose every Qt call then waits up to Python's 5 ms switch interval:
                # stalls no real model causes (bench/ui_bench.py's producer does the same).
                time.sleep(self.step_delay_s)
                texts += [t.text for t in event.emitted]
            elif isinstance(event, GenerationStarted):
                event = replace(event, request_id=request.request_id)
            yield event


def answered_window(make_window, qtbot, target: str = "/models/fake-target.gguf"):
    """A shown window with one finished counting answer (drafts rejected at varied places),
    and that answer's widget."""
    w = make_window(ScriptedEngine(counting_stream(8, k=4, reject_at=lambda s: s % 4)))
    with qtbot.waitSignal(w.models_changed, timeout=5000):
        w.open_target(target)
    with qtbot.waitSignal(w.answer_finished, timeout=10_000) as done:
        assert w.send("count")
    w.show()
    qtbot.waitExposed(w)
    return w, done.args[0]
