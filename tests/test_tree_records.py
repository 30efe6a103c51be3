"""Draft trees kept with a saved answer (issue 42): a tree record reads back as the tree it was;
one that is damaged or hostile is refused in words, and a stored answer loses that tree and
nothing else; answers saved before trees were kept open as they did; a conversation exported
to JSON keeps its trees, and an import with a damaged tree is refused whole."""

from __future__ import annotations

import json
import zlib
from dataclasses import replace

import pytest
from test_export_tree_html import TREE

from backend.chats import TOKEN_FIELDS, ChatStore
from backend.chats.export import ChatImportError, export_json, import_json
from backend.chats.store import unpack_tokens
from backend.engine.events import TreeNode
from backend.tree_json import tree_column, tree_from_json, tree_to_json, trees_of
from backend.typed_json import SchemaError


def test_a_tree_record_reads_back_as_the_tree():
    odd = (*TREE, TreeNode(-1, 9, "\ud83e", None, None, 2, False))  # half an emoji, no q
    assert tree_from_json(tree_to_json(odd)) == odd


def _nodes(tree) -> list[list]:
    return json.loads(tree_to_json(tree))


DAMAGED = {
    "not JSON": "[[-1,1,",
    "not a list": '{"parent": -1}',
    "not text": 12,
    "a parent after its child": _nodes((replace(TREE[0], parent=1), *TREE[1:])),
    "a parent out of the tree": _nodes((*TREE[:5], replace(TREE[5], parent=-2))),
    "a sibling's rank twice": _nodes((*TREE[:3], replace(TREE[3], rank=0), *TREE[4:])),
    "a sibling's token twice": _nodes((*TREE[:3], replace(TREE[3], id=2), *TREE[4:])),
    "kept under a rejected node": _nodes((*TREE[:2], replace(TREE[2], kept=True), *TREE[3:])),
    "two kept siblings": _nodes((*TREE[:5], replace(TREE[5], kept=True))),
    "a probability above 1": _nodes((replace(TREE[0], q=3.0), *TREE[1:])),
    "a negative rank": _nodes((replace(TREE[0], rank=-1), *TREE[1:])),
    "too many nodes": _nodes(tuple(TreeNode(-1, i, "x", None, None, i, False)
                                   for i in range(65))),
    "a node of six fields": [_nodes(TREE)[0][:6]],
    "a node of eight fields": [[*_nodes(TREE)[0], 1]],
}


@pytest.mark.parametrize("name", list(DAMAGED))
def test_a_damaged_tree_record_is_refused_in_words(name):
    record = DAMAGED[name]
    text = record if isinstance(record, str | int) else json.dumps(record)
    with pytest.raises(SchemaError) as refused:
        tree_from_json(text, "step 3's tree")
    assert "step 3's tree" in str(refused.value)


def columns(trees: dict[int, tuple[TreeNode, ...]]) -> dict[str, list]:
    """Tokens of three steps, two tokens each, and the trees of `trees` as the window saves
    them."""
    steps = [1, 1, 2, 2, 3, 3]
    cols: dict[str, list] = {name: [None] * 6 for name in TOKEN_FIELDS}
    cols.update(id=list(range(6)), text=[f" w{i}" for i in range(6)], step=steps,
                origin=["draft", "target"] * 3, accepted=[True] * 6,
                tree=tree_column(steps, trees, 0, 6))
    return cols


def test_the_store_keeps_an_answers_trees():
    store = ChatStore.in_memory()
    chat = store.create("trees")
    trees = {1: TREE, 3: TREE[:2]}
    store.add_answer(chat, " w0 w1 w2 w3 w4 w5", tokens=columns(trees))
    tokens = store.load(chat)[0].tokens
    # on each tree step's first token
    assert [t is not None for t in tokens["tree"]] == [True, False, False, False, True, False]
    assert trees_of(tokens["step"], tokens["tree"]) == trees


def test_a_tree_saved_with_its_steps_first_token_is_not_saved_again():
    # saved while streaming: the second save begins inside step 2, whose tree went with the first
    assert tree_column([1, 2, 2], {2: TREE}, 2, 3) == [None]
    assert tree_column([1, 2, 2], {2: TREE}, 1, 3) == [tree_to_json(TREE), None]


def test_an_answer_saved_before_trees_were_kept_opens_without_them():
    store = ChatStore.in_memory()
    chat = store.create("old")
    message = store.add_answer(chat, " w0 w1 w2 w3 w4 w5")
    cols = columns({})
    old_fields = TOKEN_FIELDS[:-1]  # the columns a version before trees wrote
    doc = {"format": 1, "fields": old_fields, "columns": [cols[f] for f in old_fields]}
    blob = zlib.compress(json.dumps(doc).encode())
    store._db.execute("INSERT INTO answer_tokens (message_id, seq, tokens) VALUES (?, 0, ?)",
                      (message, blob))
    tokens = store.load(chat)[0].tokens
    assert tokens["text"] == cols["text"] and tokens["tree"] == [None] * 6
    assert trees_of(tokens["step"], tokens["tree"]) == {}
    assert unpack_tokens(blob)["tree"] == [None] * 6


def test_a_damaged_stored_tree_is_left_out_and_nothing_else(caplog):
    cols = columns({1: TREE, 2: TREE[:1], 3: TREE})
    cols["tree"][2] = json.dumps(DAMAGED["two kept siblings"])
    cols["tree"][4] = "<script>alert(1)</script>"
    assert trees_of(cols["step"], cols["tree"], "message 7") == {1: TREE}
    assert "message 7: 2 damaged draft trees left out" in caplog.text


def test_an_exported_conversation_keeps_its_trees_and_a_damaged_one_is_refused():
    store = ChatStore.in_memory()
    chat = store.create("trees")
    store.add_user(chat, "count")
    store.add_answer(chat, " w0 w1 w2 w3 w4 w5", tokens=columns({2: TREE}))
    doc = json.loads(json.dumps(export_json(store, chat)))  # as written to a file
    copy = import_json(store, doc)
    tokens = store.load(copy)[1].tokens
    assert trees_of(tokens["step"], tokens["tree"]) == {2: TREE}

    doc["messages"][1]["tokens"]["tree"][2] = json.dumps(DAMAGED["a sibling's rank twice"])
    n_chats = len(store.list())
    with pytest.raises(ChatImportError) as refused:
        import_json(store, doc)
    assert "message 2: tokens: tree[2]" in str(refused.value)
    assert "rank or the token of a sibling" in str(refused.value)
    assert len(store.list()) == n_chats  # nothing stored
