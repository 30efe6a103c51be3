"""The main window's state in the settings: its geometry, the splitter, the side panel's
folded groups, the last chat and the panel's values, restored at start and collected at close.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray
from PySide6.QtWidgets import QMainWindow, QSplitter

from app.chat.chat_list import ChatList
from app.panel.collapsible import folded_sections
from app.panel.generation_panel import GenerationPanel
from backend.settings import Settings


def restore_window(window: QMainWindow, splitter: QSplitter, panel: GenerationPanel,
                   s: Settings) -> None:
    if s.window.geometry:
        window.restoreGeometry(QByteArray.fromBase64(s.window.geometry.encode()))
    if s.window.splitter:
        splitter.restoreState(QByteArray.fromBase64(s.window.splitter.encode()))
    panel.set_generation_settings(s.generation)
    panel.n_ctx.setValue(s.models.n_ctx)
    panel.n_threads.setValue(s.models.n_threads)
    panel.set_runtime(s.models.kernels, s.models.gpu_layers)
    panel.set_recent(s.models.recent)


def collect_window(window: QMainWindow, splitter: QSplitter, panel: GenerationPanel,
                   chat_list: ChatList, s: Settings) -> Settings:
    """The window's state folded into `s`, the settings it was opened with."""
    s.window.geometry = bytes(window.saveGeometry().toBase64()).decode()
    s.window.splitter = bytes(splitter.saveState().toBase64()).decode()
    s.window.folded = folded_sections(panel)
    s.window.last_chat = (chat_list.current.chat_id or 0) if chat_list.count() else 0
    s.generation = panel.preferred_settings()
    s.models.n_ctx = panel.n_ctx.value()
    s.models.n_threads = panel.n_threads.value()
    runtime = panel.runtime()
    s.models.kernels, s.models.gpu_layers = runtime.kernels, runtime.n_gpu_layers
    return s
