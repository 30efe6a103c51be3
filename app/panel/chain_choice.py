"""The side panel's "When it finds nothing, then:" choice, shown while a lookup is chosen: what
drafts a step the lookup finds no continuation for. llama.cpp chains spec types so
(`--spec-type ngram-mod,draft`); the choice makes that chain, saved as the spec type setting
is, under the chain's name.

Only what llama.cpp asks after the chosen lookup is offered (its order of preference,
`backend.spec_types.PREFERENCE`): n-gram lookup then n-gram mod is chosen from n-gram lookup,
not from n-gram mod. Each choice the loaded models cannot draft with is greyed out with the
reason the panel gives for that chain.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QT_TRANSLATE_NOOP, Signal, Slot
from PySide6.QtWidgets import QComboBox, QVBoxLayout, QWidget

from app.backend_text import backend_text, spec_label
from app.i18n import translate
from app.panel.combo_items import MiddleElidedCombo, set_item_enabled
from app.transcript.message_widgets import plain_label
from backend import spec_types

NOTHING = ""  # item data of the choice that drafts nothing after the lookup

CONTEXT = "ChainChoice"
LABEL = QT_TRANSLATE_NOOP("ChainChoice", "When it finds nothing, then:")
NOTHING_LABEL = QT_TRANSLATE_NOOP("ChainChoice", "nothing (the target alone)")
TOOLTIP = QT_TRANSLATE_NOOP(
    "ChainChoice", "What drafts a step where the lookup finds no continuation, as llama.cpp "
    "chains spec types (--spec-type ngram-mod,draft). Each drafted token says which of them "
    "made it.")


def is_lookup(spec: spec_types.SpecType) -> bool:
    """A drafter that needs nothing but the conversation (the n-gram family)."""
    return spec.drafts and not spec.needs and not spec.members


def lookup_head(name: str) -> tuple[spec_types.SpecType, str] | None:
    """The lookup a spec type (or chain) starts with and the rest of it (NOTHING for none);
    None when it does not start with a lookup."""
    spec = spec_types.get(name)
    if spec is None:
        return None
    members = spec.members or (spec,)
    if not is_lookup(members[0]):
        return None
    return members[0], spec_types.CHAIN_SEPARATOR.join(m.name for m in members[1:])


def followers(head: str) -> list[spec_types.SpecType]:
    """The drafters llama.cpp would ask after `head` in a chain of the two, in the panel's
    order."""
    found = []
    for spec in spec_types.all_spec_types():
        if not spec.drafts or spec.name == head:
            continue
        chain = spec_types.get(head + spec_types.CHAIN_SEPARATOR + spec.name)
        if chain is not None and chain.members[0].name == head:
            found.append(spec)
    return found


class ChainChoice(MiddleElidedCombo):
    """The drafters that may follow the chosen lookup. `show_for` fills it for the spec type
    the panel shows; the user's choice comes out as the whole spec type (`chosen`)."""

    chosen = Signal(str)  # a chain's name, or the lookup's own when NOTHING follows it

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("chainChoice")
        self.setToolTip(translate(CONTEXT, TOOLTIP))
        # a chain's label is long: the box keeps the panel's width, its list shows it whole
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(10)
        self._head = ""
        self.activated.connect(self._on_activated)

    def row(self) -> QWidget:
        """Its row of the panel's form: its words over it, across the form's width (beside
        it, as long words as these would widen the panel)."""
        row = QWidget()
        layout = QVBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        label = plain_label(translate(CONTEXT, LABEL))
        label.setBuddy(self)
        layout.addWidget(label)
        layout.addWidget(self)
        return row

    def show_for(self, name: str, reason: Callable[[str], str | None]) -> bool:
        """Offer what may follow the lookup `name` starts with, each greyed out with
        `reason(chain)` when the models cannot draft so, and show the rest of `name` as
        chosen. False, offering nothing, when `name` does not start with a lookup."""
        found = lookup_head(name)
        self.blockSignals(True)  # filling it is no choice of the user's
        try:
            self.clear()
            if found is None:
                self._head = ""
                return False
            head, rest = found
            self._head = head.name
            self.addItem(translate(CONTEXT, NOTHING_LABEL), NOTHING)
            for spec in followers(head.name):
                self.addItem(backend_text(spec.label), spec.name)
                set_item_enabled(self, self.count() - 1, reason(self._chain(spec.name)))
            if rest and self.findData(rest) < 0:  # a longer chain, given or saved
                self.addItem(spec_label(rest), rest)
            self.setCurrentIndex(max(0, self.findData(rest)))
            return True
        finally:
            self.blockSignals(False)

    def _chain(self, rest: str) -> str:
        """The spec type this choice makes, spelled as llama.cpp asks its members."""
        if not rest:
            return self._head
        chain = spec_types.get(self._head + spec_types.CHAIN_SEPARATOR + rest)
        return chain.name if chain is not None else self._head

    @Slot(int)
    def _on_activated(self, index: int) -> None:
        if self._head:
            self.chosen.emit(self._chain(self.itemData(index) or NOTHING))
