"""Words declared in backend/ (Qt-free), in the window's language: spec types, settings,
stop reasons, a server's report, and what backend/ says at run time as `Words` (the advisor's
sentences, engine errors, refusals, crash reports; backend/words.py). backend/ keeps its
English declarations; the app translates them where it shows them, in the one context
"backend". scripts/update_translations.py lists the declarations for lupdate
(`backend_messages`), so the .ts files hold every one of them and a new declaration without a
translation fails the tests.
"""

from __future__ import annotations

from app.i18n import translate
from backend import advisor, spec_types
from backend.engine.events import GenerationFailed
from backend.serving import report
from backend.settings_schema import Option
from backend.stop_reasons import STOP_REASON_WORDS
from backend.words import Words, declared_templates, words_of

CONTEXT = "backend"


def backend_text(text: str) -> str:
    """A backend declaration's English text in the window's language ("" stays "")."""
    return translate(CONTEXT, text) if text else text


def spec_label(name: str) -> str:
    """The panel's name for a spec type (its own name when it is not declared); a chain's,
    its members' in turn."""
    spec = spec_types.get(name)
    if spec is None:
        return name
    return _then([m.label for m in spec.members]) if spec.members else backend_text(spec.label)


def spec_caption(name: str) -> str:
    spec = spec_types.get(name)
    if spec is None:
        return name
    if spec.members:
        return _then([m.caption for m in spec.members])
    return backend_text(spec.caption)


def spec_tooltip(name: str) -> str:
    spec = spec_types.get(name)
    if spec is None:
        return ""
    if spec.members:
        return backend_text(spec_types.CHAIN_TOOLTIP).format(
            members=_then([m.label for m in spec.members]))
    return backend_text(spec.tooltip)


def _then(texts: list[str]) -> str:
    """A chain's members' texts, translated, joined as "a, then b, then c"."""
    said = backend_text(texts[0])
    for text in texts[1:]:
        said = backend_text(spec_types.CHAIN_THEN).format(first=said, next=backend_text(text))
    return said


def drafted_by(name: str) -> str:
    """The token hover's words for a token this spec type drafted ("" when it does not)."""
    spec = spec_types.get(name)
    return backend_text(spec.drafted_by) if spec is not None else ""


def draft_length_words(name: str, n_draft_max: int) -> str:
    words = spec_types.draft_length_words(name, n_draft_max)
    return translate(CONTEXT, "K auto") if words == "K auto" else words


def option_label(option: Option) -> str:
    return backend_text(option.label)


def option_tooltip(option: Option) -> str:
    return backend_text(option.tooltip)


def option_special(option: Option) -> str:
    """The panel's word for an option's minimum ("auto", "random")."""
    return backend_text(option.special)


def stop_reason_words(reason: str) -> str:
    words = STOP_REASON_WORDS.get(reason)
    return backend_text(words) if words is not None else reason


def words_text(words: Words) -> str:
    """A sentence backend/ said, in the window's language: its template translated, its values
    (a nested sentence, a list of reasons) too. Without values it is shown as it is (text that
    is not a declared template, such as an OS error, stays as it came)."""
    return words.filled(backend_text(words.template), words_text)


def error_text(exc: BaseException) -> str:
    """An exception's message in the window's language (`str(exc)` is the English one)."""
    return words_text(words_of(exc))


def failure_text(failed: GenerationFailed) -> str:
    """A failed answer's message in the window's language."""
    return words_text(failed.words) if failed.words is not None else backend_text(failed.message)


def reason_text(reason: Words | None) -> str | None:
    """A refusal's reason (None: no refusal) in the window's language."""
    return None if reason is None else words_text(reason)


def backend_messages() -> list[str]:
    """Every declared text this module translates, for scripts/update_translations.py."""
    from backend import settings_schema

    texts = ["K auto", spec_types.CHAIN_THEN, spec_types.CHAIN_TOOLTIP]
    for spec in spec_types.all_spec_types():
        texts += [spec.label, spec.caption, spec.tooltip, spec.drafted_by]
    for option in settings_schema.OPTIONS.values():
        texts += [option.label, option.tooltip, option.special]
    texts += STOP_REASON_WORDS.values()
    texts += report.TEMPLATES
    texts += advisor.TEMPLATES
    texts += declared_templates()
    return list(dict.fromkeys(t for t in texts if t))
