"""The application's one style sheet, made from a theme's colours (app/shell/theme.py) and a body
size: the spacing scale, the radii, the type scale, buttons, inputs, the composer, the cards
and the side panel's groups. Widgets only name themselves (objectName, or the `primary`
property for the one main action of a view) and take their margins from the constants here;
no widget chooses a colour.

Presentation mode (app/teaching/presentation.py) lays the same sheet, made from the projector
colours at 1.6 times the size, over the window: one look, two sizes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QFont

from app.shell.arrows import arrow_image

if TYPE_CHECKING:
    from app.shell.chrome import Chrome

# Spacing scale (px): every margin and gap is one of these.
SPACE_XS, SPACE_S, SPACE_M, SPACE_L, SPACE_XL = 4, 8, 12, 16, 24
CARD_MARGINS = (SPACE_L, SPACE_M, SPACE_L, SPACE_M)  # left, top, right, bottom
CARD_SPACING = SPACE_S
RADIUS_CARD, RADIUS_CONTROL = 10, 6

# Type scale, as multiples of the body size (the system's font, or presentation's 1.6x).
# Messages read a step larger than the controls around them; numbers and help a step smaller,
# never below what a projector keeps legible.
CAPTION, BODY, READING, TITLE, DISPLAY = 0.92, 1.0, 1.12, 1.08, 1.9
MIN_CAPTION_PT = 8.0

PRIMARY = "primary"  # a bool property: the one main action of its view (Send, Try it)


def font_points(font: QFont) -> float:
    """A font's size in points, also when it was set in pixels (at 96 dpi)."""
    return font.pointSizeF() if font.pointSizeF() > 0 else font.pixelSize() * 0.75


def style_sheet(c: Chrome, body_pt: float) -> str:
    def pt(scale: float) -> str:
        size = body_pt * scale
        return f"{max(size, MIN_CAPTION_PT) if scale < 1 else size:.1f}pt"

    down, up = arrow_image("down", c.text), arrow_image("up", c.text)
    down_off, up_off = arrow_image("down", c.disabled), arrow_image("up", c.disabled)
    return f"""
QToolTip {{ background: {c.surface}; color: {c.text}; border: 1px solid {c.border};
    padding: {SPACE_XS}px {SPACE_S}px; }}

/* Buttons: quiet by default, the accent only for the view's main action. */
QPushButton {{ background: {c.button}; color: {c.text}; border: 1px solid {c.border};
    border-radius: {RADIUS_CONTROL}px; padding: 5px {SPACE_M}px; }}
QPushButton:hover {{ background: {c.raised}; }}
QPushButton:pressed {{ background: {c.border}; }}
QPushButton:disabled {{ color: {c.disabled}; background: {c.canvas}; }}
QPushButton[{PRIMARY}="true"] {{ background: {c.accent}; color: {c.on_accent};
    border-color: {c.accent}; font-weight: 600; }}
/* Keyboard focus: a ring two pixels wide (the padding one less, so nothing moves); on the
   accent button, in the text's colour, which stands out from the accent. */
QPushButton:focus {{ border: 2px solid {c.focus}; padding: 4px {SPACE_M - 1}px; }}
QPushButton[{PRIMARY}="true"]:focus {{ border-color: {c.text}; }}
QPushButton[{PRIMARY}="true"]:disabled {{ background: {c.canvas}; border-color: {c.border};
    color: {c.disabled}; }}
QToolButton {{ background: transparent; color: {c.text}; border: 1px solid transparent;
    border-radius: {RADIUS_CONTROL}px; padding: 2px {SPACE_S}px; }}
QToolButton:hover {{ background: {c.raised}; border-color: {c.border}; }}
QToolButton:checked {{ background: {c.raised}; border-color: {c.accent}; }}
QToolButton:disabled {{ color: {c.disabled}; }}
QToolButton:focus {{ border-color: {c.focus}; }}

/* Inputs */
QLineEdit, QPlainTextEdit#composer, QPlainTextEdit#editor, QComboBox, QSpinBox,
QDoubleSpinBox {{
    background: {c.surface}; color: {c.text}; border: 1px solid {c.border};
    border-radius: {RADIUS_CONTROL}px; padding: 3px {SPACE_S}px;
    selection-background-color: {c.accent}; selection-color: {c.on_accent}; }}
QLineEdit:focus, QPlainTextEdit#composer:focus, QPlainTextEdit#editor:focus, QComboBox:focus,
QSpinBox:focus, QDoubleSpinBox:focus {{ border-color: {c.accent}; }}
QLineEdit:disabled, QComboBox:disabled, QSpinBox:disabled, QDoubleSpinBox:disabled {{
    color: {c.disabled}; background: {c.canvas}; }}
QComboBox {{ padding-right: 26px; }}
QComboBox::drop-down {{ subcontrol-origin: padding; subcontrol-position: center right;
    width: 24px; border: none; }}
QComboBox::down-arrow, QSpinBox::down-arrow, QDoubleSpinBox::down-arrow {{
    image: url({down}); width: 10px; height: 10px; }}
QComboBox::down-arrow:disabled, QSpinBox::down-arrow:disabled,
QDoubleSpinBox::down-arrow:disabled, QSpinBox::down-arrow:off,
QDoubleSpinBox::down-arrow:off {{ image: url({down_off}); }}
QSpinBox::up-arrow, QDoubleSpinBox::up-arrow {{ image: url({up}); width: 10px;
    height: 10px; }}
QSpinBox::up-arrow:disabled, QDoubleSpinBox::up-arrow:disabled, QSpinBox::up-arrow:off,
QDoubleSpinBox::up-arrow:off {{ image: url({up_off}); }}
QComboBox QAbstractItemView {{ background: {c.surface}; color: {c.text};
    border: 1px solid {c.border}; selection-background-color: {c.accent};
    selection-color: {c.on_accent}; outline: none; }}
QSpinBox, QDoubleSpinBox {{ padding-right: 24px; }}
QSpinBox::up-button, QDoubleSpinBox::up-button, QSpinBox::down-button,
QDoubleSpinBox::down-button {{ subcontrol-origin: border; width: 22px; border: none;
    border-left: 1px solid {c.border}; background: transparent; }}
QSpinBox::up-button, QDoubleSpinBox::up-button {{ subcontrol-position: top right;
    border-top-right-radius: {RADIUS_CONTROL}px; }}
QSpinBox::down-button, QDoubleSpinBox::down-button {{ subcontrol-position: bottom right;
    border-bottom-right-radius: {RADIUS_CONTROL}px; }}
QSpinBox::up-button:hover, QDoubleSpinBox::up-button:hover, QSpinBox::down-button:hover,
QDoubleSpinBox::down-button:hover {{ background: {c.raised}; }}
QPlainTextEdit#composer {{ padding: {SPACE_S}px {SPACE_M}px; font-size: {pt(READING)}; }}
QPlainTextEdit#editor {{ padding: {SPACE_XS}px {SPACE_S}px; font-size: {pt(READING)}; }}

/* Scroll bars: thin and quiet, darker while the pointer is on them. */
QScrollBar:vertical {{ background: transparent; width: 10px; margin: 0; }}
QScrollBar:horizontal {{ background: transparent; height: 10px; margin: 0; }}
QScrollBar::handle {{ background: {c.border}; border-radius: 3px; margin: 2px; }}
QScrollBar::handle:vertical {{ min-height: 32px; }}
QScrollBar::handle:horizontal {{ min-width: 32px; }}
QScrollBar::handle:hover {{ background: {c.muted}; }}
QScrollBar::add-line, QScrollBar::sub-line {{ width: 0; height: 0; border: none; }}
QScrollBar::add-page, QScrollBar::sub-page {{ background: transparent; }}
QScrollArea {{ border: none; }}
QSplitter::handle {{ background: {c.canvas}; }}

/* The conversation: each message a card on the canvas. */
#transcript, #welcome, #welcomeColours, #sidePanel {{ background: {c.canvas}; }}
#userMessage {{ background: {c.raised}; border: 1px solid {c.border};
    border-left: 4px solid {c.accent}; border-radius: {RADIUS_CARD}px; }}
#answer {{ background: {c.surface}; border: 1px solid {c.border};
    border-radius: {RADIUS_CARD}px; }}
#messageText, #answer QTextEdit {{ font-size: {pt(READING)}; }}
#roleLabel {{ font-weight: 600; font-size: {pt(TITLE)}; }}
#statsLabel, #modelInfo, #sectionHelp, #demoNote {{ color: {c.muted};
    font-size: {pt(CAPTION)}; }}
#adviceLabel {{ font-size: {pt(CAPTION)}; }}
#legend {{ background: {c.surface}; border: 1px solid {c.border};
    border-radius: {RADIUS_CONTROL + 2}px; }}

/* The side panel: one card per group, a header that folds it, a line of help. */
#section {{ background: {c.surface}; border: 1px solid {c.border};
    border-radius: {RADIUS_CARD}px; }}
QPushButton#sectionHeader {{ border: none; background: transparent; padding: 0;
    font-weight: 600; font-size: {pt(TITLE)}; text-align: left; color: {c.text}; }}
QPushButton#sectionHeader:hover, QPushButton#sectionHeader:focus {{ color: {c.accent}; }}
QLabel#formLabel {{ color: {c.text}; }}

/* The chat list */
QListWidget#chatList {{ background: {c.canvas}; border: none; outline: none; }}
QListWidget#chatList::item {{ padding: 3px {SPACE_S - 2}px; border-radius: {RADIUS_CONTROL}px;
    border: 2px solid transparent; color: {c.text}; }}
QListWidget#chatList::item:hover {{ background: {c.raised}; }}
QListWidget#chatList::item:selected {{ background: {c.raised}; border-color: {c.border}; }}
/* the chat the keys act on while the list has the focus (Qt's dotted outline is off) */
QListWidget#chatList::item:focus {{ border-color: {c.focus}; }}
QListWidget#chatList QLineEdit {{ padding: 1px {SPACE_XS}px; }}

/* The welcome view */
#welcomeTitle {{ font-size: {pt(DISPLAY)}; font-weight: 700; }}
#demoCard {{ background: {c.surface}; border: 1px solid {c.border};
    border-radius: {RADIUS_CARD}px; }}
#demoTitle {{ font-weight: 600; font-size: {pt(TITLE)}; }}
#demoPrompt {{ font-style: italic; }}
"""
