"""The model manager without the Hub (issue 44): the search field has the focus, a search says
in words, within seconds, that the Hub cannot be reached; the wait shows progress and Cancel;
Esc closes the window. Nothing here leaves the loopback interface."""

from __future__ import annotations

import socket
import threading
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.models.manager_window import ModelManagerWindow
from backend.models import reachability
from backend.models.memory import Memory

SHOTS = Path("/tmp/shots")
UNREACHABLE = "The Hugging Face Hub cannot be reached from this computer."


@pytest.fixture
def held_resolver(monkeypatch, offline):
    """A Hub whose name the resolver answers only when the test says so (`release.set()`),
    as a resolver without a network keeps a program waiting; the wait has no deadline of its
    own, so Cancel is what ends it for the window."""
    from huggingface_hub import constants

    release = threading.Event()
    asked = threading.Event()

    def getaddrinfo(host, *args, **kwargs):
        asked.set()
        release.wait()
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setenv("HF_ENDPOINT", "https://hub.example")
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setattr(reachability.socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(reachability, "TIMEOUT_S", 600.0)
    yield asked, release
    release.set()


@pytest.fixture
def manager(qtbot, tmp_path):
    window = ModelManagerWindow(models_dir=tmp_path / "models",
                                memory_source=lambda: Memory(64 * 2**30, 32 * 2**30))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    yield window
    window.close()


def test_the_search_field_has_the_focus_when_the_manager_opens(offline, manager):
    assert manager.search_tab.query.hasFocus()


def test_an_offline_search_says_the_hub_cannot_be_reached(offline, manager, qtbot):
    tab = manager.search_tab
    qtbot.keyClicks(tab.query, "qwen2.5 0.5b")  # typed straight away: the field has the focus
    qtbot.keyClick(tab.query, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: tab.search_button.isEnabled(), timeout=30_000)

    text = tab.status.text()
    assert text.startswith(UNREACHABLE)
    assert "proxy" in text and "Library" in text  # what to check, and what still works
    assert "Errno" not in text and "Could not" not in text
    assert "refused" in tab.status.toolTip().lower()  # the socket's words, for whoever asks
    assert tab.status.textFormat() == Qt.TextFormat.PlainText
    assert not tab.wait_row.isVisible()
    SHOTS.mkdir(parents=True, exist_ok=True)
    manager.grab().save(str(SHOTS / "model-manager-offline.png"))


def test_a_search_waiting_for_the_hub_shows_progress_and_cancels(held_resolver, manager,
                                                                  qtbot):
    asked, release = held_resolver
    tab = manager.search_tab
    qtbot.keyClicks(tab.query, "llama")
    qtbot.keyClick(tab.query, Qt.Key.Key_Return)
    assert tab.status.text().startswith("Searching the Hub")
    assert tab.wait_row.isVisible() and tab.cancel_button.isVisible()
    assert tab.wait_bar.maximum() == 0  # busy: how long is unknown
    assert not tab.search_button.isEnabled()
    assert asked.wait(10)
    SHOTS.mkdir(parents=True, exist_ok=True)
    manager.grab().save(str(SHOTS / "model-manager-searching.png"))

    qtbot.mouseClick(tab.cancel_button, Qt.MouseButton.LeftButton)
    assert tab.status.text() == "Search cancelled."
    assert not tab.wait_row.isVisible()
    assert tab.search_button.isEnabled()

    # The resolver gives up later: its answer, come too late, changes nothing.
    release.set()
    assert manager.tasks.wait(10_000)
    QApplication.processEvents()
    assert tab.status.text() == "Search cancelled."
    assert tab.search_button.isEnabled() and not tab.wait_row.isVisible()


def test_esc_closes_the_model_manager(offline, manager, qtbot):
    with qtbot.waitSignal(manager.closed, timeout=15_000):
        qtbot.keyClick(manager.search_tab.query, Qt.Key.Key_Escape)
    assert not manager.isVisible()


def test_esc_closes_the_model_manager_from_the_library_tab(offline, manager, qtbot):
    bar = manager.tabs.tabBar()
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(2).center())
    assert manager.tabs.currentWidget() is manager.library_tab
    qtbot.keyClick(QApplication.focusWidget() or manager, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not manager.isVisible())
