"""Numbers, sizes, times and memory fits in words, as the window and the model manager show them
(one `human_size` for both)."""

from __future__ import annotations

import html
from datetime import UTC, datetime

from PySide6.QtCore import QT_TRANSLATE_NOOP

from app.i18n import translate
from backend.models.memory import Fit, MemoryEstimate

# English, marked for lupdate; fit_text and fit_tooltip show them translated.
FIT_WORDS = {Fit.FITS: QT_TRANSLATE_NOOP("Formatting", "Fits"),
             Fit.TIGHT: QT_TRANSLATE_NOOP("Formatting", "Tight"),
             Fit.TOO_BIG: QT_TRANSLATE_NOOP("Formatting", "Too big"),
             Fit.GPU_TOO_SMALL: QT_TRANSLATE_NOOP("Formatting", "Too big for the GPU")}
FIT_EXPLAINED = {
    Fit.FITS: QT_TRANSLATE_NOOP("Formatting", "fits in the memory free now"),
    Fit.TIGHT: QT_TRANSLATE_NOOP("Formatting",
                                 "fits in the installed memory, but not in what is free now"),
    Fit.TOO_BIG: QT_TRANSLATE_NOOP("Formatting", "needs more than this machine's installed memory"),
    Fit.GPU_TOO_SMALL: QT_TRANSLATE_NOOP(
        "Formatting", "needs more than the GPU's memory with every layer there (GPU layers "
        "auto): it would run on the CPU, or between the GPU and RAM with fewer GPU layers"),
}


def human_size(n: int | float) -> str:
    size = float(n)
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB"):
        if size < 1024 or unit == "TiB":
            if unit == "bytes":
                return translate("Formatting", "{n:,.0f} bytes").format(n=size)
            return f"{size:.1f} {unit}"
        size /= 1024
    return translate("Formatting", "{n:,.0f} bytes").format(n=n)


def human_count(n: int) -> str:
    """1234 → "1.2k", 3_400_000 → "3.4M"."""
    for limit, suffix in ((1e9, "B"), (1e6, "M"), (1e3, "k")):
        if n >= limit:
            return f"{n / limit:.1f}{suffix}".replace(".0" + suffix, suffix)
    return str(n)


def parameters(n: int) -> str:
    if n <= 0:
        return "?"
    for limit, suffix in ((1e9, "B"), (1e6, "M"), (1e3, "K")):
        if n >= limit:
            value = n / limit
            return f"{value:.1f}{suffix}" if value < 10 else f"{value:.0f}{suffix}"
    return str(n)


def duration(seconds: float | None) -> str:
    if seconds is None:
        return translate("Formatting", "time left unknown")
    seconds = round(seconds)
    if seconds < 60:
        return translate("Formatting", "{s} s left").format(s=seconds)
    if seconds < 3600:
        return translate("Formatting", "{min} min {s:02d} s left").format(
            min=seconds // 60, s=seconds % 60)
    return translate("Formatting", "{h} h {min:02d} min left").format(
        h=seconds // 3600, min=seconds % 3600 // 60)


def age(when: datetime | None, now: datetime | None = None) -> str:
    """How long ago, in the words a list column needs ("3 days ago", "2024-05-01")."""
    if when is None:
        return ""
    now = now or datetime.now(UTC)
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    days = (now - when).days
    if days < 1:
        return translate("Formatting", "today")
    if days < 2:
        return translate("Formatting", "yesterday")
    if days < 31:
        return translate("Formatting", "{n} days ago").format(n=days)
    return when.date().isoformat()


def fit_text(estimate: MemoryEstimate) -> str:
    return f"{translate('Formatting', FIT_WORDS[estimate.fit])} · {human_size(estimate.total)}"


def fit_tooltip(estimate: MemoryEstimate, what: str) -> str:
    return translate(
        "Formatting", "{what} needs about {total}: {weights} of weights and {cache} of context "
        "cache, plus working memory. It {fit}.").format(
        what=what, total=human_size(estimate.total), weights=human_size(estimate.weights),
        cache=human_size(estimate.kv_cache),
        fit=translate("Formatting", FIT_EXPLAINED[estimate.fit]))


def plain_tooltip(text: str) -> str:
    """A tooltip that shows `text` literally: Qt guesses whether a tooltip is rich text, so a
    file name like "<b>.gguf" must be escaped inside an explicit rich-text block."""
    return f"<qt><p style='white-space:pre-wrap'>{html.escape(text)}</p></qt>"
