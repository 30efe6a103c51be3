"""The welcome view: what a first run and every empty chat show in place of the transcript.

What the colours mean in three sentences (the sample words drawn in the transcript's own token
formats, so the key cannot drift from the view), one demo prompt per spec type chosen to show
that drafter at its best, and the way to more models. Clicking a prompt sets its spec type and
sends it, exactly as the person would.

It is handed the answer flow (the conversation, the transcript, the models, sending) and the
side panel; its two buttons and its refusals go out by signals, which the window wires.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QT_TRANSLATE_NOOP, QEvent, QObject, Qt, Signal, Slot
from PySide6.QtGui import QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.backend_text import draft_length_words, spec_label
from app.i18n import translate
from app.shell.style import CARD_MARGINS, CARD_SPACING, PRIMARY, SPACE_M, SPACE_XL
from app.shell.theme import token_colours
from app.transcript.message_widgets import plain_label
from app.transcript.token_formats import TokenFormats
from app.widgets.auto_height_text import AutoHeightTextEdit
from backend import spec_types

if TYPE_CHECKING:
    from app.chat.answer_flow import AnswerFlow
    from app.models.fastest_way import FastestWay
    from app.panel.generation_panel import GenerationPanel


@dataclass(frozen=True)
class DemoPrompt:
    spec: str  # a spec type's name (backend/spec_types.py)
    why: str  # why this prompt suits that drafter, in one line (English; shown translated)
    # Sent to the model as it is, in English: the bundled demo model knows English only.
    prompt: str
    only_when_available: bool = False  # hidden unless the loaded models can use it
    # other spec types the prompt is made for (llama.cpp's n-gram family beside its lookup):
    # when one of them is chosen in the panel, the card keeps it
    family: tuple[str, ...] = ()


DEMO_PROMPTS = (
    DemoPrompt(
        "ngram",
        QT_TRANSLATE_NOOP("Welcome", "N-gram lookup copies from the conversation, so it shines "
                          "when the answer repeats the question: rewriting a text."),
        "Rewrite this text with the spelling and grammar corrected, and change nothing else:\n\n"
        "Speculative decoding let a small drafter guess the next few tokens. The big model "
        "then check all the guesses in one step and keep the ones it would of written itself, "
        "so the answer is exactly the same, only it arrive faster.",
        family=("ngram-map-k", "ngram-map-k4v", "ngram-mod", "ngram-cache"),
    ),
    DemoPrompt(
        "draft",
        QT_TRANSLATE_NOOP("Welcome", "A draft model guesses well where text is predictable: "
                          "code, with its keywords, names and brackets."),
        "Write a Python function is_palindrome(text) that ignores case, spaces and "
        "punctuation, with a docstring and three doctest examples.",
    ),
    DemoPrompt(
        "mtp",
        QT_TRANSLATE_NOOP("Welcome", "The target's own MTP heads draft with no second model: "
                          "any everyday answer."),
        "Explain in five short sentences why the sky is blue.",
        only_when_available=True,
    ),
    DemoPrompt(
        "eagle3",
        QT_TRANSLATE_NOOP("Welcome", "An EAGLE-3 head drafts from the target's hidden states: "
                          "long, fluent answers."),
        "List the eight planets of the solar system, with one fact about each.",
        only_when_available=True,
    ),
    DemoPrompt(
        "dflash",
        QT_TRANSLATE_NOOP("Welcome", "A DFlash head fills a whole block of tokens in one pass, "
                          "so it gains most where many tokens in a row are predictable: a "
                          "long list."),
        "Count from one to forty in words, separated by commas.",
        only_when_available=True,
    ),
    DemoPrompt(
        "gemma4-assistant",
        QT_TRANSLATE_NOOP("Welcome", "The Gemma 4 assistant drafts from its Gemma 4 model's "
                          "own cache, with none of its own to fill: any everyday answer."),
        "Write a short, friendly note inviting the team to lunch on Friday.",
        only_when_available=True,
    ),
)


class ColourKey(AutoHeightTextEdit):
    """The three sentences, with sample words in the real token formats (plain text only)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("welcomeColours")
        # Its background is the welcome's canvas (app/shell/style.py), never transparent: the
        # token colours are chosen by this widget's base colour (a transparent base reads as
        # a dark theme).
        self.setFrameShape(QFrame.Shape.NoFrame)
        self._build()

    def _build(self) -> None:
        formats = TokenFormats(token_colours(self))
        self.document().clear()
        cursor = QTextCursor(self.document())
        plain = QTextCharFormat()
        for piece, fmt in (
            (self.tr("Every token of an answer is coloured by where it came from. "), plain),
            (self.tr("Underlined tokens"), formats.accepted),
            (self.tr(" were guessed by a drafter and accepted by the target model, which checks "
                     "a whole guess in one step; "), plain),
            (self.tr("struck-out tokens"), formats.rejected),
            (self.tr(" were guessed wrong, thrown away and shown only so you can see the "
                     "guess. "), plain),
            (self.tr("Plain tokens"), formats.target),
            (self.tr(" are the target's own, one after each check: the more underlined text, "
                     "the faster the answer, and it is always exactly what the target alone "
                     "would write."), plain),
        ):
            cursor.insertText(piece, fmt)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._build()


def lay_out_card(card: QFrame, title: QLabel, buttons: tuple[QPushButton, ...],
                 body: tuple[QWidget, ...]) -> None:
    """A welcome card: its title with its buttons on the right, then its body."""
    head = QHBoxLayout()
    head.addWidget(title, 1)
    for button in buttons:
        head.addWidget(button, 0, Qt.AlignmentFlag.AlignTop)
    lay = QVBoxLayout(card)
    lay.setContentsMargins(*CARD_MARGINS)
    lay.setSpacing(CARD_SPACING)
    lay.addLayout(head)
    for widget in body:
        lay.addWidget(widget)


class DemoCard(QFrame):
    """One demo prompt: its spec type, why it suits it, the prompt, and Try it."""

    tried = Signal(object)  # the DemoPrompt

    def __init__(self, demo: DemoPrompt, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.demo = demo
        self.setObjectName("demoCard")  # a card (app/shell/style.py)
        self.title = plain_label(spec_label(demo.spec))
        self.title.setObjectName("demoTitle")
        self.why = plain_label(translate("Welcome", demo.why))
        self.prompt_label = plain_label(demo.prompt)
        self.prompt_label.setObjectName("demoPrompt")
        self.note = plain_label()  # why it cannot run now
        self.note.setObjectName("demoNote")
        self.note.hide()
        self.button = QPushButton(self.tr("Try it"))
        self.button.setProperty(PRIMARY, True)
        self.button.setToolTip(self.tr("Set the spec type to {spec} and send this prompt").format(
            spec=spec_label(demo.spec)))
        self.button.clicked.connect(lambda: self.tried.emit(self.demo))
        lay_out_card(self, self.title, (self.button,), (self.why, self.prompt_label, self.note))

    def set_reason(self, reason: str | None) -> None:
        """None: it can run; else the reason it cannot, shown under the prompt."""
        self.button.setEnabled(reason is None)
        self.note.setText(reason or "")
        self.note.setVisible(bool(reason))


class WelcomeView(QScrollArea):
    """Laid over the transcript while the chat has no turns."""

    find_models = Signal()  # "Find models on the Hub…"
    open_file = Signal()  # "Open a GGUF file…"
    problem = Signal(str)  # why a prompt cannot run with the models loaded
    measure_fastest = Signal()  # "Which way is fastest here?"

    def __init__(self, flow: AnswerFlow, panel: GenerationPanel, parent: QWidget) -> None:
        super().__init__(parent)
        self._flow = flow
        self._panel = panel
        self.setObjectName("welcomeScroll")
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        body = QWidget()
        body.setObjectName("welcome")  # styled in app/shell/style.py
        lay = QVBoxLayout(body)
        lay.setContentsMargins(SPACE_XL, SPACE_XL, SPACE_XL, SPACE_XL)
        lay.setSpacing(SPACE_M)
        title = QLabel(self.tr("Welcome to Draftlight"))
        title.setObjectName("welcomeTitle")
        lay.addWidget(title)
        self.colours = ColourKey()
        lay.addWidget(self.colours)
        lay.addWidget(self._fastest_card())
        lay.addWidget(plain_label(self.tr("Try a prompt made for each kind of drafter:")))
        self.cards = [DemoCard(d) for d in DEMO_PROMPTS]
        for card in self.cards:
            card.tried.connect(self.try_prompt)
            lay.addWidget(card)
        self.more = plain_label()  # the spec types whose prompts wait for such a model
        self.more.setObjectName("demoNote")
        lay.addWidget(self.more)
        self.status = plain_label()  # why nothing can answer yet
        self.status.setObjectName("demoNote")
        lay.addWidget(self.status)
        row = QHBoxLayout()
        self.hub_button = QPushButton(self.tr("Find models on the Hub…"))
        self.hub_button.setToolTip(self.tr("Search Hugging Face for GGUF models, with what fits "
                                           "this machine (File → Models…)"))
        self.hub_button.clicked.connect(self.find_models)
        self.open_button = QPushButton(self.tr("Open a GGUF file…"))
        self.open_button.clicked.connect(self.open_file)
        row.addWidget(self.hub_button)
        row.addWidget(self.open_button)
        row.addStretch(1)
        lay.addLayout(row)
        lay.addStretch(1)
        self.setWidget(body)

    def _fastest_card(self) -> QFrame:
        """A card of its own: which way to speculate is fastest for this model here."""
        self.fastest: FastestWay | None = None
        card = QFrame()
        card.setObjectName("demoCard")  # a card (app/shell/style.py)
        title = plain_label(self.tr("Fastest on this computer"))
        title.setObjectName("demoTitle")
        self.fastest_line = plain_label()
        self.try_fastest = QPushButton(self.tr("Try it"))
        self.try_fastest.setProperty(PRIMARY, True)
        self.try_fastest.setToolTip(self.tr("Send a prompt with the fastest way measured here"))
        self.try_fastest.clicked.connect(self._on_try_fastest)
        self.measure_button = QPushButton(self.tr("Which way is fastest here?"))
        self.measure_button.setToolTip(self.tr(
            "Measure every way to speculate for this model on three short prompts (a few "
            "minutes), then speculate with the fastest"))
        self.measure_button.clicked.connect(self.measure_fastest)
        lay_out_card(card, title, (self.measure_button, self.try_fastest), (self.fastest_line,))
        self.set_fastest(None)
        return card

    @Slot(object)
    def set_fastest(self, found: FastestWay | None) -> None:
        """The fastest way measured on this computer for the loaded target (None: none)."""
        self.fastest = found
        self.try_fastest.setVisible(found is not None)
        if found is None:
            self.fastest_line.setText(self.tr(
                "Which way to speculate is fastest depends on the model and the computer."))
            return
        way = found.way
        if way.spec_type == spec_types.PLAIN:
            text = self.tr("Measured on this computer on {date}: no way to speculate beat "
                           "plain decoding for this model.")
            self.fastest_line.setText(text.format(date=_measured_on(found)))
            return
        name = f"{spec_label(way.spec_type)} {way.candidate}".strip()
        self.fastest_line.setText(self.tr(
            "{name} at {k}: {speedup:.2f}× the speed of plain decoding, measured on {date}."
            ).format(name=name, k=draft_length_words(way.spec_type, way.k or 0),
                               speedup=way.speedup, date=way.measured_on))

    @Slot()
    def _on_try_fastest(self) -> None:
        """The fastest way's own prompt: the card made for its spec type (or its family), else
        the draft model's; sent with the fastest way's spec type and K."""
        if self.fastest is None:
            return
        way = self.fastest.way
        demo = next((d for d in DEMO_PROMPTS if way.spec_type in (d.spec, *d.family)),
                    next(d for d in DEMO_PROMPTS if d.spec == "draft"))
        self._send_with(way.spec_type, demo.prompt, way.k)

    def card(self, spec: str) -> DemoCard:
        return next(c for c in self.cards if c.demo.spec == spec)

    def refresh(self) -> None:
        """Which prompts can run with the models loaded (or on their way)."""
        models, panel = self._flow.models, self._panel
        loading = models.loading
        for card in self.cards:
            reason = panel.spec_reason(card.demo.spec)
            card.setVisible(not card.demo.only_when_available or reason is None)
            # While the demo pair loads, its draft comes after the target: the answer waits.
            card.set_reason(None if loading or (models.target is not None and reason is None)
                            else reason or self.tr("Load a model first."))
        hidden = [c.demo.spec for c in self.cards
                  if c.isHidden() and spec_types.get(c.demo.spec) is not None]
        labels = [spec_label(name) for name in hidden]
        names = (self.tr("{first} and {last}").format(first=", ".join(labels[:-1]),
                                                      last=labels[-1])
                 if len(labels) > 1 else "".join(labels))
        self.more.setText(self.tr("Prompts for {names} appear here when a model that can use "
                                  "them is loaded.").format(names=names) if names else "")
        self.more.setVisible(bool(names))
        if models.target is None and not loading:
            self.status.setText(self.tr("No model is loaded: open a GGUF file or find one on the "
                                        "Hub."))
        elif loading:
            self.status.setText(self.tr("The models are loading (the bar below shows how far); a "
                                        "prompt clicked now is answered as soon as they are "
                                        "ready."))
        else:
            self.status.setText("")
        self.status.setVisible(bool(self.status.text()))

    @Slot(object)
    def try_prompt(self, demo: DemoPrompt) -> bool:
        """Set the demo's spec type and send its prompt; False (said in the banner) when the
        loaded models cannot use that spec type."""
        chosen = self._panel.preferred_settings().spec_type
        return self._send_with(chosen if chosen in demo.family else demo.spec, demo.prompt)

    def _send_with(self, spec: str, prompt: str, k: int | None = None) -> bool:
        """Choose `spec` (and K, when given) as if picked in the panel and send `prompt`;
        False (said in the banner) when the loaded models cannot use that spec type."""
        panel = self._panel
        gs = panel.preferred_settings()
        gs.spec_type = spec
        if k is not None:
            gs.n_draft = k
        panel.set_generation_settings(gs)
        reason = None if self._flow.models.loading else panel.spec_reason(spec)
        if reason:
            self.problem.emit(f"{spec_label(spec)}: {reason}")
            return False
        return self._flow.send(prompt)


class Welcome(QObject):
    """Shows the WelcomeView over the transcript exactly while the chat has no turns."""

    def __init__(self, flow: AnswerFlow, panel: GenerationPanel,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._flow = flow
        self.transcript = flow.transcript
        self.view = WelcomeView(flow, panel, self.transcript)
        self.transcript.installEventFilter(self)
        self.transcript.entries_changed.connect(self.update)
        flow.chat_list.selected.connect(self.update)
        flow.models.models_updated.connect(self.update)
        flow.models.load_started.connect(self.update)
        self.update()

    def wanted(self) -> bool:
        conv = self._flow.conversation
        return bool(conv.loaded and not conv.turns and not self.transcript.entries())

    def update(self, *_args) -> None:
        show = self.wanted()
        if show:
            self.view.refresh()
            self.view.setGeometry(self.transcript.rect())
            self.view.raise_()
        self.view.setVisible(show)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.transcript and event.type() == QEvent.Type.Resize:
            self.view.setGeometry(self.transcript.rect())
        return False


def _measured_on(found: FastestWay) -> str:
    """Plain decoding's row has no date of its own: the measurement's is its rivals'."""
    return found.way.measured_on or found.measured_on
