"""A request without `inspect` (what `draftlight generate` sends when it prints text alone): the
same tokens, drafts and text as with it, every greedy row read for its argmax alone, and no
token carrying a p or an inspector's record; --json, --html and --trace ask for them."""

from __future__ import annotations

import pytest

from backend.cli.generate import request_from_args
from backend.cli.main import build_parser
from backend.engine import greedy_loop, sampling
from backend.engine.events import GenerationFinished, StepVerified
from backend.engine.request import GenerationRequest, SamplingSettings


def answer(engine, request: GenerationRequest):
    events = list(engine.generate(request))
    steps = [e for e in events if isinstance(e, StepVerified)]
    (final,) = [e for e in events if isinstance(e, GenerationFinished)]
    return steps, final


@pytest.mark.parametrize("spec", [
    {}, {"spec_type": "draft", "n_draft_max": 4},
    {"spec_type": "draft", "n_draft_max": 4, "sampling": SamplingSettings(repeat_penalty=1.3)},
    {"spec_type": "draft", "n_draft_max": 4, "tree_nodes": 8},
], ids=["plain", "draft", "draft, penalty", "draft tree"])
def test_the_same_answer_without_what_shows_it(count_engine, monkeypatch, spec):
    from backend.engine import engine as engine_module
    from backend.engine import row_stats

    # a core for the background reader, which an answer reading argmaxes alone leaves asleep
    monkeypatch.setattr(engine_module.Engine, "_reader_core", lambda self: True)
    awake: list[bool] = []
    monkeypatch.setattr(row_stats, "_keep_awake", awake.append)
    read: list[str] = []  # how the target's rows were read (a draft model's own are not)

    def counted(name):
        original = getattr(sampling, name)

        def call(*args, **kwargs):
            if name == "argmax_row" or "owner" in kwargs:
                read.append(name)
            return original(*args, **kwargs)
        return call

    for name in ("greedy_row", "argmax_row"):
        monkeypatch.setattr(sampling, name, counted(name))
    base = GenerationRequest(prompt=" zero one", max_tokens=24, measure_plain=False, **spec)
    shown, shown_final = answer(count_engine, base)
    assert set(read) == {"greedy_row"}
    # a plain answer's next decode follows each row's argmax at once (Engine._pipelines):
    # nothing for the reader to overlap
    assert awake == ["spec_type" in spec, False]
    read.clear()
    awake.clear()
    bare, bare_final = answer(count_engine, GenerationRequest(**{**base.__dict__,
                                                                 "inspect": False}))
    # no row's log-sum-exp or top five: argmaxes alone (a plain answer's in C, greedy_loop.py)
    in_c = not spec and greedy_loop.usable(count_engine._ctx)
    assert set(read) == (set() if in_c else {"argmax_row"})
    assert awake == [False, False]
    assert bare_final.text == shown_final.text and len(bare) == len(shown) > 1

    def ids(steps):
        return [([(t.id, t.origin, t.accepted) for t in s.emitted],
                 [(t.id, t.accepted) for t in s.drafted]) for s in steps]

    assert ids(bare) == ids(shown)
    tokens = [t for s in bare for t in (*s.emitted, *s.drafted)]
    assert all(t.p_target is None and t.inspection is None for t in tokens)
    shown_tokens = [t for s in shown for t in s.emitted]
    assert all(t.p_target is not None and t.inspection for t in shown_tokens)


def test_a_row_read_for_its_choice_has_nothing_else_to_give():
    import numpy as np

    row = sampling.ArgmaxRow(np.array([0.5, 2.0, 2.0, -1.0], np.float32))
    assert row.best == 1 and row.detach([1]) is row
    with pytest.raises(RuntimeError):
        row.p(1)
    with pytest.raises(RuntimeError):
        row.top()


@pytest.mark.parametrize(("extra", "inspect"), [
    ([], False), (["--no-color"], False), (["--json"], True),
    (["--html", "a.html"], True), (["--trace", "t.json"], True),
])
def test_the_command_asks_for_what_it_shows(extra, inspect):
    args = build_parser().parse_args(["generate", "--model", "m.gguf", *extra, "a prompt"])
    assert request_from_args(args, "none").inspect is inspect
