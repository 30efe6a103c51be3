"""UI test fixtures: windows on a scripted engine (or the real one), closed after each test,
with Qt warnings treated as failures."""

from __future__ import annotations

import socket

import pytest
from PySide6.QtCore import QtMsgType

# Qt messages that say nothing about our code (the offscreen platform's own limits).
BENIGN_QT_MESSAGES = (
    "This plugin does not support",
    "propagateSizeHints",
)


@pytest.fixture(autouse=True)
def _fail_on_qt_warnings(request):
    """Fail a test during which Qt logged a warning (a bad connection, a wrong property…)."""
    yield
    qtlog = request.node.stash.get(_QTLOG_KEY, None) if hasattr(request.node, "stash") else None
    if qtlog is None:
        return
    bad = [r.message for r in qtlog.records
           if r.type in (QtMsgType.QtWarningMsg, QtMsgType.QtCriticalMsg, QtMsgType.QtFatalMsg)
           and not any(b in r.message for b in BENIGN_QT_MESSAGES)]
    if bad:
        pytest.fail("Qt warnings:\n" + "\n".join(bad))


_QTLOG_KEY = pytest.StashKey()


@pytest.fixture(autouse=True)
def _capture_qt_log(request, qtlog):
    request.node.stash[_QTLOG_KEY] = qtlog
    yield


@pytest.fixture
def themed(qapp):
    """themed(mode) applies a theme (app/shell/theme.py) for one test; the application's style,
    palette and style sheet are as they were afterwards, so later tests see the plain look."""
    from app.shell.theme import apply_theme, theme_follower

    palette, style, sheet = qapp.palette(), qapp.style().name(), qapp.styleSheet()
    follower = theme_follower(qapp)
    mode, chrome = follower.mode, follower.chrome
    yield lambda mode: apply_theme(qapp, mode)
    follower.mode, follower.chrome = mode, chrome
    qapp.setStyleSheet(sheet)
    qapp.setPalette(palette)
    qapp.setStyle(style)


@pytest.fixture
def settings_path(tmp_path):
    return tmp_path / "settings.json"


@pytest.fixture
def chats_path(tmp_path):
    return tmp_path / "chats.sqlite3"


@pytest.fixture
def make_window(qtbot, settings_path, chats_path):
    """make_window(engine) -> MainWindow on that engine (or make_window(engine_factory=…) for
    the real one), with this test's own chat store; every window is closed, and its engine
    thread stopped, after the test."""
    from app.shell.startup import build_window
    from backend.settings import load_settings

    windows = []

    def make(engine=None, *, engine_factory=None, path=None, persist=True):
        path = path or settings_path
        window = build_window(load_settings(path), settings_path=path,
                              engine_factory=engine_factory or (lambda: engine),
                              persist=persist, chats_path=chats_path)
        qtbot.addWidget(window)
        windows.append(window)
        return window

    yield make
    for window in windows:
        window.close()
        assert window.client._thread.isFinished(), "the engine thread did not stop"


@pytest.fixture
def offline(monkeypatch):
    """The Hub's address is a loopback port that refuses connections (nothing leaves the
    loopback interface)."""
    from huggingface_hub import constants

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))  # a port nothing listens on: refused at once
        port = s.getsockname()[1]
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{port}")
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    for name in ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY",
                 "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
