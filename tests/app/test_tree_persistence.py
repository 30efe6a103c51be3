"""A tree answer in the window (issue 42): its HTML export draws each tree step's tree, and the
chat store keeps the trees, so a reopened chat's inspector, replay and export have them and
the transcript marks the second choices kept again; a damaged stored tree is left out, and the
chat opens with everything else."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from scripted_engine import ScriptedEngine, counting_stream
from test_answer_export import PROMPT, export, live_widget

from backend.chats import ChatStore
from backend.engine.events import StepVerified, TreeNode


def tree_stream() -> list:
    """Counting steps of 4 drafts, 2 accepted; each a tree step whose first choice after the
    first word was rejected (a hostile text), its second choice kept: the answer left the
    chain there."""
    events = counting_stream(5, k=4, reject_at=lambda s: 2)
    out = []
    for e in events:
        if isinstance(e, StepVerified):
            a0, a1, x2, x3 = e.drafted
            tree = (TreeNode(-1, a0.id, a0.text, 0.8, 0.9, 0, True),
                    TreeNode(0, 9000 + e.step, "<script>x</script>", 0.6, 0.01, 0, False),
                    TreeNode(1, 9100, " cut", 0.5, None, 0, False),
                    TreeNode(0, a1.id, a1.text, 0.3, 0.9, 1, True),
                    TreeNode(3, x2.id, x2.text, 0.8, 0.01, 0, False),
                    TreeNode(4, x3.id, x3.text, 0.8, None, 0, False))
            e = replace(e, tree=tree)
        out.append(e)
    return out


def reopened(make_window, qtbot, script):
    window = make_window(ScriptedEngine(script))
    with qtbot.waitSignal(window.chats.loaded, timeout=10_000):  # read off the GUI thread
        window.conversation_list.setCurrentRow(1)  # under a fresh "New chat"
    (widget,) = window.answer_widgets()
    return window, widget


def test_the_exported_page_draws_the_live_answers_trees(make_window, qtbot, tmp_path):
    window, widget = live_widget(make_window, qtbot, tree_stream())
    page = Path(export(window, qtbot, widget, tmp_path / "a.html")).read_text(encoding="utf-8")
    assert page.count('class="tree-step"') == 5
    assert "&lt;script&gt;x&lt;/script&gt;" in page and "<script>" not in page
    assert page.count("left the chain here") == 5


def test_a_reopened_chat_has_its_trees(make_window, qtbot, tmp_path):
    script = tree_stream()
    first, live = live_widget(make_window, qtbot, script)
    trees, branches = dict(live.answer.trees), list(live.answer.tokens.branches)
    assert len(trees) == 5 and len(branches) == 5
    first.close()  # its chat store written
    window, stored = reopened(make_window, qtbot, script)
    assert stored.answer.trees == trees
    assert stored.answer.tokens.branches == branches  # the transcript's marks, found again
    page = Path(export(window, qtbot, stored, tmp_path / "b.html")).read_text(encoding="utf-8")
    assert page.count('class="tree-step"') == 5


def test_a_damaged_stored_tree_is_left_out_and_the_chat_opens(make_window, qtbot,
                                                              chats_path):
    script = tree_stream()
    first, live = live_widget(make_window, qtbot, script)
    text = live.answer.text
    first.close()
    store = ChatStore(chats_path)
    try:
        (chat,) = [c.id for c in store.list()]
        message = store.load(chat)[1]
        cols = dict(message.tokens)
        step_starts = [i for i, s in enumerate(cols["step"]) if i == 0
                       or s != cols["step"][i - 1]]
        hostile = json.loads(cols["tree"][step_starts[1]])
        hostile[1][0] = 5  # a node after its own child
        cols["tree"][step_starts[1]] = json.dumps(hostile)
        cols["tree"][step_starts[2]] = "</code><script>"
        store._db.execute("DELETE FROM answer_tokens WHERE message_id = ?", (message.id,))
        store.append_tokens(message.id, 0, cols)
    finally:
        store.close()
    window, stored = reopened(make_window, qtbot, script)
    assert stored.answer.text == text and len(stored.answer.tokens) == len(live.answer.tokens)
    assert sorted(stored.answer.trees) == sorted(set(live.answer.trees) - {
        live.answer.tokens.step[step_starts[1]], live.answer.tokens.step[step_starts[2]]})
    assert len(stored.answer.tokens.branches) == 3
    assert [t.content for t in window.conversation.turns] == [PROMPT, text]


def test_a_steps_tree_is_filed_before_its_tokens():
    """A save on the store's thread takes the tokens there are and their trees with them
    (app/chat/conversation.py new_tokens): a step's tree must be in before its tokens."""
    from app.transcript.answer import Answer

    answer = Answer(spec_type="draft")
    early: list[bool] = []

    class Watched(dict):
        def __setitem__(self, step, tree):
            early.append(step not in answer.tokens.step)
            super().__setitem__(step, tree)

    answer.trees = Watched()
    for event in tree_stream():
        answer.add(event)
    assert early == [True] * 5


def test_an_engines_tree_answer_comes_back_from_the_store_as_it_was(test_models):
    """The engine's own trees (the draft model's second choices kept, count-draft-second)
    pass the store's checks and come back whole, with the transcript's marks."""
    from engine.runner import loaded_engine

    from app.chat.conversation import answer_record, new_tokens, turn_from_message
    from app.transcript.answer import Answer
    from backend.engine.request import GenerationRequest
    from backend.engine.token_log import fold_steps

    with loaded_engine(test_models / "count-target.gguf",
                       test_models / "count-draft-second.gguf", n_ctx=512, n_threads=1) as e:
        events = list(e.generate(GenerationRequest(
            prompt=" zero one", spec_type="draft", n_draft_max=4, tree_nodes=8,
            max_tokens=24)))
    live = Answer(spec_type="draft")
    for event in fold_steps(events):
        live.add(event)
    assert live.trees and live.tokens.branches
    store = ChatStore.in_memory()
    chat = store.create("engine")
    store.save_answer(chat, None, **answer_record(live), tokens=new_tokens(live, 0))
    turn = turn_from_message(store.load(chat)[0])
    assert turn.answer is not None
    assert turn.answer.trees == live.trees
    assert turn.answer.tokens.branches == live.tokens.branches
