"""`draftlight models …`: search the Hub, list a repo's GGUF files, download, list, inspect.

Human-readable output by default, `--json` for scripts. The Hub is reached the way every
huggingface_hub program reaches it (`HF_ENDPOINT`, `HF_TOKEN`). Failures are raised as
exceptions with one-line messages; `backend.cli.main` prints them and exits non-zero.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from backend.cli.terminal import terminal_text as shown
from backend.models.download import DownloadManager, DownloadStatus, State
from backend.models.eagle3 import describe_head
from backend.models.hub import HubClient, HubError, HubModel, by_quantization, memory_fit
from backend.models.inspection import ModelInspection, inspect_model, kv_bytes_per_token
from backend.models.library import Library
from backend.models.remote_header import read_hub_header
from backend.models.transfer import DownloadError
from backend.settings_schema import N_CTX

DEFAULT_CONTEXT = N_CTX.default


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("models", help="find, download and inspect GGUF models")
    sub = parser.add_subparsers(dest="models_command", metavar="ACTION", required=True)

    p = sub.add_parser("search", help="search the Hugging Face Hub for GGUF repositories")
    p.add_argument("query")
    p.add_argument("--limit", type=int, default=20)
    _json_flag(p)

    p = sub.add_parser("files", help="a repository's GGUF models by quantization, and their fit")
    p.add_argument("repo", metavar="REPO")
    p.add_argument("--ctx", type=int, default=DEFAULT_CONTEXT, help="context length to fit")
    p.add_argument("--draft", type=Path, help="a local draft model that will run alongside")
    _json_flag(p)

    p = sub.add_parser("download", help="download a GGUF model (resumes an interrupted one)")
    p.add_argument("repo", metavar="REPO")
    p.add_argument("file", metavar="FILE", help="a file in the repo, or a quantization (Q4_K_M)")
    p.add_argument("--models-dir", type=Path, help=argparse.SUPPRESS)
    _json_flag(p)

    p = sub.add_parser("list", help="the models in the local library")
    p.add_argument("--models-dir", type=Path, help=argparse.SUPPRESS)
    _json_flag(p)

    p = sub.add_parser("inspect", help="describe and validate a GGUF file")
    p.add_argument("path", type=Path)
    _json_flag(p)


def run(args: argparse.Namespace) -> int:
    handler = {
        "search": _search,
        "files": _files,
        "download": _download,
        "list": _list,
        "inspect": _inspect,
    }[args.models_command]
    return handler(args)


def _json_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON for scripts")


def _search(args: argparse.Namespace) -> int:
    found = HubClient().search(args.query, limit=args.limit)
    if args.json:
        return _print_json(
            [
                {
                    "repo_id": r.repo_id,
                    "downloads": r.downloads,
                    "likes": r.likes,
                    "last_modified": r.last_modified.isoformat() if r.last_modified else None,
                }
                for r in found
            ]
        )
    if not found:
        print(f"No GGUF repositories match {shown(repr(args.query))}.")
    for r in found:
        updated = r.last_modified.date().isoformat() if r.last_modified else "?"
        print(f"{shown(r.repo_id):50}  {r.downloads:>10,} downloads  {r.likes:>6,} likes  "
              f"{updated}")
    return 0


def _files(args: argparse.Namespace) -> int:
    client = HubClient()
    models = client.models(args.repo)
    if not models:
        raise HubError(f"{args.repo} has no GGUF models.")
    kv_per_token, note = 0, ""
    # all quantizations share one architecture: one header tells the KV size for all (an
    # EAGLE-3 sidecar is another model, and the smallest file: not that one's)
    models_proper = [m for m in models if not m.eagle3_head] or models
    try:
        kv_per_token = kv_bytes_per_token(
            read_hub_header(client, min(models_proper, key=lambda m: m.size)))
    except Exception as exc:
        note = f"(KV cache not counted: {shown(str(exc).splitlines()[0])})"
    companion = None
    if args.draft:
        draft = inspect_model(args.draft)
        companion = (draft.file_size, draft.kv_cache_bytes(args.ctx))
    rows = []
    for quant, group in by_quantization(models).items():
        for m in group:
            fit = memory_fit(m, kv_per_token, args.ctx, companion)
            rows.append((quant, m, fit))
    if args.json:
        return _print_json(
            [
                {
                    "quantization": q,
                    "name": m.name,
                    "parts": [p.path for p in m.parts],
                    "size": m.size,
                    "sha256": [p.sha256 for p in m.parts],
                    "memory_needed": fit.total,
                    "fit": fit.fit.value,
                    "eagle3_head": m.eagle3_head,
                }
                for q, m, fit in rows
            ]
        )
    print(
        f"{shown(args.repo)} — memory for {args.ctx:,} tokens of context"
        + (f" with draft {shown(args.draft.name)}" if args.draft else "")
        + f" {note}".rstrip()
    )
    for quant, m, fit in rows:
        parts = f" ({len(m.parts)} parts)" if len(m.parts) > 1 else ""
        if m.eagle3_head:
            parts += " (EAGLE-3 head: a draft for spec type eagle3)"
        print(f"  {shown(quant):10} {_size(m.size):>10}  {shown(m.name)}{parts}  — "
              f"{fit.describe()}")
    return 0


def _download(args: argparse.Namespace) -> int:
    client = HubClient()
    model = _pick(client.models(args.repo), args.file, args.repo)
    last = [0.0]

    def show(status: DownloadStatus) -> None:
        now = time.monotonic()
        if args.json or (now - last[0] < 0.5 and status.state == State.RUNNING):
            return
        last[0] = now
        eta = f", {status.eta:,.0f} s left" if status.eta else ""
        line = (
            f"{status.state.value}: {_size(status.done)} of {_size(status.total)}"
            f" at {_size(int(status.speed))}/s{eta}"
        )
        end = "\r" if sys.stderr.isatty() and status.state == State.RUNNING else "\n"
        print(line.ljust(70), end=end, file=sys.stderr, flush=True)

    manager = DownloadManager(client, args.models_dir, on_update=show)
    try:
        job = manager.enqueue(model)
        status = manager.wait(job)
    finally:
        manager.close()  # on Ctrl-C the download pauses; the next run continues it
    if status.state != State.DONE or status.path is None:
        raise DownloadError(status.error or f"The download ended {status.state.value}.")
    inspection = inspect_model(status.path)
    if args.json:
        return _print_json(_inspection_dict(inspection))
    print(f"Downloaded and verified: {shown(str(status.path), limit=None)}")
    return 0


def _list(args: argparse.Namespace) -> int:
    entries = Library(args.models_dir).entries()
    if args.json:
        return _print_json(
            [
                {"path": str(e.path), "error": None if e.error is None else str(e.error)}
                | (_inspection_dict(e.inspection) if e.inspection else {})
                for e in entries
            ]
        )
    if not entries:
        print("The library is empty.")
    for e in entries:
        if e.inspection is None:
            print(f"{shown(e.path.name):45}  BROKEN: {shown(str(e.error))}")
            continue
        i = e.inspection
        print(
            f"{shown(e.path.name):45}  {shown(i.quantization):7} "
            f"{_params(i.parameter_count):>6} params  {_size(i.file_size):>10}  "
            f"{shown(str(e.path), limit=None)}"
        )
    return 0


def _inspect(args: argparse.Namespace) -> int:
    i = inspect_model(args.path)
    if args.json:
        return _print_json(_inspection_dict(i))
    print(shown(str(i.path), limit=None))
    facts = [
        ("name", i.name),
        ("architecture", i.architecture),
        ("parameters", f"{_params(i.parameter_count)} ({i.parameter_count:,})"),
        ("quantization", i.quantization),
        ("file size", _size(i.file_size) + (f" in {i.n_parts} parts" if i.n_parts > 1 else "")),
        ("context length", f"{i.context_length:,}"),
        ("chat template", "yes" if i.has_chat_template else "no"),
        ("MTP heads", str(i.n_mtp_heads)),
        *_eagle3_facts(i),
        (
            "vocabulary",
            f"{i.vocab.vocab_type.upper()}, {i.vocab.n_tokens:,} tokens, "
            f"fingerprint {i.vocab_fingerprint}",
        ),
        ("KV cache", f"{_size(i.kv_bytes_per_token * 1024)} per 1,024 tokens"),
    ]
    for label, value in facts:  # every value may come from the file: shown, never obeyed
        print(f"  {label:15} {shown(value)}")
    return 0


def _eagle3_facts(i: ModelInspection) -> list[tuple[str, str]]:
    return [("EAGLE-3 head", str(describe_head(i.eagle3)))] if i.eagle3 is not None else []


def _pick(models: list[HubModel], wanted: str, repo: str) -> HubModel:
    """A model by file path (any part of a split one) or by quantization name."""
    for m in models:
        if any(p.path == wanted for p in m.parts):
            return m
    by_quant = [m for m in models if m.quantization.lower() == wanted.lower()]
    if len(by_quant) == 1:
        return by_quant[0]
    if by_quant:
        names = ", ".join(m.name for m in by_quant)
        raise HubError(f"{repo} has several {wanted} models ({names}); name the file.")
    raise HubError(f"{repo} has no GGUF model {wanted!r}.")


def _inspection_dict(i: ModelInspection) -> dict[str, Any]:
    return {
        "path": str(i.path),
        "file_size": i.file_size,
        "architecture": i.architecture,
        "name": i.name,
        "parameter_count": i.parameter_count,
        "quantization": i.quantization,
        "context_length": i.context_length,
        "has_chat_template": i.has_chat_template,
        "n_mtp_heads": i.n_mtp_heads,
        "n_parts": i.n_parts,
        "kv_bytes_per_token": i.kv_bytes_per_token,
        "vocab": {
            "type": i.vocab.vocab_type,
            "n_tokens": i.vocab.n_tokens,
            "add_bos": i.vocab.add_bos,
            "add_eos": i.vocab.add_eos,
            "bos_id": i.vocab.bos_id,
            "eos_id": i.vocab.eos_id,
        },
        "vocab_fingerprint": i.vocab_fingerprint,
    }


def _print_json(payload: object) -> int:
    print(json.dumps(payload, indent=2))
    return 0


def _size(n: int) -> str:
    size = float(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if size < 1024:
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} TiB"


def _params(n: int) -> str:
    for scale, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "K")):
        if n >= scale:
            return f"{n / scale:.1f}{suffix}"
    return str(n)
