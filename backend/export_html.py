"""One answer as a self-contained HTML page: coloured tokens, legend, stats, details on hover.

For handing out after a lecture or attaching to a report: one file, inline CSS, no script and
no network, so it opens the same in any browser, offline, years later. Each token is a `span`
whose class names its kind (`accepted`, `rejected`, `target`; a lookup's accepted copy also
`lookup-<spec type>`, in that lookup's shade), in the order the window shows them, with its
step, origin and probabilities in `title` (the browser's hover) and in `data-` attributes
(for scripts that read the page). A step that verified a draft tree has it drawn after the
answer (backend/export_tree_html.py). Text from a model is data: every piece of it is
escaped, never markup.
"""

from __future__ import annotations

import html
import os
from collections.abc import Iterator
from pathlib import Path

from backend import APP_TITLE, __version__, spec_types
from backend.engine.events import (
    GenerationFailed,
    GenerationFinished,
    GenerationStarted,
    StepVerified,
    Token,
)
from backend.engine.plain_yardstick import speedup_words
from backend.engine.request import Message
from backend.export_tree_html import CSS as TREE_CSS
from backend.export_tree_html import tree_section
from backend.palette import LIGHT, LIGHT_BASE, LIGHT_TEXT, LOOKUP_KINDS, lookup_shade
from backend.stop_reasons import STOP_REASON_WORDS
from backend.traces import Trace

# The window's light theme, so a page looks like the answer did (backend/palette.py).
ACCEPTED_FG, ACCEPTED_BG = LIGHT.accepted_fg, LIGHT.accepted_bg
REJECTED_FG, REJECTED_BG = LIGHT.rejected_fg, LIGHT.rejected_bg
TEXT, BASE = LIGHT_TEXT, LIGHT_BASE

# Colour is never the only cue: accepted drafts are underlined, rejected ones struck out.
_CSS = f"""
body {{ font: 16px/1.5 system-ui, sans-serif; color: {TEXT}; background: {BASE};
       max-width: 52em; margin: 2em auto; padding: 0 1em; }}
h1 {{ font-size: 1.3em; margin-bottom: 0.2em; }}
.models, .hint {{ color: #555; margin-top: 0; }}
.prompt {{ white-space: pre-wrap; background: #F3F3F3; padding: 0.6em 0.8em;
           border-radius: 4px; }}
.answer {{ white-space: pre-wrap; font-size: 1.15em; line-height: 1.7; }}
.accepted, .key-accepted {{ color: {ACCEPTED_FG}; background: {ACCEPTED_BG};
                            text-decoration: underline; }}
.rejected, .key-rejected {{ color: {REJECTED_FG}; background: {REJECTED_BG};
                            text-decoration: line-through; }}
.target, .key-target {{ color: {TEXT}; }}
.legend > span {{ margin-right: 1.2em; padding: 0 0.2em; }}
.stats {{ font-variant-numeric: tabular-nums; }}
.failed {{ color: {REJECTED_FG}; font-weight: bold; }}
.earlier summary {{ color: #555; cursor: pointer; }}
* {{ -webkit-print-color-adjust: exact; print-color-adjust: exact; }}
"""
# A lookup's accepted copy in its own shade, dashed, as the window draws it
# (app/transcript/token_formats.py TokenFormats.drafted): a chain's copies are told from the
# draft model's guesses, and one lookup's from another's.
_CSS += "".join(
    f".accepted.lookup-{name}, .key-lookup-{name} {{ color: {fg}; background: {ACCEPTED_BG}; "
    f"text-decoration: underline dashed {fg}; }}\n"
    for name, fg in zip(LOOKUP_KINDS, LIGHT.lookup_fg, strict=True))


def answer_html(trace: Trace) -> str:
    """The page for one answer's trace."""
    started = next((e for e in trace.events if isinstance(e, GenerationStarted)), None)
    spec_name = started.spec_type if started else trace.request.spec_type
    spec = spec_types.get(spec_name)
    k = started.n_draft_max if started else trace.request.n_draft_max
    models = [f"target {trace.target_model or '(unnamed)'}"]
    if trace.draft_model:
        models.append(f"draft {trace.draft_model}")
    models.append(spec.caption if spec else spec_name)
    if spec is None or spec.drafts:
        models.append(spec_types.draft_length_words(spec_name, k))
    e = html.escape
    tokens = "".join(_token_spans(trace))
    steps = [e for e in trace.events if isinstance(e, StepVerified)]
    # a page without trees is the page it was before trees existed, style sheet included
    css = _CSS + TREE_CSS if any(s.tree for s in steps) else _CSS
    question, before = _question(trace)
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{e(APP_TITLE)} answer: {e(trace.target_model or 'trace')}</title>",
        f"<style>{css}</style>",
        "</head>",
        "<body>",
        f"<h1>{e(APP_TITLE)} answer</h1>",
        f'<p class="models">{e(" · ".join(models))}</p>',
        f'<div class="prompt">{e(question)}</div>',
        '<p class="legend"><span class="key-accepted">accepted draft</span>'
        '<span class="key-rejected">rejected draft</span>'
        "<span class=\"key-target\">the target's own token</span>"
        f"{_lookup_keys(trace, spec_name)}</p>",
        f'<div class="answer">{tokens}</div>',
        *_ending(trace),
        *tree_section(steps),
        *_earlier(before),
        '<p class="hint">Hover a token for its step, origin and probabilities. '
        f"Written by {e(APP_TITLE)} {e(__version__)}.</p>",
        "</body>",
        "</html>",
        "",
    ])


def write_html(path: str | os.PathLike[str], trace: Trace) -> None:
    # A lone surrogate in a rejected draft's text cannot be UTF-8: a character reference
    # (shown as U+FFFD) keeps the page writable instead of losing it.
    Path(path).write_text(answer_html(trace), encoding="utf-8", errors="xmlcharrefreplace")


def _question(trace: Trace) -> tuple[str, list[Message]]:
    """What this answer answered (a raw prompt, or the last user message) and the messages
    before it: the page leads with its own question, not with the whole chat."""
    request = trace.request
    if request.prompt is not None:
        return request.prompt, []
    messages = list(request.messages)
    last = max((i for i, m in enumerate(messages) if m.role == "user"), default=None)
    if last is None:
        return _messages_text(messages), []
    return messages[last].content, messages[:last]


def _messages_text(messages: list[Message]) -> str:
    return "\n\n".join(f"{m.role}: {m.content}" for m in messages)


def _earlier(messages: list[Message]) -> list[str]:
    """The conversation the model was also given, folded under the answer."""
    if not messages:
        return []
    n = len(messages)
    words = "1 earlier message" if n == 1 else f"{n} earlier messages"
    return ['<details class="earlier">',
            f"<summary>The conversation before this question ({words})</summary>",
            f'<div class="prompt">{html.escape(_messages_text(messages))}</div>',
            "</details>"]


def _lookup_keys(trace: Trace, spec_name: str) -> str:
    """The key's entry for each lookup the answer drafted with, as the window's legend shows
    those of the chosen spec type (a chain's lookups too)."""
    used = set(spec_types.drafters_of(spec_name))
    used.update(t.origin for e in trace.events if isinstance(e, StepVerified) for t in e.drafted)
    keys = []
    for name in (n for n in LOOKUP_KINDS if n in used):
        spec = spec_types.get(name)
        label = html.escape(spec.label if spec else name)
        keys.append(f'<span><span class="key-lookup-{name}">{label}</span> (dashed: a copy)'
                    "</span>")
    return "".join(keys)


def from_earlier_chat(token: Token) -> bool:
    """A lookup's copy found in no place of this conversation, for the page's hover and the
    window's inspector: ngram-mod's table and ngram-cache's counts are kept across the chats
    with a model, and their drafters give a token learnt in an earlier one no source (every
    lookup gives a copy found in this conversation its place, `Verification.match_at`)."""
    v = token.verification
    return (v is not None and v.match_at is None and token.origin != "target"
            and lookup_shade(token.origin) is not None)


def _token_spans(trace: Trace) -> Iterator[str]:
    for event in trace.events:
        if isinstance(event, StepVerified):
            for kind, position, token in display_order(event):
                yield _span(kind, event, position, token)


def display_order(step: StepVerified) -> Iterator[tuple[str, int | None, Token]]:
    """(kind, position in the draft or None, token) in the order the window shows a step
    (backend/engine/token_log.py TokenLog.add_step): accepted drafts, rejected drafts, then the
    target's own token, which follows the rejected ones it replaced."""
    emitted = step.emitted
    n = 0
    while n < len(emitted) and emitted[n].origin != "target":
        n += 1
    for i, token in enumerate(emitted[:n]):
        yield "accepted", i, token
    for i, token in enumerate(step.drafted):  # accepted first, so i is the draft position
        if not token.accepted:
            yield "rejected", i, token
    for token in emitted[n:]:
        yield "target", None, token


def _span(kind: str, step: StepVerified, position: int | None, token: Token) -> str:
    e = html.escape  # quote=True: attribute values are escaped as well as text
    data = [f'data-step="{step.step}"', f'data-origin="{e(token.origin)}"',
            f'data-id="{token.id}"']
    if token.p_target is not None:
        data.append(f'data-p-target="{token.p_target!r}"')
    if token.p_draft is not None:
        data.append(f'data-p-draft="{token.p_draft!r}"')
    v = token.verification
    if v is not None and v.draw is not None and v.accept_prob is not None:
        data.append(f'data-u="{v.draw!r}" data-accept-prob="{v.accept_prob!r}"')
    shade = f" lookup-{token.origin}" if kind == "accepted" and lookup_shade(
        token.origin) is not None else ""
    return (f'<span class="{kind}{shade}" title="{e(_hover(kind, step, position, token))}" '
            f'{" ".join(data)}>{e(token.text)}</span>')


def _hover(kind: str, step: StepVerified, position: int | None, token: Token) -> str:
    """The window's token hover (app/transcript/token_view.py token_tooltip) in plain text."""
    where = f"step {step.step}"
    if position is not None:
        where += f", draft token {position + 1} of {len(step.drafted)}"
    if step.tree:
        where += f" (its draft tree of {len(step.tree)} nodes is drawn below the answer)"
    spec = spec_types.get(token.origin)
    if token.origin == "target":
        made = "produced by the target model"
    elif token.head is not None:
        made = f"drafted by MTP head {token.head + 1}"
    else:
        made = spec.drafted_by if spec and spec.drafted_by else f"drafted by {token.origin}"
    verdict = {"accepted": "accepted by the target",
               "rejected": "rejected by the target (not part of the answer)",
               "target": "the target's own token"}[kind]
    probs = [f"p_target = {token.p_target:.4f}" if token.p_target is not None
             else "p_target unknown (after the first rejection)"]
    if token.p_draft is not None:
        probs.append(f"p_draft = {token.p_draft:.4f}")
    return "\n".join([
        where,
        f"origin: {token.origin} ({made}), {verdict}",
        " · ".join(probs),
        f"token {token.id}: {token.text!r}",
        *_verification_lines(token),
    ])


def _verification_lines(token: Token) -> list[str]:
    """The window's inspector (app/teaching/inspection.py), as plain lines for the page's hover."""
    v = token.verification
    if v is None:
        return []
    lines = []
    if v.draw is not None and v.accept_prob is not None:
        sign = "<" if token.accepted else "≥"
        lines.append(f"u = {v.draw:.4f} {sign} min(1, p/q) = {v.accept_prob:.4f}")
    elif token.origin != "target":
        lines.append("greedy: kept when it is the target's most likely token")
    if v.drawn_from:
        lines.append({"argmax": "chosen as the target's most likely token",
                      "residual": "drawn from the residual max(0, p − q), normalised",
                      "target": "drawn from the target's distribution p"}[v.drawn_from])
    if v.match_at is not None:
        lines.append(f"copied from earlier, after …{v.match_text[-40:]!r}")
    elif from_earlier_chat(token):
        lines.append("copied from an earlier chat with this model (kept across chats)")
    for name, top in (("target p", v.top_target), ("drafter q", v.top_draft)):
        if top:
            lines.append(f"top {name}: " + ", ".join(f"{c.text!r} {c.p:.3f}" for c in top))
    return lines


def _ending(trace: Trace) -> list[str]:
    last = trace.events[-1] if trace.events else None
    if isinstance(last, GenerationFinished):
        return [f'<p class="stats">{html.escape(stats_line(trace, last))}</p>']
    if isinstance(last, GenerationFailed):
        n = sum(len(e.emitted) for e in trace.events if isinstance(e, StepVerified))
        return [f'<p class="failed">Failed after {n} tokens: {html.escape(last.message)}</p>']
    return []


def stats_line(trace: Trace, finished: GenerationFinished) -> str:
    """The window's stats line under an answer (app/transcript/answer.py format_stats)."""
    s = finished.stats
    started = next((e for e in trace.events if isinstance(e, GenerationStarted)), None)
    plain = (started.spec_type if started else trace.request.spec_type) == spec_types.PLAIN
    parts = [f"{s.tokens_per_second:.1f} tok/s" if s.generation_ms > 0 else "— tok/s"]
    said = speedup_words(s)
    if not plain and said is not None and s.generation_ms > 0:
        parts.append(str(said))
    if s.ttft_ms:
        parts.append(f"first token {s.ttft_ms:.0f} ms")
    parts.append(f"{s.n_generated} tokens")
    if not plain or s.n_drafted:
        parts.append(f"drafted {s.n_drafted} / accepted {s.n_accepted}")
        parts.append(f"acceptance {100 * s.acceptance_rate:.1f} %")
        parts.append(f"{s.mean_accepted_per_step:.2f} accepted/step")
    parts.append(STOP_REASON_WORDS.get(finished.stop_reason, finished.stop_reason))
    return "  ·  ".join(parts)
