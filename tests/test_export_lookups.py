"""The HTML page draws each lookup's accepted copies in that lookup's shade, dashed, as the
window does (a chain's copies told from the draft model's guesses), keys the lookups the
answer drafted with, and says in the hover where a copy was found, an earlier chat too."""

from __future__ import annotations

from test_export_html import TokenPage

from backend import export_html, palette
from backend.engine.events import (
    GenerationStarted,
    StepVerified,
    Token,
    Verification,
    verification_to_json,
)
from backend.engine.request import GenerationRequest, Message
from backend.traces import Trace


def _tok(i: int, text: str, origin: str, accepted: bool = True,
         match_at: int | None = None) -> Token:
    v = Verification("greedy", match_at=match_at, match_text=" zero" if match_at else "")
    return Token(i, text, origin, accepted, 0.9, None, None,
                 None if origin == "target" else verification_to_json(v))


def chain_trace() -> Trace:
    """"ngram-mod,draft": a step the lookup drafted (one copy from this chat, one from an
    earlier one), then one the draft model drafted."""
    mod = (_tok(1, " one", "ngram-mod", match_at=3), _tok(2, " two", "ngram-mod"))
    draft = (_tok(3, " three", "draft"), _tok(4, " four", "draft", accepted=False))
    steps = (StepVerified(1, mod, 2, (*mod, _tok(5, " x", "target")), 0.0, 1.0),
             StepVerified(2, draft, 1, (draft[0], _tok(6, " y", "target")), 0.0, 1.0))
    return Trace(GenerationRequest(messages=(Message("user", "Count"),),
                                   spec_type="ngram-mod,draft", n_draft_max=4),
                 (GenerationStarted(1, "ngram-mod,draft", 4, 9), *steps), "t.gguf", "d.gguf")


def test_a_lookups_copy_is_in_its_shade_and_a_models_guess_is_accepted():
    page_text = export_html.answer_html(chain_trace())
    page = TokenPage(page_text)
    classes = [(a["class"], a["data-origin"]) for _, _, a in page.tokens]
    assert classes == [("accepted lookup-ngram-mod", "ngram-mod")] * 2 + [
        ("target", "target"), ("accepted", "draft"), ("rejected", "draft"), ("target", "target")]
    css = page_text.split("</style>")[0]
    for name, fg in zip(palette.LOOKUP_KINDS, palette.LIGHT.lookup_fg, strict=True):
        rule = css.split(f".accepted.lookup-{name},")[1].split("}")[0]
        assert f"color: {fg};" in rule and "dashed" in rule, name


def test_the_key_names_the_lookups_it_drafted_with():
    page_text = export_html.answer_html(chain_trace())
    legend = page_text.split('<p class="legend">')[1].split("</p>")[0]
    assert '<span class="key-lookup-ngram-mod">n-gram mod</span> (dashed: a copy)' in legend
    assert "key-lookup-ngram-cache" not in legend and "key-lookup-ngram\"" not in legend
    plain = Trace(GenerationRequest(prompt="x", spec_type="draft"),
                  (GenerationStarted(1, "draft", 4, 9),), "t.gguf", "d.gguf")
    assert "key-lookup" not in export_html.answer_html(plain).split("</style>")[1]


def test_the_hover_says_where_each_copy_was_found():
    page = TokenPage(export_html.answer_html(chain_trace()))
    here, earlier = (a["title"] for _, _, a in page.tokens[:2])
    assert "drafted by n-gram mod" in here and "copied from earlier, after …' zero'" in here
    assert "copied from an earlier chat with this model (kept across chats)" in earlier
    model_guess = page.tokens[3][2]["title"]
    assert "drafted by the draft model" in model_guess and "copied" not in model_guess
