"""The step-by-step replay: frames in the loop's order (proposal, verdict, the target's own
token), forwards and backwards to the same document, and an answer replayed to its end — live
or opened from a trace file — drawn exactly as the live stream drew it."""

from __future__ import annotations

from doc_reading import kind_runs
from scripted_engine import ScriptedEngine, counting_stream
from test_trace_open import live_answer, open_in

from app.teaching.replay import ReplayScript
from backend.traces import write_trace

SCRIPT = counting_stream(15, k=4, reject_at=lambda s: s % 5)


def test_the_script_tells_each_step_in_three_frames(make_window, qtbot):
    live, _ = live_answer(make_window, qtbot, SCRIPT)
    script = ReplayScript(live.answer.tokens, live.answer.spec_type)
    assert len(script.steps) == live.answer.n_steps
    for span in script.steps:
        phases = [f.phase for f in script.frames if script.steps[f.step] is span]
        assert phases == (["propose", "verdict", "target"] if span.n_drafted else ["target"])
    rejecting = next(i for i, s in enumerate(script.steps) if s.n_accepted < s.n_drafted)
    verdict = script.frame_of_step(rejecting) + 1
    span = script.steps[rejecting]
    rejected = span.n_drafted - span.n_accepted
    assert script.caption(verdict).endswith(
        f"{span.n_accepted} accepted, {rejected} rejected (struck out).")
    assert script.step_of_frame(verdict) == rejecting


def test_stepping_draws_proposals_then_verdicts_and_ends_as_the_live_answer(make_window, qtbot):
    live, _ = live_answer(make_window, qtbot, SCRIPT)
    window = live.window().teaching.open_tool(live, "replay")
    script = window.script
    expected = kind_runs(live.token_view.document())

    rejecting = next(i for i, s in enumerate(script.steps) if s.n_accepted < s.n_drafted)
    window.show_frame(script.frame_of_step(rejecting))  # the proposal: no verdict shown yet
    runs = kind_runs(window.view.document())
    assert runs[-1][0] == "proposed"
    assert "rejected" not in [k for k, _ in runs[-1:]]
    window.next()  # the verdict: the same tokens, coloured
    assert kind_runs(window.view.document())[-1][0] == "rejected"

    while window.next_button.isEnabled():
        window.next()
    assert kind_runs(window.view.document()) == expected
    while window.previous_button.isEnabled():
        window.previous()
    assert window.frame == 0
    window.show_end()  # a jump redraws all the steps before the last
    assert kind_runs(window.view.document()) == expected


def test_play_runs_to_the_end_and_stops(make_window, qtbot):
    live, _ = live_answer(make_window, qtbot, SCRIPT)
    window = live.window().teaching.open_tool(live, "replay")
    window.play_button.setChecked(True)
    assert window.timer.isActive()
    for _ in range(len(window.script) + 1):
        window._on_tick()  # what each timer tick does, without waiting for the clock
    assert not window.play_button.isChecked() and not window.timer.isActive()
    assert kind_runs(window.view.document()) == kind_runs(live.token_view.document())


def test_a_trace_file_replays_to_the_live_document(make_window, qtbot, tmp_path):
    live, trace = live_answer(make_window, qtbot, SCRIPT)
    path = tmp_path / "answer.json"
    write_trace(path, trace)
    other = make_window(ScriptedEngine(SCRIPT), persist=False)
    open_in(other, qtbot, path)
    (opened,) = other.answer_widgets()
    window = other.teaching.open_tool(opened, "replay")
    window.show_end()
    assert kind_runs(window.view.document()) == kind_runs(live.token_view.document())
