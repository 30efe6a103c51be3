"""The draft trees of an answer's tree steps on its HTML page (backend/export_html.py): each as
a nested list under the root (the history's last token), as the inspector draws it
(app/teaching/tree_drawing.py): every node's token, the drafter's q, the target's p where its
row was read, and its verdict: kept, rejected (examined and refused) or cut (under a rejected
node, never examined); a kept node that was not the drafter's first choice is said to have
left the chain. Verdicts are words as well as colours, and a token's text is escaped."""

from __future__ import annotations

import html
from collections.abc import Sequence

from backend.engine.events import StepVerified, TreeNode, tree_children
from backend.palette import LIGHT

# Kept and rejected nodes in the token kinds' colours and cues; a cut node greyed and dashed.
# The class is on the token's own `code` (one on its `li` would reach its children's too),
# named apart from the answer's token kinds, which scripts reading the page look for.
CSS = f"""
.trees h2 {{ font-size: 1.1em; margin-bottom: 0.2em; }}
.tree-step h3 {{ font-size: 1em; margin: 0.8em 0 0.1em; }}
.tree-step p {{ margin: 0 0 0.2em; color: #555; }}
.tree, .tree ul {{ list-style: none; margin: 0; padding-left: 1.4em; }}
.tree {{ padding-left: 0.4em; font-variant-numeric: tabular-nums; }}
.tree li {{ border-left: 1px solid #BBB; padding-left: 0.5em; }}
.tree code {{ white-space: pre; padding: 0 0.2em; }}
.tree code.tree-kept {{ color: {LIGHT.accepted_fg}; background: {LIGHT.accepted_bg};
                       text-decoration: underline; }}
.tree code.tree-rejected {{ color: {LIGHT.rejected_fg}; background: {LIGHT.rejected_bg};
                           text-decoration: line-through; }}
.tree code.tree-cut {{ color: #666; border: 1px dashed #999; }}
.verdict, .probs {{ color: #555; margin-left: 0.6em; }}
.left-chain {{ font-weight: bold; margin-left: 0.6em; }}
"""


def tree_section(steps: Sequence[StepVerified]) -> list[str]:
    """The page's lines for the steps that verified a tree; none when no step did."""
    trees = [s for s in steps if s.tree]
    if not trees:
        return []
    return ['<section class="trees">',
            f"<h2>Draft trees ({len(trees)} {'step' if len(trees) == 1 else 'steps'})</h2>",
            '<p class="hint">Each tree as the drafter proposed it, under the last token of '
            "the history: q is the drafter's probability, p the target's where it was read. "
            "The target walks it from the top, keeping a branch; nodes under a rejected one "
            "are cut, never examined.</p>",
            *(line for step in trees for line in _tree_step(step)),
            "</section>"]


def _tree_step(step: StepVerified) -> list[str]:
    tree = step.tree
    kept = [n for n in tree if n.kept]
    summary = f"{len(tree)} nodes in one batch; the target kept {len(kept)} of them"
    off = next((n for n in kept if n.rank > 0), None)
    if off is not None:
        summary += (f", {off.text!r} being the drafter's choice number {off.rank + 1} there: "
                    "a chain would have stopped before it")
    return [f'<div class="tree-step" id="tree-{step.step}">',
            f"<h3>Step {step.step}</h3>",
            f"<p>{html.escape(summary)}</p>",
            *_nested(tree),
            "</div>"]


def _nested(tree: Sequence[TreeNode]) -> list[str]:
    """The nodes as nested lists, children in the drafter's order of preference."""
    children = tree_children(tree)
    lines: list[str] = []

    def walk(parent: int, css: str) -> None:
        lines.append(f'<ul{css}>')
        for i in children.get(parent, []):
            lines.append(_node(tree[i]))
            if i in children:
                walk(i, "")
            lines.append("</li>")
        lines.append("</ul>")

    walk(-1, ' class="tree"')
    return lines


def verdict(node: TreeNode) -> str:
    if node.kept:
        return "kept"
    return "rejected" if node.p is not None else "cut"


_VERDICT_WORDS = {"kept": "✓ kept", "rejected": "✗ rejected", "cut": "· cut, never examined"}


def _node(node: TreeNode) -> str:
    """One node's `li`, left open for its children."""
    kind = verdict(node)
    q = "–" if node.q is None else f"{node.q:.2f}"
    p = "–" if node.p is None else f"{node.p:.2f}"
    left = (f' <span class="left-chain">↳ the drafter\'s choice number {node.rank + 1}, kept: '
            "the answer left the chain here</span>" if node.kept and node.rank > 0 else "")
    # spaces between the parts: a page read without its style sheet still reads
    return (f'<li class="node-{kind}" data-id="{node.id}" data-rank="{node.rank}">'
            f'<code class="tree-{kind}">{html.escape(repr(node.text))}</code> '
            f'<span class="probs">q {q} · p {p}</span> '
            f'<span class="verdict">{_VERDICT_WORDS[kind]}</span>{left}')
