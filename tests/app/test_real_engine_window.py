"""The window on the real engine and the synthetic counting pair: what the construction
rejects is exactly what the transcript strikes out."""

from __future__ import annotations

import build as model_builder  # tests/models/build.py, on sys.path via tests/conftest.py
from counting_window import open_counting_pair
from doc_reading import kind_runs

from app.engine_link.worker import default_engine_factory

WORDS = [" " + w for w in model_builder.CYCLE_WORDS]
N = len(WORDS)


def target_next(word: str) -> str:
    if word not in WORDS:
        return WORDS[0]
    return WORDS[(WORDS.index(word) + 1) % N]


def draft_next(word: str) -> str:
    """count-draft skips a word after every cycle index i with (i + 1) % k == 0."""
    if word not in WORDS:
        return WORDS[0]
    i = WORDS.index(word)
    skip = (i + 1) % model_builder.DRAFT_SKIP_EVERY == 0
    return WORDS[(i + (2 if skip else 1)) % N]


def expected_from_construction(log) -> tuple[list[str], list[str]]:
    """Per step, the draft chain the construction proposes from the last emitted word, split
    into the prefix the target accepts and the rest it rejects."""
    accepted, rejected = [], []
    context = "\n"  # the chat template's last token: not a cycle word
    i = 0
    while i < len(log):
        step = log.step[i]
        j = i
        while j < len(log) and log.step[j] == step:
            j += 1
        n_drafted = sum(1 for k in range(i, j) if log.origin[k] != "target")
        chain, word = [], context
        for _ in range(n_drafted):
            word = draft_next(word)
            chain.append(word)
        n_ok, expect = 0, context
        while n_ok < len(chain) and chain[n_ok] == target_next(expect):
            expect = chain[n_ok]
            n_ok += 1
        accepted += chain[:n_ok]
        rejected += chain[n_ok:]
        emitted = [log.text[k] for k in range(i, j)
                   if log.origin[k] == "target" or log.accepted[k]]
        context = emitted[-1] if emitted else context
        i = j
    return accepted, rejected


def test_counting_pair_rejections_are_struck_out(make_window, qtbot, test_models):
    w = make_window(engine_factory=default_engine_factory, persist=False)
    open_counting_pair(w, qtbot, test_models, max_tokens=40)
    with qtbot.waitSignal(w.answer_finished, timeout=60_000) as done:
        assert w.send("zero one")
    widget = done.args[0]
    answer = widget.answer
    assert answer.error is None, answer.error
    log = answer.tokens
    exp_accepted, exp_rejected = expected_from_construction(log)
    assert exp_rejected, "the construction must reject something in 40 tokens"
    runs = kind_runs(widget.token_view.document())
    shown_rejected = "".join(t for k, t in runs if k == "rejected")
    shown_accepted = "".join(t for k, t in runs if k == "accepted")
    assert shown_rejected == "".join(exp_rejected)
    assert shown_accepted == "".join(exp_accepted)
    # The answer itself counts without gaps.
    words = [t for t in answer.text.split(" ") if t]
    assert words[:12] == [w_.strip() for w_ in WORDS]


def test_first_run_opens_the_demo_pair_drafting(qtbot, make_window):
    """No model remembered: the shipped model becomes an F32 target with its Q8_0 copy as the
    draft, spec type "draft", made on the worker thread without any download."""
    w = make_window(engine_factory=default_engine_factory, persist=False)
    with qtbot.waitSignal(w.models_changed, timeout=120_000) as loaded:
        w.open_demo()
    target, _ = loaded.args
    assert target is not None, w.banner.text()
    qtbot.waitUntil(lambda: w.draft is not None and not w.loading, timeout=120_000)
    assert w.draft.path.endswith("Q8_0.gguf") and target.path.endswith("F32.gguf")
    assert w.panel.generation_settings().spec_type == "draft"
    with qtbot.waitSignal(w.answer_finished, timeout=120_000) as done:
        assert w.send("Say hello.")
    answer = done.args[0].answer
    assert answer.error is None, answer.error
    assert answer.n_drafted > 0 and answer.n_accepted > 0
