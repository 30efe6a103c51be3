"""View → Theme: the window's colours (settings "window.theme"), the desktop's scheme or one
chosen. Unlike the language it applies at once: the theme is one palette and one style sheet
for the whole application (app/shell/theme.py), and every view redraws on the palette change."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QT_TRANSLATE_NOOP, QObject, Slot
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QApplication, QMenu

from app.i18n import translate
from app.shell.theme import apply_theme
from backend.settings_schema import THEME, THEMES

if TYPE_CHECKING:
    from app.shell.language_menu import SettingsWindow

NAMES = {"system": QT_TRANSLATE_NOOP("ThemeMenu", "System (follows the desktop)"),
         "light": QT_TRANSLATE_NOOP("ThemeMenu", "Light"),
         "dark": QT_TRANSLATE_NOOP("ThemeMenu", "Dark")}


class ThemeMenu(QObject):
    def __init__(self, window: SettingsWindow, parent_menu: QMenu) -> None:
        super().__init__()
        self.window = window
        self.menu = parent_menu.addMenu(self.tr("&Theme"))
        self.menu.setToolTipsVisible(True)
        self.menu.setToolTip(self.tr("The window's colours: the desktop's light or dark "
                                     "scheme, or one chosen"))
        self.group = QActionGroup(self)
        self.actions: dict[str, QAction] = {}
        for choice in THEMES:
            action = QAction(translate("ThemeMenu", NAMES[choice]), self.group, checkable=True)
            action.setData(choice)
            action.setChecked(choice == window.settings.window.theme)
            self.menu.addAction(action)
            self.actions[choice] = action
        self.group.triggered.connect(self._on_chosen)

    @Slot(QAction)
    def _on_chosen(self, action: QAction) -> None:
        choice = str(action.data())
        THEME.check(choice)
        self.window.settings.window.theme = choice
        self.window.save_settings()
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        apply_theme(app, choice)


def attach_theme_menu(window: SettingsWindow, parent_menu: QMenu) -> ThemeMenu:
    return ThemeMenu(window, parent_menu)
