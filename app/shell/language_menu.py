"""View → Language: the window's language (settings "window.language"), the system's or one
chosen. The choice is saved at once and applies at the next start: retranslating every open
widget live would need a changeEvent in each of them for a choice made once."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject, Slot
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QMenu

from app.i18n import LANGUAGE_NAMES, resolve_language
from backend.settings_schema import LANGUAGE, LANGUAGES

if TYPE_CHECKING:
    from PySide6.QtWidgets import QStatusBar

    from backend.settings import Settings


class SettingsWindow(Protocol):
    """The part of the main window a View menu uses: its settings, saved at once."""

    settings: Settings

    def save_settings(self) -> None: ...
    def statusBar(self) -> QStatusBar: ...


class LanguageMenu(QObject):
    def __init__(self, window: SettingsWindow, parent_menu: QMenu) -> None:
        super().__init__()
        self.window = window
        self.running = resolve_language(window.settings.window.language)  # in use now
        self.menu = parent_menu.addMenu(self.tr("&Language"))
        self.menu.setToolTipsVisible(True)
        self.menu.setToolTip(self.tr("The window's language (applies at the next start)"))
        self.group = QActionGroup(self)
        self.actions: dict[str, QAction] = {}
        for choice in LANGUAGES:
            action = QAction(self._name(choice), self.group, checkable=True)
            action.setData(choice)
            action.setChecked(choice == window.settings.window.language)
            self.menu.addAction(action)
            self.actions[choice] = action
        self.group.triggered.connect(self._on_chosen)

    def _name(self, choice: str) -> str:
        if choice == "system":
            return self.tr("System ({language})").format(
                language=LANGUAGE_NAMES[resolve_language("system")])
        return LANGUAGE_NAMES[choice]

    @Slot(QAction)
    def _on_chosen(self, action: QAction) -> None:
        choice = str(action.data())
        LANGUAGE.check(choice)
        self.window.settings.window.language = choice
        self.window.save_settings()
        if resolve_language(choice) != self.running:
            self.window.statusBar().showMessage(
                self.tr("{language} from the next start of Draftlight.").format(
                    language=LANGUAGE_NAMES[resolve_language(choice)]), 10000)


def attach_language_menu(window: SettingsWindow, parent_menu: QMenu) -> LanguageMenu:
    return LanguageMenu(window, parent_menu)
