"""Words declared in backend/ (Qt-free), in the window's language: spec types, settings,
stop reasons, the advisor's sentences, a server's report. backend/ keeps its
English declarations; the app translates them where it shows them, in the one context
"backend". scripts/update_translations.py lists the declarations for lupdate
(`backend_messages`), so the .ts files hold every one of them and a new declaration without a
translation fails the tests.
"""

from __future__ import annotations

from app.i18n import translate
from backend import advisor, spec_types
from backend.advisor import Words
from backend.serving import report
from backend.settings_schema import Option
from backend.stop_reasons import STOP_REASON_WORDS

CONTEXT = "backend"


def backend_text(text: str) -> str:
    """A backend declaration's English text in the window's language ("" stays "")."""
    return translate(CONTEXT, text) if text else text


def spec_label(name: str) -> str:
    """The panel's name for a spec type (its own name when it is not declared)."""
    spec = spec_types.get(name)
    return backend_text(spec.label) if spec is not None else name


def spec_caption(name: str) -> str:
    spec = spec_types.get(name)
    return backend_text(spec.caption) if spec is not None else name


def spec_tooltip(name: str) -> str:
    spec = spec_types.get(name)
    return backend_text(spec.tooltip) if spec is not None else ""


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
    """An advisor sentence in the window's language: its template translated, its values (a
    nested sentence, a list of reasons) too."""
    def shown(value: object) -> object:
        if isinstance(value, Words):
            return words_text(value)
        if isinstance(value, tuple) and all(isinstance(v, Words) for v in value):
            return "; ".join(words_text(v) for v in value)
        return value

    return backend_text(words.template).format(**{k: shown(v) for k, v in words.values})


def backend_messages() -> list[str]:
    """Every declared text this module translates, for scripts/update_translations.py."""
    from backend import settings_schema

    texts = ["K auto"]
    for spec in spec_types.all_spec_types():
        texts += [spec.label, spec.caption, spec.tooltip, spec.drafted_by]
    for option in settings_schema.OPTIONS.values():
        texts += [option.label, option.tooltip, option.special]
    texts += STOP_REASON_WORDS.values()
    texts += report.TEMPLATES
    texts += advisor.TEMPLATES
    return list(dict.fromkeys(t for t in texts if t))
