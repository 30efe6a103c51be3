"""Draft candidates are checked off the GUI thread with the backend's vocabulary rule."""

from __future__ import annotations

from app.models.draft_compatibility import DraftCompatibility


def test_compatible_and_unreadable_candidates(qtbot, test_models, tmp_path):
    junk = tmp_path / "junk.gguf"
    junk.write_bytes(b"not a gguf at all")
    checker = DraftCompatibility()
    results = {}
    checker.checked.connect(lambda target, draft, reason: results.__setitem__(draft, reason))
    checker.check(str(test_models / "count-target.gguf"),
                  [str(test_models / "count-draft.gguf"), str(junk)])
    qtbot.waitUntil(lambda: len(results) == 2, timeout=30_000)
    checker.wait()
    assert results[str(test_models / "count-draft.gguf")] is None
    assert "junk.gguf" in results[str(junk)]
