"""The replay's caption for a chain's step names the member that drafted it, and every drafter
is named in the window's language (a lookup too, never in the English of its hover words)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QTranslator

from app.teaching.replay import ReplayScript, drafter_words
from backend import spec_types
from backend.engine.events import StepVerified, Token
from backend.engine.token_log import TokenLog


def _tok(i: int, origin: str, accepted: bool = True) -> Token:
    return Token(i, f" w{i}", origin, accepted, 0.9, None)


def _chain_log() -> TokenLog:
    """"ngram-mod,draft": a step of the lookup's, a plain one, one of the draft model's."""
    log = TokenLog()
    mod = (_tok(1, "ngram-mod"), _tok(2, "ngram-mod"))
    log.add_step(StepVerified(1, mod, 2, (*mod, _tok(3, "target")), 0.0, 1.0))
    log.add_step(StepVerified(2, (), 0, (_tok(4, "target"),), 0.0, 1.0))
    draft = (_tok(5, "draft"), _tok(6, "draft", accepted=False))
    log.add_step(StepVerified(3, draft, 1, (draft[0], _tok(7, "target")), 0.0, 1.0))
    return log


def test_each_steps_caption_names_the_member_that_drafted_it():
    script = ReplayScript(_chain_log(), "ngram-mod,draft")
    proposals = [script.caption(i) for i, f in enumerate(script.frames) if f.phase == "propose"]
    assert proposals == ["Step 1 of 3: n-gram mod proposes 2 tokens.",
                         "Step 3 of 3: the draft model proposes 2 tokens, one pass per "
                         "token, each fed back for the next."]


class _Marking(QTranslator):
    """A language in which every translated text is marked, so English shows through."""

    def translate(self, context, source, disambiguation=None, n=-1):
        return f"«{source}»"


def test_every_drafter_is_named_in_the_windows_language(qapp):
    marking = _Marking()
    QCoreApplication.installTranslator(marking)
    try:
        for spec in spec_types.all_spec_types():
            if spec.drafts:
                said = drafter_words(spec.name)
                assert said.startswith("«") and said.endswith("»"), (spec.name, said)
        # a drafter declared later, without caption words: its label, translated
        spec_types.register(spec_types.SpecType("later-lookup", "later lookup", "later",
                                                "tip", factory="x:y", drafted_by="drafted by x"))
        try:
            assert drafter_words("later-lookup") == "«later lookup»"
        finally:
            spec_types.unregister("later-lookup")
    finally:
        QCoreApplication.removeTranslator(marking)
