"""The visual system (app/shell/theme.py, app/shell/style.py, app/panel/collapsible.py): the
theme follows the system's colour scheme live, messages are cards the style sheet reaches,
every text colour keeps WCAG AA contrast on what it is drawn on, the side panel's groups fold
and stay folded, and presentation mode still enlarges and recolours everything."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QLabel
from scripted_engine import ScriptedEngine, answered_window

from app.panel.collapsible import CollapsibleSection, folded_sections
from app.shell.theme import (
    DARK_CHROME,
    LIGHT_CHROME,
    PROJECTOR_CHROME,
    current_chrome,
    theme_follower,
)
from backend.palette import DARK, LIGHT, PROJECTOR
from backend.settings import load_settings, save_settings

CHROMES = (LIGHT_CHROME, DARK_CHROME, PROJECTOR_CHROME)
AA = 4.5  # WCAG 2 contrast for body text


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two sRGB colours."""
    def luminance(colour: str) -> float:
        c = QColor(colour)
        channels = [v / 255 for v in (c.red(), c.green(), c.blue())]
        r, g, b = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
                   for v in channels]
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def pixel(widget, point: QPoint) -> str:
    return QColor(widget.grab().toImage().pixel(point)).name().upper()


# Theme ------------------------------------------------------------------------------------

def test_system_theme_follows_the_colour_scheme_live(themed, qapp):
    qapp.setStyle("Windows")  # a platform's own style: Draftlight draws on Fusion anyway
    themed("system")  # offscreen the scheme is Unknown: light
    sheet = qapp.styleSheet()
    qapp.setStyleSheet("")  # under a style sheet, style() is the sheet's wrapper
    assert qapp.style().baseStyle().name().lower() == "fusion"  # under the wheel's guard
    qapp.setStyleSheet(sheet)
    base = QPalette.ColorRole.Base
    assert qapp.palette().color(base).name().upper() == LIGHT_CHROME.surface
    follower = theme_follower(qapp)

    follower._on_scheme_changed(Qt.ColorScheme.Dark)  # what the desktop's switch sends
    assert current_chrome(qapp) is DARK_CHROME
    assert qapp.palette().color(base).name().upper() == DARK_CHROME.surface
    assert DARK_CHROME.canvas in qapp.styleSheet() and LIGHT_CHROME.canvas not in (
        qapp.styleSheet())

    follower._on_scheme_changed(Qt.ColorScheme.Light)
    assert qapp.palette().color(base).name().upper() == LIGHT_CHROME.surface

    themed("light")  # a forced theme ignores the desktop
    follower._on_scheme_changed(Qt.ColorScheme.Dark)
    assert current_chrome(qapp) is LIGHT_CHROME
    themed("dark")
    assert qapp.palette().color(base).name().upper() == DARK_CHROME.surface


def test_a_live_switch_recolours_the_answers_shown(themed, make_window, qtbot, qapp):
    themed("system")
    _, widget = answered_window(make_window, qtbot)
    assert widget.token_view.formats.colours is LIGHT
    theme_follower(qapp)._on_scheme_changed(Qt.ColorScheme.Dark)
    assert widget.token_view.formats.colours is DARK
    theme_follower(qapp)._on_scheme_changed(Qt.ColorScheme.Light)
    assert widget.token_view.formats.colours is LIGHT


def test_view_theme_applies_at_once_and_is_saved(themed, make_window, qtbot, qapp,
                                                  settings_path):
    themed("system")  # offscreen: light
    w, widget = answered_window(make_window, qtbot)
    menu = w.theme_menu
    assert menu.actions["system"].isChecked()
    menu.actions["dark"].trigger()
    assert current_chrome(qapp) is DARK_CHROME
    assert widget.token_view.formats.colours is DARK  # the answer shown redraws at once
    assert w.settings.window.theme == "dark"
    assert load_settings(settings_path).window.theme == "dark"
    theme_follower(qapp)._on_scheme_changed(Qt.ColorScheme.Light)  # forced: not followed
    assert current_chrome(qapp) is DARK_CHROME
    menu.actions["system"].trigger()
    assert current_chrome(qapp) is LIGHT_CHROME and widget.token_view.formats.colours is LIGHT
    assert load_settings(settings_path).window.theme == "system"


# Cards ------------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["light", "dark"])
def test_messages_are_cards_on_the_canvas(themed, make_window, qtbot, mode):
    themed(mode)
    chrome = LIGHT_CHROME if mode == "light" else DARK_CHROME
    w, widget = answered_window(make_window, qtbot)
    user = w.transcript.entries()[0]
    assert (user.objectName(), widget.objectName()) == ("userMessage", "answer")
    # what is drawn: the card's own fill inside its rounded border, the canvas around it
    inside = QPoint(widget.width() // 2, 3)
    assert pixel(widget, inside) == chrome.surface
    assert pixel(user, QPoint(user.width() // 2, 3)) == chrome.raised
    container = w.transcript.widget()
    gap = widget.mapTo(container, QPoint(widget.width() // 2, 0)) - QPoint(0, 4)
    assert pixel(container, gap) == chrome.canvas
    # the tokens are drawn on the card's colour and in its theme's token colours
    assert widget.token_view.palette().color(QPalette.ColorRole.Base).name().upper() == (
        chrome.surface)
    assert widget.token_view.formats.colours is chrome.tokens
    assert w.send_button.property("primary") is True


@pytest.mark.parametrize("chrome", CHROMES, ids=lambda c: c.name)
def test_every_text_colour_keeps_AA_contrast(chrome):
    """Text, secondary text and the accent button's label on what they are drawn on; the
    target's own tokens are plain text on the card, the drafts' cues (underline, strike-out)
    are drawn in their colour on it."""
    for background in (chrome.surface, chrome.canvas, chrome.raised):
        assert contrast(chrome.text, background) >= AA, background
        assert contrast(chrome.muted, background) >= AA, background
    assert contrast(chrome.on_accent, chrome.accent) >= AA
    tokens = chrome.tokens
    for fg in (tokens.accepted_fg, tokens.rejected_fg):
        assert contrast(fg, chrome.surface) >= AA, fg
    # a tint must stand out from the card it lies on, or the kinds blur into one
    for tint in (tokens.accepted_bg, tokens.rejected_bg):
        assert contrast(tint, chrome.surface) >= 1.05, tint
    # and each kind's text stays readable on its own tint (a draft is drawn on it)
    assert contrast(tokens.accepted_fg, tokens.accepted_bg) >= AA
    assert contrast(tokens.rejected_fg, tokens.rejected_bg) >= AA
    for fg in tokens.head_fg:
        assert contrast(fg, tokens.head_bg) >= AA, fg


def test_each_chrome_carries_its_token_colours():
    assert (LIGHT_CHROME.tokens, DARK_CHROME.tokens, PROJECTOR_CHROME.tokens) == (
        LIGHT, DARK, PROJECTOR)


# The side panel ---------------------------------------------------------------------------

def test_a_group_folds_and_unfolds(qtbot):
    section = CollapsibleSection("demo", "Group", "One line of help.")
    form = section.form()
    field = QLabel("field")
    form.addRow("Label", field)
    qtbot.addWidget(section)
    section.show()
    assert field.isVisible() and section.help_label.isVisible()
    with qtbot.waitSignal(section.toggled) as folded:
        section.header.click()
    assert folded.args == [False] and not section.is_open()
    assert not section.body.isVisible() and not field.isVisible()
    assert not section.help_label.isVisible()
    assert section.header.text().startswith("▸")
    section.header.click()
    assert section.is_open() and field.isVisible() and section.header.text().startswith("▾")


def test_the_panel_is_in_groups_with_help(make_window):
    w = make_window(ScriptedEngine([]))
    sections = w.panel.findChildren(CollapsibleSection)
    assert {s.key for s in sections} == {"backend", "models", "speculation", "sampling"}
    for s in sections:
        assert s.help_label.text() and s.help_label.textFormat() == Qt.TextFormat.PlainText
    speculation = next(s for s in sections if s.key == "speculation")
    assert speculation.isAncestorOf(w.panel.n_draft)


def test_folded_groups_stay_folded(make_window, settings_path):
    w = make_window(ScriptedEngine([]))
    assert folded_sections(w.panel) == ["backend", "sampling"]  # a first run's
    groups = {s.key: s for s in w.panel.findChildren(CollapsibleSection)}
    groups["sampling"].set_open(True)
    groups["models"].set_open(False)
    save_settings(w.collect_settings(), settings_path)
    assert load_settings(settings_path).window.folded == ["backend", "models"]

    again = make_window(ScriptedEngine([]))
    assert folded_sections(again.panel) == ["backend", "models"]
    assert again.panel.temperature.isVisibleTo(again.panel)
    assert not again.panel.n_ctx.isVisibleTo(again.panel)


# Presentation mode ------------------------------------------------------------------------

def test_presentation_mode_keeps_the_look_larger_and_in_projector_colours(
        themed, make_window, qtbot):
    themed("dark")
    w, widget = answered_window(make_window, qtbot)
    before, chart = widget.token_view.font().pointSizeF(), widget.chart.height()
    w.teaching.presentation.action.trigger()
    assert widget.token_view.font().pointSizeF() > 1.5 * before
    assert widget.chart.height() > chart  # room for its caption in the larger type
    assert widget.token_view.formats.colours is PROJECTOR
    assert pixel(widget, QPoint(widget.width() // 2, 3)) == PROJECTOR_CHROME.surface
    assert PROJECTOR_CHROME.border in w.styleSheet()
    w.teaching.presentation.action.trigger()
    assert widget.token_view.font().pointSizeF() == before and widget.chart.height() == chart
    assert widget.token_view.formats.colours is DARK
    assert pixel(widget, QPoint(widget.width() // 2, 3)) == DARK_CHROME.surface
