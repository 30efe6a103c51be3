"""`draftlight`: the desktop app's entry point.

`draftlight generate …`, `draftlight models …` and `draftlight pairs …` run the headless
command line without importing Qt; `--help` and `--version` are answered before Qt is imported
too, so all of them work without a display.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
from pathlib import Path

from backend import APP_NAME, __version__
from backend import settings_schema as schema
from backend.cli.main import SUBCOMMANDS
from backend.cli.options import add_option


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=APP_NAME,
        description="Chat with a local GGUF model and watch speculative decoding: every token "
        "is coloured by whether a draft proposed it and the target accepted or rejected it.",
        epilog="Headless subcommands (no window): 'draftlight generate …' runs one prompt and "
        "prints the answer and its events; 'draftlight models …' lists and inspects models; "
        "'draftlight pairs TARGET' lists the ways to speculate for a target, each accepted or "
        "refused with its reason. Each has its own --help.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--model", type=Path, metavar="PATH",
                        help="target GGUF to open (default: the last one, else the bundled "
                        "SmolLM2 model)")
    parser.add_argument("--draft", type=Path, metavar="PATH", help="draft GGUF to load")
    # None: the saved value; ranges and help are the settings' declarations
    add_option(parser, schema.SPEC_TYPE, default=None, help_default="the saved one")
    add_option(parser, schema.N_DRAFT, metavar="K", default=None, help_default="the saved one")
    parser.add_argument("--prompt", metavar="TEXT", help="send this message once the model "
                        "has loaded")
    parser.add_argument("--open", type=Path, metavar="FILE", dest="open_trace",
                        help="show a recorded answer (a JSON trace from 'draftlight generate "
                        "--trace' or File → Open trace…) as a new chat")
    parser.add_argument("--screenshot", type=Path, metavar="FILE",
                        help="save a screenshot of the window to FILE (PNG) and exit, "
                        "non-zero on failure: with --prompt once the answer is written, "
                        "without it once the models have loaded (an empty chat shows the "
                        "welcome view)")
    parser.add_argument("--timeout", type=float, default=600.0, metavar="SECONDS",
                        help="with --screenshot: give up after this long (default 600)")
    add_option(parser, schema.THEME, flag="--theme", metavar="THEME", default=None,
               help_default="the saved one, else the system's")
    add_option(parser, schema.LANGUAGE, flag="--language", metavar="LANG", default=None,
               help_default="the saved one")
    parser.add_argument("--settings", type=Path, metavar="FILE",
                        help="settings file to use instead of the default one")
    desktop = parser.add_mutually_exclusive_group()
    desktop.add_argument("--install-desktop", action="store_true",
                         help="add Draftlight to this user's application menu (a freedesktop "
                         "entry and icons under $XDG_DATA_HOME) and exit")
    desktop.add_argument("--uninstall-desktop", action="store_true",
                         help="remove what --install-desktop added and exit")
    return parser


def main(argv: list[str] | None = None) -> int:
    # In a frozen bundle (PyInstaller) the engine process is this same executable started
    # again by multiprocessing: let it run the engine instead of a second window.
    multiprocessing.freeze_support()
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] in SUBCOMMANDS:
        from backend.cli.main import main as cli_main

        return cli_main(argv, prog=APP_NAME)
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.install_desktop or args.uninstall_desktop:  # no Qt, no display needed
        from app.shell.desktop_install import main as desktop_main

        return desktop_main("install" if args.install_desktop else "uninstall")
    has_screen = bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    if args.screenshot and not has_screen:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # a screenshot needs no screen
    if sys.platform.startswith("linux") and not has_screen and not os.environ.get(
            "QT_QPA_PLATFORM"):
        # Qt would abort the process with a cryptic plugin error instead
        parser.exit(1, "draftlight: no display to open a window on (DISPLAY and "
                    "WAYLAND_DISPLAY are unset); 'draftlight generate --help' works without "
                    "one.\n")

    from app.shell.startup import run_gui  # Qt is imported from here on

    return run_gui(args)


if __name__ == "__main__":
    raise SystemExit(main())
