"""A window on the real engine process with the synthetic counting pair loaded and set to
draft greedily: the start of every real-engine window test."""

from __future__ import annotations

LOAD_TIMEOUT_MS = 60_000


def open_counting_pair(w, qtbot, models, *, spec: str = "draft", k: int = 4,
                       max_tokens: int = 24) -> None:
    """Load count-target with count-draft, then choose `spec`, K and greedy sampling."""
    w.settings.models.draft = str(models / "count-draft.gguf")
    with qtbot.waitSignal(w.models_changed, timeout=LOAD_TIMEOUT_MS) as loaded:
        w.open_target(str(models / "count-target.gguf"))
    target, draft = loaded.args
    assert target is not None and draft is not None, w.banner.text()
    assert w.panel.set_spec_type(spec)
    w.panel.n_draft.setValue(k)
    w.panel.temperature.setValue(0.0)
    w.panel.max_tokens.setValue(max_tokens)
