"""The log file (platformdirs' user log folder, rotating), Help → Open log folder, and an
uncaught exception in the window: a dialog with what happened and the log path, the window
and its chats untouched."""

from __future__ import annotations

import logging
import sys

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtGui import QDesktopServices
from scripted_engine import ScriptedEngine

from app.shell import logs
from app.shell.crash_dialog import CrashReporter


@pytest.fixture
def restore_logging():
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    for handler in logs._installed:
        root.removeHandler(handler)
        handler.close()
    logs._installed.clear()
    root.handlers[:] = handlers
    root.setLevel(level)


def test_the_log_goes_to_the_user_log_folder(restore_logging, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    path = logs.setup_logging()
    assert path == tmp_path / "state" / "draftlight" / "log" / "draftlight.log"
    assert path.parent == logs.log_dir()
    logging.getLogger("app.somewhere").warning("a line to find")
    assert "a line to find" in path.read_text()
    assert logs.setup_logging() == path  # again: handlers replaced, not doubled
    logging.getLogger("app.somewhere").info("once")
    assert path.read_text().count("once") == 1


def test_the_log_rotates_and_never_grows_past_its_files(restore_logging, tmp_path):
    path = logs.setup_logging(tmp_path)
    line = "x" * 1000
    for _ in range(logs.MAX_BYTES * (logs.BACKUP_COUNT + 2) // 1000):
        logging.getLogger("flood").info(line)
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["draftlight.log", *(f"draftlight.log.{i}"
                                         for i in range(1, logs.BACKUP_COUNT + 1))]
    assert all(p.stat().st_size <= logs.MAX_BYTES + 2000 for p in tmp_path.iterdir())
    assert path.is_file()


def test_an_unwritable_log_folder_falls_back_to_stderr(restore_logging, tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert logs.setup_logging(blocker / "sub") is None
    assert "no log file" in capsys.readouterr().err


def test_help_opens_the_log_folder(make_window, monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    opened = []
    monkeypatch.setattr(QDesktopServices, "openUrl",
                        staticmethod(lambda url: opened.append(url.toLocalFile()) or True))
    w = make_window(ScriptedEngine())
    assert w.help_menu.log_action in w.help_menu.menu.actions()
    w.help_menu.log_action.trigger()
    assert opened == [str(tmp_path / "state" / "draftlight" / "log")]
    assert (tmp_path / "state" / "draftlight" / "log").is_dir()


def test_a_failed_open_is_said_in_the_banner(make_window, monkeypatch):
    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(lambda url: False))
    w = make_window(ScriptedEngine())
    assert not w.help_menu.open_log_folder()
    assert str(logs.log_dir()) in w.banner.text()


class Boom(RuntimeError):
    pass


@pytest.mark.qt_no_exception_capture  # the app's own hook is under test, not pytest-qt's
def test_an_uncaught_exception_shows_a_dialog_and_keeps_the_window(
        make_window, qtbot, tmp_path, restore_logging):
    log_file = logs.setup_logging(tmp_path)
    w = make_window(ScriptedEngine())
    w.show()
    with qtbot.waitSignal(w.models_changed, timeout=5000):
        w.open_target("/models/fake-target.gguf")
    with qtbot.waitSignal(w.answer_finished, timeout=10_000):
        assert w.send("count")
    turns = [(t.role, t.content) for t in w.conversation.turns]

    reporter = CrashReporter(log_file, w)
    reporter.install()
    try:
        assert sys.excepthook == reporter.excepthook

        def fail():
            raise Boom("the widget fell over")

        with qtbot.waitSignal(reporter.shown, timeout=5000) as shown:
            QTimer.singleShot(0, fail)  # raised inside Qt's event loop, as a slot's error is
        box = shown.args[0]
        assert box.isVisible()
        assert "Boom: the widget fell over" in box.text()
        assert str(log_file) in box.text()
        assert "untouched" in box.text()
        assert "Traceback" in box.detailedText() and "def fail" not in box.text()
        assert "Boom: the widget fell over" in log_file.read_text()

        # a second error while the dialog is open: logged, no second dialog
        QTimer.singleShot(0, fail)
        qtbot.waitUntil(lambda: reporter.count == 2)
        qtbot.wait(50)
        assert reporter.dialog is box
        assert log_file.read_text().count("Boom: the widget fell over") >= 2

        # the window is still there with its chat as it was, and still answers
        assert w.isVisible()
        assert [(t.role, t.content) for t in w.conversation.turns] == turns
        box.close()
        qtbot.waitUntil(lambda: reporter.dialog is None)
        with qtbot.waitSignal(w.answer_finished, timeout=10_000):
            assert w.send("count again")
    finally:
        reporter.uninstall()
    assert sys.excepthook != reporter.excepthook


def test_without_a_log_file_the_dialog_says_so(qtbot):
    reporter = CrashReporter(None)
    assert "No log file" in reporter.message("ValueError: x")
