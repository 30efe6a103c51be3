"""The headless command line: `draftlight-cli SUBCOMMAND …` (and `draftlight SUBCOMMAND …`).

Each subcommand lives in its own module with `add_parser(subparsers)` and `run(args) -> int`.
Any failure ends as one clear line on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys

from backend import APP_NAME, __version__
from backend.cli.terminal import terminal_text

SUBCOMMANDS = {
    "generate": "backend.cli.generate",
    "models": "backend.cli.models",
    "pairs": "backend.cli.pairs",
}


def build_parser(prog: str = APP_NAME) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Draftlight: chat with local GGUF models and watch speculative decoding.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module_name in SUBCOMMANDS.values():
        _module(module_name).add_parser(sub)
    return parser


def _module(name: str):
    return importlib.import_module(name)


def main(argv: list[str] | None = None, prog: str = f"{APP_NAME}-cli") -> int:
    # The failure is told in one line below; without this, Python's last-resort handler
    # would print the engine's own log record of it too.
    logging.getLogger("backend").addHandler(logging.NullHandler())
    parser = build_parser(prog)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        return _module(SUBCOMMANDS[args.command]).run(args)
    except KeyboardInterrupt:
        print("draftlight: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # the last line of defence: one line, no traceback
        print(f"draftlight: {terminal_text(str(exc))}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
