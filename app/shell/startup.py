"""Opening the window from the command line's arguments (after argparse, so Qt loads here)."""

from __future__ import annotations

import argparse
import logging
import threading
from collections.abc import Callable
from pathlib import Path

from app.chat.chat_session import ChatSession
from app.engine_link.engine_runtime import engine_process_factory
from app.i18n import translate
from app.models.model_session import ModelSession
from app.panel.collapsible import fold_sections
from app.panel.server_panel import attach_server_panel
from app.shell.crash_dialog import CrashReporter
from app.shell.logs import setup_logging
from app.shell.main_window import MainWindow
from app.shell.qt_app import ensure_application
from app.shell.screenshot import ScreenshotRun
from backend.engine.protocol import EngineLike
from backend.models.default_model import find_default_model
from backend.models.memory import gpu_memory
from backend.serving.switch import BackendSwitch
from backend.settings import Settings, load_settings


def default_backend_factory(settings: Settings) -> EngineLike:
    """The window's engine: the local engine process (with the settings' kernels and GPU
    layers, read each time one is made), or a server once one is connected."""
    return BackendSwitch(engine_process_factory(settings))


def build_window(settings: Settings, *, settings_path: Path | None = None,
                 engine_factory: Callable[[], EngineLike] | None = None,
                 persist: bool = True, chats_path: Path | None = None) -> MainWindow:
    """The one place the window's sessions are made: the models (the engine: by default
    `default_backend_factory`) and the chats (their store; in memory when nothing may
    persist, as for a screenshot)."""
    made: list[EngineLike] = []  # the engine the worker makes, for the server's reports

    def factory() -> EngineLike:
        made.append(engine_factory() if engine_factory is not None
                    else default_backend_factory(settings))
        return made[-1]

    models = ModelSession(settings, factory)
    chats = ChatSession.open(chats_path, persist=persist)
    window = MainWindow(settings, models, chats, settings_path=settings_path, persist=persist)
    window.server_panel = attach_server_panel(
        window, lambda: getattr(made[-1], "last_report", None) if made else None)
    fold_sections(window.panel, settings.window.folded)  # the server's group is in now too
    open_last_chat(window, settings.window.last_chat)
    return window


def open_last_chat(window: MainWindow, chat_id: int) -> None:
    """Show the chat that was open when the window last closed, else the newest saved one,
    as a restart should; with no saved chat, the new one stays. Its messages are read off
    the GUI thread, as when it is clicked."""
    saved = [c for c in window.chat_list.conversations() if c.chat_id is not None]
    if not saved:
        return
    conv = next((c for c in saved if c.chat_id == chat_id), None) or max(
        saved, key=lambda c: c.updated_at)
    window.chat_list.list.setCurrentRow(window.chat_list.row_of(conv))


def startup_model(cli_model: Path | None, settings: Settings) -> Path | None:
    """The command line's model, else the last one (if it still exists); None means the
    first-run demo (when the bundled model is installed)."""
    if cli_model is not None:
        return cli_model
    if settings.models.target and Path(settings.models.target).is_file():
        return Path(settings.models.target)
    return None


def run_gui(args: argparse.Namespace) -> int:
    # the GPU's memory, for the model manager's fit, read now off the GUI thread (nvidia-smi)
    threading.Thread(target=gpu_memory, name="gpu-memory", daemon=True).start()
    log_file = setup_logging()  # a rotating file in the user log folder, warnings on stderr
    settings = load_settings(args.settings)
    app = ensure_application(theme=args.theme or settings.window.theme,
                             language=args.language or settings.window.language)
    window = build_window(settings, settings_path=args.settings,
                          persist=args.screenshot is None)
    if args.theme:
        window.settings.window.theme = args.theme
    if args.language:
        window.settings.window.language = args.language
    gs = window.panel.preferred_settings()
    if args.spec:
        gs.spec_type = args.spec
    if args.n_draft:
        gs.n_draft = args.n_draft
    window.panel.set_generation_settings(gs)
    if args.draft:
        window.settings.models.draft = str(args.draft)  # loaded once the target is in
    # An uncaught exception in a slot: a dialog and the log, never a vanished window.
    crash_reporter = CrashReporter(log_file, window)
    crash_reporter.install()

    run = None
    if args.screenshot:
        window.resize(1280, 820)
        run = ScreenshotRun(window, args.screenshot, args.prompt, timeout_s=args.timeout,
                            want_draft=bool(args.draft), spec=args.spec)
    model = startup_model(args.model, window.settings)
    server = window.settings.server
    if args.model is None and server.kind == "server" and server.model:
        window.server_panel.request_connect()  # the server chosen last time
        if args.prompt and run is None:
            window.send(args.prompt)
    elif model is None and find_default_model() is not None:
        window.open_demo(spec=args.spec or "draft")
        if args.prompt and run is None:
            window.send(args.prompt)
    elif model is None:
        window.show_error(translate("Startup", "No model yet: open a GGUF file with File → Open "
                                               "GGUF… (the bundled SmolLM2 model is not "
                                               "installed)."))
        if run is not None and args.prompt is None:
            run.finish_without_answer()  # the welcome view says what to do
        elif run is not None:
            run.fail("no model given and the bundled default model is not installed")
    else:
        window.open_target(str(model))
        if args.prompt and run is None:
            window.send(args.prompt)
    if args.open_trace:
        window.open_trace(str(args.open_trace))  # read off the GUI thread; refusals in the banner
    window.show()
    code = app.exec()
    window.close()  # stops the engine thread if the event loop ended some other way
    crash_reporter.uninstall()
    logging.getLogger(__name__).info("exited with %s", code)
    if run is not None:
        return run.exit_code if run.exit_code is not None else 1
    return code
