"""The race: the answer's own request run plainly, then speculatively, through the engine,
kept out of the chat, and replayed at the measured speeds to the measured verdict."""

from __future__ import annotations

from doc_reading import kind_runs
from PySide6.QtCore import Qt
from scripted_engine import ScriptedEngine, counting_stream

from app.teaching.race import timeline, verdict
from app.transcript.answer import Answer
from app.transcript.token_view import TokenView
from backend import spec_types

TARGET = "/models/fake-target.gguf"


def script_for(request):
    """Plain decoding one word a step at 3 ms; the draft model 4 words in 1.2 ms."""
    if request.spec_type == spec_types.PLAIN:
        return counting_stream(30, k=0, spec_type=spec_types.PLAIN, step_ms=2.8)
    return counting_stream(10, k=4, spec_type=request.spec_type,
                           reject_at=lambda s: 3 if s % 3 else 4, step_ms=1.0)


def answered(events) -> Answer:
    a = Answer()
    for e in events:
        a.add(e)
    return a


def test_the_timeline_ends_when_the_engine_finished():
    a = answered(counting_stream(10, k=4, reject_at=lambda s: 2, step_ms=1.0))
    tl = timeline(a)
    stats = a.stats()
    assert tl.total_ms == stats.prompt_ms + stats.generation_ms
    assert abs(tl.ends_ms[-1] - tl.total_ms) < 1e-9
    assert tl.drawn_at(0.0) == 0
    assert tl.drawn_at(stats.prompt_ms + 1e-6) == 0  # the first step is not done yet
    assert tl.drawn_at(tl.ends_ms[0]) == tl.log_ends[0] > 0
    assert tl.drawn_at(tl.total_ms) == len(a.tokens)
    assert tl.ends_ms == sorted(tl.ends_ms)


def test_the_verdict_is_the_measured_ratio():
    plain = answered(script_for(type("R", (), {"spec_type": spec_types.PLAIN})()))
    spec = answered(script_for(type("R", (), {"spec_type": "draft"})()))
    ratio = spec.stats().tokens_per_second / plain.stats().tokens_per_second
    assert ratio > 1
    assert f"×{ratio:.2f}" in verdict(plain, spec)
    assert "slower" in verdict(spec, plain)


def race_after_an_answer(make_window, qtbot, engine: ScriptedEngine):
    """The window with the draft model, one answer written, and that answer's race opened."""
    w = make_window(engine)
    with qtbot.waitSignal(w.models_changed, timeout=5000):
        w.open_target(TARGET)
    with qtbot.waitSignal(w.models_changed, timeout=5000):
        w.open_draft("/models/fake-draft.gguf")
    assert w.panel.set_spec_type("draft")
    with qtbot.waitSignal(w.answer_finished, timeout=20_000) as done:
        assert w.send("count")
    return w, w.teaching.open_tool(done.args[0], "race")


def test_a_race_runs_both_requests_and_replays_them(make_window, qtbot):
    engine = ScriptedEngine(script_for)
    w, race = race_after_an_answer(make_window, qtbot, engine)
    qtbot.waitUntil(lambda: len(race.answers) == 2, timeout=10_000)

    first, second = engine.requests[-2:]
    asked = engine.requests[0]
    assert first.spec_type == spec_types.PLAIN and second.spec_type == "draft"
    for r in (first, second):
        assert r.messages == asked.messages and r.sampling == asked.sampling
        assert r.max_tokens == asked.max_tokens
    assert len(w.answer_widgets()) == 1  # the runs never reach the chat

    end = max(tl.total_ms for tl in race.timelines)
    race.timer.stop()
    race.show_time(end)
    for view, answer in zip(race.views, race.answers, strict=True):
        fresh = TokenView()
        fresh.append_tokens(answer.tokens, 0, len(answer.tokens))
        assert kind_runs(view.document()) == kind_runs(fresh.document())
    race.advance_to(end)  # at the end: the verdict
    assert race.status.text().startswith("Draft model decoded ×")
    assert race.status.text() == verdict(*race.answers)
    assert not race.timer.isActive()
    # halfway, the faster side has drawn more of its answer
    for v in race.views:
        v.clear_tokens()
    race._drawn = [0, 0]
    race.show_time(end / 3)
    plain_done = race._drawn[0] / len(race.answers[0].tokens)
    spec_done = race._drawn[1] / len(race.answers[1].tokens)
    assert spec_done > plain_done


def _with_plain(events, plain_tps: float, steps: int = 8):
    """The stream as the engine ends it when the answer measured plain decoding itself."""
    from dataclasses import replace

    from backend.engine.events import GenerationFinished
    return [replace(e, stats=replace(e.stats, plain_tokens_per_second=plain_tps,
                                     plain_steps=steps)) if isinstance(e, GenerationFinished)
            else e for e in events]


def test_the_race_says_when_the_load_moved_between_its_runs():
    from app.teaching.race import load_note
    plain = answered(counting_stream(30, k=0, spec_type=spec_types.PLAIN, step_ms=2.8))
    p = plain.stats().tokens_per_second
    # the speculative run's own plain steps ran as fast as the plain run: nothing to say
    held = answered(_with_plain(counting_stream(10, k=4, step_ms=1.0), p * 1.05))
    assert load_note(plain, held) == ""
    # ... at twice its speed: the plain run was measured in a busier moment
    moved = answered(_with_plain(counting_stream(10, k=4, step_ms=1.0), p * 2))
    note = load_note(plain, moved)
    assert f"{p:.1f} tokens/s in the plain run" in note and f"{2 * p:.1f}" in note
    assert f"×{moved.stats().speedup:.2f}" in note
    # a speculative run too short to measure plain decoding says nothing it cannot know
    short = answered(counting_stream(10, k=4, step_ms=1.0))
    assert load_note(plain, short) == ""


def test_the_race_shows_its_progress_and_cancel_stops_it(make_window, qtbot):
    engine = ScriptedEngine(script_for, step_delay_s=0.05)
    _, race = race_after_an_answer(make_window, qtbot, engine)
    # the line counts the plain run's tokens as they come
    qtbot.waitUntil(lambda: "Measuring plain decoding (1 of 2)… " in race.status.text()
                    and not race.status.text().endswith("… 0 tokens, 0.0 tokens/s"),
                    timeout=10_000)
    assert race.cancel_button.isVisible()
    n_requests = len(engine.requests)
    assert engine.requests[-1].spec_type == spec_types.PLAIN
    qtbot.mouseClick(race.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: race.status.text() == "The race was stopped before it finished.",
                    timeout=10_000)
    qtbot.wait(200)
    assert len(engine.requests) == n_requests  # the speculative run never started
    assert race.answers == [] and not race.cancel_button.isVisible()
