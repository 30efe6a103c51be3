"""A plain greedy answer read for its text alone (`draftlight generate` printing it), decided a
frame (16 ms) of tokens at a time.

Engine._step walks the drafting machinery for each step, and a plain step is one token: at a
GPU's token rates its Python took 94 µs a token beside llama.cpp's decode (lv-target, two
threads, the Intel Xeon). Here a chunk's tokens are decided in a tight loop (the row's repeat
penalty and argmax, the next decode begun: nothing else between two decodes), in C where it is
built (greedy_loop.py), else in Python; then their text, stop strings and steps are made
together, while the CPU's caches still hold that code, as one StepBatch: the folded steps the
engine process sends `generate`, with no StepVerified and no Token made for each token.
The tokens are the general loop's: each its row's argmax after the same penalty over the same
history. A token whose text ends the answer (a stop string) may have been followed by a few
decided after it: they leave the history and the cache again, so the answer, the cache and the
next request's prefill are the general loop's too.
"""

from __future__ import annotations

import threading
import time

from backend.engine import greedy_loop, sampling
from backend.engine.answer_run import AnswerRun
from backend.engine.events import StopReason
from backend.engine.frame_pace import FRAME_S
from backend.engine.request import GenerationRequest
from backend.engine.token_log import StepBatch

# The most time a chunk's tokens are decided before their text and steps are made: a frame
# (frame_pace.py), as the outbox sends them a frame at a time at most, so nothing reaches the
# terminal later. Each chunk's Python costs the decoding thread alike however many tokens it
# holds: a 1,000 µs decode returning when done (a CPU's), 59-60 µs a token of the engine's own
# in 16 ms chunks against 88-107 in 4 ms ones (bench/engine_overhead_bench.py --no-inspect).
# The first chunk of an answer is its first token alone, so that the time to it is the
# general loop's.
CHUNK_S = FRAME_S


def takes(req: GenerationRequest, drafter: object | None, recurrent: bool) -> bool:
    """Whether a request is answered here: plain (no drafter), greedy, read for its text alone
    (no token's p or top five), on a model whose cache can drop the tokens decided past a stop
    string (a recurrent model's keeps only a few snapshots)."""
    return drafter is None and req.sampling.greedy and not req.inspect and not recurrent


def plain_batch(run: AnswerRun, n_generated: int, number: int, cancel: threading.Event,
                at_launch: bool) -> tuple[StepBatch, StopReason | None]:
    """The next chunk's steps, one a token (numbered from `number`), folded as the engine
    process sends them (no StepVerified made), and why the answer ends after them, if it does.
    `at_launch`: llama_decode returns once a GPU has the work, so a step's time for plain
    decoding's yardstick is up to its successor's launch (Engine._yardstick_ms)."""
    req, model, ctx, history = run.req, run.model, run.ctx, run.history
    s = req.sampling
    t_begin = last = time.perf_counter()
    if run.launched_ms is None:
        ctx.launch(history[-1])
        before = 0.0
    else:  # begun after the last chunk's last token: the decode is this chunk's first's
        before, run.launched_ms = run.launched_ms, None
    end = t_begin + (CHUNK_S if n_generated else 0.0)
    tokens: list[int] = []  # decided
    ms: list[float] = []  # each one's time
    handed_back = False  # the row in llama.cpp's buffer is penalised already (greedy_loop)
    if greedy_loop.usable(ctx) and not cancel.is_set():
        chunk = greedy_loop.run_chunk(ctx, model, history, penalty=s.repeat_penalty,
                                      last_n=s.repeat_last_n,
                                      max_new=req.max_tokens - n_generated,
                                      budget_s=end - time.perf_counter())
        last = time.perf_counter()
        tokens, ms = chunk.tokens, chunk.ms
        before += 1000 * (chunk.started - t_begin)
        if tokens:
            ms[0] += before
            before = 0.0
        if chunk.status == greedy_loop.LAUNCHED:
            run.launched_ms = chunk.launch_ms
        handed_back = chunk.status == greedy_loop.HANDED_BACK
        if not handed_back:
            return _batch(run, n_generated, number, tokens, ms, at_launch)
    while True:
        logits = ctx.rows(1)[0]
        best = (sampling.ArgmaxRow(logits) if handed_back else
                sampling.argmax_row(logits, s, history, in_place=True)).best
        handed_back = False
        now = time.perf_counter()
        tokens.append(best)
        ms.append(1000 * (now - last) + before)
        last, before = now, 0.0
        history.append(best)
        if (model.is_eog(best) or n_generated + len(tokens) >= req.max_tokens
                or ctx.n_past >= ctx.n_ctx or cancel.is_set()):
            break
        t_launch = time.perf_counter()
        ctx.launch(best)
        launched = time.perf_counter()
        if launched >= end:
            run.launched_ms = 1000 * (launched - t_launch)
            break
    return _batch(run, n_generated, number, tokens, ms, at_launch)


def _batch(run: AnswerRun, n_generated: int, number: int, tokens: list[int], ms: list[float],
           at_launch: bool) -> tuple[StepBatch, StopReason | None]:
    """The decided tokens' text, stop strings (AnswerRun.emit, as the general loop's) and
    steps; any decided after the answer's end taken back out of the history and the cache."""
    t_made = time.perf_counter()
    history = run.history
    n_before = len(history) - len(tokens)
    emitted, reason = run.emit(tokens, n_generated)
    n = len(emitted)  # the decided tokens past the answer's end have no step
    kept = n_before + n
    if kept < len(history):  # decided past a stop string
        del history[kept:]
        run.launched_ms = None
    # as the general loop leaves it: an end-of-generation token is never decoded
    run.ctx.truncate(kept - (reason == "eos"))
    # what making the steps cost, shared among them: the steps' times add up to the answer's
    share_ms = 1000 * (time.perf_counter() - t_made) / n
    decided = ms[:n]
    total = [decide_ms + share_ms for decide_ms in decided]
    yardstick = run.yardstick
    for i, step_ms in enumerate(decided if at_launch else total):
        yardstick.step(number + i, 0, step_ms)
    return StepBatch.plain(number, emitted, decided, total), reason
