"""A block drafter (DFlash) is told as one pass filling a whole block, a model that drafts token
by token as one pass per token, a lookup as a copy: in the inspector's line for a drafted token
and in the replay's proposal caption, each step by the drafter that made it (a chain's member).

The recorded logs are built by hand; the last test reads a real answer of the synthetic DFlash
head that is wrong at a known block row (tests/models/dflash.py)."""

from __future__ import annotations

import pytest

from app.teaching.inspection import drafting, inspect_token, pass_words, summary_rows
from app.teaching.replay import ReplayScript
from backend import spec_types
from backend.engine.events import StepVerified, Token
from backend.engine.token_log import TokenLog


def _tok(i: int, origin: str, accepted: bool = True) -> Token:
    return Token(i, f" w{i}", origin, accepted, 0.9, None)


def _step(log: TokenLog, number: int, origin: str, n_accepted: int, n_rejected: int,
          first_id: int) -> None:
    drafted = tuple(_tok(first_id + i, origin, i < n_accepted)
                    for i in range(n_accepted + n_rejected))
    own = _tok(first_id + 50, "target")
    log.add_step(StepVerified(number, drafted, n_accepted, (*drafted[:n_accepted], own),
                              0.0, 1.0))


def _mixed_log() -> TokenLog:
    """"ngram,dflash"'s steps, then a draft model's: a lookup's copy, a DFlash block of 5 with
    two accepted, a plain step, a draft model's 3 tokens."""
    log = TokenLog()
    _step(log, 1, "ngram", 2, 0, 100)
    _step(log, 2, "dflash", 2, 3, 200)
    log.add_step(StepVerified(3, (), 0, (_tok(300, "target"),), 0.0, 1.0))
    _step(log, 4, "draft", 3, 0, 400)
    return log


def test_the_declaration_says_which_drafters_fill_their_draft_in_one_pass():
    assert spec_types.get("dflash").one_pass
    for name in ("draft", "mtp", "eagle3", "gemma4-assistant", "ngram", "ngram-mod"):
        assert not spec_types.get(name).one_pass, name
    assert not spec_types.get("ngram,dflash").one_pass  # each step by its member
    assert [drafting(o) for o in ("dflash", "draft", "gemma4-assistant", "ngram-cache")] == [
        "one_pass", "per_token", "per_token", "lookup"]


def test_the_inspector_tells_a_block_position_and_the_one_pass_that_made_it():
    log = _mixed_log()
    rejected = log.id.index(203)  # the block's fourth position, rejected
    ins = inspect_token(log, rejected, n_prompt=10)
    assert (ins.position, ins.n_drafted) == (4, 5)
    assert pass_words(ins) == ("position 4 of a block of 5 that the DFlash head filled in one "
                               "pass: no drafted token was fed back to draft the next")
    assert dict(summary_rows(ins))["Drafted"] == pass_words(ins)


def test_a_token_by_token_drafter_says_one_pass_per_token_and_a_lookup_says_neither():
    log = _mixed_log()
    by_model = inspect_token(log, log.id.index(401), n_prompt=10)
    assert pass_words(by_model) == ("pass 2 of 3: the draft model drafts one token per pass, "
                                    "each fed back to draft the next")
    copied = inspect_token(log, log.id.index(101), n_prompt=10)
    own = inspect_token(log, log.id.index(250), n_prompt=10)
    assert pass_words(copied) == pass_words(own) == ""
    assert "Drafted" not in dict(summary_rows(copied))


def test_the_replay_shows_a_block_at_once_with_its_one_pass():
    script = ReplayScript(_mixed_log(), "ngram,dflash")
    proposals = [(i, script.caption(i)) for i, f in enumerate(script.frames)
                 if f.phase == "propose"]
    assert [c for _, c in proposals] == [
        "Step 1 of 4: n-gram lookup proposes 2 tokens.",
        "Step 2 of 4: the DFlash head fills a block of 5 positions in one pass, all at once.",
        "Step 4 of 4: the draft model proposes 3 tokens, one pass per token, each fed back "
        "for the next."]
    # the whole block is one frame: the next frame is the verdict on all of it
    block_frame = proposals[1][0]
    assert script.frames[block_frame + 1].phase == "verdict"
    assert [f.phase for f in script.frames if f.step == 1] == ["propose", "verdict", "target"]
    assert len(script) == 3 + 3 + 1 + 3


def test_the_replay_window_draws_the_block_in_one_frame(qtbot):
    from app.teaching.replay_window import ReplayWindow
    from app.transcript.answer import Answer

    answer = Answer(spec_type="ngram,dflash", tokens=_mixed_log())
    window = ReplayWindow(answer)
    qtbot.addWidget(window)
    propose = next(i for i, f in enumerate(window.script.frames)
                   if f.step == 1 and f.phase == "propose")
    window.show_frame(propose - 1)
    before = window.view.toPlainText()
    window.next()
    assert window.frame == propose
    assert window.view.toPlainText() == before + " w200 w201 w202 w203 w204"
    assert "one pass" in window.caption.text()


@pytest.fixture(scope="module")
def skip_answer(test_models):
    """A real answer of count-target3 with dflash-skip (wrong from block row WRONG_ROW on)."""
    from engine.runner import loaded_engine, run

    from backend.engine.request import GenerationRequest

    with loaded_engine(test_models / "count-target3.gguf", n_ctx=512, n_threads=1) as engine:
        engine.load_draft(test_models / "dflash-skip.gguf")
        _, steps = run(engine, GenerationRequest(prompt=" zero one", spec_type="dflash",
                                                 n_draft_max=5, max_tokens=12,
                                                 measure_plain=False))
    log = TokenLog()
    for step in steps:
        log.add_step(step)
    return log


def test_a_real_dflash_answer_is_told_block_by_block(skip_answer):
    log = skip_answer
    first_rejected = next(i for i in range(len(log))
                          if log.origin[i] == "dflash" and not log.accepted[i])
    ins = inspect_token(log, first_rejected, n_prompt=3)
    # dflash-skip is wrong at block row 3, which is draft position 3 (row 0 is the anchor)
    assert (ins.position, ins.n_drafted, ins.n_accepted) == (3, 5, 2)
    # the block the engine decoded: the anchor and K = 5 masks, the first draft from row 1
    assert ins.block == (1, 6)
    assert pass_words(ins).startswith("row 3 of a block of 6 rows that the DFlash head filled "
                                      "in one pass (row 0: the target's last token;")
    script = ReplayScript(log, "dflash")
    n = len(script.steps)
    assert script.caption(0) == (f"Step 1 of {n}: the DFlash head fills a block of 6 rows in "
                                 "one pass, all at once: the target's last token, then 5 masks; "
                                 "5 drafted.")


def test_the_library_says_what_a_head_and_an_assistant_draft_for(qtbot, tmp_path, test_models):
    from app.models.manager_window import ModelManagerWindow
    from backend.models.memory import Memory

    (tmp_path / "models").mkdir()
    window = ModelManagerWindow(
        memory_source=lambda: Memory(total=64 * 2**30, available=32 * 2**30),
        models_dir=tmp_path / "models", extra_folders=[test_models])
    qtbot.addWidget(window)
    window.show()
    try:
        with qtbot.waitSignal(window.library_tab.scanned, timeout=30_000):
            pass
        tab = window.library_tab
        assert tab.item_for("dflash-skip.gguf").text(1) == "dflash (DFlash head)"
        assert tab.item_for("g4-assistant.gguf").text(1) == "gemma4-assistant (Gemma 4 assistant)"
        tab.select("dflash-skip.gguf")
        assert "fills a block of draft tokens in one pass from the hidden states of a target " \
               "of hidden size 32" in tab.details.text()
        assert not tab.target_button.isEnabled() and tab.draft_button.isEnabled()
        tab.select("g4-assistant.gguf")
        assert "drafts token by token for a Gemma 4 model" in tab.details.text()
        assert not tab.target_button.isEnabled()
        tab.select("count-target3.gguf")
        assert tab.target_button.isEnabled()
    finally:
        window.close()


def test_the_welcome_has_a_prompt_for_each_head_shown_only_with_one_loaded():
    from app.chat.welcome import DEMO_PROMPTS

    made = {d.spec: d for d in DEMO_PROMPTS}
    for spec in ("dflash", "gemma4-assistant"):
        assert made[spec].only_when_available and made[spec].why and made[spec].prompt
