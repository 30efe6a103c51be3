"""What the inspector says about one token, in words and numbers. Qt-free, so the values it
shows are tested against the engine's events without a window.

Every number comes from the token's recorded `Verification` (what the engine used when it
decided), never from a recomputation: a teacher who shows u < min(1, p/q) shows the very draw
that decided.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Literal

from PySide6.QtCore import QT_TRANSLATE_NOOP

from app.backend_text import backend_text
from app.i18n import translate
from backend import spec_types
from backend.engine.events import (
    Candidate,
    Token,
    TreeNode,
    Verification,
    verification_from_json,
)
from backend.engine.token_log import TokenLog
from backend.export_html import from_earlier_chat

_VISIBLE = str.maketrans({"\n": "↵", "\r": "␍", "\t": "→", " ": "·"})


def shown(text: str) -> str:
    """A token's text with its whitespace made visible (a lone space is a token too)."""
    return f"'{text.translate(_VISIBLE)}'"


@dataclass(frozen=True)
class Inspection:
    step: int
    token: Token
    index: int  # in the answer's TokenLog
    position: int | None  # 1-based place in the step's draft; None for the target's own token
    n_drafted: int  # tokens the drafter proposed in this step
    n_accepted: int  # of which the target accepted
    replacement: Token | None  # a rejected draft: the target's token in its place
    copied_from: int | None  # n-gram: the answer token (TokenLog index) it was copied from
    # a block drafter's pass: (block row of the first draft, rows in all), else ()
    block: tuple[int, ...] = ()

    @property
    def verification(self) -> Verification | None:
        return self.token.verification

    @property
    def kind(self) -> str:
        if self.token.origin == "target":
            return "target"
        return "accepted" if self.token.accepted else "rejected"


def inspect_token(log: TokenLog, index: int, n_prompt: int,
                  tree: tuple[TreeNode, ...] = ()) -> Inspection:
    """The inspection of token `index` of an answer whose prompt had `n_prompt` tokens;
    `tree`: its step's draft tree, for a tree step."""
    step = log.step[index]
    lo, hi = bisect_left(log.step, step), bisect_right(log.step, step)
    drafted = [i for i in range(lo, hi) if log.origin[i] != "target"]
    own = [i for i in range(lo, hi) if log.origin[i] == "target"]
    token = log.token(index)
    position = drafted.index(index) + 1 if index in drafted else None
    n_accepted = sum(1 for i in drafted if log.accepted[i])
    replacement = None
    if token.origin != "target" and not token.accepted and own:
        replacement = log.token(own[0])
        accepted = [i for i in drafted if log.accepted[i]]
        kept = [n for n in tree if n.kept]  # the chain's nodes first, then those beside it
        off = next((j for j, n in enumerate(kept) if n.rank > 0), None)
        if off is not None and off < len(accepted):
            # the branch kept left the chain there: its token there took the place of the
            # first choice rejected beside it (what followed it was kept too)
            replacement = log.token(accepted[off])
    copied = None
    v = token.verification
    if v is not None and v.match_at is not None and v.match_at >= n_prompt:
        answer = log.emitted()  # one walk of the log, on a click, never while streaming
        k = v.match_at - n_prompt
        copied = answer[k] if k < len(answer) else None
    return Inspection(step, token, index, position, len(drafted), n_accepted, replacement,
                      copied, step_block(log, drafted[0]) if drafted else ())


def step_block(log: TokenLog, first_draft: int) -> tuple[int, ...]:
    """The block a one-pass drafter filled for the step whose first drafted token is at
    `first_draft` in the log: recorded on that token, which is always verified; () for other
    drafters and answers kept before blocks were recorded."""
    text = log.inspection[first_draft]
    block = () if text is None else verification_from_json(text).block
    # an imported file's block is data: anything but (first row, rows) tells nothing
    return block if len(block) == 2 and 0 <= block[0] < block[1] else ()


def origin_words(token: Token) -> str:
    if token.origin == "target":
        return translate("Inspection", "the target model itself")
    if token.head is not None and token.origin == "mtp":
        return translate("Inspection", "MTP head {n} of the target").format(n=token.head + 1)
    spec = spec_types.get(token.origin)
    return backend_text(spec.drafted_by or spec.label) if spec else token.origin


# How a drafter made its draft: all of it in one pass of its model (a DFlash block), one pass
# of its model per token (a draft model, heads), or no model at all (a lookup copies).
Drafting = Literal["one_pass", "per_token", "lookup"]


def drafting(origin: str) -> Drafting:
    """How the drafter a token's origin names drafts; in a chain the origin is the member that
    drafted the step, so each step is told as its own drafter made it."""
    spec = spec_types.get(origin)
    if spec is None or not spec.needs:
        return "lookup"
    return "one_pass" if spec.one_pass else "per_token"


# Who proposes, as the subject of a replay caption and of the inspector's pass line (English,
# marked for lupdate); in a chain, the member that drafted the step (its tokens' origin).
DRAFTERS = {
    "draft": QT_TRANSLATE_NOOP("Replay", "the draft model"),
    "mtp": QT_TRANSLATE_NOOP("Replay", "the MTP heads"),
    "ngram": QT_TRANSLATE_NOOP("Replay", "n-gram lookup"),
    "eagle3": QT_TRANSLATE_NOOP("Replay", "the EAGLE-3 head"),
    "ngram-map-k": QT_TRANSLATE_NOOP("Replay", "n-gram map-k"),
    "ngram-map-k4v": QT_TRANSLATE_NOOP("Replay", "n-gram map-k4v"),
    "ngram-mod": QT_TRANSLATE_NOOP("Replay", "n-gram mod"),
    "ngram-cache": QT_TRANSLATE_NOOP("Replay", "n-gram cache"),
    "dflash": QT_TRANSLATE_NOOP("Replay", "the DFlash head"),
    "gemma4-assistant": QT_TRANSLATE_NOOP("Replay", "the Gemma 4 assistant"),
}


def drafter_words(spec_type: str) -> str:
    """"the draft model" for spec type draft; one without words here (declared later, or by
    a test) by its label in the window's language."""
    if spec_type in DRAFTERS:
        return translate("Replay", DRAFTERS[spec_type])
    spec = spec_types.get(spec_type)
    if spec is not None and spec.label:
        return backend_text(spec.label)
    return translate("Replay", "the drafter")


def summary_rows(ins: Inspection) -> list[tuple[str, str]]:
    """(label, value) rows, plain text, in the order the panel shows them."""
    t, v = ins.token, ins.verification
    rows = [(translate("Inspection", "Token"), f"{shown(t.text)}  (id {t.id})")]
    if ins.position is not None:
        where = translate("Inspection", "step {step}, draft position {position} of {n}").format(
            step=ins.step, position=ins.position, n=ins.n_drafted)
    elif ins.n_drafted:
        where = translate("Inspection", "step {step}, after {accepted} of {n} drafts were "
                          "accepted").format(step=ins.step, accepted=ins.n_accepted,
                                             n=ins.n_drafted)
    else:
        where = translate("Inspection", "step {step} (no draft in this step)").format(
            step=ins.step)
    rows.append((translate("Inspection", "Where"), where))
    rows.append((translate("Inspection", "Origin"), origin_words(t)))
    passes = pass_words(ins)
    if passes:
        rows.append((translate("Inspection", "Drafted"), passes))
    if v is not None and v.match_at is not None:
        place = (translate("Inspection", "earlier in this answer") if ins.copied_from is not None
                 else translate("Inspection", "the conversation"))
        rows.append((translate("Inspection", "Copied from"),
                     f"{place}, " + translate("Inspection", "after …{text}").format(
                         text=repr(v.match_text[-60:]))))
    elif from_earlier_chat(t):
        rows.append((translate("Inspection", "Copied from"),
                     translate("Inspection", "an earlier chat with this model (this lookup "
                               "keeps what it learns across chats)")))
    verdicts = {
        "accepted": translate("Inspection", "accepted by the target"),
        "rejected": translate("Inspection",
                              "rejected by the target (struck out, not in the answer)"),
        "target": translate("Inspection", "the target's own token")}
    rows.append((translate("Inspection", "Verdict"), verdicts[ins.kind]))
    if t.p_target is not None:
        rows.append((translate("Inspection", "p (target)"), f"{t.p_target:.4f}"))
    if t.p_draft is not None:
        rows.append((translate("Inspection", "q (drafter)"), f"{t.p_draft:.4f}"))
    rows.extend(_rule_rows(ins))
    return rows


def pass_words(ins: Inspection) -> str:
    """How the pass of the drafter's model that made this draft token went: the block it
    filled in one pass, or its pass among the one-per-token ones; "" for the target's own
    token and a lookup's (no model drafted it)."""
    if ins.position is None:
        return ""
    how = drafting(ins.token.origin)
    drafter = drafter_words(ins.token.origin)
    if how == "one_pass" and ins.block:
        first, rows = ins.block
        return translate("Inspection", "row {row} of a block of {rows} rows that {drafter} "
                         "filled in one pass (row 0: the target's last token; the others were "
                         "masks): no drafted token was fed back to draft the next").format(
            row=first + ins.position - 1, rows=rows, drafter=drafter)
    if how == "one_pass":
        return translate("Inspection", "position {position} of a block of {n} that {drafter} "
                         "filled in one pass: no drafted token was fed back to draft the "
                         "next").format(position=ins.position, n=ins.n_drafted, drafter=drafter)
    if how == "per_token":
        return translate("Inspection", "pass {position} of {n}: {drafter} drafts one token per "
                         "pass, each fed back to draft the next").format(
            position=ins.position, n=ins.n_drafted, drafter=drafter)
    return ""


def _rule_rows(ins: Inspection) -> list[tuple[str, str]]:
    t, v = ins.token, ins.verification
    if v is None:
        return [(translate("Inspection", "Verification"),
                 translate("Inspection", "not recorded for this token (drafted after the first "
                           "rejection, so never examined)")
                 if t.origin != "target" and not t.accepted
                 else translate("Inspection", "not recorded (an answer from before the "
                                "inspector)"))]
    rows: list[tuple[str, str]] = []
    if ins.kind != "target":
        if v.rule == "greedy":
            best = v.top_target[0] if v.top_target else None
            rule = translate("Inspection", "greedy: a draft stands when it is the target's "
                             "most likely token")
            if best is not None:
                rule += translate("Inspection", " (here {token}, p = {p:.4f})").format(
                    token=shown(best.text), p=best.p)
            rows.append((translate("Inspection", "Rule"), rule))
        elif v.accept_prob is not None and v.draw is not None:
            rows.append((translate("Inspection", "Acceptance"),
                         f"min(1, p/q) = {v.accept_prob:.4f}"))
            sign = "<" if ins.kind == "accepted" else "≥"
            verdict = (translate("Inspection", "accepted") if ins.kind == "accepted"
                       else translate("Inspection", "rejected"))
            rows.append((translate("Inspection", "Uniform draw"),
                         f"u = {v.draw:.4f}  {sign}  {v.accept_prob:.4f}  → {verdict}"))
        if ins.replacement is not None:
            r = ins.replacement
            rows.append((translate("Inspection", "Instead"),
                         f"{shown(r.text)} (id {r.id}), p = {r.p_target or 0:.4f}"))
            rv = r.verification
            if rv is not None and rv.drawn_from == "residual":
                there = (translate("Inspection", " (its probability there: {p:.4f})").format(
                    p=rv.residual_p) if rv.residual_p is not None else "")
                rows.append((translate("Inspection", "Drawn from"),
                             translate("Inspection", "the residual max(0, p − q), normalised")
                             + there))
    else:
        how = {"argmax": translate("Inspection", "the target's most likely token (greedy)"),
               "residual": translate("Inspection", "drawn from the residual max(0, p − q), "
                                                   "normalised, after the rejection"),
               "target": translate("Inspection", "drawn from the target's distribution p")
                         + (translate("Inspection", " (every draft was accepted: the bonus "
                                                    "token)") if ins.n_drafted
                            else "")}.get(v.drawn_from, "")
        if v.drawn_from == "residual" and v.residual_p is not None:
            how += translate("Inspection", " (probability there: {p:.4f})").format(p=v.residual_p)
        rows.append((translate("Inspection", "Chosen as"), how))
    return rows


def top_rows(v: Verification | None) -> list[tuple[Candidate | None, Candidate | None]]:
    """p's and q's five most likely tokens side by side (None where one list is shorter)."""
    if v is None:
        return []
    n = max(len(v.top_target), len(v.top_draft))
    return [(v.top_target[i] if i < len(v.top_target) else None,
             v.top_draft[i] if i < len(v.top_draft) else None) for i in range(n)]
