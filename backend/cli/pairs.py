"""`draftlight pairs TARGET`: every way to speculate for a target, accepted or refused, and why.

TARGET is a GGUF file, or a Hub repository (`OWNER/NAME`, or `OWNER/NAME:FILE` with a file or
a quantization) whose header is read without downloading it. The library's models and, with
--hub (the default), Hub GGUF repos of the target's family are checked from their headers.
When the Hub cannot be searched, the local candidates are still printed and the command
exits 1 with one sentence on stderr saying why.

With --measure, every accepted candidate on this machine is measured in an engine process
(backend/models/pair_measure.py; kept measurements are read back, not made again) and every
way to speculate is ranked, plain decoding included; Hub candidates are listed as not
downloaded.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from backend.cli.pairs_measure import measure, measured_dict, print_ranking
from backend.cli.terminal import terminal_text as shown
from backend.models.draft_finder import PairCandidate, PairFinding, find_pairs
from backend.models.hub import HubClient, HubError
from backend.models.hub_drafts import hub_checks, hub_target
from backend.models.inspection import inspect_model
from backend.models.library import Library
from backend.models.pair_measure import DEFAULT_TOKENS
from backend.models.remote_header import inspect_hub_model
from backend.words import words, words_to_dict

HUB_NEEDED = "{target} is not a file here, and a Hub repository is read only with --hub."

# OWNER/NAME[:FILE]; a name ending in .gguf is a file that is not there
_HUB_TARGET = re.compile(r"^(?P<repo>[\w.-]+/[\w.-]+?)(?<!\.gguf)(?::(?P<file>.+))?$")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "pairs", help="which drafts can speculate for a target, checked from GGUF headers")
    p.add_argument("target", metavar="TARGET",
                   help="a GGUF file, or a Hub repository OWNER/NAME[:FILE or QUANT]")
    p.add_argument("--hub", action=argparse.BooleanOptionalAction, default=True,
                   help="also search the Hugging Face Hub for drafts of the target's family")
    p.add_argument("--models-dir", type=Path, help=argparse.SUPPRESS)
    p.add_argument("--json", action="store_true", help="print JSON for scripts")
    p.add_argument("--measure", action="store_true",
                   help="measure every candidate on this machine and rank them, plain decoding "
                        "included (kept measurements are read back)")
    p.add_argument("--tokens", type=_positive, default=DEFAULT_TOKENS, metavar="N",
                   help=f"with --measure: tokens per answer (default {DEFAULT_TOKENS})")


def _positive(text: str) -> int:
    value = int(text)
    if not 1 <= value <= 4096:
        raise argparse.ArgumentTypeError("must be between 1 and 4096")
    return value


def run(args: argparse.Namespace) -> int:
    finding = _find(args)
    measured = measure(finding, args.tokens) if args.measure else None
    if args.json:
        out = _finding_dict(finding)
        if measured is not None:
            out["measured"] = measured_dict(measured)
        print(json.dumps(out, indent=2))
    else:
        _print_table(finding)
        if measured is not None:
            print_ranking(measured)
    if measured is not None:
        for note in measured.notes:
            print(f"draftlight: {shown(str(note))}", file=sys.stderr)
        if measured.refused is not None:
            print(f"draftlight: {shown(str(measured.refused))}", file=sys.stderr)
            return 1
    if finding.refusal is not None:
        print(f"draftlight: {shown(str(finding.refusal))}", file=sys.stderr)
        return 1
    if finding.hub_error is not None:
        print(f"draftlight: {shown(str(finding.hub_error))}", file=sys.stderr)
        return 1
    return 0


def _find(args: argparse.Namespace) -> PairFinding:
    library = Library(args.models_dir).models()
    local = Path(args.target).expanduser()
    hub_match = _HUB_TARGET.match(args.target)
    if local.exists() or hub_match is None:
        target = inspect_model(local.resolve())  # a path that is not there says so itself
        return find_pairs(target, library, hub_checks(HubClient(), target) if args.hub else None)
    if not args.hub:
        raise HubError(words(HUB_NEEDED, target=args.target))
    client = HubClient()
    repo_id = hub_match["repo"]
    model, repo_models = hub_target(client, repo_id, hub_match["file"] or "")
    remote = inspect_hub_model(client, model)
    hub = hub_checks(client, remote.inspection, repo_id, repo_models)
    return find_pairs(remote.inspection, library, hub, remote.bytes_read)


def _print_table(finding: PairFinding) -> None:
    t = finding.target
    read = (f", header read from the Hub: {_size(finding.target_bytes_read)}"
            if finding.target_bytes_read is not None else "")
    print(f"Ways to speculate for {shown(t.name)} ({shown(t.path.as_posix(), limit=None)}{read})")
    if not finding.candidates:
        return
    width = max(len(shown(c.name)) for c in finding.candidates)
    print(f"  {'KIND':14} {'NAME':{width}}  {'SOURCE':8} {'VERDICT':8} {'READ':>9}  REASON")
    for c in finding.candidates:
        verdict = "accepted" if c.accepted else "refused"
        read_bytes = _size(c.bytes_read) if c.bytes_read is not None else ""
        reason = shown(str(c.reason)) if c.reason is not None else ""
        print(f"  {c.label:14} {shown(c.name) or '-':{width}}  {c.source:8} {verdict:8} "
              f"{read_bytes:>9}  {reason}".rstrip())


def _finding_dict(finding: PairFinding) -> dict[str, Any]:
    t = finding.target
    return {
        "target": {"name": t.name, "path": t.path.as_posix(), "architecture": t.architecture,
                   "parameter_count": t.parameter_count, "file_size": t.file_size,
                   "n_mtp_heads": t.n_mtp_heads, "vocab_fingerprint": t.vocab_fingerprint,
                   "bytes_read": finding.target_bytes_read},
        "refusal": None if finding.refusal is None else str(finding.refusal),
        "hub_error": None if finding.hub_error is None else str(finding.hub_error),
        "candidates": [_candidate_dict(c) for c in finding.candidates],
    }


def _candidate_dict(c: PairCandidate) -> dict[str, Any]:
    return {
        "spec_type": c.spec_type,
        "name": c.name,
        "source": c.source,
        "accepted": c.accepted,
        "reason": None if c.reason is None else str(c.reason),
        "reason_words": None if c.reason is None else words_to_dict(c.reason),
        "path": None if c.path is None else c.path.as_posix(),
        "size": c.size,
        "parameter_count": c.parameter_count,
        "bytes_read": c.bytes_read,
    }


def _size(n: int) -> str:
    size = float(n)
    for unit in ("B", "KiB", "MiB"):
        if size < 1024:
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} GiB"
