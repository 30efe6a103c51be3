"""`draftlight generate`: one answer from the engine, coloured in the terminal or as JSON lines.

For scripting, teaching and benchmarks: the same engine and the same events as the window,
in its own process as in the window, so a crash of llama.cpp is one line and exit code 1.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO, cast

from backend import settings_schema as schema
from backend import spec_types
from backend.cli.options import add_option
from backend.cli.terminal import terminal_text
from backend.engine.errors import EngineError
from backend.engine.events import (
    Event,
    GenerationFailed,
    GenerationFinished,
    event_to_dict,
)
from backend.engine.plain_yardstick import speedup_words
from backend.engine.protocol import Batched, EngineLike
from backend.engine.remote import EngineProcess
from backend.engine.request import GenerationRequest, Message
from backend.engine.runtime import EngineRuntime
from backend.engine.token_log import StepBatch, fold_steps
from backend.engine.tree.refusals import TREE_DRAFTERS
from backend.export_html import write_html
from backend.generation_settings import GenerationSettings, generation_request
from backend.models.inspection import ModelFileError, inspect_model
from backend.palette import lookup_shade
from backend.traces import Trace, write_trace
from backend.words import words

# ANSI styles in the Okabe–Ito spirit, plus non-colour cues that survive a monochrome terminal.
ACCEPTED = "\033[4;38;5;32m"  # blue, underlined: a draft the target accepted
REJECTED = "\033[9;38;5;208m"  # orange, struck out: a draft the target refused
TARGET = "\033[0m"  # plain: the target's own token
RESET = "\033[0m"
# A lookup's accepted copy: underlined in its own shade (backend/palette.py's LOOKUP_KINDS
# order, as the window draws it) and in italics, so that a chain's copies are told from the
# draft model's guesses in a monochrome terminal too.
LOOKUP_ACCEPTED = tuple(f"\033[3;4;38;5;{c}m" for c in (36, 169, 98, 30, 100))

def _answer_text(text: str) -> str:
    """A piece of the answer for the terminal: whole, its own lines kept."""
    return terminal_text(text, lines=True, limit=None)


# How this command's options differ from the plain declarations.
_OPTION_EXTRAS: dict[str, dict[str, Any]] = {
    schema.SPEC_TYPE.key: {
        "default": None,
        "help_default": "draft if --draft is given (eagle3 if it is an EAGLE-3 head), else none"},
    schema.N_DRAFT.key: {"metavar": "K"},
}


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "generate",
        help="generate one answer headlessly",
        description="Generate one answer with speculative decoding and show how it was made.",
    )
    p.add_argument("prompt", metavar="PROMPT")
    p.add_argument("--model", required=True,
                   help="target GGUF file (with --server: the server's model name)")
    # An OpenAI-compatible server (llama-server, vLLM, SGLang…) instead of the local engine.
    add_option(p, schema.SERVER_URL, default=None, metavar="URL",
               help_default="none: the local engine; with a server, --model names one of "
                            "its models")
    p.add_argument(schema.SERVER_API_KEY.cli, metavar="KEY", default=None,
                   help="the server's API key, sent as a bearer token (default: "
                        "$DRAFTLIGHT_API_KEY; a key given here is visible to other users of "
                        "this machine)")
    p.add_argument("--draft", help="draft GGUF file (for --spec draft), or an EAGLE-3 head "
                   "(for --spec eagle3)")
    # Every generation and model setting the schema declares with a flag, its range, default
    # and help its declaration's, shared with the window; `args.<setting name>` holds it.
    for option in (*schema.section("generation"), *schema.section("models")):
        if option.cli:
            add_option(p, option, dest=option.name, **_OPTION_EXTRAS.get(option.key, {}))
    p.add_argument("--stop", action="append", default=[], help="stop string (repeatable)")
    p.add_argument("--raw", action="store_true", help="use PROMPT as raw text, no chat template")
    p.add_argument("--json", action="store_true", help="print one JSON object per event")
    p.add_argument("--no-color", action="store_true", help="plain text answer")
    p.add_argument("--html", metavar="FILE",
                   help="also write the answer as a self-contained HTML page")
    p.add_argument("--trace", metavar="FILE",
                   help="also write the answer's events as a JSON trace")


def run(args: argparse.Namespace) -> int:
    if args.server:
        return _run_server(args)
    # the --draft file's header, read once: None where it cannot be read (the engine says what
    # is wrong with the file when it loads it)
    architecture = _architecture(args.draft) if args.draft else None
    spec = args.spec_type or (spec_types.drafting_with_file(architecture or "").name
                              if args.draft else spec_types.PLAIN)
    refused = spec_types.chain_problem(spec)  # a chain whose members cannot go together
    if refused is not None:
        raise EngineError(refused)
    declared = spec_types.get(spec)
    uses_draft = declared is not None and declared.needs in spec_types.DRAFT_NEEDS
    if uses_draft and not args.draft:
        raise EngineError(f"--spec {spec} needs --draft PATH.")
    if uses_draft and declared is not None and architecture is not None:
        # before the file's own fit to the target, which loading it checks
        refused = spec_types.file_refusal(declared, architecture, Path(args.draft).name)
        if refused is not None:
            raise EngineError(refused)
    if args.tree_nodes and not (declared is not None and declared.trees):
        raise EngineError(words(TREE_DRAFTERS, spec=spec,
                                drafters=", ".join(spec_types.tree_drafters())))
    request = request_from_args(args, spec)
    outputs = [Path(f) for f in (args.html, args.trace) if f]
    for path in outputs:  # say so now rather than lose the answer after it is made
        if not path.parent.is_dir():
            raise EngineError(f"Cannot write {path}: the folder {path.parent} does not exist.")
    use_draft = bool(args.draft) and uses_draft
    events: list[Event] | None = [] if outputs else None  # kept for the exports only
    engine = EngineProcess(EngineRuntime(args.kernels, args.gpu_layers))
    try:
        loaded = [engine.load_target(args.model, n_ctx=args.n_ctx, n_threads=args.n_threads)]
        if use_draft:
            loaded.append(engine.load_draft(args.draft))
        for info in loaded:
            if info is not None and info.gpu_fallback:
                print(f"draftlight: {fell_back(terminal_text(info.name))}", file=sys.stderr)
        status = _print_events(engine, request, events, as_json=args.json,
                               color=not args.no_color)
    finally:
        engine.close()
    if events is None:
        return status
    # Written once the answer has ended, finished or failed (a failed one's trace ends with
    # its GenerationFailed); file names only, as a trace is made to be shared.
    trace = Trace(request, tuple(events), target_model=Path(args.model).name,
                  draft_model=Path(args.draft).name if use_draft else "")
    try:
        if args.html:
            write_html(args.html, trace)
        if args.trace:
            write_trace(args.trace, trace)
    except OSError as exc:
        raise EngineError(f"Cannot write {exc.filename or 'the export'}: "
                          f"{exc.strerror or exc}.") from exc
    return status


def request_from_args(args: argparse.Namespace, spec_type: str) -> GenerationRequest:
    """The request the command's options ask for: PROMPT as raw text (--raw) or as the user's
    message, with every declared generation setting as given or by default."""
    gs = GenerationSettings(**{o.name: getattr(args, o.name)
                               for o in schema.section("generation")})
    gs.spec_type = spec_type
    request = generation_request(
        gs, prompt=args.prompt if args.raw else None,
        messages=() if args.raw else (Message("user", args.prompt),), stop=args.stop)
    # The text alone shows no token's p or inspection: the engine then reads each greedy row
    # for its argmax only, as llama.cpp's own tools do. --json, --html and --trace show them.
    return replace(request, inspect=bool(args.json or args.html or args.trace))


def _architecture(path: str) -> str | None:
    """The GGUF architecture of a --draft file (which spec type drafts with it when --spec is
    not given: an EAGLE-3 or DFlash head, a Gemma 4 assistant, else a draft model); None where
    the header cannot be read."""
    try:
        return inspect_model(path).architecture
    except (ModelFileError, OSError):
        return None


def _run_server(args: argparse.Namespace) -> int:
    """The same answer from a server: its text streamed, its speculation as it reported it
    (a last JSON line `{"event": "server_report", …}` with --json)."""
    # Imported here: the local path never needs the HTTP client.
    from backend.serving.engine import ServerEngine

    if args.raw:
        raise EngineError("--raw is for the local engine: a server answers chat messages.")
    if args.draft or args.html or args.trace:
        raise EngineError("--draft, --html and --trace are for the local engine.")
    # A server drafts as it was started to: the spec type and K are the local engine's.
    request = request_from_args(args, spec_types.PLAIN)
    key = args.api_key if args.api_key is not None else os.environ.get("DRAFTLIGHT_API_KEY", "")
    engine = ServerEngine(args.server, key)
    try:
        engine.load_target(args.model, n_ctx=0)
        status = _print_events(engine, request, None, as_json=args.json,
                               color=not args.no_color)
    finally:
        engine.close()
    report = engine.last_report
    if args.json:
        print(json.dumps({"event": "server_report", **report.to_dict()}))
    elif status == 0:
        print(terminal_text(report.words(), limit=None), file=sys.stderr)
    return status


def fell_back(name: str) -> str:
    """What the command says of a model that GPU layers auto put on the CPU (the GPU could not
    hold it), so that its speed is not taken for the GPU's."""
    return (f"{name} did not fit the GPU with every layer on it (GPU layers auto): it runs on "
            "the CPU; --gpu-layers N puts N layers on the GPU.")


def _print_events(engine: EngineLike, request: GenerationRequest, events: list[Event] | None,
                  *, as_json: bool, color: bool) -> int:
    """Print the answer as it comes; `events`: a list to keep its events in (for an export),
    or None."""
    out = sys.stdout
    status = 0
    # Printed text needs no step's own event: the engine process then folds each run of
    # steps into flat lists (a StepBatch), a few objects to pickle and read a group instead
    # of a dozen a token, as it does for the window.
    folded = not as_json and events is None
    # A group as the engine process sent it (a few ms of steps) is written and flushed at
    # once: one write a group, not one a token, on the cores llama.cpp's threads need.
    groups = (engine.generate_batches(request, folded=folded) if isinstance(engine, Batched)
              else ([event] for event in engine.generate(request)))
    for group in groups:
        if events is not None:
            events.extend(cast(list[Event], group))  # unfolded: they were asked for
        if as_json:
            # ASCII: a lone surrogate or a control character travels as a JSON escape
            out.write("".join(json.dumps(event_to_dict(cast(Event, e))) + "\n"
                              for e in group))
        else:
            out.write("".join(render_steps(batch) if color
                              else "".join(map(_answer_text, batch.parts))
                              for batch in fold_steps(group) if isinstance(batch, StepBatch)))
        out.flush()
        for event in group:
            if isinstance(event, GenerationFinished) and not as_json:
                _say_finished(event, request, out, color)
            elif isinstance(event, GenerationFailed):
                print(f"draftlight: {terminal_text(event.message)}", file=sys.stderr)
                status = 1
    return status


def _say_finished(event: GenerationFinished, request: GenerationRequest, out: TextIO,
                  color: bool) -> None:
    """The answer's closing line on stderr: why it stopped, its speed and its drafting."""
    s = event.stats
    out.write((RESET if color else "") + "\n")
    reason = terminal_text(str(event.stop_reason))
    print(
        f"[{reason}] {s.n_generated} tokens, {s.tokens_per_second:.1f} tok/s, "
        f"TTFT {s.ttft_ms:.0f} ms, drafted {s.n_drafted}, accepted {s.n_accepted} "
        f"({100 * s.acceptance_rate:.0f}%), {s.tokens_per_step:.2f} tokens/step"
        + (f", {said}" if request.spec_type != spec_types.PLAIN
           and (said := speedup_words(s)) is not None else ""),
        file=sys.stderr,
    )


def render_steps(batch: StepBatch) -> str:
    """A run of steps in colour, in the window's order (per step the accepted drafts, the
    rejected ones struck out, the target's own token), a style written where it changes."""
    log = batch.tokens
    parts, last = [], None
    for text, origin, accepted in zip(log.text, log.origin, log.accepted, strict=True):
        if origin == "target":
            style = TARGET
        elif not accepted:
            style = REJECTED
        else:
            shade = lookup_shade(origin)
            style = ACCEPTED if shade is None else LOOKUP_ACCEPTED[shade]
        if style is not last:
            parts.append(style)
            last = style
        parts.append(_answer_text(text))
    return "".join(parts) + RESET
