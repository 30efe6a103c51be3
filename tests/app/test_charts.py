"""The teaching charts' numbers: acceptance by draft position as a prefix rule, the histogram
of drafts kept per step, tokens/s from the recorded step times; the window for one answer and
for the whole chat."""

from __future__ import annotations

from scripted_engine import ScriptedEngine, counting_stream

from app.teaching.charts import chart_data
from app.transcript.answer import Answer

TARGET = "/models/fake-target.gguf"


def answered(events) -> Answer:
    a = Answer()
    for e in events:
        a.add(e)
    return a


def test_acceptance_by_position_and_kept_per_step():
    # k = 4; step s keeps s % 5 drafts: 0, 1, 2, 3, 4, 0, 1, ...
    a = answered(counting_stream(10, k=4, reject_at=lambda s: s % 5))
    d = chart_data([a])
    kept = [s % 5 for s in range(10)]
    assert d.drafted_at == [10, 10, 10, 10]
    assert d.accepted_at == [sum(1 for k in kept if k > i) for i in range(4)]
    assert d.kept_per_step == [kept.count(n) for n in range(5)]
    assert d.acceptance_at() == [x / 10 for x in d.accepted_at]
    assert d.acceptance_at() == sorted(d.acceptance_at(), reverse=True)  # a prefix rule


def test_rate_over_time_from_the_step_timings():
    a = answered(counting_stream(40, k=4, reject_at=lambda s: 4, step_ms=50.0))
    d = chart_data([a])
    assert d.timed
    # every step: 5 tokens in 50.2 ms (0.2 ms drafting)
    assert all(abs(r - 5 / 0.0502) < 1e-6 for _, r in d.rate)
    assert abs(d.rate[-1][0] - 40 * 0.0502) < 1e-9


def test_a_chat_adds_its_answers():
    one = answered(counting_stream(5, k=2, reject_at=lambda s: 1))
    two = answered(counting_stream(7, k=3, reject_at=lambda s: 3))
    d = chart_data([one, two])
    assert d.n_answers == 2
    assert d.drafted_at == [12, 12, 7]
    assert d.accepted_at == [12, 7, 7]
    assert sum(d.kept_per_step) == 12


def test_the_window_switches_between_the_answer_and_the_chat(make_window, qtbot):
    w = make_window(ScriptedEngine(counting_stream(6, k=4, reject_at=lambda s: s % 3)))
    with qtbot.waitSignal(w.models_changed, timeout=5000):
        w.open_target(TARGET)
    widgets = []
    for text in ("count", "again"):
        with qtbot.waitSignal(w.answer_finished, timeout=10_000) as done:
            assert w.send(text)
        widgets.append(done.args[0])
    charts = w.teaching.open_tool(widgets[1], "charts")
    assert charts.data.n_answers == 1
    assert [b[2] for b in charts.acceptance.bars] == [
        f"{100 * r:.0f}%" for r in chart_data([widgets[1].answer]).acceptance_at()]
    charts.this_chat.setChecked(True)
    assert charts.data.n_answers == 2
    assert sum(c for c in charts.data.kept_per_step) == 12
    charts.grab()  # paints without error
