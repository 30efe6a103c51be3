"""The lossless check under an answer: the same conversation decoded plainly and greedily
through the same engine, token ids compared; a sampled answer explained, not compared."""

from __future__ import annotations

import pytest
from counting_window import open_counting_pair
from scripted_engine import ScriptedEngine, counting_stream

from app.engine_link.worker import default_engine_factory
from app.teaching.lossless_check import identical_text
from backend import spec_types
from backend.engine.events import (
    GenerationFinished,
    GenerationStarted,
    PromptProcessed,
    Stats,
    StepVerified,
    Token,
)

TARGET = "/models/fake-target.gguf"
SPEC = counting_stream(8, k=4, reject_at=lambda s: 2 if s % 2 else 4)


def emitted_tokens(events: list) -> list[Token]:
    return [t for e in events if isinstance(e, StepVerified) for t in e.emitted]


def plain_stream(tokens: list[Token], n: int) -> list:
    """Plain decoding of `tokens`' first n: one step per token, each the target's own."""
    events: list = [GenerationStarted(0, spec_types.PLAIN, 0, 5), PromptProcessed(5, 5, 1.0)]
    for s, t in enumerate(tokens[:n]):
        own = Token(t.id, t.text, "target", True, p_target=t.p_target)
        events.append(StepVerified(s, (), 0, (own,), 0.0, 1.0))
    events.append(GenerationFinished("length", "".join(t.text for t in tokens[:n]),
                                     Stats(n_generated=n)))
    return events


def engine(planted: dict[int, Token] | None = None) -> ScriptedEngine:
    """Answers the speculative request with SPEC and the plain one with the same tokens, or
    with the tokens of `planted` at their positions (verification deliberately broken)."""
    def script(request):
        if request.spec_type != spec_types.PLAIN or request.max_tokens != len(
                emitted_tokens(SPEC)):
            return SPEC  # the answer (the panel's spec type, "none"; the events say "draft")
        tokens = emitted_tokens(SPEC)
        for pos, token in (planted or {}).items():
            tokens[pos] = token
        return plain_stream(tokens, request.max_tokens)
    return ScriptedEngine(script)


def answered(make_window, qtbot, eng, temperature: float = 0.0):
    w = make_window(eng)
    with qtbot.waitSignal(w.models_changed, timeout=5000):
        w.open_target(TARGET)
    w.panel.temperature.setValue(temperature)
    with qtbot.waitSignal(w.answer_finished, timeout=10_000) as done:
        assert w.send("count")
    widget = done.args[0]
    assert not widget.check_button.isHidden()
    return w, widget


def check(w, qtbot, widget) -> str:
    with qtbot.waitSignal(w.flow.lossless.finished, timeout=10_000) as result:
        widget.check_button.click()
    assert result.args[0] is widget
    return result.args[1]


def test_the_plain_run_matching_says_identical(make_window, qtbot, chats_path):
    eng = engine()
    w, widget = answered(make_window, qtbot, eng)
    n = len(emitted_tokens(SPEC))
    assert len(widget.answer.tokens.emitted()) == n
    words = check(w, qtbot, widget)
    assert words == identical_text(n)
    assert widget.findChild(type(widget.stats_label), "losslessResult").text() == words
    plain = eng.requests[-1]
    first = eng.requests[0]
    assert plain.spec_type == spec_types.PLAIN and plain.sampling.temperature == 0.0
    assert plain.max_tokens == n and plain.messages == first.messages
    # Not part of the chat: no new turn, and the stored chat has the question and one answer.
    assert [t.role for t in w.conversation.turns] == ["user", "assistant"]
    w.close()
    from backend.chats.store import ChatStore
    store = ChatStore(chats_path)
    (chat,) = store.list()
    assert [m.role for m in store.load(chat.id)] == ["user", "assistant"]
    store.close()


def test_a_planted_difference_is_found_with_both_tokens(make_window, qtbot):
    # Position 5 is an accepted draft in SPEC (4 accepted + the target's, then more drafts).
    tokens = emitted_tokens(SPEC)
    assert tokens[5].origin == "draft"
    wrong = Token(4242, " wrong\n", "target", True, p_target=0.61)
    w, widget = answered(make_window, qtbot, engine({5: wrong, 9: wrong}))
    words = check(w, qtbot, widget)
    n = len(tokens)
    assert words.startswith(f"Differs from plain decoding at token 6 of {n}")
    assert f'"{tokens[5].text}" (id {tokens[5].id}, target p = 0.900)' in words
    assert "drafted by the draft model and accepted" in words
    assert '" wrong\\n" (id 4242, target p = 0.610)' in words  # plain text, newline shown
    label = widget.findChild(type(widget.stats_label), "losslessResult")
    assert label.textFormat() == label.textFormat().PlainText
    assert widget.check_button.isEnabled()


@pytest.mark.parametrize("on_gpu", [True, False])
def test_a_difference_on_a_gpu_says_its_kernels_sum_a_batch_otherwise(make_window, qtbot,
                                                                      on_gpu):
    wrong = Token(4242, " wrong", "target", True, p_target=0.61)
    eng = engine({5: wrong})
    eng.on_gpu = on_gpu
    w, widget = answered(make_window, qtbot, eng)
    words = check(w, qtbot, widget)
    assert words.startswith("Differs from plain decoding at token 6")
    assert ("These answers ran on a GPU" in words) is on_gpu


def test_a_sampled_answer_is_explained_not_compared(make_window, qtbot):
    eng = engine()
    w, widget = answered(make_window, qtbot, eng, temperature=0.8)
    words = check(w, qtbot, widget)
    assert "temperature 0.8" in words and "distribution" in words and "not compared" in words
    assert len(eng.requests) == 1  # no plain run


def test_refused_while_another_answer_streams(make_window, qtbot):
    eng = engine()
    w, widget = answered(make_window, qtbot, eng)
    eng.step_delay_s = 0.2
    assert w.send("again")
    words = check(w, qtbot, widget)
    assert "Another answer is being written" in words
    w.flow.stop()
    qtbot.waitUntil(lambda: not w.generating, timeout=10_000)
    n = len(emitted_tokens(SPEC))
    assert not any(r.max_tokens == n for r in eng.requests)  # the answers only, no check


@pytest.mark.parametrize("spec", ["draft", "ngram"])
def test_real_engine_counting_pair_is_identical(make_window, qtbot, test_models, spec):
    w = make_window(engine_factory=default_engine_factory, persist=False)
    open_counting_pair(w, qtbot, test_models, spec=spec, max_tokens=40)
    with qtbot.waitSignal(w.answer_finished, timeout=60_000) as done:
        assert w.send("zero one two three zero one two three")
    widget = done.args[0]
    answer = widget.answer
    assert answer.error is None, answer.error
    assert answer.n_drafted > 0, "the answer should have speculated"
    if spec == "draft":
        assert answer.n_accepted < answer.n_drafted, "the draft pair rejects some drafts"
    with qtbot.waitSignal(w.flow.lossless.finished, timeout=60_000) as result:
        widget.check_button.click()
    assert result.args[1] == identical_text(len(answer.tokens.emitted())), result.args[1]


def test_an_answer_read_from_the_chat_store_is_checked_with_its_history(
        make_window, qtbot):
    eng = engine()
    w, _ = answered(make_window, qtbot, eng)
    first = eng.requests[0]
    w.close()
    eng2 = engine()
    w2 = make_window(eng2)
    with qtbot.waitSignal(w2.models_changed, timeout=5000):
        w2.open_target(TARGET)
    w2.conversation_list.setCurrentRow(1)  # under the fresh "New chat"
    qtbot.waitUntil(lambda: bool(w2.answer_widgets()), timeout=5000)
    widget = w2.answer_widgets()[0]
    words = check(w2, qtbot, widget)
    assert words == identical_text(len(emitted_tokens(SPEC)))
    assert eng2.requests[-1].messages == first.messages
    assert eng2.requests[-1].spec_type == spec_types.PLAIN


@pytest.mark.parametrize(("by", "named", "remedy"), [
    ("fast", "fast kernels", "Choose the exact kernels"),
    ("gpu", "ran on a GPU", "Set GPU layers to 0"),
])
def test_a_reordered_sum_explains_a_near_tie_and_refuses_to_explain_a_gap(by, named, remedy):
    from app.teaching.lossless_check import NEAR_TIE, Difference, difference_text

    near = Difference(3, 11, " a", "draft", 0.41, plain_id=12, plain_text=" the",
                      plain_p=0.42, margin=NEAR_TIE / 2)
    words = difference_text(near, 20, reordered_by=by)
    assert named in words and "a near-tie" in words and remedy in words
    assert f"{NEAR_TIE / 2:.4f} apart" in words
    far = Difference(3, 11, " a", "draft", 0.1, plain_id=12, plain_text=" the", plain_p=0.8,
                     margin=0.7)
    far_words = difference_text(far, 20, reordered_by=by)
    assert "does not explain this difference" in far_words and remedy not in far_words
    exact = difference_text(near, 20)  # exact kernels on the CPU: no excuse offered
    assert named not in exact and "near-tie" not in exact


def test_the_check_decodes_the_conversation_as_it_was_sent(make_window, qtbot):
    """The system prompt and the dropped turns of the moment the answer was written, even
    after the chat's were changed: the check compares the same conversation."""
    eng = engine()
    w = make_window(eng)
    with qtbot.waitSignal(w.models_changed, timeout=5000):
        w.open_target(TARGET)
    w.chat_actions.set_system_prompt("Answer in numbers.")
    with qtbot.waitSignal(w.answer_finished, timeout=10_000) as done:
        assert w.send("count")
    sent = eng.requests[-1].messages
    assert sent[0].role == "system"
    w.chat_actions.set_system_prompt("Answer in words.")  # changed after the answer
    assert check(w, qtbot, done.args[0]) == identical_text(len(emitted_tokens(SPEC)))
    assert eng.requests[-1].messages == sent
