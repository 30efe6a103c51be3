"""The Markdown view of a streaming answer grows by what arrives: appending chunk by chunk
ends with the same blocks as building the whole text at once, and only the last block is
ever built again."""

from __future__ import annotations

import random

from app.transcript.markdown_blocks import split_blocks
from app.transcript.markdown_view import CodeBlock, MarkdownView

TEXT = ("Intro with *emphasis* and `code`.\n\n```python\ndef f(x):\n    return x\n```\n"
        "Between the blocks &amp; <b>not bold</b>.\n~~~\nplain fence\n~~~\n\nTail line.\n"
        "```js\nconsole.log(1)\n")  # an unclosed fence, as a stream cut short


def shown(view: MarkdownView) -> list[tuple[str, str, str]]:
    return [(b.kind, b.text, b.language) for b in view._blocks]


def test_block_starts_point_at_their_first_line():
    for block in split_blocks(TEXT):
        line = TEXT[block.start:].split("\n", 1)[0]
        if block.kind == "code":
            assert line.lstrip().startswith(("```", "~~~"))
        else:
            assert block.text.startswith(line)


def test_appending_chunks_equals_building_the_whole(qtbot):
    whole = MarkdownView()
    qtbot.addWidget(whole)
    whole.set_text(TEXT)
    rng = random.Random(3)
    for _ in range(20):
        view = MarkdownView()
        qtbot.addWidget(view)
        cuts = sorted(rng.sample(range(1, len(TEXT)), 12))
        rebuilt = 0
        for a, b in zip([0, *cuts], [*cuts, len(TEXT)], strict=True):
            before = len(view._blocks)
            view.append(TEXT[a:b])
            rebuilt += len(view._blocks) - max(0, before - 1)  # new or rebuilt blocks
        assert shown(view) == shown(whole) == [(b.kind, b.text, b.language)
                                                for b in split_blocks(TEXT)]
        assert [c.code for c in view.code_blocks()] == [c.code for c in whole.code_blocks()]
        assert rebuilt <= 13 + len(whole._blocks)  # one block per chunk, plus the new ones
        assert all(isinstance(c, CodeBlock) for c in view.code_blocks())
