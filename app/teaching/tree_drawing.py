"""A step's draft tree as lines of text for the inspector (Qt-free): each node with its token,
the drafter's q, the target's p where it was read, and its verdict: kept, rejected (examined
and refused) or cut (under a rejected node, never examined). Children in the drafter's order
of preference, the branch the target kept marked all the way down."""

from __future__ import annotations

from app.i18n import translate
from app.teaching.inspection import shown
from backend.engine.events import TreeNode, tree_children


def _verdict(node: TreeNode) -> str:
    if node.kept:
        return translate("Tree", "✓ kept")
    if node.p is not None:
        return translate("Tree", "✗ rejected")
    return translate("Tree", "· cut, never examined")


def _label(node: TreeNode, verdicts: bool) -> str:
    q = "–" if node.q is None else f"{node.q:.2f}"
    if not verdicts:
        return f"{shown(node.text)}  q {q}"
    p = "–" if node.p is None else f"{node.p:.2f}"
    return f"{shown(node.text)}  q {q} · p {p}  {_verdict(node)}"


def tree_lines(tree: tuple[TreeNode, ...], *, verdicts: bool = True) -> list[str]:
    """The tree drawn with box-drawing branches under the root (the history's last token);
    without `verdicts`, as proposed: tokens and the drafter's q only."""
    children = tree_children(tree)
    lines: list[str] = []

    def walk(parent: int, prefix: str) -> None:
        kids = children.get(parent, [])
        for n, i in enumerate(kids):
            last = n == len(kids) - 1
            lines.append(prefix + ("└─ " if last else "├─ ") + _label(tree[i], verdicts))
            walk(i, prefix + ("   " if last else "│  "))

    walk(-1, "")
    return lines


def tree_summary(tree: tuple[TreeNode, ...]) -> str:
    """One line: the nodes, the branch kept, and whether it left the drafter's first choices."""
    kept = [n for n in tree if n.kept]
    off = next((n for n in kept if n.rank > 0), None)
    line = translate("Tree", "{n} nodes in one batch; the target kept {kept} of them").format(
        n=len(tree), kept=len(kept))
    if off is not None:
        line += translate("Tree", ", {token} being the drafter's choice number {rank} there: "
                          "a chain would have stopped before it").format(
            token=shown(off.text), rank=off.rank + 1)
    return line
