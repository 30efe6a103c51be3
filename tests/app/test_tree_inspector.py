"""A tree step in the window (issue 42): the answer keeps each step's tree, the inspector draws
it (kept, rejected, cut) and says which of the drafter's choices the target kept; a rejected
first choice is told at its own depth, beside the alternative that took its place."""

from __future__ import annotations

import pytest

from app.teaching.inspection import inspect_token, summary_rows
from app.teaching.inspector import InspectorPanel
from app.teaching.tree_drawing import tree_lines, tree_summary
from app.transcript.answer import Answer
from backend.engine.events import TreeNode
from backend.engine.request import GenerationRequest
from backend.engine.token_log import fold_steps


@pytest.fixture(scope="module")
def tree_answer(test_models):
    from engine.runner import loaded_engine

    with loaded_engine(test_models / "count-target.gguf",
                       test_models / "count-draft-second.gguf", n_ctx=512, n_threads=1) as e:
        events = list(e.generate(GenerationRequest(
            prompt=" zero one", spec_type="draft", n_draft_max=4, tree_nodes=8,
            max_tokens=24)))
    answer = Answer(spec_type="draft")
    for event in fold_steps(events):
        answer.add(event)
    return answer


def test_the_inspector_draws_the_tree_and_the_choice_kept(tree_answer, qtbot):
    log = tree_answer.tokens
    rejected = next(i for i in range(len(log)) if log.origin[i] == "draft"
                    and not log.accepted[i])
    tree = tree_answer.trees[log.step[rejected]]
    ins = inspect_token(log, rejected, 2, tree)
    rows = dict(summary_rows(ins))
    # " five" was the drafter's first choice after " three"; the target wanted " four", its
    # second, which the tree kept: told at the depth it was examined, not after " four"
    assert log.text[rejected] == " five"
    assert rows["p (target)"] == "0.0000"
    assert rows["Instead"].startswith("'·four'")
    panel = InspectorPanel()
    qtbot.addWidget(panel)
    panel.show_inspection(ins, tree)
    lines = panel.tree_view.text().splitlines()
    assert lines == tree_lines(tree) and len(lines) == len(tree)
    assert any("'·four'" in line and "✓ kept" in line for line in lines)
    assert any("'·five'" in line and "✗ rejected" in line for line in lines)
    assert any("cut, never examined" in line for line in lines)
    assert "'·four' being the drafter's choice number 2" in panel.tree_title.text()
    assert panel.tree_view.isVisibleTo(panel)
    plain = next(i for i in range(len(log)) if log.step[i] not in tree_answer.trees)
    panel.show_inspection(inspect_token(log, plain, 2))
    assert not panel.tree_view.isVisibleTo(panel)  # a chain's step has no tree


def test_a_files_tree_out_of_order_is_drawn_without_its_stray_node():
    tree = (TreeNode(-1, 1, " a", 0.9, 0.8, 0, True), TreeNode(2, 2, " b", 0.5, None, 0, False),
            TreeNode(0, 3, " c", 0.7, 0.9, 0, True))
    lines = tree_lines(tree)
    assert len(lines) == 2 and not any("'·b'" in line for line in lines)
    assert tree_summary(tree).startswith("3 nodes in one batch; the target kept 2")


def _marked(document) -> list[str]:
    """The texts drawn with a tree's kept-alternative mark."""
    from app.transcript.token_formats import BRANCH_PROPERTY

    out = []
    block = document.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.charFormat().property(BRANCH_PROPERTY):
                out.append(fragment.text())
            it += 1
        block = block.next()
    return out


def test_the_transcript_marks_the_second_choices_a_tree_kept(tree_answer, qtbot):
    from app.transcript.token_view import TokenView

    log = tree_answer.tokens
    assert log.branches  # count-draft-second's second choices, kept
    for i in log.branches:
        step = tree_answer.trees[log.step[i]]
        left = next(n for n in step if n.kept and n.rank > 0)  # where it left the chain
        assert log.accepted[i] and log.text[i] == left.text
    view = TokenView()
    qtbot.addWidget(view)
    half = log.branches[0] + 1  # drawn in two parts, as a stream is
    view.append_tokens(log, 0, half)
    view.append_tokens(log, half, len(log))
    assert _marked(view.document()) == [log.text[i] for i in log.branches]


def test_the_legend_shows_the_mark_while_a_tree_drafter_drafts_trees(qtbot):
    from app.teaching.legend import TokenLegend

    legend = TokenLegend()
    qtbot.addWidget(legend)
    legend.set_spec_type("draft")
    assert "second choice kept" not in legend.toPlainText()
    legend.set_spec_type("draft", tree_nodes=8)
    assert "second choice kept" in legend.toPlainText()
    assert _marked(legend.document()) == ["second choice kept"]
    legend.set_spec_type("mtp", tree_nodes=8)  # the MTP heads draft trees too
    assert "second choice kept" in legend.toPlainText()
    legend.set_spec_type("ngram-mod", tree_nodes=8)  # a chain: no tree, no mark
    assert "second choice kept" not in legend.toPlainText()


def test_the_replay_grows_the_tree_then_walks_its_verdict(tree_answer, qtbot):
    from app.teaching.replay_window import ReplayWindow

    window = ReplayWindow(tree_answer)
    qtbot.addWidget(window)
    script = window.script
    propose = next(k for k, f in enumerate(script.frames) if f.phase == "propose"
                   and script.steps[f.step].number in tree_answer.trees)
    step = script.steps[script.frames[propose].step]
    tree = tree_answer.trees[step.number]
    window.show_frame(propose)
    assert f"proposes a tree of {len(tree)} tokens" in window.caption.text()
    assert window.tree_view.isVisibleTo(window)
    assert window.tree_view.text().splitlines() == tree_lines(tree, verdicts=False)
    assert "kept" not in window.tree_view.text()  # no verdict yet
    window.next()
    assert "keeps the branch it agrees with" in window.caption.text()
    assert window.tree_view.text().splitlines() == tree_lines(tree)
    plain = next(k for k, f in enumerate(script.frames)
                 if script.steps[f.step].number not in tree_answer.trees)
    window.show_frame(plain)
    assert not window.tree_view.isVisibleTo(window)
