"""The lossless check: an answer decoded again plainly and greedily, token ids compared.

Speculative decoding at temperature 0 must write exactly what the target alone writes. The
check sends the answer's own request again through the same engine (the worker thread, so
the GUI never waits) with spec type "none", temperature 0 and as many tokens as the answer
emitted, and shows under the answer either "identical, token for token" or the first
difference: its position, both tokens and their target probabilities. A sampled answer is not
compared: another draw may write another text, and what speculative sampling preserves is the
distribution, which the check then says in words. Nothing of a check is saved in the chat.
Qt-light: the comparison and the words are plain functions, tested without a window.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass

import shiboken6
from PySide6.QtCore import QT_TRANSLATE_NOOP, QObject, Qt, Signal
from PySide6.QtWidgets import QLabel

from app.backend_text import backend_text, failure_text
from app.chat.conversation import Conversation
from app.chat.made_with import request_made_with
from app.i18n import translate
from app.shell.theme import token_colours
from app.transcript.message_widgets import AnswerWidget, plain_label
from backend import settings_schema as schema
from backend import spec_types
from backend.engine.events import GenerationFailed, GenerationFinished, StepVerified
from backend.engine.request import GenerationRequest
from backend.engine.runtime import NEAR_TIE
from backend.engine.token_log import StepBatch, TokenLog
from backend.settings import GenerationSettings


@dataclass(frozen=True)
class Difference:
    """The first position (0-based, in emitted tokens) where the answer and plain decoding
    part; the plain side is None where plain decoding had ended."""

    position: int
    answer_id: int
    answer_text: str
    answer_origin: str
    answer_p: float | None
    plain_id: int | None = None
    plain_text: str = ""
    plain_p: float | None = None
    plain_stop: str = ""  # why plain decoding ended, when it ended first
    # How far apart plain decoding's two most likely tokens were there (from its recorded
    # top-5): a near-tie that another summation order can flip, or not.
    margin: float | None = None


def first_difference(answer: TokenLog, plain: TokenLog, plain_stop: str = "") -> Difference | None:
    """Compare token ids position by position; None when the plain run emitted the same ids
    for every token of the answer."""
    mine, theirs = answer.emitted(), plain.emitted()
    for pos, i in enumerate(mine):
        j = theirs[pos] if pos < len(theirs) else None
        if j is not None and plain.id[j] == answer.id[i]:
            continue
        d = Difference(pos, answer.id[i], answer.text[i], answer.origin[i], answer.p_target[i],
                       plain_stop=plain_stop if j is None else "")
        if j is not None:
            d = dataclasses.replace(d, plain_id=plain.id[j], plain_text=plain.text[j],
                                    plain_p=plain.p_target[j], margin=_top_margin(plain, j))
        return d
    return None


def _top_margin(log: TokenLog, i: int) -> float | None:
    v = log.token(i).verification
    if v is None or len(v.top_target) < 2:
        return None
    return v.top_target[0].p - v.top_target[1].p




# Why a verification batch may be summed in another order than a single token: the choice of
# kernels ("fast") or layers on a GPU ("gpu"), whose batch kernels are not the one-token ones.
FAST_KERNELS, GPU = "fast", "gpu"


def reordered_text(d: Difference, by: str) -> str:
    """Why a difference can happen with the fast kernels or on a GPU (`by`), and whether this
    one is that."""
    if by == GPU:
        why = translate("LosslessCheck", "These answers ran on a GPU: its kernels add up a "
                        "verification batch in another order than a single token, so at a "
                        "near-tie the floating-point rounding can pick the other token.")
        near_tie = translate(
            "LosslessCheck", "Here plain decoding's two most likely tokens were {margin:.4f} "
            "apart in p: a near-tie. Set GPU layers to 0 for a token-for-token match.")
    else:
        why = translate("LosslessCheck", "These answers ran on the fast kernels: "
                        "llamafile's matrix code adds up a verification batch in another "
                        "order than a single token, so at a near-tie the floating-point "
                        "rounding can pick the other token.")
        near_tie = translate(
            "LosslessCheck", "Here plain decoding's two most likely tokens were {margin:.4f} "
            "apart in p: a near-tie. Choose the exact kernels for a token-for-token match.")
    words = " " + why
    if d.margin is None:
        return words
    if d.margin <= NEAR_TIE:
        return words + " " + near_tie.format(margin=d.margin)
    return words + " " + translate(
        "LosslessCheck", "But here they were {margin:.4f} apart, not a near-tie: the summation "
        "order does not explain this difference.").format(margin=d.margin)


def plain_request(request: GenerationRequest, n_tokens: int) -> GenerationRequest:
    """The answer's request decoded plainly and greedily, for exactly its length (the other
    sampler settings kept: a repeat penalty changes greedy choices too)."""
    return dataclasses.replace(
        request, spec_type=spec_types.PLAIN, request_id=0,
        sampling=dataclasses.replace(request.sampling, temperature=0.0),
        max_tokens=max(1, min(n_tokens, int(schema.MAX_TOKENS.maxval or n_tokens))))


# Words ------------------------------------------------------------------------------------

def identical_text(n: int) -> str:
    return translate("LosslessCheck", "Identical to plain decoding, token for token ({n} "
                     "tokens).").format(n=n)


def _token(text: str, token_id: int | None, p: float | None) -> str:
    shown = json.dumps(text, ensure_ascii=False)  # quoted, a newline as \n: readable as text
    prob = translate("LosslessCheck", ", target p = {p:.3f}").format(p=p) if p is not None else ""
    return f"{shown} (id {token_id}{prob})"


def difference_text(d: Difference, n: int, *, temperature_unknown: bool = False,
                    reordered_by: str = "") -> str:
    """`reordered_by`: FAST_KERNELS or GPU when the answers ran where a batch is summed in
    another order than one token (see reordered_text), else ""."""
    spec = spec_types.get(d.answer_origin)
    drafted_by = (backend_text(spec.drafted_by) if spec and spec.drafted_by
                  else translate("LosslessCheck", "drafted ({origin})").format(
                      origin=d.answer_origin))
    origin = (translate("LosslessCheck", "the target's own token") if d.answer_origin == "target"
              else translate("LosslessCheck", "{drafted_by} and accepted").format(
                  drafted_by=drafted_by))
    mine = _token(d.answer_text, d.answer_id, d.answer_p)
    if d.plain_id is None:
        why = f" ({d.plain_stop})" if d.plain_stop else ""
        plain = translate("LosslessCheck", "plain decoding had already ended{why}.").format(
            why=why)
    else:
        plain = translate("LosslessCheck", "plain greedy decoding has {token}.").format(
            token=_token(d.plain_text, d.plain_id, d.plain_p))
    words = translate("LosslessCheck", "Differs from plain decoding at token {position} of {n}: "
                      "this answer has {token}, {origin}; {plain}").format(
        position=d.position + 1, n=n, token=mine, origin=origin, plain=plain)
    if reordered_by and d.plain_id is not None:
        words += reordered_text(d, reordered_by)
    if temperature_unknown:
        words += " " + translate("LosslessCheck", "This answer's temperature was not saved "
                                 "with the chat: if it was sampled, a different text is "
                                 "expected.")
    return words


def sampled_text(temperature: float) -> str:
    return translate(
        "LosslessCheck", "Sampled at temperature {temperature:g}, so not compared: another "
        "draw, plain or speculative, may pick other tokens and write another text. What "
        "speculative sampling preserves is the distribution: each token is drawn with exactly "
        "the target model's probabilities, as plain sampling draws it. For a token-for-token "
        "check, answer at temperature 0.").format(temperature=temperature)


SERVER_TEXT = QT_TRANSLATE_NOOP(
    "LosslessCheck", "Written by a server, so not compared: a server sends text, not the token "
    "ids and draft verdicts the check compares. The lossless check needs the local engine.")


# The window's part -----------------------------------------------------------------------

@dataclass
class _Pending:
    widget: AnswerWidget
    n_tokens: int
    temperature_unknown: bool
    plain: TokenLog
    reordered_by: str = ""


class LosslessCheck(QObject):
    """Owns the checks on their way: sends their requests through the window's EngineClient,
    takes the events of their ids (MainWindow._on_events hands them over) and writes the
    verdict under the answer."""

    finished = Signal(object, str)  # the AnswerWidget, the words shown under it

    def __init__(self, client, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._client = client
        self._pending: dict[int, _Pending] = {}

    @property
    def running(self) -> bool:
        return bool(self._pending)

    def check(self, widget: AnswerWidget, conv: Conversation, fallback: GenerationSettings, *,
              busy: bool, target_name: str | None, reordered_by: str = "") -> None:
        """Start the check of `widget`'s answer, or say under it why not now. It is decoded
        with the settings it was made with (app/chat/made_with.py); `fallback`, the panel's,
        stands in for an answer that has no record of them."""
        answer = widget.answer
        made = request_made_with(conv, answer, fallback)
        n = len(answer.tokens.emitted())
        if not answer.done:
            return self._say(widget, self.tr("The answer is still being written: check it "
                                             "when it has finished."))
        if n and all(i < 0 for i in answer.tokens.id):  # ServerEngine's tokens: id -1
            return self._say(widget, self.tr(SERVER_TEXT))
        if made is not None and made[1] and not made[0].sampling.greedy:
            return self._say(widget, sampled_text(made[0].sampling.temperature))
        if busy:
            return self._say(widget, self.tr("Another answer is being written: check this "
                                             "one when it has finished."))
        if self.running:
            return self._say(widget, self.tr("Another check is running: try again when it has "
                                             "finished."))
        if target_name is None:
            return self._say(widget, self.tr("Load the model first: the check decodes the "
                                             "answer again with it."))
        if answer.model_name and answer.model_name != target_name:
            return self._say(widget, self.tr("This answer was written by {model}; load it as "
                                             "the target to check it.").format(
                model=answer.model_name))
        if n == 0:
            return self._say(widget, self.tr("This answer has no tokens to check."))
        if made is None or not made[0].messages:
            return self._say(widget, self.tr("This answer's conversation is not known here."))
        request, own = made
        rid = self._client.generate(plain_request(request, n))
        self._pending[rid] = _Pending(widget, n, not own, TokenLog(), reordered_by)
        widget.check_button.setEnabled(False)
        self._say(widget, self.tr("Checking: decoding the same conversation plainly and "
                                  "greedily ({n} tokens)…").format(n=n), checking=True)

    def feed(self, request_id: int, events: list) -> bool:
        """Take the events of a check's request (True), or leave them to the window (False)."""
        pending = self._pending.get(request_id)
        if pending is None:
            return False
        for event in events:
            if isinstance(event, StepBatch):
                pending.plain.extend(event.tokens)
            elif isinstance(event, StepVerified):
                pending.plain.add_step(event)
            elif isinstance(event, GenerationFinished | GenerationFailed):
                del self._pending[request_id]
                self._conclude(pending, event)
                break
        return True

    def _conclude(self, p: _Pending, end: GenerationFinished | GenerationFailed) -> None:
        if not shiboken6.isValid(p.widget):  # its chat was closed or the answer regenerated
            return
        if isinstance(end, GenerationFailed):
            words = self.tr("The check could not finish: {error}").format(error=failure_text(end))
            identical = False
        elif end.stop_reason == "cancelled":
            words = self.tr("The check was stopped before it finished.")
            identical = False
        else:
            d = first_difference(p.widget.answer.tokens, p.plain, end.stop_reason)
            identical = d is None
            words = identical_text(p.n_tokens) if d is None else difference_text(
                d, p.n_tokens, temperature_unknown=p.temperature_unknown,
                reordered_by=p.reordered_by)
        self._say(p.widget, words, warn=not identical)
        p.widget.check_button.setEnabled(True)

    def _say(self, widget: AnswerWidget, words: str, *, warn: bool = False,
             checking: bool = False) -> None:
        """The check's line under the answer (plain text: it quotes model tokens)."""
        label = widget.findChild(QLabel, "losslessResult",
                                 Qt.FindChildOption.FindDirectChildrenOnly)
        if label is None:
            label = plain_label(selectable=True)
            label.setObjectName("losslessResult")
            widget.layout().addWidget(label)
        label.setText(words)
        label.setStyleSheet(f"color: {token_colours(widget).rejected_fg};" if warn else "")
        label.show()
        if not checking:
            self.finished.emit(widget, words)
