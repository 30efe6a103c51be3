"""An EngineLike whose answers are made up step by step, so that what a pair measurement
ranks is certain on any machine (tests of backend/models/pair_measure.py and its callers)."""

from __future__ import annotations

import os

from backend.engine.events import GenerationFinished, Stats, StepVerified, Token
from backend.engine.model_info import ModelInfo

BUILD = {"version": "scripted"}  # the key's llama.cpp build, without asking llama.cpp
PLAIN_MS = 10.0  # a plain step of the scripted target
WRONG_EVERY = 5  # the scripted drafter is wrong on every 5th token of the answer


class ScriptedEngine:
    """An EngineLike whose answers are made up step by step: a drafted token costs
    `draft_ms[name]` (by the draft file's name, or the spec type's for a drafter without
    a file; free when not named), a verification
    PLAIN_MS plus 0.5 ms a token, and drafts are right but on every WRONG_EVERY-th token."""

    def __init__(self, draft_ms: dict[str, float]) -> None:
        self.draft_ms = draft_ms
        self.target: ModelInfo | None = None
        self.draft: ModelInfo | None = None
        self.calls: list[tuple] = []
        self.on_step = None  # called before each step (a test's cancel)
        self._cancelled = False

    def _info(self, path) -> ModelInfo:
        return ModelInfo(str(path), os.path.basename(path), "llama", 1, 1, 1, 1, 0)

    def load_target(self, path, *, n_ctx, n_threads=None, progress=None):
        self.calls.append(("load_target", str(path)))
        self.target = self._info(path)
        return self.target

    def load_demo(self, *, n_ctx, n_threads=None, progress=None):
        raise AssertionError("not measured")

    def load_draft(self, path, *, progress=None):
        self.calls.append(("load_draft", os.path.basename(path)))
        self.draft = self._info(path)
        return self.draft

    def unload_draft(self):
        self.calls.append(("unload_draft",))
        self.draft = None

    def reset_cache(self):
        pass

    def cancel(self):
        self._cancelled = True

    def close(self):
        pass

    def generate(self, request):
        self.calls.append(("generate", request.spec_type, request.n_draft_max))
        self._cancelled = False  # as the engine: a cancel before the answer is forgotten
        k = 0 if request.spec_type == "none" else request.n_draft_max or 3  # "K auto": 3
        # a drafter with a file of its own costs what its file's name says; one without (MTP,
        # n-gram lookup) what its spec type's does, else nothing
        own_file = self.draft is not None and request.spec_type in ("draft", "eagle3")
        cost = (0.0 if not k else self.draft_ms[self.draft.name] if own_file and self.draft
                else self.draft_ms.get(request.spec_type, 0.0))
        n = n_steps = drafted = accepted = 0
        total = draft_total = verify_total = 0.0
        while n < request.max_tokens:
            if self.on_step is not None:
                self.on_step()
            if self._cancelled:
                yield GenerationFinished("cancelled", "", Stats(n_generated=n))
                return
            ok = next((j for j in range(k) if (n + j + 1) % WRONG_EVERY == 0), k)
            drafts = tuple(Token(1, "x", request.spec_type, j < ok) for j in range(k))
            emitted = tuple(Token(1, "x", "target", True) for _ in range(ok + 1))
            d_ms, v_ms = cost * k, PLAIN_MS + 0.5 * k
            yield StepVerified(n_steps, drafts, ok, emitted, d_ms, v_ms, d_ms + v_ms)
            n, n_steps, drafted, accepted = n + ok + 1, n_steps + 1, drafted + k, accepted + ok
            total, draft_total, verify_total = total + d_ms + v_ms, draft_total + d_ms, \
                verify_total + v_ms
        yield GenerationFinished("length", "", Stats(
            n_generated=n, n_steps=n_steps, n_draft_steps=n_steps if k else 0,
            n_drafted=drafted, n_accepted=accepted, generation_ms=total,
            draft_ms=draft_total, verify_ms=verify_total))
