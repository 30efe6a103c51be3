"""Reading a token view's document back: (kind, text) runs from the formats actually applied."""

from __future__ import annotations

from app.transcript.token_formats import KIND_PROPERTY, REJECTED


def kind_runs(document) -> list[tuple[str, str]]:
    """Adjacent characters of the same kind merged, across fragments and blocks."""
    runs: list[tuple[str, str]] = []
    block = document.begin()
    first = True
    while block.isValid():
        if not first:
            _append(runs, runs[-1][0] if runs else "target", "\n")
        first = False
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            kind = fragment.charFormat().property(KIND_PROPERTY)
            _append(runs, kind, fragment.text())
            it += 1
        block = block.next()
    return runs


def _append(runs: list[tuple[str, str]], kind, text: str) -> None:
    if runs and runs[-1][0] == kind:
        runs[-1] = (kind, runs[-1][1] + text)
    else:
        runs.append((kind, text))


def expected_runs(steps) -> list[tuple[str, str]]:
    """What the rendering rule says a sequence of StepVerified events must look like."""
    runs: list[tuple[str, str]] = []
    for step in steps:
        own = [t for t in step.emitted if t.origin != "target"]
        for t in own:
            _append(runs, "accepted", t.text)
        for t in step.drafted:
            if not t.accepted:
                _append(runs, REJECTED, t.text)
        for t in step.emitted[len(own):]:
            _append(runs, "target", t.text)
    return [(k, t) for k, t in runs if t]


def struck_out(document) -> list[str]:
    return [text for kind, text in kind_runs(document) if kind == REJECTED]
