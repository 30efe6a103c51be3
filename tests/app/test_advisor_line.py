"""The advisor's line under a finished answer: the backend's best K for what the answer
measured, its "Use K" button setting the panel's draft length, and the warning."""

from __future__ import annotations

from dataclasses import replace

from scripted_engine import ScriptedEngine, counting_stream

from backend import spec_types
from backend.advisor import advise, step_overhead_ms
from backend.engine.events import GenerationFinished, GenerationStarted, StepVerified

TARGET = "/models/fake-target.gguf"
PLAIN_TPS = 1000.0  # a plain step of 1 ms: the costs below are fractions of it


def with_costs(events: list, *, draft_ms: float | None = None) -> list:
    """The stream with this target's plain speed known (as the answer measures it in its own
    plain steps), and optionally a dearer draft."""
    out = []
    for e in events:
        if isinstance(e, GenerationFinished):
            e = replace(e, stats=replace(e.stats, plain_tokens_per_second=PLAIN_TPS,
                                         plain_steps=8))
        elif isinstance(e, StepVerified) and draft_ms is not None:
            e = replace(e, draft_ms=draft_ms)
        out.append(e)
    return out


def k_auto_script(faster: float = 1.0) -> list:
    """A K auto answer (K auto's GenerationStarted says K 0): 8 drafts on every fourth step,
    all kept, and 3 on the others, two kept; `faster` scales the answer's own rate against
    what its steps' times give."""
    script = []
    for e in with_costs(counting_stream(32, k=8, reject_at=lambda s: 8 if s % 4 == 0 else 2,
                                        step_ms=1.4)):
        if isinstance(e, GenerationStarted):
            e = replace(e, n_draft_max=0)
        elif isinstance(e, StepVerified) and e.n_accepted < 8:
            e = replace(e, drafted=e.drafted[:3])
        elif isinstance(e, GenerationFinished) and faster != 1.0:
            e = replace(e, stats=replace(e.stats, n_generated=round(e.stats.n_generated
                                                                    * faster)))
        script.append(e)
    return script


def answer(make_window, qtbot, script):
    w = make_window(ScriptedEngine(script))
    with qtbot.waitSignal(w.models_changed, timeout=5000):
        w.open_target(TARGET)
    # the new chat is read on the store thread; until then the window asks to send again
    # (on a loaded machine that took longer than the model's scripted load)
    qtbot.waitUntil(lambda: w.flow.conversation.loaded, timeout=10_000)
    with qtbot.waitSignal(w.answer_finished, timeout=10_000) as blocker:
        assert w.send("count")
    return w, blocker.args[0]


def test_a_speculative_answer_shows_the_backends_best_k_and_use_k_sets_the_panel(
        make_window, qtbot):
    # Drafts of 4, the target taking all 4 on every third step and 1 otherwise; verifying a
    # batch of 5 costs 1.4 plain steps (β = 0.1), drafting a token 0.05 of one.
    script = with_costs(counting_stream(30, k=4, reject_at=lambda s: 4 if s % 3 == 0 else 1,
                                        step_ms=1.4))
    final = next(e for e in script if isinstance(e, GenerationFinished))
    # the window counts each step's time outside draft and verify, from the answer's Stats
    expected = advise([e for e in script if isinstance(e, StepVerified)],
                      plain_tokens_per_second=PLAIN_TPS,
                      overhead_ms=step_overhead_ms(final.stats))
    assert expected.best_k is not None and expected.warning is None
    w, widget = answer(make_window, qtbot, script)
    qtbot.waitUntil(lambda: widget.advice is not None, timeout=5000)
    assert widget.advice == expected
    line = widget.advice_label.text()
    low, high = expected.speedup_range
    assert f"best K = {expected.best_k}" in line and f"{low:.2f}–{high:.2f}×" in line
    assert low < expected.speedup < high
    assert not widget.advice_row.isHidden() and not widget.use_k_button.isHidden()
    assert widget.use_k_button.text() == f"Use K = {expected.best_k}"

    w.panel.n_draft.setValue(expected.best_k + 1)  # so that the click visibly changes it
    widget.use_k_button.click()
    assert w.panel.n_draft.value() == expected.best_k
    assert w.panel.generation_settings().n_draft == expected.best_k  # the next answer's K


def test_after_a_k_auto_answer_the_advice_costs_every_draft_a_fixed_k_would_make(
        make_window, qtbot):
    """K auto (the default) drafts as long as its controller chooses: here 8 on every fourth
    step and 3 on the others. The advice is for a fixed K, which a draft model fills: each K
    is costed at K drafts, not at the lengths K auto happened to choose."""
    script = k_auto_script()
    final = next(e for e in script if isinstance(e, GenerationFinished))
    steps = [e for e in script if isinstance(e, StepVerified)]
    kw = dict(plain_tokens_per_second=PLAIN_TPS, overhead_ms=step_overhead_ms(final.stats))
    expected = advise(steps, k_auto="model", k_auto_speedup=final.stats.speedup, **kw)
    assert expected.rows != advise(steps, **kw).rows  # the lengths as made would say otherwise
    _, widget = answer(make_window, qtbot, script)
    qtbot.waitUntil(lambda: widget.advice is not None, timeout=5000)
    assert widget.advice == expected


def test_after_a_k_auto_answer_faster_than_any_fixed_k_is_expected_the_line_says_keep_it(
        make_window, qtbot):
    """What K auto's steps predict for a fixed K is at most what it gives (K auto drafted only
    its surer tokens): where K auto itself measured more, the line says to keep K auto and
    offers no K to switch to."""
    script = k_auto_script(faster=1.25)  # the answer's rate a quarter above its steps'
    final = next(e for e in script if isinstance(e, GenerationFinished))
    steps = [e for e in script if isinstance(e, StepVerified)]
    kw = dict(plain_tokens_per_second=final.stats.plain_tokens_per_second, k_auto="model",
              overhead_ms=step_overhead_ms(final.stats))
    predicted = advise(steps, k_auto_speedup=0.9, **kw)  # the best K's figure, named
    assert predicted.best_k is not None and 1.0 < predicted.speedup < final.stats.speedup
    _, widget = answer(make_window, qtbot, script)
    qtbot.waitUntil(lambda: widget.advice is not None, timeout=5000)
    assert widget.advice.best_k is None and widget.advice.rows == predicted.rows
    line = widget.advice_label.text()
    assert "keep K auto" in line and f"{final.stats.speedup:.2f}×" in line
    assert widget.use_k_button.isHidden()


def test_after_a_k_auto_answer_its_steps_figure_for_a_fixed_k_is_no_reason_to_switch(
        make_window, qtbot):
    """A fixed K's figure from K auto's steps does not carry over to it (its drafts fall
    where K auto's did not): above what K auto measured, the line names it with its figure
    and says to keep K auto, or to make one answer at that K to measure it; no button."""
    script = k_auto_script(faster=0.8)  # the answer's rate below what its steps give
    final = next(e for e in script if isinstance(e, GenerationFinished))
    steps = [e for e in script if isinstance(e, StepVerified)]
    kw = dict(plain_tokens_per_second=final.stats.plain_tokens_per_second, k_auto="model",
              overhead_ms=step_overhead_ms(final.stats))
    lost = advise(steps, k_auto_speedup=0.9, **kw)  # what would be advised, K auto beaten
    assert lost.best_k is not None and 1.0 <= final.stats.speedup < lost.speedup
    _, widget = answer(make_window, qtbot, script)
    qtbot.waitUntil(lambda: widget.advice is not None, timeout=5000)
    assert widget.advice.best_k is None and widget.advice.rows == lost.rows
    line = widget.advice_label.text()
    assert f"K = {lost.best_k} at {lost.speedup:.2f}×" in line and "Keep K auto" in line
    assert widget.use_k_button.isHidden()


def test_a_plain_rate_too_spread_to_tell_is_no_yardstick_for_the_advice(make_window, qtbot):
    """On a busy machine the answer's plain steps were slow and spread: the window said "too
    short to tell" for the speedup, yet the advisor divided by that rate and promised 19x.
    Where the speedup has no figure, the advice is what the steps alone say, as when no rate
    was measured (here, every batch of one size: the cost is unknown, and said so)."""
    script = []
    for e in with_costs(counting_stream(30, k=4, reject_at=lambda s: 4 if s % 3 == 0 else 1,
                                        step_ms=1.4)):
        if isinstance(e, GenerationFinished):  # 20x slower plain steps, spread past TOO_UNSURE
            e = replace(e, stats=replace(e.stats, plain_tokens_per_second=PLAIN_TPS / 20,
                                         plain_spread=0.4))
        script.append(e)
    final = next(e for e in script if isinstance(e, GenerationFinished))
    assert final.stats.speedup == 0.0  # "too short to tell"
    steps = [e for e in script if isinstance(e, StepVerified)]
    overhead = step_overhead_ms(final.stats)
    expected = advise(steps, overhead_ms=overhead)
    unsure = advise(steps, plain_tokens_per_second=PLAIN_TPS / 20, overhead_ms=overhead)
    assert unsure.speedup > 5  # what dividing by the unsure rate said
    _, widget = answer(make_window, qtbot, script)
    qtbot.waitUntil(lambda: widget.advice is not None, timeout=5000)
    assert widget.advice == expected
    assert widget.advice.speedup != unsure.speedup


def test_a_plain_answer_shows_no_advice(make_window, qtbot):
    script = with_costs(counting_stream(10, k=0, spec_type=spec_types.PLAIN))
    _, widget = answer(make_window, qtbot, script)
    qtbot.wait(50)  # would the advice arrive late, it would be within this
    assert widget.advice is None and widget.advice_row.isHidden()


def test_when_speculation_is_slower_the_line_warns_and_offers_no_k(make_window, qtbot):
    # One draft in eight accepted, and a drafted token costing as much as 0.75 of a plain step.
    script = with_costs(counting_stream(40, k=4, reject_at=lambda s: 1 if s % 8 == 0 else 0),
                        draft_ms=3.0)
    _, widget = answer(make_window, qtbot, script)
    qtbot.waitUntil(lambda: widget.advice is not None, timeout=5000)
    line = widget.advice_label.text()
    assert "slower than plain decoding" in line and "Likely reason" in line
    assert "low acceptance" in line or "draft is too slow" in line
    assert widget.use_k_button.isHidden()


def test_a_tree_answer_weighs_its_trees_against_the_chains_they_grew_from(make_window, qtbot):
    """A step's tree (its chain of 3, one alternative kept at depth 2 and continued) and
    what the line says of it: the same figures as backend/tree_advice.py's."""
    from backend.engine.events import TreeNode
    from backend.tree_advice import predict_shapes, shape

    tree = (TreeNode(-1, 1, " a", 0.9, 0.9, 0, True), TreeNode(0, 2, " b", 0.6, 0.1, 0, False),
            TreeNode(1, 3, " c", 0.9, None, 0, False), TreeNode(0, 4, " x", 0.3, 0.9, 1, True),
            TreeNode(3, 5, " y", 0.8, 0.9, 0, True))
    script = []
    for e in with_costs(counting_stream(60, k=3, reject_at=lambda s: 1, step_ms=1.4)):
        if isinstance(e, StepVerified) and e.step % 2 == 0:
            e = replace(e, tree=tree, verify_ms=e.verify_ms * 1.5)
        script.append(e)
    steps = [e for e in script if isinstance(e, StepVerified)]
    final = next(e for e in script if isinstance(e, GenerationFinished))
    trees, chains = predict_shapes([shape(s) for s in steps], [s.draft_ms for s in steps],
                                   [s.verify_ms for s in steps],
                                   [s.n_accepted + 1 for s in steps],
                                   step_overhead_ms(final.stats) or 0.0)
    _, widget = answer(make_window, qtbot, script)
    qtbot.waitUntil(lambda: widget.advice is not None, timeout=5000)
    assert widget.advice.trees == (trees, chains)
    line = widget.advice_label.text()
    assert f"{trees.tokens_per_step:.2f} tokens a step" in line
    assert f"{chains.tokens_per_step:.2f} tokens a step" in line
    faster = trees.tokens_per_second >= chains.tokens_per_second
    assert ("The trees are faster here." in line) == faster
    assert widget.use_k_button.isHidden()  # no K to offer: the choice is tree or chain
    short = script[:3] + [e for e in script if isinstance(e, GenerationFinished)]
    _, widget = answer(make_window, qtbot, short)  # two steps: no figure, as for a chain
    qtbot.waitUntil(lambda: widget.advice is not None, timeout=5000)
    assert widget.advice.trees is None and "Too few steps" in widget.advice_label.text()
