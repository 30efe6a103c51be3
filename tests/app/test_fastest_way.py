"""The fastest way measured for the loaded target (issue 40), in the window: the welcome view's
"Which way is fastest here?" measures every way in the draft finder and speculates with the
fastest, its K included; the next time the target loads, the kept measurement is read back
and said at once. Measured in a scripted engine whose step times are fixed."""

from __future__ import annotations

import shutil

import pytest
from scripted_engine import ScriptedEngine
from scripted_pairs import ScriptedEngine as PairEngine

from backend.models.draft_finder import lookup_types


@pytest.fixture
def library(tmp_path, test_models, monkeypatch):
    """The target and its one draft, alone: the session's own models folder (where the demo
    test puts the demo pair, which can draft for the counting target too) is emptied."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    folder = tmp_path / "models"
    folder.mkdir()
    for name in ("count-target.gguf", "count-draft.gguf"):
        shutil.copyfile(test_models / name, folder / name)
    return folder


@pytest.fixture
def pair_engines(monkeypatch):
    """The measurements' engines, scripted: the draft model drafts cheapest, every lookup
    costs more a token."""
    made: list[PairEngine] = []

    def factory(_settings):
        def make():
            made.append(PairEngine({"count-draft.gguf": 0.5,
                                    **{name: 3.0 for name in lookup_types()}}))
            return made[-1]
        return make
    for module in ("app.models.model_controls", "app.models.find_draft_window"):
        monkeypatch.setattr(f"{module}.engine_process_factory", factory)
    return made


def test_which_way_is_fastest_measures_then_speculates_with_it_and_is_kept(
        make_window, qtbot, library, pair_engines, offline):
    window = make_window(ScriptedEngine())
    window.settings.models.library_folders = [str(library)]
    target = str(library / "count-target.gguf")
    welcome = window.welcome.view
    with qtbot.waitSignal(window.models_changed, timeout=5000):
        window.open_target(target)
    qtbot.waitUntil(lambda: not window.model_controls.fastest.pending, timeout=10_000)
    assert welcome.fastest is None and not welcome.try_fastest.isVisibleTo(welcome)
    assert pair_engines == []  # nothing kept: no engine started to look

    gs = window.panel.preferred_settings()
    gs.spec_type, gs.n_draft = "none", 3
    window.panel.set_generation_settings(gs)
    welcome.measure_button.click()
    finder = window.model_controls.finder
    assert finder is not None and finder.isVisible()
    qtbot.waitUntil(lambda: welcome.fastest is not None, timeout=60_000)
    way = welcome.fastest.way
    assert (way.spec_type, way.candidate) == ("draft", "count-draft.gguf") and way.speedup > 1
    qtbot.waitUntil(lambda: window.panel.spec_type() == "draft", timeout=5000)  # draft loaded
    assert window.draft.path == str(library / "count-draft.gguf")
    assert window.panel.generation_settings().n_draft == way.k  # its K, not the panel's 3
    assert welcome.fastest_line.text().startswith("draft model count-draft.gguf at K")
    assert welcome.try_fastest.isVisibleTo(welcome)
    finder.close()

    second = make_window(ScriptedEngine())  # another session: the kept measurement is read
    second.settings.models.library_folders = [str(library)]
    with qtbot.waitSignal(second.models_changed, timeout=5000):
        second.open_target(target)
    qtbot.waitUntil(lambda: second.welcome.view.fastest is not None, timeout=10_000)
    assert second.welcome.view.fastest.way == way
    assert [c for c in pair_engines[-1].calls if c[0] == "generate"] == []  # not measured
