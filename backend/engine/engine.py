"""The speculative decoding engine: models loaded once, one request at a time, events out.

Each step the drafter proposes up to K tokens; the target decodes `[last, d1..dK]` in one
batch with logits at every position; verification keeps the accepted prefix plus one token of
the target's own; the rejected positions are removed from the KV cache. With spec type "none"
the same loop runs with K = 0, so plain decoding is measured by the very same code.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np

from backend import settings_schema, spec_types
from backend.engine import plain_chunk, row_stats, sampling
from backend.engine.adaptive_k import AUTO_K_CAP, SEEDED_K, AdaptiveK
from backend.engine.answer_run import AnswerRun
from backend.engine.build_facts import build_facts
from backend.engine.context import DEFAULT_RS_SNAPSHOTS, Context
from backend.engine.cores import default_threads, spare_physical_cores, usable_cores
from backend.engine.drafters.base import (
    Drafter,
    DraftingSetup,
    LookupAlternatives,
    PromptReader,
    Proposal,
    SamplingDrafter,
    TargetFollower,
)
from backend.engine.drafters.draft_model import DraftModelDrafter
from backend.engine.errors import (
    GENERATION_FAILED,
    NO_MODEL,
    NO_TARGET_FOR_DRAFT,
    PROMPT_TOO_LONG,
    UNKNOWN_SPEC_TYPE,
    EngineError,
)
from backend.engine.events import (
    Event,
    GenerationFailed,
    GenerationFinished,
    GenerationStarted,
    PromptProcessed,
    Stats,
    StopReason,
)
from backend.engine.k_auto_memory import KAutoMemory, memory_key
from backend.engine.model import LoadedModel, inspect_file
from backend.engine.model_info import ModelInfo
from backend.engine.prompt import build_prompt
from backend.engine.protocol import ProgressFn
from backend.engine.request import GenerationRequest
from backend.engine.step_events import EventPipeline, StepRecord
from backend.engine.text import AnswerText
from backend.engine.token_log import StepBatch
from backend.engine.tree.continuations import tree_from_continuations
from backend.engine.tree.grow import AUTO, row_worth, tree_from_chain
from backend.engine.tree.grow import budget as tree_budget
from backend.engine.tree.refusals import TREE_DRAFTERS, TREE_RECURRENT
from backend.engine.tree.step import MAX_LEAVES, verify_tree_step, wants_tree
from backend.engine.tree.structure import DraftTree
from backend.engine.verify import Verdict, verify_greedy, verify_sampled
from backend.repetition import echoes
from backend.words import Words, words, words_of

DEFAULT_N_CTX = settings_schema.N_CTX.default
CALIBRATION_PROMPT = "Once upon a time"
CALIBRATION_TOKENS = 8

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Held:
    """What the engine holds, to load again when a load that replaced it fails."""

    target: str
    draft: str  # "" for none
    n_ctx: int
    n_threads: int


class Engine:
    """Owns every llama.cpp object. All methods but `cancel` must be called from one thread."""

    def __init__(self, cancel_event: threading.Event | None = None, *,
                 n_gpu_layers: int = -1, k_auto_memory: KAutoMemory | None = None) -> None:
        """`cancel_event`: the flag `cancel` sets; an engine process passes one that its
        parent can set from another process (a `multiprocessing.Event`). `n_gpu_layers`: the
        layers every model loads onto a GPU (-1: all when llama.cpp has a GPU backend).
        `k_auto_memory`: where K auto's measurements are kept from one engine to the next
        (None: each engine learns afresh, as the benches and most tests want)."""
        self.n_gpu_layers = n_gpu_layers
        self._memory = k_auto_memory
        self._target: LoadedModel | None = None
        self._draft: LoadedModel | None = None
        self._ctx: Context | None = None
        self._drafters: dict[str, Drafter] = {}
        # K auto's measurements per spec type, kept across answers with the same models
        self._adaptive: dict[str, AdaptiveK] = {}
        self._memory_keys: dict[str, dict] = {}  # and the key each is saved under
        self._cancel = cancel_event if cancel_event is not None else threading.Event()
        # A plain step's decode alone, from the last plain answer or the calibration after
        # loading: K auto's V(1) to start from, until an answer measures its own. (Never the
        # speedup's yardstick: each answer measures that itself, plain_yardstick.py.)
        self._plain_verify_ms = 0.0
        self.n_ctx = DEFAULT_N_CTX
        self.n_threads = default_threads()
        self._events = EventPipeline()  # steps' events, made beside the decoding
        # Whether llama_decode returns at launch and reading its outputs waits for it (CUDA,
        # Metal): None, as the target was loaded (on a GPU or not). bench/engine_overhead_bench.py
        # sets it for its stand-in of a GPU's decode.
        self.decode_at_launch: bool | None = None
        self._row_copy: np.ndarray | None = None  # see AnswerRun.row_copy

    # -- models --------------------------------------------------------------------------
    @property
    def target(self) -> ModelInfo | None:
        return self._target.info if self._target else None

    @property
    def draft(self) -> ModelInfo | None:
        return self._draft.info if self._draft else None

    def load_target(
        self,
        path: str | os.PathLike,
        *,
        n_ctx: int = DEFAULT_N_CTX,
        n_threads: int | None = None,
        progress: ProgressFn | None = None,
    ) -> ModelInfo:
        """Load the model that answers. The previous target (and any draft, whose pairing
        no longer holds) is released first, once the new file has been read and found a
        model; when llama.cpp refuses it anyway, or the load is cancelled, the previous models
        are loaded again: a load that fails changes nothing."""
        inspection = inspect_file(Path(path))  # a broken file is refused with nothing released
        held = self._held()
        self.unload_draft()
        self._close_target()
        try:
            self._target = LoadedModel(path, progress=progress, with_mtp=True,
                                       n_gpu_layers=self.n_gpu_layers, inspection=inspection)
            self.configure(n_ctx=n_ctx, n_threads=n_threads)
        except EngineError:
            self._close_target()
            self._restore(held)
            raise
        return self._target.info

    def _held(self) -> _Held | None:
        if self._target is None:
            return None
        return _Held(self._target.path, self._draft.path if self._draft else "",
                     self.n_ctx, self.n_threads)

    def _restore(self, held: _Held | None) -> None:
        """Load again what `_held` described, after a load that replaced it failed. The files
        loaded a moment ago; if one no longer does (deleted meanwhile), less is loaded, and
        `target` and `draft` say what."""
        if held is None:
            return
        try:
            self._target = LoadedModel(held.target, with_mtp=True, n_gpu_layers=self.n_gpu_layers)
            self.configure(n_ctx=held.n_ctx, n_threads=held.n_threads)
        except EngineError:
            log.exception("Could not load %s again", held.target)
            self._close_target()
            return
        if held.draft:
            self._restore_draft(held.draft)

    def _restore_draft(self, path: str) -> None:
        try:
            self.load_draft(path)
        except EngineError:
            log.exception("Could not load the draft %s again", path)

    def load_demo(self, *, n_ctx: int = DEFAULT_N_CTX, n_threads: int | None = None,
                  progress: ProgressFn | None = None) -> tuple[str, str]:
        """Make the first-run demo pair if needed (llama.cpp's quantizer, a few seconds) and
        load its target; returns the pair's paths (the draft loads like any other)."""
        from backend.engine.demo_pair import ensure_demo_pair
        from backend.models.demo_pair import DemoPairError

        try:
            target, draft = ensure_demo_pair()
        except DemoPairError as exc:
            raise EngineError(words_of(exc)) from exc
        self.load_target(target, n_ctx=n_ctx, n_threads=n_threads, progress=progress)
        return str(target), str(draft)

    def configure(self, *, n_ctx: int | None = None, n_threads: int | None = None) -> None:
        """Change context size or threads: new contexts on the same loaded weights.
        `n_threads` 0 or None is automatic, as the panel's "auto" means: never the count
        that was set before."""
        self.n_ctx = n_ctx or self.n_ctx
        self.n_threads = n_threads or default_threads()
        self._close_drafters()
        if self._ctx is not None:
            self._ctx.close()
            self._ctx = None
        self._plain_verify_ms = 0.0
        if self._target is not None:
            self._ctx = self._target_context(DEFAULT_RS_SNAPSHOTS)
            row_stats.use_threads(1 if self._target.info.on_gpu else self.n_threads)
            if self._draft is not None:  # the draft model stays loaded, with a new context
                self._make_draft_drafters()
            self._measure_plain_rate()

    def _measure_plain_rate(self) -> None:
        """A few plain greedy steps right after loading: K auto's first guess at a plain
        step's cost, and the weights paged in before the first answer. The prompt pass pages
        them in first, and only the steps after it are timed."""
        request = GenerationRequest(prompt=CALIBRATION_PROMPT, max_tokens=CALIBRATION_TOKENS)
        for event in self.generate(request):
            if isinstance(event, GenerationFinished) and event.stats.n_generated > 1:
                self._plain_verify_ms = event.stats.verify_ms / event.stats.n_steps
        if self._ctx is not None:
            self._ctx.clear()

    def _target_context(self, n_rs_seq: int, *, n_seq_max: int = 1) -> Context:
        assert self._target is not None
        n_ctx = min(self.n_ctx, self._target.info.n_ctx_train or self.n_ctx)
        if not self._target.recurrent:
            return Context(self._target, n_ctx=n_ctx, n_threads=self.n_threads,
                           n_seq_max=n_seq_max)
        # Rolling back a rejected draft restores a snapshot; llama.cpp keeps the snapshots of
        # the last n_rs_seq + 1 tokens of a batch in one ubatch, hence n_ubatch.
        return Context(self._target, n_ctx=n_ctx, n_threads=self.n_threads,
                       n_rs_seq=n_rs_seq, n_ubatch=max(512, n_rs_seq + 1))

    def _fit_tree(self, spec_type: str, drafter: Drafter) -> Words | None:
        """A context that verifies trees (a new one, once: its cached prefix is lost); or why
        this request drafts a chain instead, in words, for its answer's note (a setting kept
        from another spec type or model must not refuse every answer)."""
        ctx = self._ctx
        assert ctx is not None and self._target is not None
        if ctx.model.recurrent:
            return words(TREE_RECURRENT, name=self._target.info.name)
        spec = spec_types.get(spec_type)
        if spec is None or not spec.trees:
            return words(TREE_DRAFTERS, spec=spec_type,
                         drafters=", ".join(spec_types.tree_drafters()))
        if ctx.n_seq_max < MAX_LEAVES:
            ctx.close()
            self._ctx = self._target_context(ctx.n_rs_seq, n_seq_max=MAX_LEAVES)
        if isinstance(drafter, DraftModelDrafter):
            drafter.fit_tree(MAX_LEAVES)  # to continue the alternatives (tree/extend.py)
        return None

    def _fit_rollback(self, n_draft_max: int) -> None:
        """Give a recurrent target enough snapshots to roll back a draft of n_draft_max tokens
        (a new context: its cached prefix is lost, once)."""
        ctx = self._ctx
        if ctx is not None and ctx.model.recurrent and ctx.n_rs_seq < n_draft_max + 1:
            ctx.close()
            self._ctx = self._target_context(n_draft_max + 1)

    def load_draft(
        self, path: str | os.PathLike, *, progress: ProgressFn | None = None
    ) -> ModelInfo:
        """Load a draft model for spec type "draft"; refused (EngineError, in words) when its
        vocabulary differs from the target's."""
        if self._target is None or self._ctx is None:
            raise EngineError(words(NO_TARGET_FOR_DRAFT))
        inspection = inspect_file(Path(path))  # as for a target: refused before releasing
        previous = self._draft.path if self._draft else ""
        self.unload_draft()
        try:
            self._draft = LoadedModel(path, progress=progress, n_gpu_layers=self.n_gpu_layers,
                                      inspection=inspection)
            # made now rather than at the first answer, so that a draft whose vocabulary
            # cannot draft for the target is refused when it is chosen
            self._make_draft_drafters()
        except Exception:
            self.unload_draft()
            if previous and previous != str(path):  # the draft that worked stays
                self._restore_draft(previous)
            raise
        return self._draft.info

    def _make_draft_drafters(self) -> None:
        assert self._draft is not None  # a draft model, or an EAGLE-3 head: each its drafters
        need = spec_types.draft_need(self._draft.info.architecture)
        for spec in spec_types.all_spec_types():
            if spec.needs == need:
                self._make_drafter(spec)

    def unload_draft(self) -> None:
        for name in [n for n in self._drafters if _needs(n) in spec_types.DRAFT_NEEDS]:
            self._drafters.pop(name).close()
        if self._draft is not None:
            self._draft.close()
            self._draft = None

    def reset_cache(self) -> None:
        """Forget cached prefixes (e.g. a new conversation)."""
        if self._ctx is not None:
            self._ctx.clear()
        draft = self._drafters.get("draft")
        if isinstance(draft, DraftModelDrafter):
            draft.ctx.clear()

    def cancel(self) -> None:
        """Thread-safe: the running generation stops before its next step."""
        self._cancel.set()

    def close(self) -> None:
        self._events.close()  # first: an event being made still reads the models
        self.unload_draft()
        self._close_target()

    def _close_drafters(self) -> None:
        for d in self._drafters.values():
            d.close()
        self._drafters.clear()
        self._adaptive.clear()  # other models or contexts: other costs
        self._memory_keys.clear()

    def _close_contexts(self) -> None:
        self._close_drafters()
        if self._draft is not None:
            self._draft.close()
            self._draft = None
        if self._ctx is not None:
            self._ctx.close()
            self._ctx = None

    def _close_target(self) -> None:
        self._close_contexts()
        if self._target is not None:
            self._target.close()
            self._target = None

    def _drafter(self, request: GenerationRequest) -> Drafter | None:
        """The request's drafter (None: plain decoding), made by its spec type's declared
        factory on first use and kept until the models or contexts change."""
        spec = spec_types.get(request.spec_type)
        if spec is None:
            raise EngineError(words(UNKNOWN_SPEC_TYPE, name=request.spec_type))
        if not spec.drafts:
            return None
        if spec.name in self._drafters:
            return self._drafters[spec.name]
        return self._make_drafter(spec)

    def _make_drafter(self, spec: spec_types.SpecType) -> Drafter:
        assert self._target is not None and self._ctx is not None
        drafter = spec.make_drafter(
            DraftingSetup(self._target, self._ctx, self._draft, self.n_threads))
        self._drafters[spec.name] = drafter
        return drafter

    # -- generation ----------------------------------------------------------------------
    def generate(self, request: GenerationRequest) -> Iterator[Event]:
        """Run one request, yielding events. Never raises for a user-level problem: it ends
        with GenerationFinished or GenerationFailed."""
        for event in self.generate_folded(request):
            if isinstance(event, StepBatch):
                yield from event.plain_steps()
            else:
                yield event

    def generate_folded(self, request: GenerationRequest) -> Iterator[Event | StepBatch]:
        """The same, but a plain answer read for its text alone (plain_chunk.py) comes a
        chunk's steps at a time, folded into StepBatches, never made into StepVerified events:
        as the engine process sends steps to `generate`'s terminal (host.py)."""
        self._cancel.clear()
        try:
            yield from self._generate(request)
        except EngineError as exc:
            yield GenerationFailed(str(exc), words=words_of(exc))
        except Exception as exc:  # a bug must not take the app down with it
            detail = f"{type(exc).__name__}: {exc}"
            yield GenerationFailed(GENERATION_FAILED, detail, words=words(GENERATION_FAILED))

    def _generate(self, req: GenerationRequest) -> Iterator[Event | StepBatch]:
        t_start = time.perf_counter()
        if self._target is None or self._ctx is None:
            raise EngineError(words(NO_MODEL))
        drafter = self._drafter(req)
        auto = drafter is not None and req.n_draft_max == 0
        if auto and not req.sampling.greedy and req.sampling.seed >= 0:
            # A seed promises the same answer again; K auto's choices follow measured times,
            # and another K draws the random numbers in another order. So a seeded sampled
            # answer drafts a fixed K (greedy answers are the same at any K: lossless).
            auto, n_draft_max = False, SEEDED_K
        else:
            n_draft_max = (AUTO_K_CAP if auto else req.n_draft_max) if drafter is not None else 0
        adaptive = self._controller(req.spec_type, drafter) if auto else None
        self._fit_rollback(n_draft_max)
        tree_note = (self._fit_tree(req.spec_type, drafter)
                     if req.tree_nodes and drafter is not None else None)
        trees = bool(req.tree_nodes) and drafter is not None and tree_note is None
        model, ctx = self._target, self._ctx
        self._events.inline = not self._spare_core()
        self._events.batched = row_stats.BUILT  # rows detached without a copy
        # nothing to read in the background where only the argmax is read, nor in a plain
        # answer, whose next decode begins right after the argmax (`_pipelines`) and so waits
        # for the row to be read: the reader would overlap nothing
        row_stats.read_in_background(req.inspect and drafter is not None and self._reader_core())
        follower = drafter if isinstance(drafter, TargetFollower) else None
        try:
            yield from self._run(req, model, ctx, drafter, follower, n_draft_max, t_start, adaptive,
                                 trees, tree_note)
        finally:
            self._events.discard()  # none, unless the answer failed or was dropped half way
            row_stats.read_in_background(False)  # the reader asleep between answers
            ctx.on_decode = None
            if adaptive is not None and self._memory is not None:
                # after the answer's last event: the window is not kept waiting for it
                self._memory.save(self._memory_keys[req.spec_type], adaptive)

    def _spare_core(self) -> bool:
        """Whether a core is left beside llama.cpp's threads for the steps' events
        (step_events.py): on a GPU they mostly wait for it; on the CPU, when fewer than the
        cores this process may use."""
        assert self._target is not None
        return self._target.info.on_gpu or self.n_threads < usable_cores()

    def _reader_core(self) -> bool:
        """Whether a second physical core is spare beside llama.cpp's threads, for the verify
        rows' sums read in the background (row_stats.read_in_background): the first is the
        window's and the events' (`_spare_core`). The reader waits for the next row awake, so
        its core looks busy: sharing the one spare core (two cores, one thread) it pushed the
        command's process and the events' threads onto llama.cpp's, 440 tokens/s against 478
        without it; on a logical CPU it would share a decoding thread's core."""
        assert self._target is not None
        return spare_physical_cores(1 if self._target.info.on_gpu else self.n_threads) >= 2

    def _controller(self, spec_type: str, drafter: Drafter | None) -> AdaptiveK:
        """K auto's controller for this spec type: the one kept across answers, else the
        last engine's from the memory (see k_auto_memory), else a fresh one."""
        if spec_type in self._adaptive:
            return self._adaptive[spec_type]
        fresh = AdaptiveK(stops=isinstance(drafter, SamplingDrafter))
        controller = None
        if self._memory is not None:
            assert self._target is not None
            uses_draft = _needs(spec_type) in spec_types.DRAFT_NEEDS
            key = memory_key(
                spec_type=spec_type, target=self._target.path,
                draft=self._draft.path if uses_draft and self._draft is not None else None,
                n_threads=self.n_threads, n_gpu_layers=self.n_gpu_layers, build=build_facts())
            self._memory_keys[spec_type] = key
            controller = self._memory.load(key, fresh, self._plain_verify_ms)
        self._adaptive[spec_type] = controller or fresh
        return self._adaptive[spec_type]

    def _run(self, req: GenerationRequest, model: LoadedModel, ctx: Context,
             drafter: Drafter | None, follower: TargetFollower | None, n_draft_max: int,
             t_start: float, adaptive: AdaptiveK | None = None, trees: bool = False,
             tree_note: Words | None = None) -> Iterator[Event | StepBatch]:
        prompt, template_stops = build_prompt(model, req)
        if len(prompt) >= ctx.n_ctx:
            raise EngineError(words(PROMPT_TOO_LONG, n=len(prompt), n_ctx=ctx.n_ctx))
        s = req.sampling
        rng = np.random.default_rng(None if s.seed < 0 else s.seed)
        if drafter is not None:
            drafter.begin(req, rng)
        if adaptive is not None:
            adaptive.begin_answer(self._plain_verify_ms, len(prompt), req.max_tokens)
        # n_draft_max 0 tells the viewer "K auto" (each step's K is its draft's length)
        yield GenerationStarted(req.request_id, req.spec_type, 0 if adaptive else n_draft_max,
                                len(prompt), self._spare_core())

        # The target's cache holds the history but its last token, which each step decodes
        # together with the draft.
        reuse_max = None
        if follower is not None:
            reuse_max = follower.follow(ctx, prompt[:-1])
            ctx.on_decode = follower.observe
        n_cached = ctx.prefill(prompt[:-1], reuse_max=reuse_max)
        run = AnswerRun(req, model, ctx, drafter, n_draft_max, rng,
                        AnswerText(tuple(req.stop) + template_stops), list(prompt), adaptive,
                        trees=trees, row_copy=self._copies_rows(req, model, drafter))
        if isinstance(drafter, PromptReader):  # see PromptReader
            run.next_k = self._next_k(run, 0)
            if run.next_k:
                t_read = time.perf_counter()
                drafter.read_prompt(run.history)
                run.prompt_read_ms = 1000 * (time.perf_counter() - t_read)
        t_prompt = time.perf_counter()
        yield PromptProcessed(len(prompt), n_cached, 1000 * (t_prompt - t_start))

        tally = _Tally()
        reason: StopReason | None = None
        chunked = plain_chunk.takes(req, drafter, model.recurrent)
        at_launch = self._decodes_at_launch(model)
        while reason is None:
            if self._cancel.is_set():
                reason = "cancelled"
                break
            if run.launched_ms is None and ctx.n_ctx - ctx.n_past - 1 < 0:
                reason = "context_full"
                break
            number = tally.n_steps + 1
            if chunked:
                batch, reason = plain_chunk.plain_batch(run, tally.n_generated, number,
                                                        self._cancel, at_launch)
                tally.add_plain(batch, time.perf_counter() - t_start)
                yield batch
                continue
            step, reason = self._step(run, tally.n_generated, number)
            tally.add(step, time.perf_counter() - t_start)
            yield from self._events.put(step.event, len(step.p_rows))
        row_stats.settle(ctx)  # the last step's rows, which no decode settles
        yield from self._events.drain()

        stats = tally.stats(len(prompt), n_cached, 1000 * (t_prompt - t_start),
                            1000 * (time.perf_counter() - t_prompt))
        if req.spec_type == spec_types.PLAIN and stats.n_generated >= 16 and reason != "cancelled":
            self._plain_verify_ms = stats.verify_ms / stats.n_steps
        yardstick = run.yardstick
        stats = replace(stats, plain_tokens_per_second=yardstick.tokens_per_second,
                        plain_steps=yardstick.n, plain_spread=yardstick.spread)
        # K auto says why when it kept most of the answer plain
        note = (adaptive.why_plain() if adaptive is not None
                and 2 * stats.n_draft_steps < stats.n_steps else None) or tree_note
        yield GenerationFinished(reason, run.answer.text, stats, note)

    def _step(self, run: AnswerRun, n_generated: int, number: int
              ) -> tuple[StepRecord, StopReason | None]:
        """One draft–verify step: propose, decode `[last, drafts…]` in one batch, verify,
        roll the cache back to what was kept; the step (its event made later, see
        step_events) and why the answer ends, if it does."""
        req, model, ctx, drafter, history = run.req, run.model, run.ctx, run.drafter, run.history
        t_begin = time.perf_counter()
        launched_ms, run.launched_ms = run.launched_ms, None
        if run.adaptive is not None and run.last_step is not None:
            # the last step's time outside draft and verify
            start, measured_ms = run.last_step
            run.adaptive.record_overhead(1000 * (t_begin - start) - measured_ms)
        proposal, k, draft_ms = self._propose(run, n_generated, number)
        drafts = proposal.tokens[:k]
        if drafter is not None and len(drafts) < max(req.n_draft_min, 1):
            proposal, drafts = Proposal(), []
        t_grow = time.perf_counter()
        tree = (self._grow(run, proposal, len(drafts))
                if drafts and run.trees and wants_tree(req, ctx) else None)
        t1 = time.perf_counter()
        draft_ms += 1000 * (t1 - t_grow)  # growing a tree is drafting (its branches decoded)
        # what was drafted as a chain (a tree's step shows its kept branch instead), and for a
        # tree, how many of the chain's first choices stood
        chain, chain_drafts, n_first = proposal, drafts, None
        kept_path: tuple[int, ...] = ()
        draft_rows: tuple[int, ...] = ()  # a chain's: token i examined at row i
        accepts: tuple[float, ...] = ()
        # the row read after the next launch, from a copy (`AnswerRun.row_copy`)
        row_copy = run.row_copy if launched_ms is not None else None
        if tree is not None:
            step = verify_tree_step(ctx, tree, history[-1], chain, history, req, run.rng)
            verdict, p_rows, drafts = step.verdict, step.p_rows, step.drafts
            proposal, n_first, rolled_back = step.proposal, step.first_choices, True
            kept_path, draft_rows, accepts = step.path, step.draft_rows, step.accepts
            n_acc = verdict.n_accepted
        elif row_copy is not None:
            row = sampling.penalized(ctx.rows(1)[0], req.sampling, history, in_place=True)
            verdict, p_rows = Verdict(0, int(row.argmax())), []
            np.copyto(row_copy, row)
            n_acc, rolled_back = 0, True
        elif launched_ms is not None:  # [last], begun by the step before (`_pipelines`)
            verdict, p_rows = self._verify(ctx, ctx.rows(1), [], proposal, history, req, run.rng)
            n_acc, rolled_back = 0, True
        else:
            n_before = ctx.n_past
            rows = ctx.decode([history[-1], *drafts], all_logits=True)
            verdict, p_rows = self._verify(ctx, rows, drafts, proposal, history, req, run.rng)
            n_acc = verdict.n_accepted
            rolled_back = ctx.truncate(n_before + 1 + n_acc)
        t2 = time.perf_counter()
        # The event reads the rows later (step_events.py): made their own (what it asks of
        # them read now, `GreedyRow.detach`), for llama.cpp's buffer is written by the next
        # decode, here or in a recurrent model's prefill below; an event made at once (inline,
        # not batched) reads the buffer itself, and then the next decode waits for it.
        at_once = self._events.at_once
        pipelined = not at_once and self._pipelines(run, verdict.token, n_generated)
        asked = {*drafts, verdict.token, *(tree.tokens if tree is not None else ())}
        if not (at_once and rolled_back):
            p_rows = [r.detach(asked) for r in p_rows]
        t_ready = time.perf_counter()  # where a plain answer's step begins the next decode
        if pipelined:
            t_launch = time.perf_counter()
            ctx.launch(verdict.token)
            run.launched_ms = 1000 * (time.perf_counter() - t_launch)
        if row_copy is not None:
            # a view (the buffer is the run's): detach keeps what C read, not the buffer
            p_rows = [sampling.GreedyRow(row_copy[:]).detach(asked)]

        emitted, reason = run.emit([*drafts[:n_acc], verdict.token], n_generated)
        history.extend(tok for tok, _ in emitted)
        if not rolled_back:
            # A recurrent state that cannot roll back this far would hold the rejected
            # drafts: start the cache over rather than go on from a wrong state.
            ctx.clear()
            ctx.prefill(history[:-1])
        # Drafts verified after the end of the answer (EOS, a stop string, max tokens) were
        # never used: counting them would flatter the acceptance rate.
        n_used = min(n_acc, len(emitted))
        # A decode begun in the step before counts as this step's, where it counts on the CPU
        # (there the launch is the whole decode): the steps' times add up to the answer's.
        begun_here = run.launched_ms or 0.0
        before = launched_ms or 0.0
        record = StepRecord(
            number, model, proposal, drafts, drafter.origin if drafter is not None else None,
            verdict, p_rows, history, emitted, n_used,
            req.sampling.greedy, draft_ms, 1000 * (t2 - t1) + before,
            1000 * (time.perf_counter() - t_begin) - begun_here + before, tree, kept_path,
            draft_rows, accepts, req.inspect)
        # a plain step still recovering from the drafting before it is no measure of plain
        # decoding, for the answer's yardstick or for K auto (plain_yardstick.py)
        timed = run.yardstick.step(number, len(drafts), self._yardstick_ms(
            run, record.ms, 1000 * (t_ready - t_begin) + before))
        if run.adaptive is not None:
            # K auto weighs catching up on the prompt as part of the first drafting step,
            # wherever the engine spent it
            read, run.prompt_read_ms = run.prompt_read_ms, 0.0
            # a tree's step counts as its chain's: K auto weighs the first choices
            kept = n_acc if n_first is None else n_first
            run.adaptive.record(len(chain_drafts), kept, draft_ms + read, record.verify_ms,
                                chain.p_draft[: len(chain_drafts)], proposal.catch_up_ms + read,
                                batch=len(tree) + 1 if tree is not None else 0,
                                timed=timed)
            run.last_step = (t_begin, draft_ms + record.verify_ms)
        return record, reason

    def _pipelines(self, run: AnswerRun, token: int, n_generated: int) -> bool:
        """Whether the next step's batch, `token` alone, begins decoding now, before this
        step's text, stop strings and event (`Context.launch`): where a GPU decodes, that work
        then overlaps the decoding instead of following it (~25 µs of a 1 ms token,
        bench/engine_overhead_bench.py). Only where the next step is surely a plain one of the
        same answer: a plain request whose answer goes on past this token as far as the
        token, the length and the context tell. A stop string found in the token's text ends
        the answer with that token in the cache, where the next request's prefill finds it as
        it finds any other."""
        ctx = run.ctx
        return (run.drafter is None and not run.model.is_eog(token)
                and n_generated + 1 < run.req.max_tokens and ctx.n_past < ctx.n_ctx
                and not self._cancel.is_set())

    def _decodes_at_launch(self, model: LoadedModel) -> bool:
        """Whether llama_decode returns at launch for `model` (see `decode_at_launch`)."""
        return self.decode_at_launch if self.decode_at_launch is not None else model.info.on_gpu

    def _yardstick_ms(self, run: AnswerRun, ms: float, ready_ms: float) -> float:
        """A step's time as plain decoding's yardstick reads it (plain_yardstick.py): the
        whole step's `ms`; where a decode returns at launch, `ready_ms`, up to where a plain
        answer's step begins its successor's decode (`_pipelines`): its text, stop strings and
        event overlap that decode, and a drafting answer's plain step timed with them made the
        speedup read high (~25 µs a token, 2.5 % at 1,000 tokens/s). That assumes the decode
        outlasts them, as it does at a GPU's rates."""
        return ready_ms if self._decodes_at_launch(run.model) else ms

    def _copies_rows(self, req: GenerationRequest, model: LoadedModel,
                     drafter: Drafter | None) -> np.ndarray | None:
        """The buffer a plain answer's rows are copied into (`AnswerRun.row_copy`), where that pays:
        a greedy plain request whose rows are read for what the window shows, its next decode
        begun before its events are made (not made at once), on a decode that returns at
        launch. None elsewhere: on the CPU the launch is the whole decode, and the copy
        would only add to it."""
        if not (self._decodes_at_launch(model) and drafter is None and req.inspect
                and req.sampling.greedy
                and not self._events.at_once):
            return None
        if self._row_copy is None or self._row_copy.shape[0] != model.n_vocab:
            self._row_copy = np.empty(model.n_vocab, np.float32)
        return self._row_copy

    def _grow(self, run: AnswerRun, proposal: Proposal, k: int) -> DraftTree | None:
        """The step's draft tree around the chain of `proposal`'s first `k` tokens: a model's
        next choices beside it, or n-gram lookup's older continuations; None: a chain."""
        if isinstance(run.drafter, LookupAlternatives):
            others = run.drafter.alternatives(run.history, k)
            sources = [*proposal.sources[:k], *[None] * (k - len(proposal.sources))]
            return tree_from_continuations((proposal.tokens[:k], sources), others,
                                           run.req.tree_nodes)
        worth = self._tree_worth(run, k)
        continued = isinstance(run.drafter, DraftModelDrafter)
        tree = tree_from_chain(proposal, k, run.req.tree_nodes, worth, continued)
        if tree is not None and isinstance(run.drafter, DraftModelDrafter):
            spare = tree_budget(run.req.tree_nodes, k, worth) - len(tree)
            run.drafter.extend_tree(run.history, tree, k, spare, worth)
        return tree

    @staticmethod
    def _tree_worth(run: AnswerRun, k: int) -> float | None:
        """Auto trees under K auto: the path probability an alternative must reach to repay
        its batch row (tree/grow.py); None where nothing is measured (a fixed K)."""
        a = run.adaptive
        if run.req.tree_nodes != AUTO or a is None:
            return None
        return row_worth(a.verify_line()[1], a.step_time(k), a.expected_tokens(k))

    def _propose(self, run: AnswerRun, n_generated: int, number: int
                 ) -> tuple[Proposal, int, float]:
        """The step's proposal, how many of its tokens to draft, and the drafter's ms. A
        model drafter drafts the length chosen first (K auto's, with its confidence stopper);
        a lookup, whose proposal costs nothing, proposes first, so that K auto chooses knowing
        whether the drafts go on with a copy (acceptance.py's note on copies). Step `number`
        drafts nothing when plain decoding's yardstick is due (plain_yardstick.py), nor does
        a plain request's."""
        drafter, adaptive, history = run.drafter, run.adaptive, run.history
        if drafter is None or (run.next_k is None and run.req.measure_plain
                               and run.yardstick.due(number)):
            return Proposal(), 0, 0.0
        if (adaptive is not None and run.next_k is None
                and not isinstance(drafter, SamplingDrafter)):  # a lookup, under K auto
            allowed = self._allowed(run, n_generated)
            t0 = time.perf_counter()
            proposal = drafter.propose(history, allowed) if allowed else Proposal()
            draft_ms = 1000 * (time.perf_counter() - t0)
            # Nothing found, nothing to weigh: most of a lookup's steps (62 of 73 on the code
            # prompt) find no match, and choosing a length for each cost 0.2 ms, 1% of the
            # answer, where the step is plain whatever K auto says.
            k = (adaptive.choose(allowed, continuing=proposal.continues,
                                 repeating=lambda: echoes(history))
                 if allowed and proposal.tokens else 0)
            return proposal, k, draft_ms
        k = self._next_k(run, n_generated) if run.next_k is None else run.next_k
        run.next_k = None
        if adaptive is not None and isinstance(drafter, SamplingDrafter):
            drafter.judge = adaptive.stopper() if k else None
        t0 = time.perf_counter()
        proposal = drafter.propose(history, k) if k > 0 else Proposal()
        return proposal, k, 1000 * (time.perf_counter() - t0)

    @staticmethod
    def _allowed(run: AnswerRun, n_generated: int) -> int:
        """The most a step may draft: what the request, the context's room and the answer's
        end allow."""
        room = run.ctx.n_ctx - run.ctx.n_past - 1
        return max(0, min(run.n_draft_max, room, run.req.max_tokens - n_generated - 1))

    def _next_k(self, run: AnswerRun, n_generated: int) -> int:
        """The next step's draft length: what `_allowed` allows, and within that K auto's
        choice."""
        k = self._allowed(run, n_generated)
        if run.adaptive is None or k <= 0:
            return k
        return run.adaptive.choose(k, repeating=lambda: echoes(run.history))

    def _verify(self, ctx: Context, rows, drafts, proposal: Proposal, history, req, rng
                ) -> tuple[Verdict, list[sampling.Row]]:
        """Verdict plus, per examined verify position, the target's distribution there (what
        the hover and the inspector show as p): the sampler's at temperature > 0, the model's
        own softmax when greedy (sampling.GreedyRow: read token by token, never made whole),
        whose argmax is the same."""
        s = req.sampling
        # the penalty reads the last repeat_last_n tokens: a copy of the whole history per
        # step would grow with the answer
        base = min(len(history), s.repeat_last_n)
        hist = [*history[len(history) - base :], *drafts]
        if s.greedy and not drafts:  # a plain step: its row's choice
            only = sampling.verify_row(rows[0], s, hist, owner=ctx, inspect=req.inspect)
            return Verdict(0, only.best), [only]
        if s.greedy:
            greedy: dict[int, sampling.GreedyRow | sampling.ArgmaxRow] = {}

            def row(i: int) -> sampling.GreedyRow | sampling.ArgmaxRow:
                if i not in greedy:
                    greedy[i] = sampling.verify_row(rows[i], s, hist[: base + i], owner=ctx,
                                                    inspect=req.inspect)
                return greedy[i]

            verdict = verify_greedy(lambda i: row(i).best, drafts)
            return verdict, [row(i) for i in range(verdict.n_accepted + 1)]
        sampled: dict[int, sampling.SampledRow] = {}

        def dist(i: int) -> sampling.SampledRow:
            if i not in sampled:
                sampled[i] = sampling.sampled_row(rows[i], s, hist[: base + i])
            return sampled[i]

        verdict = verify_sampled(dist, drafts, proposal.dists[: len(drafts)], rng)
        return verdict, [dist(i) for i in range(verdict.n_accepted + 1)]


def _needs(spec_name: str) -> spec_types.Need:
    spec = spec_types.get(spec_name)
    return spec.needs if spec else ""


@dataclass
class _Tally:
    """The counts and times a request's Stats are made of, added up step by step."""

    n_generated: int = 0
    n_steps: int = 0
    n_draft_steps: int = 0
    n_drafted: int = 0
    n_accepted: int = 0
    draft_ms: float = 0.0
    verify_ms: float = 0.0
    ttft_ms: float = 0.0

    def add(self, step: StepRecord, since_start_s: float) -> None:
        self.n_generated += len(step.emitted)
        self.n_steps += 1
        self.n_draft_steps += 1 if step.drafts else 0
        self.n_drafted += len(step.drafts)
        self.n_accepted += step.n_used
        self.draft_ms += step.draft_ms
        self.verify_ms += step.verify_ms
        if self.n_steps == 1:
            self.ttft_ms = 1000 * since_start_s

    def add_plain(self, batch: StepBatch, since_start_s: float) -> None:
        """Plain steps, folded (StepBatch.plain): as `add` counts each."""
        if not self.n_steps:
            self.ttft_ms = 1000 * since_start_s
        self.n_generated += batch.n_emitted
        self.n_steps += len(batch)
        for ms in batch.verify_ms:
            self.verify_ms += ms

    def stats(self, n_prompt: int, n_cached: int, prompt_ms: float,
              generation_ms: float) -> Stats:
        return Stats(n_prompt=n_prompt, n_cached=n_cached, prompt_ms=prompt_ms,
                     generation_ms=generation_ms, **asdict(self))
