"""The window's language: Qt's own translations (`.ts` sources in resources/translations/,
made with pyside6-lupdate and compiled to `.qm` with pyside6-lrelease by
scripts/update_translations.py) installed on the QApplication.

Every visible string goes through `translate(context, text)`: the call lupdate recognises,
with a literal context per module so that a translation stays attached to its text when code
moves. Strings declared in backend/ (Qt-free) are translated where the app shows them, by
app/backend_text.py. English is the source text: with "en", or a system language that has no
translation, no translator is installed at all.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from app.resources import translation_path
from backend.settings_schema import LANGUAGES

TRANSLATED = ("it", "fr")  # the languages with a .qm in resources/translations/
# Each language named in itself, as language menus do (never translated).
LANGUAGE_NAMES = {"en": "English", "it": "Italiano", "fr": "Français"}

log = logging.getLogger(__name__)
_installed: list[QTranslator] = []  # kept alive while installed (Qt does not own them)


def translate(context: str, text: str, disambiguation: str | None = None, n: int = -1) -> str:
    """QCoreApplication.translate: `text` in the window's language (itself in English)."""
    return QCoreApplication.translate(context, text, disambiguation, n)


def number(n: int) -> str:
    """A count with the window language's digit grouping: 4,096 in English, 4 096 in French,
    40.960 in Italian (which groups from five digits)."""
    locale = QLocale()
    if locale.language() in (QLocale.Language.C, QLocale.Language.English):
        return f"{n:,}"
    return locale.toString(n)


def resolve_language(choice: str, locale: QLocale | None = None) -> str:
    """The language code ("en", "it", "fr") for a settings choice; "system" takes the first
    of the desktop's preferred languages that Draftlight has, else English."""
    if choice != "system":
        return choice if choice in LANGUAGES else "en"
    for name in (locale or QLocale.system()).uiLanguages():
        code = name.replace("_", "-").split("-")[0].lower()
        if code in ("en", *TRANSLATED):
            return code
    return "en"


def install_translators(app: QCoreApplication, choice: str = "system") -> str:
    """Install the translators for `choice` on `app` (removing any installed before) and
    return the language now in use. Qt's own (qtbase: the standard buttons and dialogs) is
    installed too when Qt ships it."""
    for old in _installed:
        app.removeTranslator(old)
    _installed.clear()
    language = resolve_language(choice)
    if choice != "system":  # dates and numbers Qt formats follow the chosen language too
        QLocale.setDefault(QLocale(language))
    if language not in TRANSLATED:
        return "en"
    ours = QTranslator(app)
    try:
        path = translation_path(language)
    except FileNotFoundError as exc:  # a broken install: English rather than no window
        log.warning("No %s translation, the window stays in English: %s", language, exc)
        return "en"
    if not ours.load(str(path)):
        log.warning("The %s translation %s could not be read; the window stays in English",
                    language, path)
        return "en"
    qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    qtbase = QTranslator(app)
    for translator in (ours, *([qtbase] if qtbase.load(f"qtbase_{language}", qt_dir) else [])):
        app.installTranslator(translator)
        _installed.append(translator)
    return language
