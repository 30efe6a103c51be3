"""The HTML page draws a tree step's draft tree (issue 42): every node's token as text, its q
and p, which branch was kept, which nodes were rejected or cut, and a kept second choice that
left the chain; a page of an answer without trees has no tree section."""

from __future__ import annotations

from dataclasses import replace
from html.parser import HTMLParser

from test_export_html import TokenPage, expected_tokens, scripted_trace

from backend import export_html
from backend.engine.events import StepVerified, Token, TreeNode
from backend.traces import Trace

HOSTILE = '<script>alert("x")</script>'

# " a" kept; under it the first choice " b" rejected (its child " c" cut) and the second choice
# " x" kept, then " y" kept: the answer left the chain at " x". A hostile first-level sibling.
TREE = (TreeNode(-1, 1, " a", 0.9, 0.9, 0, True), TreeNode(0, 2, " b", 0.6, 0.1, 0, False),
        TreeNode(1, 3, " c", 0.9, None, 0, False), TreeNode(0, 4, " x", 0.3, 0.9, 1, True),
        TreeNode(3, 5, " y", 0.8, 0.9, 0, True), TreeNode(-1, 6, HOSTILE, 0.05, 0.0, 1, False))


def tree_trace() -> Trace:
    """The scripted trace with its second step made a tree step: kept " a x y", then the
    target's token."""
    trace = scripted_trace()
    drafted = (Token(1, " a", "draft", True, 0.9, 0.9), Token(4, " x", "draft", True, 0.9, 0.3),
               Token(5, " y", "draft", True, 0.9, 0.8), Token(2, " b", "draft", False, 0.1, 0.6))
    step = StepVerified(2, drafted, 3, (*drafted[:3], Token(7, "\n' & <i>", "target", True)),
                        1.0, 2.0, tree=TREE)
    events = list(trace.events)
    i = next(i for i, e in enumerate(events) if isinstance(e, StepVerified) and e.step == 2)
    events[i] = step
    text = "".join(t.text for e in events if isinstance(e, StepVerified) for t in e.emitted)
    events[-1] = replace(events[-1], text=text)
    return Trace(trace.request, tuple(events), trace.target_model, trace.draft_model)


class TreeItems(HTMLParser):
    """Each tree node's `li`: (class, token text, depth, the words after the token)."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.items: list[list] = []
        self.depth = 0
        self.in_code = False
        self.tags: list[str] = []
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        a = dict(attrs)
        if tag == "ul" and (self.depth or a.get("class") == "tree"):
            self.depth += 1
        elif tag == "li" and self.depth:
            self.items.append([a.get("class"), "", self.depth, ""])
        self.in_code = tag == "code" and self.depth > 0

    def handle_endtag(self, tag):
        if tag == "ul" and self.depth:
            self.depth -= 1
        if tag == "code":
            self.in_code = False

    def handle_data(self, data):
        if self.depth and self.items:
            self.items[-1][1 if self.in_code else 3] += data


def test_the_tree_step_is_drawn_with_its_verdicts():
    page = export_html.answer_html(tree_trace())
    items = TreeItems(page).items
    assert [(c, t, d) for c, t, d, _ in items] == [
        ("node-kept", "' a'", 1), ("node-rejected", "' b'", 2), ("node-cut", "' c'", 3),
        ("node-kept", "' x'", 2), ("node-kept", "' y'", 3),
        ("node-rejected", repr(HOSTILE), 1)]
    # each token styled by its own verdict, not by a rejected ancestor's
    assert '<code class="tree-cut">&#x27; c&#x27;</code>' in page
    words = {t: rest for _, t, _, rest in items}
    assert "q 0.60 · p 0.10" in words["' b'"] and "✗ rejected" in words["' b'"]
    assert "q 0.90 · p –" in words["' c'"] and "cut, never examined" in words["' c'"]
    assert "choice number 2, kept" in words["' x'"] and "left the chain" in words["' x'"]
    assert "left the chain" not in words["' a'"] + words["' y'"]
    whole = "".join(TokenPage(page).text)
    assert "Step 2" in whole and "Draft trees (1 step)" in whole
    assert "6 nodes in one batch; the target kept 3 of them, ' x' being the drafter's choice " \
           "number 2" in whole


def test_a_hostile_token_in_the_tree_stays_text():
    page = export_html.answer_html(tree_trace())
    assert "script" not in TreeItems(page).tags
    assert HOSTILE not in page and "&lt;script&gt;" in page


def test_the_tree_steps_tokens_say_where_the_tree_is():
    trace = tree_trace()
    page = TokenPage(export_html.answer_html(trace))
    # the tree's tokens are not the answer's: a script reading the page finds the same tokens
    assert [(k, t) for k, t, _ in page.tokens] == expected_tokens(trace.events)
    titles = [a["title"] for _, _, a in page.tokens if a["data-step"] == "2"]
    assert titles and all("draft tree of 6 nodes is drawn below" in t for t in titles)


def test_an_answer_without_trees_has_no_tree_section():
    # not even the tree's style sheet: the page is the one made before trees existed
    assert "tree" not in export_html.answer_html(scripted_trace()).lower()
    # the tree trace without its tree: the same page as the chain's
    plain = tree_trace()
    plain = Trace(plain.request, tuple(replace(e, tree=()) if isinstance(e, StepVerified)
                                       else e for e in plain.events),
                  plain.target_model, plain.draft_model)
    assert "tree" not in export_html.answer_html(plain).lower()
