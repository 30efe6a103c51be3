"""The inspector's line for a lookup's token: which lookup drafted it, and where the
continuation was found: in this answer, in the conversation, or (ngram-mod, ngram-cache, whose
tables are kept across the chats with a model) in an earlier chat."""

from __future__ import annotations

import pytest

from app.teaching.inspection import inspect_token, summary_rows
from app.teaching.inspector import InspectorPanel
from backend import spec_types
from backend.engine.events import StepVerified, Token, Verification, verification_to_json
from backend.engine.token_log import TokenLog
from backend.export_html import from_earlier_chat
from backend.palette import LOOKUP_KINDS

N_PROMPT = 10
COPIED = "Copied from"


def _token(tid: int, text: str, origin: str, accepted: bool, match_at: int | None,
           match_text: str = "") -> Token:
    v = Verification("greedy", match_at=match_at, match_text=match_text)
    return Token(tid, text, origin, accepted, 0.9, None, None, verification_to_json(v))


def _log(origin: str, match_at: int | None, match_text: str = "") -> TokenLog:
    """One plain step (the answer's first token), then one where `origin` drafted a token
    the target accepted, and its own."""
    own = Token(7, " zero", "target", True, 0.9, None, None,
                verification_to_json(Verification("greedy", drawn_from="argmax")))
    drafted = _token(8, " one", origin, True, match_at, match_text)
    bonus = Token(9, " two", "target", True, 0.9, None, None,
                  verification_to_json(Verification("greedy", drawn_from="argmax")))
    log = TokenLog()
    log.add_step(StepVerified(1, (), 0, (own,), 0.0, 1.0))
    log.add_step(StepVerified(2, (drafted,), 1, (drafted, bonus), 0.0, 1.0))
    return log


def _rows(log: TokenLog, index: int = 1) -> dict[str, str]:
    return dict(summary_rows(inspect_token(log, index, N_PROMPT)))


@pytest.mark.parametrize("kind", LOOKUP_KINDS)
def test_a_lookups_token_names_its_lookup_and_where_it_copied(kind):
    rows = _rows(_log(kind, 3, " zero"))  # found in the prompt
    assert rows["Origin"] == spec_types.get(kind).drafted_by  # "drafted by n-gram mod"
    assert rows["Origin"].startswith("drafted by n-gram ")
    assert rows[COPIED] == "the conversation, after …' zero'"
    rows = _rows(_log(kind, N_PROMPT, " zero"))  # the answer's own first token
    assert rows[COPIED].startswith("earlier in this answer, after")


@pytest.mark.parametrize("kind", ["ngram-mod", "ngram-cache"])
def test_a_copy_from_an_earlier_chat_says_so(kind, qtbot):
    log = _log(kind, None)
    assert from_earlier_chat(log.token(1))
    rows = _rows(log)
    assert rows[COPIED].startswith("an earlier chat with this model (this lookup keeps")
    panel = InspectorPanel()
    qtbot.addWidget(panel)
    panel.show_inspection(inspect_token(log, 1, N_PROMPT))
    assert panel.value(COPIED) == rows[COPIED]


def test_a_models_guess_was_copied_from_nowhere():
    for origin in ("draft", "eagle3"):
        log = _log(origin, None)
        assert not from_earlier_chat(log.token(1))
        assert COPIED not in _rows(log)
    assert not from_earlier_chat(_log("ngram", None).token(0))  # the target's own
    assert COPIED not in _rows(_log("ngram-mod", None), 0)
