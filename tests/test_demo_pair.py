"""The first-run demo pair: made from the shipped model, once, or refused in words."""

from __future__ import annotations

import pytest

from backend.engine import demo_pair as demo
from backend.models.inspection import inspect_model


def test_demo_pair_is_made_once_from_the_shipped_model(tmp_path):
    target, draft = demo.ensure_demo_pair(tmp_path)
    assert inspect_model(target).quantization == "F32"
    assert inspect_model(draft).quantization == "Q8_0"
    stamps = (target.stat().st_mtime_ns, draft.stat().st_mtime_ns)
    assert demo.ensure_demo_pair(tmp_path) == (target, draft)
    assert (target.stat().st_mtime_ns, draft.stat().st_mtime_ns) == stamps  # not rewritten
    assert not list(tmp_path.glob("*.tmp"))


def test_a_full_disk_is_refused_before_writing(tmp_path, monkeypatch):
    monkeypatch.setattr(demo, "free_space", lambda folder: 10 * 2**20)
    with pytest.raises(demo.DemoPairError, match="MiB free"):
        demo.ensure_demo_pair(tmp_path)
    assert not any(tmp_path.rglob("*.gguf"))


def test_without_the_shipped_model_the_reason_is_given(tmp_path, monkeypatch):
    monkeypatch.setattr(demo, "find_default_model", lambda: None)
    with pytest.raises(demo.DemoPairError, match="not installed"):
        demo.ensure_demo_pair(tmp_path)
