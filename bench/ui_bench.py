"""How fast the chat window renders a token stream, and what it costs a real model.

    python bench/ui_bench.py                       # synthetic stream + the demo pair
    python bench/ui_bench.py --synthetic-only
    python bench/ui_bench.py --target T.gguf --draft D.gguf --spec draft --n-draft 8
    python bench/ui_bench.py --large-vocab --threads 1

1. Synthetic: an engine stand-in in the engine's own process (served as the engine is) yields
   steps as fast as it can, through the real pipe, outbox and worker thread into the real
   window; reports tokens rendered per second and the longest GUI-thread stall (the largest
   gap of a 5 ms heartbeat timer). Then the same paced at STALL_RATE tokens/s (five times a
   fast GPU's rate), for the stalls at a rate a model gives (unpaced, the stand-in takes a
   core of two, and the window's process wants more than the other). Targets: >= 5,000
   tok/s unpaced, stall < 50 ms paced.
   With --rate R, one run paced at R tokens/s instead. A paced stand-in tells the window no
   core is spare (as where llama.cpp's threads hold every core): the GUI thread's share of a
   core is then what the window takes from such a model.
2. Real: the same request answered headless (a child process running Engine.generate on its
   main thread, answering in turns with the window) and through the window (whose engine runs
   in its own process, as in the app); reports both tokens/s (the engine's own numbers), the
   median of each round's ratio (window over the headless answer beside it: this machine's
   speed drifts by a third within minutes) and the longest GUI-thread stall while the window
   streamed the answers. The heartbeat runs in
   answers of its own, alternated with the timed ones: its 200 wakes a second cost the model
   a few per cent where llama.cpp's threads hold every core, which the app does not pay.
   Targets: window/headless >= 0.97, stall < 50 ms.
   With --large-vocab, on tests/models/large_vocab.py's lv-target (151,936 tokens, ~1,000
   tok/s natively: a GPU's rate) plain and with lv-draft at K = 4, so the window is driven at
   the rate of a model on a GPU.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "models"))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QElapsedTimer, QEventLoop, QTimer  # noqa: E402

from backend.engine.events import (  # noqa: E402
    Candidate,
    GenerationFinished,
    GenerationStarted,
    PromptProcessed,
    Stats,
    StepVerified,
    Token,
    Verification,
    verification_to_json,
)
from backend.engine.model_info import ModelInfo  # noqa: E402

_TOP = tuple(Candidate(100 + i, f" word{i}", 0.5 / (i + 1)) for i in range(5))
# encoded once here: the real engine encodes them in its own process
CHECK = verification_to_json(Verification("sampled", 0.42, 0.87, top_target=_TOP,
                                          top_draft=_TOP))
OWN = verification_to_json(Verification("sampled", drawn_from="residual", residual_p=0.31,
                                        top_target=_TOP))
STALL_MS = 50  # the longest GUI-thread stall allowed while tokens stream
STALL_RATE = 5000  # tokens/s of the paced synthetic run the stalls are judged on
STALL_STEPS = 4_000  # its steps: a few seconds at that rate
LARGE_VOCAB_TOKENS = 1500  # ~1.5 s an answer at lv-target's rate: long enough to time
WORDS = ("the", "quick", "brown", "fox", "jumps", "over", "a", "lazy", "dog", "while",
         "speculative", "decoding", "drafts", "several", "tokens", "at", "once")


class SyntheticEngine:
    """An `EngineLike` (backend.engine.protocol) yielding `n_steps` steps as fast as Python
    can make them."""

    def __init__(self, n_steps: int, k: int, newline_every: int, cancel=None,
                 rate: float = 0.0) -> None:
        self.n_steps, self.k, self.newline_every = n_steps, k, newline_every
        self.rate = rate  # tokens/s to pace the steps at; 0: as fast as they come
        self.warm_up = True  # the first request is short: fonts and styles load on first use
        self.target = ModelInfo(path="synthetic", name="synthetic", architecture="synthetic",
                                n_params=0, size_bytes=0, n_ctx_train=0, n_vocab=0,
                                n_mtp_heads=0)
        self.draft = None
        self._cancel = cancel or threading.Event()  # in its own process: the window's Stop

    def load_target(self, path, **_):
        return self.target

    def load_demo(self, **_):
        return "synthetic", ""

    def load_draft(self, path, **_):
        return None

    def unload_draft(self):
        pass

    def cancel(self):
        self._cancel.set()

    def reset_cache(self):
        pass

    def close(self):
        pass

    def generate(self, request):
        self._cancel.clear()
        yield GenerationStarted(request.request_id, "draft", self.k, 10,
                                spare_core=not self.rate)
        yield PromptProcessed(10, 0, 1.0)
        n = 0
        t0 = time.perf_counter()
        n_steps, self.warm_up = (200 if self.warm_up else self.n_steps), False
        for s in range(n_steps):
            if self._cancel.is_set():
                break
            n_acc = (s * 7) % (self.k + 1)
            # with what the engine records for the inspector (top-5s of p and q), so the
            # worker's and the GUI's share of carrying it is in the figures
            drafted = tuple(
                Token(i, " " + WORDS[(n + i) % len(WORDS)], "draft", i < n_acc, 0.9, 0.8,
                      inspection=CHECK)
                for i in range(self.k))
            text = " " + WORDS[(n + n_acc) % len(WORDS)]
            if self.newline_every and s % self.newline_every == self.newline_every - 1:
                text += "\n"
            emitted = (*drafted[:n_acc], Token(99, text, "target", True, 0.95,
                                               inspection=OWN))
            n += len(emitted)
            yield StepVerified(s, drafted, n_acc, emitted, 0.0, 0.0)
            # The real engine releases the GIL every step, inside llama_decode; a producer that
            # never did would keep its process's sender (outbox.py) waiting up to Python's 5 ms
            # switch interval for each batch, which no real model does.
            time.sleep(max(0.0, t0 + n / self.rate - time.perf_counter()) if self.rate else 0)
        ms = 1000 * (time.perf_counter() - t0)
        yield GenerationFinished("length", "", Stats(n_generated=n, n_steps=n_steps,
                                                      generation_ms=ms))


def synthetic_child(n_steps: int, k: int, newline_every: int, rate: float, conn,
                    cancel_generation, cancel_load, stderr_path: str, runtime) -> None:
    """The engine process's main, serving a SyntheticEngine as it serves the real one."""
    from backend.engine.host import serve

    serve(conn, cancel_generation, cancel_load, stderr_path, runtime,
          engine=SyntheticEngine(n_steps, k, newline_every, cancel=cancel_generation,
                                 rate=rate))


def synthetic_process(args):
    """An EngineProcess whose child streams synthetic steps: the window meets them through the
    pipe, outbox and worker it meets a model's through, with no producer of steps holding its
    own process's GIL (which no model in the app does)."""
    from backend.engine.remote import EngineProcess

    class SyntheticProcess(EngineProcess):
        child_main = functools.partial(synthetic_child, args.steps, args.k, args.newline_every,
                                       args.rate)

    return SyntheticProcess()


class Heartbeat:
    """The GUI thread's stalls while it runs: the gaps between ticks of a 5 ms timer."""

    def __init__(self) -> None:
        self.gaps: list[int] = []
        self._clock = QElapsedTimer()
        self._timer = QTimer(interval=5)
        self._timer.timeout.connect(self._beat)
        self._last = 0

    def start(self) -> None:
        self._clock.start()
        self._last = 0
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def _beat(self) -> None:
        now = self._clock.elapsed()
        if now - self._last > 40:
            print(f"  stall {now - self._last} ms at {now} ms", file=sys.stderr)
        self.gaps.append(now - self._last)
        self._last = now

    @property
    def longest(self) -> int:
        return max(self.gaps, default=0)

    @property
    def p99(self) -> int:
        return sorted(self.gaps)[int(0.99 * (len(self.gaps) - 1))] if self.gaps else 0


def wait_for(signal, timeout_ms: int):
    """Run the event loop until `signal` fires; returns its arguments."""
    loop = QEventLoop()
    result = []

    def done(*args):
        result.extend(args)
        loop.quit()

    signal.connect(done)
    QTimer.singleShot(timeout_ms, loop.quit)
    loop.exec()
    signal.disconnect(done)
    if not result:
        raise TimeoutError(f"no {signal} within {timeout_ms} ms")
    return result


def make_window(engine_factory, settings_path: Path):
    from app.shell.startup import build_window
    from backend.settings import load_settings

    window = build_window(load_settings(settings_path), settings_path=settings_path,
                          engine_factory=engine_factory, persist=False)
    window.resize(1280, 820)
    window.show()
    return window


def synthetic(args, tmp: Path) -> dict:
    window = make_window(lambda: synthetic_process(args), tmp / "settings.json")
    try:
        window.open_target("synthetic")
        wait_for(window.models_changed, 10_000)
        window.panel.n_draft.setValue(args.k)
        window.send("warm up")
        wait_for(window.answer_finished, 60_000)
        window.chat_list.new_chat()
        heartbeat = Heartbeat()
        t0, gui0 = time.perf_counter(), time.thread_time()
        heartbeat.start()
        window.send("go")
        (widget,) = wait_for(window.answer_finished, 600_000)
        elapsed = time.perf_counter() - t0
        gui_s = time.thread_time() - gui0  # this thread runs the event loop: the GUI thread's
        heartbeat.stop()
        tokens = widget.token_view.token_count()
        return {
            "steps": widget.answer.n_steps,
            "tokens_rendered": tokens,
            "seconds": round(elapsed, 3),
            "tokens_per_second": round(tokens / elapsed),
            "events_per_second": round(widget.answer.n_steps / elapsed),
            "longest_stall_ms": heartbeat.longest,
            "p99_stall_ms": heartbeat.p99,
            "gui_thread_cpu_share": round(gui_s / elapsed, 3),
        }
    finally:
        window.close()


def make_request(args):
    from backend.engine.request import GenerationRequest, Message, SamplingSettings

    return GenerationRequest(
        messages=(Message("user", args.prompt),), spec_type=args.spec, n_draft_max=args.n_draft,
        sampling=SamplingSettings(temperature=0.0), max_tokens=args.max_tokens)


def headless_child(args) -> int:
    """The headless baseline, in its own process with everything on its main thread, as the
    command line runs it: one answer for each line read, its rate printed. (llama.cpp's
    OpenMP workers belong to the thread that first computes; an engine used from a second
    thread of the same process ran ~20% slower here, so sharing a process would bias either
    side.)"""
    from backend.engine.engine import Engine

    request = make_request(args)
    engine = Engine()
    engine.load_target(args.target, n_ctx=2048, n_threads=args.threads or None)
    if args.spec == "draft":
        engine.load_draft(args.draft)
    print("READY", flush=True)
    for _line in sys.stdin:
        engine.reset_cache()
        last = list(engine.generate(request))[-1]
        if not isinstance(last, GenerationFinished):
            raise RuntimeError(f"headless generation failed: {last}")
        print("HEADLESS " + json.dumps({"tok_s": last.stats.tokens_per_second,
                                        "tokens": last.stats.n_generated, "text": last.text}),
              flush=True)
    engine.close()
    return 0


def child_argv(args) -> list[str]:
    """The options the headless child answers with: those of the windowed run."""
    argv = ["--target", str(args.target), "--spec", args.spec, "--n-draft", str(args.n_draft),
            "--max-tokens", str(args.max_tokens), "--repeats", str(args.repeats),
            "--threads", str(args.threads), "--prompt", args.prompt]
    return argv + (["--draft", str(args.draft)] if args.draft is not None else [])


class HeadlessChild:
    """The headless baseline's process, answering when asked (idle between: its turns are
    interleaved with the window's)."""

    def __init__(self, args) -> None:
        import subprocess

        self._process = subprocess.Popen(
            [sys.executable, __file__, "--headless-child", *child_argv(args)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self._read("READY")

    def _read(self, prefix: str) -> str:
        assert self._process.stdout is not None
        for line in self._process.stdout:
            if line.startswith(prefix):
                return line[len(prefix):]
        raise RuntimeError(f"the headless run ended (exit {self._process.wait()})")

    def answer(self) -> dict:
        assert self._process.stdin is not None
        self._process.stdin.write("go\n")
        self._process.stdin.flush()
        return json.loads(self._read("HEADLESS "))

    def close(self) -> None:
        assert self._process.stdin is not None
        self._process.stdin.close()
        self._process.wait()


def real(args, tmp: Path) -> dict:
    from app.engine_link.worker import (
        default_engine_factory,  # the engine process, as the app runs it
    )

    child = HeadlessChild(args)
    headless = []
    window = make_window(default_engine_factory, tmp / "settings.json")
    heartbeat = Heartbeat()
    try:
        window.panel.n_ctx.setValue(2048)
        window.panel.n_threads.setValue(args.threads)
        if args.spec == "draft":
            window.settings.models.draft = str(args.draft)
        window.open_target(str(args.target))
        _target, draft = wait_for(window.models_changed, 120_000)
        if args.spec == "draft" and draft is None:
            raise RuntimeError("the window could not load the draft model")
        window.panel.set_spec_type(args.spec)
        window.panel.n_draft.setValue(args.n_draft)
        # the headless request's sampling (the app's own default has a repeat penalty, which
        # would make the window answer another text, with penalised copies of every row)
        sampling = make_request(args).sampling
        window.panel.temperature.setValue(sampling.temperature)
        window.panel.repeat_penalty.setValue(sampling.repeat_penalty)
        window.panel.max_tokens.setValue(args.max_tokens)
        windowed = []
        cpu_s = wall_s = 0.0  # the window process's CPU time (all its threads) while streaming
        gui_s = 0.0  # the GUI thread's alone (this thread: it runs the event loop)
        # the first answers warm caches and page-ins; then timed and heartbeat answers
        # alternate, a headless answer before each timed one (the window's engine process
        # and the headless one wait in turn: neither decodes while the other does)
        child.answer()
        for attempt in range(2 * args.repeats + 1):
            timed, beating = attempt % 2 == 1, attempt > 0 and attempt % 2 == 0
            if timed:
                headless.append(child.answer())
            window.chat_list.new_chat()  # same prompt, empty cache, as headless
            window.send(args.prompt)
            if beating:  # the answers streaming, not sending or the warm-up's first paints
                heartbeat.start()
            cpu0, wall0, gui0 = time.process_time(), time.perf_counter(), time.thread_time()
            (widget,) = wait_for(window.answer_finished, 600_000)
            if timed:
                cpu_s += time.process_time() - cpu0
                gui_s += time.thread_time() - gui0
                wall_s += time.perf_counter() - wall0
            heartbeat.stop()
            if widget.answer.error:
                raise RuntimeError(widget.answer.error)
            st = widget.answer.stats()
            if attempt:  # every answer's text is compared; the timed ones give the rate
                windowed.append({"tok_s": st.tokens_per_second if timed else None,
                                 "tokens": st.n_generated, "text": widget.answer.text})
    finally:
        window.close()
        child.close()
    timed_rates = [r["tok_s"] for r in windowed if r["tok_s"] is not None]
    h = statistics.median(r["tok_s"] for r in headless)
    w = statistics.median(timed_rates)
    ratios = [rate / r["tok_s"] for rate, r in zip(timed_rates, headless, strict=True)]
    return {"headless_tok_s": [round(r["tok_s"], 1) for r in headless],
            "window_tok_s": [round(rate, 1) for rate in timed_rates],
            # the same answer (the acceptance rate may still move with which steps the plain
            # probes take, as long as their steps' times say: plain_yardstick.py)
            "same_text": len({r["text"] for r in headless + windowed}) == 1,
            "median_headless": round(h, 1), "median_window": round(w, 1),
            "ratio": round(statistics.median(ratios), 3),
            "round_ratios": [round(r, 3) for r in ratios],
            # of one core: what the window takes from the cores the engine decodes on
            "window_cpu_share": round(cpu_s / wall_s, 2) if wall_s else None,
            "gui_thread_cpu_share": round(gui_s / wall_s, 2) if wall_s else None,
            "longest_stall_ms": heartbeat.longest, "p99_stall_ms": heartbeat.p99}


def large_vocab_runs(args) -> list:
    """The real comparison's settings on the large-vocabulary models: plain, and lv-draft
    drafting at K = 4 (as bench/large_vocab_bench.py compares with llama.cpp's tools)."""
    from large_vocab import FILES, ensure_large_vocab

    target, draft, _slow = (ensure_large_vocab() / f for f in FILES)
    common = dict(target=target, draft=draft, n_draft=args.n_draft or 4,
                  max_tokens=args.max_tokens or LARGE_VOCAB_TOKENS)
    return [argparse.Namespace(**{**vars(args), **common, "spec": spec})
            for spec in ("none", "draft")]


def main(argv: list[str] | None = None) -> int:
    models = ROOT / ".cache" / "test-models"
    demo = sorted(models.glob("*/demo-target-f32.gguf"))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--k", type=int, default=8)
    parser.add_argument("--newline-every", type=int, default=20,
                        help="end a line every N steps (0: one endless paragraph)")
    parser.add_argument("--synthetic-only", action="store_true")
    parser.add_argument("--rate", type=float, default=0.0,
                        help="pace the synthetic steps at this many tokens/s (0: unpaced)")
    parser.add_argument("--target", type=Path, default=demo[0] if demo else None)
    parser.add_argument("--draft", type=Path,
                        default=demo[0].with_name("demo-draft-q8_0.gguf") if demo else None)
    parser.add_argument("--spec", default="draft", choices=("none", "draft", "ngram"))
    parser.add_argument("--n-draft", type=int, default=None, help="K (default 8; 4 with "
                        "--large-vocab)")
    parser.add_argument("--max-tokens", type=int, default=None,
                        help=f"default 200; {LARGE_VOCAB_TOKENS} with --large-vocab")
    parser.add_argument("--threads", type=int, default=0,
                        help="the engine's threads, in the window and headless (0: auto, as "
                             "the app)")
    parser.add_argument("--large-vocab", action="store_true",
                        help="the real comparison on the large-vocabulary lv-target, plain and "
                             "with lv-draft (instead of --target/--draft)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--prompt", default="Write a short story about a lighthouse keeper.")
    parser.add_argument("--headless-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.headless_child:
        return headless_child(args)

    import tempfile

    from app.shell.qt_app import ensure_application

    app = ensure_application()
    tmp = Path(tempfile.mkdtemp(prefix="draftlight-bench-"))
    report = {}
    streams = ([(args.rate, args.steps)] if args.rate
               else [(0.0, args.steps), (STALL_RATE, STALL_STEPS)])
    for rate, steps in streams:
        name = f"synthetic at {rate:g} tok/s" if rate else "synthetic"
        s = report[name] = synthetic(
            argparse.Namespace(**{**vars(args), "rate": rate, "steps": steps}), tmp)
        s["pass"] = (s["longest_stall_ms"] < STALL_MS if rate
                     else s["tokens_per_second"] >= 5000)
        print(json.dumps({name: s}, indent=2), flush=True)
    if args.large_vocab:
        runs = large_vocab_runs(args)
    elif args.target is None:
        print("no --target given and no demo models built; skipping the real run")
        runs = []
    else:
        runs = [argparse.Namespace(**{**vars(args), "n_draft": args.n_draft or 8,
                                      "max_tokens": args.max_tokens or 200})]
    for run in [] if args.synthetic_only else runs:
        r = real(run, tmp)
        r["pass"] = (r["ratio"] is not None and r["ratio"] >= 0.97
                     and r["longest_stall_ms"] < STALL_MS)
        name = f"real {run.target.name} {run.spec}" + (
            f" K={run.n_draft}" if run.spec != "none" else "")
        report[name] = r
        print(json.dumps({name: r}, indent=2), flush=True)
    app.processEvents()
    return 0 if all(part.get("pass") for part in report.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
