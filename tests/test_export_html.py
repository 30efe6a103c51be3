"""The HTML export: the page shows every token of the events, in the window's order, with its
kind as its class; model text stays text; the colours are the window's."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

from backend import export_html, palette
from backend.engine.events import (
    GenerationFailed,
    GenerationFinished,
    GenerationStarted,
    PromptProcessed,
    Stats,
    StepVerified,
    Token,
)
from backend.engine.request import GenerationRequest, Message
from backend.traces import Trace

KINDS = ("accepted", "rejected", "target")
ROOT = Path(__file__).resolve().parents[1]


class TokenPage(HTMLParser):
    """Every element whose class names a token kind: (kind, text, attributes), in order;
    plus the tags and the page's whole text."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tokens: list[tuple[str, str, dict]] = []
        self.tags: list[str] = []
        self.text: list[str] = []
        self._open: list[bool] = []
        self.feed(page)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        a = dict(attrs)
        kinds = [k for k in (a.get("class") or "").split() if k in KINDS]
        if kinds:
            self.tokens.append((kinds[0], "", a))
        if tag not in ("meta",):
            self._open.append(bool(kinds))

    def handle_endtag(self, tag):
        if tag != "meta":
            self._open.pop()

    def handle_data(self, data):
        self.text.append(data)
        if self._open and self._open[-1]:
            kind, text, a = self.tokens[-1]
            self.tokens[-1] = (kind, text + data, a)


def expected_tokens(events) -> list[tuple[str, str]]:
    """The window's order (backend/engine/token_log.py TokenLog.add_step), built here
    independently."""
    out = []
    for e in events:
        if isinstance(e, StepVerified):
            n = 0
            while n < len(e.emitted) and e.emitted[n].origin != "target":
                n += 1
            out += [("accepted", t.text) for t in e.emitted[:n]]
            out += [("rejected", t.text) for t in e.drafted if not t.accepted]
            out += [("target", t.text) for t in e.emitted[n:]]
    return out


def _tok(i, text, origin="draft", accepted=True, p=0.9, q=0.8):
    return Token(i, text, origin, accepted, p, q)


def scripted_trace() -> Trace:
    """Built by hand, no model: markup-looking text in every place a model's text goes."""
    steps = (
        StepVerified(1, (_tok(1, "<b>"), _tok(2, " &amp;"), _tok(3, "</div>", accepted=False,
                                                             p=None)),
                     2, (_tok(1, "<b>"), _tok(2, " &amp;"),
                         _tok(4, ' "x" <script>alert(1)</script>', "target", q=None)), 1.0, 2.0),
        StepVerified(2, (), 0, (_tok(5, "\n' & <i>", "target", q=None),), 0.0, 1.0),
    )
    text = "".join(t.text for s in steps for t in s.emitted)
    return Trace(
        GenerationRequest(messages=(Message("user", "Say <b>bold</b> & more"),),
                          spec_type="draft", n_draft_max=3),
        (GenerationStarted(1, "draft", 3, 9), PromptProcessed(9, 0, 4.0), *steps,
         GenerationFinished("length", text, Stats(
             n_prompt=9, n_generated=4, n_steps=2, n_draft_steps=1, n_drafted=3, n_accepted=2,
             generation_ms=40.0, ttft_ms=12.0, plain_tokens_per_second=50.0, plain_steps=6,
             plain_spread=0.01))),
        target_model="<target>.gguf", draft_model="d&d.gguf",
    )


def test_model_text_stays_literal_text():
    trace = scripted_trace()
    page = TokenPage(export_html.answer_html(trace))
    assert [(k, t) for k, t, _ in page.tokens] == expected_tokens(trace.events)
    assert [t for _, t, _ in page.tokens][:3] == ["<b>", " &amp;", "</div>"]
    assert "b" not in page.tags and "i" not in page.tags and "script" not in page.tags
    whole = "".join(page.text)
    assert "Say <b>bold</b> & more" in whole  # the prompt, as text
    assert "<target>.gguf" in whole and "d&d.gguf" in whole
    rejected = next(a for k, _, a in page.tokens if k == "rejected")
    assert "'</div>'" in rejected["title"]  # the hover carries the text as data too


def test_hover_says_step_origin_and_probabilities():
    page = TokenPage(export_html.answer_html(scripted_trace()))
    kind, _, a = page.tokens[1]
    assert kind == "accepted"
    assert "step 1, draft token 2 of 3" in a["title"]
    assert "origin: draft (drafted by the draft model)" in a["title"]
    assert "p_target = 0.9000" in a["title"] and "p_draft = 0.8000" in a["title"]
    assert (a["data-step"], a["data-origin"], a["data-p-target"], a["data-p-draft"]) == (
        "1", "draft", "0.9", "0.8")
    rejected = page.tokens[2][2]
    assert "p_target unknown" in rejected["title"] and "data-p-target" not in rejected


def test_stats_legend_and_self_contained():
    page_text = export_html.answer_html(scripted_trace())
    page = TokenPage(page_text)
    whole = "".join(page.text)
    for words in ("100.0 tok/s", "×2.00 vs plain (50 tok/s, 6 plain steps)", "first token 12 ms",
                  "4 tokens",
                  "drafted 3 / accepted 2", "acceptance 66.7 %", "2.00 accepted/step",
                  "max tokens reached", "accepted draft", "rejected draft",
                  "the target's own token"):
        assert words in whole, words
    assert "script" not in page.tags and "link" not in page.tags and "img" not in page.tags
    assert "http" not in page_text  # no URL to fetch
    assert "text-decoration: underline" in page_text and "line-through" in page_text


def test_a_failed_answer_says_so():
    trace = scripted_trace()
    failed = Trace(trace.request, (*trace.events[:3], GenerationFailed("llama.cpp <crashed>.")),
                   trace.target_model)
    page = TokenPage(export_html.answer_html(failed))
    assert "Failed after 3 tokens: llama.cpp <crashed>." in "".join(page.text)
    assert [(k, t) for k, t, _ in page.tokens] == expected_tokens(failed.events)


def test_the_counting_pair_page_matches_its_events(tmp_path, test_models):
    from engine.runner import loaded_engine

    request = GenerationRequest(prompt=" zero one", spec_type="draft", n_draft_max=4,
                                max_tokens=20)
    with loaded_engine(test_models / "count-target.gguf", test_models / "count-draft.gguf",
                       n_ctx=256, n_threads=1) as engine:
        events = tuple(engine.generate(request))
    trace = Trace(request, events, "count-target.gguf", "count-draft.gguf")
    export_html.write_html(tmp_path / "a.html", trace)
    page = TokenPage((tmp_path / "a.html").read_text(encoding="utf-8"))
    got = [(k, t) for k, t, _ in page.tokens]
    assert got == expected_tokens(events)
    assert {k for k, _ in got} == set(KINDS)
    assert "".join(t for k, t in got if k != "rejected") == events[-1].text


def test_the_page_is_drawn_in_the_windows_light_colours():
    """The page's colours are the window's light theme's, declared once in backend/palette.py
    (the Qt theme reads the same declaration)."""
    css = export_html.answer_html(scripted_trace()).split("</style>")[0]
    for colour in (palette.LIGHT.accepted_fg, palette.LIGHT.accepted_bg,
                   palette.LIGHT.rejected_fg, palette.LIGHT.rejected_bg,
                   palette.LIGHT_TEXT, palette.LIGHT_BASE):
        assert colour.lower() in css.lower(), colour


def test_the_hover_carries_the_inspectors_values_for_a_sampled_answer(test_models):
    from engine.runner import loaded_engine

    from backend.engine.request import SamplingSettings

    request = GenerationRequest(prompt=" zero one", spec_type="draft", n_draft_max=4,
                                max_tokens=30, sampling=SamplingSettings(temperature=0.7, seed=5))
    with loaded_engine(test_models / "count-target.gguf", test_models / "count-draft.gguf",
                       n_ctx=256, n_threads=1) as engine:
        events = tuple(engine.generate(request))
    page = TokenPage(export_html.answer_html(Trace(request, events, "t.gguf", "d.gguf")))
    tokens = [t for e in events if isinstance(e, StepVerified)
              for _, _, t in export_html.display_order(e)]
    assert len(tokens) == len(page.tokens)
    checked = 0
    for token, (kind, _, a) in zip(tokens, page.tokens, strict=True):
        v = token.verification
        if v is not None and v.draw is not None:
            assert a["data-u"] == repr(v.draw)
            assert a["data-accept-prob"] == repr(v.accept_prob)
            sign = "<" if kind == "accepted" else "≥"
            assert f"u = {v.draw:.4f} {sign} min(1, p/q) = {v.accept_prob:.4f}" in a["title"]
            checked += 1
        if v is not None and v.top_target:
            assert "top target p: " + repr(v.top_target[0].text) in a["title"]
        if kind == "target" and v is not None and v.drawn_from == "residual":
            assert "drawn from the residual max(0, p − q), normalised" in a["title"]
    assert checked, "no sampled draft was verified"
