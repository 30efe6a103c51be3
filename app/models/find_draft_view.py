"""The "Find a draft" view: every way to speculate for one target (its MTP heads, EAGLE-3
heads and draft models in the library and on the Hub, n-gram lookup), each accepted or refused
with the reason in words, accepted first.

The candidates are found off the GUI thread (find_draft.py): those on this computer first,
shown at once, then the Hub's, with a busy bar and Cancel meanwhile. Cancel and a new target
never wait for the search: its late answer is dropped. "Use this" and "Download" are signals
its host connects to the window's own load path and to the downloads. Names and reasons come
from files and servers: they are shown as plain text only.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt, Signal, Slot
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.backend_text import error_text, reason_text, spec_caption, words_text
from app.background import Background
from app.formatting import human_size, plain_tooltip
from app.models.find_draft import (
    FinderTarget,
    HubFinding,
    LocalFinding,
    find_hub,
    find_local,
)
from app.shell.theme import token_colours
from app.transcript.message_widgets import plain_label
from app.widgets.busy_row import BusyRow
from backend.models.draft_finder import BUILT_IN, HUB, LIBRARY, TARGET, PairCandidate, PairFinding
from backend.models.hub import HubClient, HubModel, HubUnreachable
from backend.models.inspection import ModelInspection
from backend.models.pairing import NOT_SMALLER, draft_search_query

KIND, NAME, WHERE, SIZE, VERDICT, WHY = range(6)
COLUMNS = (QT_TRANSLATE_NOOP("FindDraftView", "Kind"), QT_TRANSLATE_NOOP("FindDraftView", "Name"),
           QT_TRANSLATE_NOOP("FindDraftView", "Where"), QT_TRANSLATE_NOOP("FindDraftView", "Size"),
           QT_TRANSLATE_NOOP("FindDraftView", "Can draft?"),
           QT_TRANSLATE_NOOP("FindDraftView", "Why"))
WHERE_WORDS = {TARGET: QT_TRANSLATE_NOOP("FindDraftView", "the target itself"),
               LIBRARY: QT_TRANSLATE_NOOP("FindDraftView", "library"),
               HUB: QT_TRANSLATE_NOOP("FindDraftView", "Hub"),
               BUILT_IN: QT_TRANSLATE_NOOP("FindDraftView", "built in")}
CANDIDATE_ROLE = Qt.ItemDataRole.UserRole
RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
NAME_WIDTH = (160, 420)  # pixels: the name column fits its names within these
LOADED = ("draft", "eagle3")  # spec types whose candidate is a file loaded as the draft


class FindDraftView(QWidget):
    use_requested = Signal(str, str)  # spec type, the draft's path ("" for MTP and n-gram)
    download_requested = Signal(object)  # HubModel
    search_finished = Signal()  # the search ended: answered, failed or cancelled

    def __init__(self, tasks: Background, client: HubClient,
                 library_models: Callable[[], list[ModelInspection]],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._tasks = tasks
        self._client = client
        self._library_models = library_models  # called on a pool thread
        self._serial = 0
        self._cancelled = threading.Event()
        self._busy = False
        self.target: FinderTarget | None = None
        self.finding: PairFinding | None = None
        self._hub_models: dict[str, HubModel] = {}
        self._download_note: str | None = None  # why Download is unavailable here
        self._build()

    def _build(self) -> None:
        self.title = plain_label(self.tr("Find a draft"))
        self.title.setObjectName("sectionTitle")
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.summary = plain_label(self.tr(
            "Choose a target: “Find a draft…” under a library model, or on a repository of "
            "the Search tab."))
        self.hub_line = plain_label()
        self.hub_line.hide()
        self.wait_row = BusyRow(self.tr("Stop searching; what was found so far stays"))
        self.wait_bar, self.cancel_button = self.wait_row.bar, self.wait_row.cancel_button

        self.table = QTreeWidget()
        self.table.setHeaderLabels([self.tr(c) for c in COLUMNS])
        self.table.setRootIsDecorated(False)
        self.table.setAlternatingRowColors(True)
        # A tree view does not wrap its rows: a long reason is cut short, and shown whole, with
        # the candidate's other facts, under the table when its row is selected.
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        header = self.table.header()
        header.setStretchLastSection(True)
        for column in (KIND, WHERE, SIZE, VERDICT):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(NAME, QHeaderView.ResizeMode.Interactive)
        self.table.headerItem().setTextAlignment(SIZE, RIGHT)
        self.details = plain_label(selectable=True)

        self.use_button = QPushButton(self.tr("Use this"))
        self.download_button = QPushButton(self.tr("Download"))
        self.note = plain_label(self.tr(
            "Accepted ones can draft for this target. Which is fastest on this computer is not "
            "measured here: “Use this”, then watch the speed-up of the answers."))
        buttons = QHBoxLayout()
        buttons.addWidget(self.use_button)
        buttons.addWidget(self.download_button)
        buttons.addWidget(self.note, 1)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.summary)
        layout.addWidget(self.hub_line)
        layout.addWidget(self.wait_row)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.details)
        layout.addLayout(buttons)

        self.cancel_button.clicked.connect(self.cancel)
        self.use_button.clicked.connect(self._on_use)
        self.download_button.clicked.connect(self._on_download)
        self.table.currentItemChanged.connect(self._update_buttons)
        self.table.itemDoubleClicked.connect(lambda *_: self._on_use())
        self._update_buttons()

    # Public ------------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        return self._busy

    def show_target(self, target: FinderTarget, *, hub: bool = True) -> None:
        """Find every candidate for `target`; with `hub`, the Hub's drafts of its family too."""
        self._stop_search()
        self._serial += 1
        serial, cancelled = self._serial, threading.Event()
        self._cancelled = cancelled
        self.target, self.finding, self._hub_models = target, None, {}
        self.table.clear()
        self.title.setText(self.tr("Ways to speculate for {name}").format(name=target.name))
        self.title.setToolTip(plain_tooltip(target.path or target.name))
        self.summary.setText(
            self.tr("Reading the header of {name} on the Hub…").format(name=target.name)
            if target.on_hub else self.tr("Reading the headers of {name} and the library…").format(
                name=target.name))
        self._hub("")
        self._set_busy(True)
        self._tasks.run(find_local, target, self._library_models, self._client, cancelled,
                        on_result=lambda local: self._on_local(serial, local, hub),
                        on_error=lambda exc: self._on_failed(serial, exc))

    @Slot()
    def cancel(self) -> None:
        """Stop searching at once; the search's thread stops at its next Hub request and its
        answer is dropped. The candidates shown so far stay."""
        if not self._busy:
            return
        self._stop_search()
        self._serial += 1
        if self.finding is None:
            self.summary.setText(self.tr("The search was cancelled."))
        else:
            self._hub(self.tr("The Hub search was cancelled; the candidates on this computer "
                              "are listed."))
        self._set_busy(False)

    def set_download_note(self, note: str | None) -> None:
        """Why a Hub candidate cannot be downloaded from here (None: it can)."""
        self._download_note = note
        self._update_buttons()

    def rows(self) -> list[tuple[str, str, str, str, str]]:
        """(spec type, name, where, verdict, why) as shown, in order (for tests)."""
        rows = []
        for i in range(self.table.topLevelItemCount()):
            item = self.table.topLevelItem(i)
            c: PairCandidate = item.data(KIND, CANDIDATE_ROLE)
            rows.append((c.spec_type, item.text(NAME), item.text(WHERE), item.text(VERDICT),
                         item.text(WHY)))
        return rows

    def select(self, spec_type: str, name: str = "") -> None:
        for i in range(self.table.topLevelItemCount()):
            c = self.table.topLevelItem(i).data(KIND, CANDIDATE_ROLE)
            if c.spec_type == spec_type and (not name or c.name == name):
                self.table.setCurrentItem(self.table.topLevelItem(i))
                return
        raise KeyError((spec_type, name))

    # Results -----------------------------------------------------------------------------

    def _on_local(self, serial: int, local: LocalFinding, hub: bool) -> None:
        if serial != self._serial:
            return  # another target, or cancelled
        self._show(local.finding)
        if local.finding.refusal is not None or not hub:
            self._set_busy(False)
            return
        self._hub(self.tr(
            "Searching the Hub for smaller models of the “{family}” family (a few MB of header "
            "each, never the weights)…").format(family=draft_search_query(local.inspection)))
        self._tasks.run(find_hub, local, self._client, self._cancelled,
                        on_result=lambda found: self._on_hub(serial, found),
                        on_error=lambda exc: self._on_failed(serial, exc))

    def _on_hub(self, serial: int, found: HubFinding) -> None:
        if serial != self._serial:
            return
        self._hub_models = found.hub_models
        self._show(found.finding)
        error = found.finding.hub_error
        n = len(found.hub_models)
        if error is not None:
            self._hub(words_text(error) + " " + self.tr(
                "The candidates on this computer are listed."))
        elif n:
            self._hub(self.tr(
                "Hub files of the family checked from their headers: {n} ({size} read).").format(
                n=n, size=human_size(found.bytes_read)))
        else:
            self._hub(self.tr("The Hub has no smaller GGUF model of this family."))
        self._set_busy(False)

    def _on_failed(self, serial: int, exc: Exception) -> None:
        if serial != self._serial:
            return  # a cancelled search's Cancelled among them
        text = error_text(exc)
        if isinstance(exc, HubUnreachable):
            text += " " + self.tr("Check the network connection or the proxy settings, then try "
                                  "again.")
        if self.finding is None:
            self.summary.setText(text)
        else:
            self._hub(text)
        self._set_busy(False)

    # Drawing -----------------------------------------------------------------------------

    def _show(self, finding: PairFinding) -> None:
        current = self.table.currentItem()
        keep = current.data(KIND, CANDIDATE_ROLE) if current is not None else None
        self.finding = finding
        self.table.clear()
        colours = token_colours(self)
        for c in finding.candidates:
            item = self._item(c, colours)
            self.table.addTopLevelItem(item)
            if keep is not None and (c.spec_type, c.name) == (keep.spec_type, keep.name):
                self.table.setCurrentItem(item)
        self.table.resizeColumnToContents(NAME)
        low, high = NAME_WIDTH
        self.table.setColumnWidth(NAME, max(low, min(high, self.table.columnWidth(NAME))))
        name = self.target.name if self.target else ""
        if finding.refusal is not None:
            self.summary.setText(reason_text(finding.refusal) or "")
        else:
            text = self.tr("{good} of {n} ways can speculate for {name}.").format(
                good=len(finding.accepted), n=len(finding.candidates), name=name)
            if finding.target_bytes_read is not None:
                text += " " + self.tr("Its header was read from the Hub ({size}); it is not on "
                                      "this computer yet.").format(
                    size=human_size(finding.target_bytes_read))
            self.summary.setText(text)
        self._update_buttons()

    def _item(self, c: PairCandidate, colours) -> QTreeWidgetItem:
        verdict = (self.tr("Yes, but no faster") if c.accepted and c.reason is not None
                   and c.reason.template == NOT_SMALLER else
                   self.tr("Yes") if c.accepted else self.tr("No"))
        why = reason_text(c.reason) or self.tr("Same vocabulary, and smaller.")
        item = QTreeWidgetItem([spec_caption(c.spec_type), c.name or "—",
                                self.tr(WHERE_WORDS.get(c.source, c.source)),
                                human_size(c.size) if c.size else "", verdict, why])
        item.setData(KIND, CANDIDATE_ROLE, c)
        item.setTextAlignment(SIZE, RIGHT)
        if c.path is not None:
            item.setToolTip(NAME, plain_tooltip(c.path.as_posix()))
        if c.bytes_read is not None:
            item.setToolTip(WHERE, self._read_words(c.bytes_read))
        item.setToolTip(WHY, plain_tooltip(why))
        colour = colours.accepted_fg if c.accepted else colours.rejected_fg
        item.setForeground(VERDICT, QBrush(QColor(colour)))
        return item

    def _hub(self, text: str) -> None:
        self.hub_line.setText(text)
        self.hub_line.setVisible(bool(text))

    def _set_busy(self, busy: bool) -> None:
        was = self._busy
        self._busy = busy
        self.wait_row.setVisible(busy)
        if was and not busy:
            self.search_finished.emit()

    def _stop_search(self) -> None:
        self._cancelled.set()  # the running search stops at its next Hub request

    # Actions -----------------------------------------------------------------------------

    def _current(self) -> PairCandidate | None:
        item = self.table.currentItem()
        return item.data(KIND, CANDIDATE_ROLE) if item is not None else None

    def _use_reason(self, c: PairCandidate | None) -> str | None:
        """Why "Use this" cannot take `c`, or None."""
        if c is None:
            return self.tr("Select an accepted candidate.")
        if not c.accepted:
            return self.tr("It cannot draft for this target: the table says why.")
        if self.target is None or self.target.on_hub:
            return self.tr("The target is on the Hub: download it first.")
        if c.source == HUB:
            return self.tr("It is on the Hub: download it first.")
        return None

    def _download_reason(self, c: PairCandidate | None) -> str | None:
        if c is None or c.source != HUB:
            return self.tr("Select an accepted candidate from the Hub.")
        if not c.accepted or c.name not in self._hub_models:
            return self.tr("It cannot draft for this target: the table says why.")
        return self._download_note

    @Slot()
    def _update_buttons(self, *_args) -> None:
        c = self._current()
        self.details.setText(self._details(c) if c is not None else "")
        self.details.setVisible(c is not None)
        for button, reason, tip in (
                (self.use_button, self._use_reason(c), self.tr(
                    "Speculate this way in the main window (its target is loaded too when it "
                    "is not the loaded one)")),
                (self.download_button, self._download_reason(c), self.tr(
                    "Download it on the Downloads tab; it joins the library when done"))):
            button.setEnabled(reason is None)
            button.setToolTip(reason or tip)

    def _details(self, c: PairCandidate) -> str:
        item = self.table.currentItem()
        text = self.tr("{kind} {name} ({where}): {why}").format(
            kind=item.text(KIND), name=c.name, where=item.text(WHERE),
            why=item.text(WHY)) if c.name else f"{item.text(KIND)}: {item.text(WHY)}"
        if c.bytes_read is not None:
            text += " " + self._read_words(c.bytes_read)
        return text

    def _read_words(self, n: int) -> str:
        return self.tr("Decided from its header: {read} read from the Hub, not the whole "
                       "file.").format(read=human_size(n))

    def _on_use(self) -> None:
        c = self._current()
        if c is None or self._use_reason(c) is not None:
            return
        path = str(c.path) if c.spec_type in LOADED and c.path is not None else ""
        self.use_requested.emit(c.spec_type, path)

    def _on_download(self) -> None:
        c = self._current()
        if c is not None and self._download_reason(c) is None:
            self.download_requested.emit(self._hub_models[c.name])
