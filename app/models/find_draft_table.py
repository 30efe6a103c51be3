"""Find a draft's table: every way to speculate for a target, one row each, with what was
measured of it on this computer.

Before anything is measured the rows come in the finder's order (accepted first). Once a
measurement is at hand the measured ways come first, fastest first, with plain decoding
among them as a row of its own (a way slower than it is ranked below it and says so), then
the accepted ways not measured, then the refused. Names and reasons come from files and
servers: plain text only.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QHeaderView, QTreeWidget, QTreeWidgetItem, QWidget

from app.backend_text import reason_text, spec_caption, words_text
from app.formatting import human_size, plain_tooltip
from app.shell.theme import token_colours
from backend import spec_types
from backend.models.draft_finder import BUILT_IN, HUB, LIBRARY, TARGET, PairCandidate, PairFinding
from backend.models.pair_results import RankedWay
from backend.models.pairing import NOT_SMALLER

KIND, NAME, WHERE, SIZE, VERDICT, SPEEDUP, K, WHY = range(8)
COLUMNS = (QT_TRANSLATE_NOOP("CandidateTable", "Kind"),
           QT_TRANSLATE_NOOP("CandidateTable", "Name"),
           QT_TRANSLATE_NOOP("CandidateTable", "Where"),
           QT_TRANSLATE_NOOP("CandidateTable", "Size"),
           QT_TRANSLATE_NOOP("CandidateTable", "Can draft?"),
           QT_TRANSLATE_NOOP("CandidateTable", "Speed-up"),
           QT_TRANSLATE_NOOP("CandidateTable", "K"),
           QT_TRANSLATE_NOOP("CandidateTable", "Why"))
WHERE_WORDS = {TARGET: QT_TRANSLATE_NOOP("CandidateTable", "the target itself"),
               LIBRARY: QT_TRANSLATE_NOOP("CandidateTable", "library"),
               HUB: QT_TRANSLATE_NOOP("CandidateTable", "Hub"),
               BUILT_IN: QT_TRANSLATE_NOOP("CandidateTable", "built in")}
CANDIDATE_ROLE = Qt.ItemDataRole.UserRole
WAY_ROLE = Qt.ItemDataRole.UserRole + 1
RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
NAME_WIDTH = (160, 420)  # pixels: the name column fits its names within these
# plain decoding as a row of the ranking: the target alone, nothing to load
PLAIN = PairCandidate(spec_types.PLAIN, "", BUILT_IN, True, None, None, 0)


def way_key(spec_type: str, name: str) -> tuple[str, str]:
    return spec_type, name


class CandidateTable(QTreeWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setHeaderLabels([self.tr(c) for c in COLUMNS])
        self.setRootIsDecorated(False)
        self.setAlternatingRowColors(True)
        # A tree view does not wrap its rows: a long reason is cut short, and shown whole, with
        # the candidate's other facts, under the table when its row is selected.
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        header = self.header()
        header.setStretchLastSection(True)
        for column in (KIND, WHERE, SIZE, VERDICT, SPEEDUP, K):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(NAME, QHeaderView.ResizeMode.Interactive)
        for column in (SIZE, SPEEDUP):
            self.headerItem().setTextAlignment(column, RIGHT)

    def show_finding(self, finding: PairFinding, ranking: tuple[RankedWay, ...]) -> None:
        """The finding's candidates, ranked by `ranking` where measured; the selection kept."""
        current = self.current()
        keep = way_key(current.spec_type, current.name) if current is not None else None
        self.clear()
        colours = token_colours(self)
        ways = {way_key(w.spec_type, w.candidate): w for w in ranking}
        measured = [c for c in finding.candidates if way_key(c.spec_type, c.name) in ways]
        order = sorted(measured + ([PLAIN] if ranking else []),
                       key=lambda c: ranking.index(ways[way_key(c.spec_type, c.name)]))
        order += [c for c in finding.candidates if c not in measured and c.accepted]
        order += [c for c in finding.candidates if not c.accepted]
        for c in order:
            item = self._item(c, ways.get(way_key(c.spec_type, c.name)), colours)
            self.addTopLevelItem(item)
            if keep == way_key(c.spec_type, c.name):
                self.setCurrentItem(item)
        self.resizeColumnToContents(NAME)
        low, high = NAME_WIDTH
        self.setColumnWidth(NAME, max(low, min(high, self.columnWidth(NAME))))

    def current(self) -> PairCandidate | None:
        item = self.currentItem()
        return item.data(KIND, CANDIDATE_ROLE) if item is not None else None

    def current_way(self) -> RankedWay | None:
        item = self.currentItem()
        return item.data(KIND, WAY_ROLE) if item is not None else None

    def rows(self) -> list[tuple[str, str, str, str, str]]:
        """(spec type, name, where, verdict, why) as shown, in order (for tests)."""
        rows = []
        for i in range(self.topLevelItemCount()):
            item = self.topLevelItem(i)
            c: PairCandidate = item.data(KIND, CANDIDATE_ROLE)
            rows.append((c.spec_type, item.text(NAME), item.text(WHERE), item.text(VERDICT),
                         item.text(WHY)))
        return rows

    def select(self, spec_type: str, name: str = "") -> None:
        for i in range(self.topLevelItemCount()):
            c = self.topLevelItem(i).data(KIND, CANDIDATE_ROLE)
            if c.spec_type == spec_type and (not name or c.name == name):
                self.setCurrentItem(self.topLevelItem(i))
                return
        raise KeyError((spec_type, name))

    def _item(self, c: PairCandidate, way: RankedWay | None, colours) -> QTreeWidgetItem:
        tr = self.tr
        plain = c.spec_type == spec_types.PLAIN
        slower = way is not None and way.note is not None
        verdict = ("" if plain else
                   tr("Yes, but slower") if slower else
                   tr("Yes, but no faster") if c.accepted and c.reason is not None
                   and c.reason.template == NOT_SMALLER else
                   tr("Yes") if c.accepted else tr("No"))
        why = (tr("The target alone, one token a step: the speed the others are measured "
                  "against.") if plain else
               words_text(way.note) if way is not None and way.note is not None else
               reason_text(c.reason) or tr("Same vocabulary, and smaller."))
        item = QTreeWidgetItem([
            spec_caption(c.spec_type), c.name or "—",
            "" if plain else tr(WHERE_WORDS.get(c.source, c.source)),
            human_size(c.size) if c.size else "", verdict,
            f"{way.speedup:.2f}×" if way is not None else "",
            k_text(way.k, tr) if way is not None else "", why])
        item.setData(KIND, CANDIDATE_ROLE, c)
        item.setData(KIND, WAY_ROLE, way)
        for column in (SIZE, SPEEDUP):
            item.setTextAlignment(column, RIGHT)
        if c.path is not None:
            item.setToolTip(NAME, plain_tooltip(c.path.as_posix()))
        if way is not None and not plain:
            predicted = (tr("; the advisor predicted {p:.2f}×").format(p=way.predicted)
                         if way.predicted else "")
            item.setToolTip(SPEEDUP, tr("Measured on this computer on {date}{predicted}.")
                            .format(date=way.measured_on, predicted=predicted))
        item.setToolTip(WHY, plain_tooltip(why))
        if not plain:
            colour = (colours.rejected_fg if slower or not c.accepted else colours.accepted_fg)
            item.setForeground(VERDICT, QBrush(QColor(colour)))
        return item


def k_text(k: int | None, tr) -> str:
    return "" if k is None else tr("K auto") if k == 0 else f"K = {k}"
