"""`ServerEngine`: an OpenAI-compatible server behind the same interface and the same events
as the local engine, so history, export, charts and the stats line work for both.

Each streamed piece of text becomes one `StepVerified` with one emitted token of origin
"target" and no drafts: a server says nothing per token, so no token is coloured as an
accepted or rejected draft. What the server reports about its speculation (one adapter per
engine) goes into the final `Stats` (drafted, accepted, steps) and `last_report`, which also
says in words that per-token colours need the local engine. Runs in the caller's process:
there is no native code here to crash it.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from typing import Any

from backend import spec_types
from backend.engine.errors import EngineError
from backend.engine.events import (
    Event,
    GenerationFailed,
    GenerationFinished,
    GenerationStarted,
    PromptProcessed,
    Stats,
    StepVerified,
    StopReason,
    Token,
)
from backend.engine.model_info import ModelInfo
from backend.engine.protocol import ProgressFn
from backend.engine.request import GenerationRequest
from backend.serving import prometheus, servers
from backend.serving.adapter import Extras, Metrics
from backend.serving.client import (
    FINISH_GRACE_S,
    READ_TIMEOUT_S,
    TOTAL_TIMEOUT_S,
    ServerClient,
    ServerError,
)
from backend.serving.report import SpecReport, count
from backend.serving.target import ServerTarget, is_server_path, key_for, parse_server_path
from backend.serving.text import Pieces
from backend.words import words, words_of

_FINISH: dict[str, StopReason] = {"stop": "eos", "length": "length", "eos": "eos",
                                  "abort": "cancelled"}
ARCHITECTURE = "OpenAI-compatible server"

# What the server backend says, as templates (backend/words.py).
MODEL_NOT_SERVED = ("The server at {url} does not serve a model called {model}; it serves "
                    "{models}.")
NO_MODEL_LISTED = "The server at {url} lists no model to answer with."
DEMO_IS_LOCAL = ("The demo models run on the local engine: switch the backend to \"Local "
                 "engine\" first.")
NO_DRAFT_MODEL = ("A server drafts with what it was started with (its own draft model, n-gram "
                  "or MTP); Draftlight cannot give it a draft model.")
CHOOSE_A_MODEL = "Choose one of the server's models first."
CHAT_ONLY = "A server answers chat messages here, not a raw prompt."
STREAM_ENDED = ("The server ended the stream before the answer was finished; what had arrived "
                "is kept.")


class ServerEngine:
    """Engine-like over one server. `cancel` may be called from any thread."""

    def __init__(self, base_url: str, api_key: str | None = None, *,
                 read_timeout_s: float = READ_TIMEOUT_S,
                 total_timeout_s: float = TOTAL_TIMEOUT_S,
                 finish_grace_s: float = FINISH_GRACE_S) -> None:
        self.client = ServerClient(base_url, key_for(base_url) if api_key is None else api_key,
                                   read_timeout_s=read_timeout_s,
                                   total_timeout_s=total_timeout_s,
                                   finish_grace_s=finish_grace_s)
        self.base_url = self.client.base_url
        self.target: ModelInfo | None = None
        self.draft: ModelInfo | None = None
        self.last_report = SpecReport()
        self._model = ""
        self._cancel = threading.Event()
        self._metrics_page: bool | None = None  # whether the server has a /metrics page

    # Models ------------------------------------------------------------------------------

    def models(self) -> list[str]:
        return self.client.list_models()

    def load_target(self, path: str | os.PathLike, *, n_ctx: int = 0,
                    n_threads: int | None = None,
                    progress: ProgressFn | None = None) -> ModelInfo | None:
        """Choose the server's model `path` (its id, or a `ServerTarget.path`), after
        checking that the server lists it."""
        model = parse_server_path(str(path)).model if is_server_path(str(path)) else str(path)
        available = self.client.list_models()
        if not model and available:
            model = available[0]
        if available and model not in available:
            raise ServerError(words(MODEL_NOT_SERVED, url=self.base_url, model=repr(model),
                                    models=", ".join(available[:8])), "model")
        if not model:
            raise ServerError(words(NO_MODEL_LISTED, url=self.base_url), "model")
        self._model = model
        target = ServerTarget(self.base_url, model)
        self.target = ModelInfo(path=target.path, name=target.name, architecture=ARCHITECTURE,
                                n_params=0, size_bytes=0, n_ctx_train=0, n_vocab=0,
                                n_mtp_heads=0)
        if progress is not None:
            progress(1.0)
        return self.target

    def load_demo(self, *, n_ctx: int, n_threads: int | None = None,
                  progress: ProgressFn | None = None) -> tuple[str, str]:
        raise EngineError(words(DEMO_IS_LOCAL))

    def load_draft(self, path: str | os.PathLike, *,
                   progress: ProgressFn | None = None) -> ModelInfo | None:
        raise EngineError(words(NO_DRAFT_MODEL))

    def unload_draft(self) -> None:
        pass

    def reset_cache(self) -> None:
        pass  # the server keeps (or not) its own prefix cache

    def cancel(self) -> None:
        self._cancel.set()
        self.client.close_stream()

    def close(self) -> None:
        self.client.close()

    # One answer --------------------------------------------------------------------------

    def generate(self, request: GenerationRequest) -> Iterator[Event]:
        self._cancel.clear()
        self.last_report = SpecReport()
        if not self._model:
            yield GenerationFailed(CHOOSE_A_MODEL, words=words(CHOOSE_A_MODEL))
            return
        if request.prompt is not None and not request.messages:
            yield GenerationFailed(CHAT_ONLY, words=words(CHAT_ONLY))
            return
        start = time.perf_counter()
        yield GenerationStarted(request.request_id, spec_types.PLAIN, 0, 0)
        # A server's /metrics page is read before and after the answer while it has one (a
        # server without one is not asked again): vLLM's counters are diffed, SGLang's gauges
        # read after.
        before = self._metrics() if self._metrics_page is not False else None
        self._metrics_page = before is not None
        extras: Extras = {}
        texts: list[str] = []
        pieces = Pieces()  # text the server sent, readable whatever it held
        finish: StopReason | None = None
        last = start
        first: float | None = None

        def step(text: str) -> Iterator[Event]:
            nonlocal first, last
            now = time.perf_counter()
            if first is None:
                first = now
                yield PromptProcessed(0, 0, 1000 * (now - start))
            texts.append(text)
            yield StepVerified(len(texts), (), 0, (Token(-1, text, "target", True),),
                               0.0, 1000 * (now - last))
            last = now

        try:
            for chunk in self.client.stream_chat(payload(request, self._model),
                                                self._cancel.is_set):
                _collect(chunk, extras)
                choices = chunk.get("choices")
                choice = choices[0] if isinstance(choices, list) and choices else None
                if isinstance(choice, dict):
                    finish = _stop_reason(choice.get("finish_reason")) or finish
                    delta = choice.get("delta")
                    text = delta.get("content") if isinstance(delta, dict) else None
                    if isinstance(text, str) and text and (shown := pieces.add(text)):
                        yield from step(shown)
                if self._cancel.is_set():
                    break
        except ServerError as exc:
            if not self._cancel.is_set():
                if rest := pieces.rest():
                    yield from step(rest)
                yield GenerationFailed(str(exc), exc.detail, words=words_of(exc))
                return
        if rest := pieces.rest():
            yield from step(rest)
        if self._cancel.is_set():
            reason: StopReason = "cancelled"
        elif finish is None:
            yield GenerationFailed(STREAM_ENDED, words=words(STREAM_ENDED))
            return
        else:
            reason = finish
        self.last_report = self._report(extras, before)
        stats = self._stats(extras, len(texts), start, first, last)
        yield GenerationFinished(reason, "".join(texts), stats)

    def _metrics(self) -> Metrics | None:
        page = self.client.metrics_page()
        return prometheus.parse_metrics(page) if page is not None else None

    def _report(self, extras: Extras, before: Metrics | None) -> SpecReport:
        said = servers.read(extras)
        if said is not None and said.n_drafted is not None and said.n_accepted is not None:
            return said  # the /metrics page is not read again when the answer says it all
        after = self._metrics() if before is not None else None
        if before is None or after is None:
            return said if said is not None else SpecReport()
        return servers.with_metrics(said, before, after)

    def _stats(self, extras: Extras, n_pieces: int, start: float,
               first: float | None, last: float) -> Stats:
        report = self.last_report
        n_prompt, n_cached, n_generated = _usage(extras)
        fields: dict[str, Any] = {
            "n_prompt": n_prompt or 0,
            "n_cached": n_cached or 0,
            "n_generated": n_generated or n_pieces,
            "prompt_ms": 1000 * (first - start) if first is not None else 0.0,
            "generation_ms": 1000 * (last - first) if first is not None else 0.0,
            "ttft_ms": 1000 * (first - start) if first is not None else 0.0,
        }
        fields.update(servers.timings(extras))
        # Totals go into the stats only when the server gave both: an acceptance rate made of
        # one known and one missing number would be invented.
        both = report.n_drafted is not None and report.n_accepted is not None
        drafted = report.n_drafted or 0 if both else 0
        steps = report.n_steps or fields["n_generated"]
        return Stats(
            n_prompt=int(fields["n_prompt"]), n_cached=int(fields["n_cached"]),
            n_generated=int(fields["n_generated"]), n_steps=int(steps),
            n_draft_steps=int(report.n_steps or 0) if drafted else 0,
            n_drafted=drafted, n_accepted=report.n_accepted or 0 if both else 0,
            prompt_ms=float(fields["prompt_ms"]), generation_ms=float(fields["generation_ms"]),
            ttft_ms=float(fields["ttft_ms"]),
            accepted_per_step=tuple(report.accepted_per_step),
            drafted_per_step=tuple(report.drafted_per_step),
        )


def payload(request: GenerationRequest, model: str) -> dict[str, Any]:
    """The chat completion request: the OpenAI fields, plus the sampler fields llama-server,
    vLLM and SGLang all accept (top_k, min_p, repeat_penalty); a server ignores what it lacks."""
    s = request.sampling
    body: dict[str, Any] = {
        "model": model,
        "messages": [{"role": m.role, "content": m.content} for m in request.messages],
        "stream": True,
        "stream_options": {"include_usage": True},
        "max_tokens": request.max_tokens,
        "temperature": s.temperature,
        "top_p": s.top_p,
        "top_k": s.top_k,
        "min_p": s.min_p,
        "repeat_penalty": s.repeat_penalty,
    }
    if s.seed >= 0:
        body["seed"] = s.seed
    if request.stop:
        body["stop"] = list(request.stop)
    return body


def _stop_reason(finish: object) -> StopReason | None:
    """Why the server says the answer ended; None while it has not. A finish_reason the
    OpenAI API does not name (another word, a number, an object) still ends the answer."""
    if finish is None or finish == "":
        return None
    return _FINISH.get(finish, "eos") if isinstance(finish, str) else "eos"


def _usage(extras: Extras) -> tuple[int | None, int | None, int | None]:
    """The OpenAI `usage` object, read in one place: prompt, cached and generated tokens, each
    a count that can be true (`report.count`), cached never more than prompted."""
    usage = extras.get("usage")
    if not isinstance(usage, dict):
        return None, None, None
    prompt = count(usage.get("prompt_tokens"))
    details = usage.get("prompt_tokens_details")
    cached = count(details.get("cached_tokens")) if isinstance(details, dict) else None
    if cached is not None and prompt is not None and cached > prompt:
        cached = None
    return prompt, cached, count(usage.get("completion_tokens"))


def _collect(chunk: dict[str, Any], extras: Extras) -> None:
    """Keep the last of each field the servers' adapters read, and OpenAI's usage (they come
    on the final chunks, at the top level or, for some versions, in the choice)."""
    choices = chunk.get("choices")
    choice = choices[0] if isinstance(choices, list) and choices else None
    for place in (choice, chunk):
        if not isinstance(place, dict):
            continue
        for key in ("usage", *servers.fields()):
            if isinstance(place.get(key), dict):
                extras[key] = place[key]
