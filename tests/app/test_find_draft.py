"""Find a draft (issue 40), in the window: every way to speculate for a target, each accepted or
refused with its reason in words, found off the GUI thread; "Use this" loads through the
window's own load path; the side panel's "Which draft?" opens it for the loaded target; Hub
candidates come from a fake hub on 127.0.0.1 and go to the downloads."""

from __future__ import annotations

import threading

import pytest
from fakehub import gguf_repo, serving
from pair_files import token_changed
from PySide6.QtCore import QTimer
from scripted_engine import ScriptedEngine
from scripted_pairs import ScriptedEngine as PairEngine

from app.models import find_draft_view
from app.models.find_draft import FinderTarget, find_local
from app.models.find_draft_table import WAY_ROLE
from app.models.manager_window import FINDER_TAB, ModelManagerWindow
from backend.models.draft_finder import lookup_types
from backend.models.memory import Memory

ROOMY = Memory(total=64 * 2**30, available=32 * 2**30)


@pytest.fixture
def library(tmp_path, test_models):
    """A models folder with a target that has MTP layers, drafts that fit it and some that do
    not (another token; an EAGLE-3 head made for a bigger model)."""
    folder = tmp_path / "models"
    folder.mkdir()
    for name in ("count-mtp.gguf", "count-draft.gguf", "eagle3-count.gguf",
                 "eagle3-bad-layers.gguf", "demo-target-f32.gguf"):
        (folder / name).symlink_to(test_models / name)
    changed, _ = token_changed((test_models / "count-draft.gguf").read_bytes(), 1000)
    (folder / "count-other-token.gguf").write_bytes(changed)
    return folder


@pytest.fixture
def make_manager(qtbot, library):
    windows = []

    def make(**kwargs):
        window = ModelManagerWindow(models_dir=library, memory_source=lambda: ROOMY, **kwargs)
        qtbot.addWidget(window)
        window.show()
        windows.append(window)
        with qtbot.waitSignal(window.library_tab.scanned, timeout=30_000):
            pass
        return window

    yield make
    for window in windows:
        window.close()


def finished(view, qtbot):
    qtbot.waitUntil(lambda: not view.busy and view.finding is not None, timeout=30_000)


def test_a_library_model_gets_every_way_with_its_reason_and_an_offline_in_words(
        offline, make_manager, qtbot, library):
    window = make_manager()
    tab = window.library_tab
    tab.select("count-mtp.gguf")
    qtbot.waitUntil(lambda: tab.pairing.find_button.isEnabled())
    tab.pairing.find_button.click()
    assert window.tabs.currentIndex() == FINDER_TAB
    view = window.finder
    finished(view, qtbot)
    rows = [(spec, name, where, verdict) for spec, name, where, verdict, _ in view.rows()]
    assert rows == [
        ("mtp", "count-mtp.gguf", "the target itself", "Yes"),
        ("eagle3", "eagle3-count.gguf", "library", "Yes"),
        ("draft", "count-draft.gguf", "library", "Yes"),
        ("draft", "demo-target-f32.gguf", "library", "Yes, but no faster"),
        *((name, "—", "built in", "Yes") for name in lookup_types()),
        ("eagle3", "eagle3-bad-layers.gguf", "library", "No"),
        ("draft", "count-other-token.gguf", "library", "No"),
    ]  # accepted first
    why = {name: reason for _, name, _, _, reason in view.rows()}
    assert "differ at token 1001" in why["count-other-token.gguf"]
    assert "layer 4" in why["eagle3-bad-layers.gguf"]
    assert why["count-draft.gguf"] == "Same vocabulary, and smaller."
    assert "cannot be reached" in view.hub_line.text()
    assert "listed" in view.hub_line.text()  # the local candidates stay
    n = len(lookup_types())
    assert f"{4 + n} of {6 + n} ways" in view.summary.text()
    for label in (view.title, view.summary, view.hub_line):
        assert label.textFormat().name == "PlainText"

    view.select("eagle3", "eagle3-bad-layers.gguf")
    assert not view.use_button.isEnabled() and not view.download_button.isEnabled()
    view.select("eagle3", "eagle3-count.gguf")
    with qtbot.waitSignal(window.use_as_target) as target, \
            qtbot.waitSignal(window.use_as_draft) as draft, \
            qtbot.waitSignal(window.use_spec) as spec:
        view.use_button.click()  # the target is not the loaded one: it is loaded first
    assert target.args == [str((library / "count-mtp.gguf").resolve())]
    assert draft.args == [str((library / "eagle3-count.gguf").resolve())]
    assert spec.args == ["eagle3", -1]  # not measured: the panel keeps its K

    window.set_runtime(4096, str(library / "count-mtp.gguf"))  # the main window loaded it
    view.select("ngram")
    with qtbot.assertNotEmitted(window.use_as_target), qtbot.assertNotEmitted(
            window.use_as_draft), qtbot.waitSignal(window.use_spec) as spec:
        view.use_button.click()
    assert spec.args == ["ngram", -1]


def test_the_finder_runs_off_the_gui_thread_and_cancel_does_not_wait_for_it(
        monkeypatch, make_manager, qtbot, library):
    started, release = threading.Event(), threading.Event()
    ran_on = []

    def slow(target, library_models, client, cancelled):
        ran_on.append(threading.get_ident())
        started.set()
        release.wait(10)
        return find_local(target, library_models, client, threading.Event())  # ignores cancel

    monkeypatch.setattr(find_draft_view, "find_local", slow)
    window = make_manager()
    view = window.finder
    try:
        window.find_draft(FinderTarget(path=str(library / "count-mtp.gguf")))
        qtbot.waitUntil(started.is_set, timeout=5000)
        assert ran_on != [threading.get_ident()]
        ticked = []
        QTimer.singleShot(0, lambda: ticked.append(True))
        qtbot.waitUntil(lambda: bool(ticked), timeout=5000)  # the event loop runs meanwhile
        assert view.busy and view.wait_row.isVisible()
        with qtbot.waitSignal(view.search_finished, timeout=1000):
            view.cancel_button.click()
        assert not view.wait_row.isVisible() and not release.is_set()  # it did not wait
        assert view.summary.text() == "The search was cancelled."
    finally:
        release.set()
    assert window.tasks.wait(10_000)
    qtbot.wait(50)  # the late answer is delivered, and dropped
    assert view.rows() == [] and view.summary.text() == "The search was cancelled."


def test_which_draft_opens_the_finder_for_the_loaded_target_and_use_this_loads_it(
        make_window, qtbot, library):
    engine = ScriptedEngine()
    window = make_window(engine)
    panel = window.panel
    assert not panel.find_draft_button.isEnabled()  # no target yet
    window.settings.models.library_folders = [str(library)]
    target = str(library / "count-mtp.gguf")
    with qtbot.waitSignal(window.models_changed, timeout=5000):
        window.open_target(target)
    assert panel.find_draft_button.isEnabled()
    panel.find_draft_button.click()
    finder = window.model_controls.finder
    assert finder is not None and finder.isVisible()
    view = finder.view
    assert view.target == FinderTarget(path=target)
    assert "count-mtp.gguf" in view.title.text()
    finished(view, qtbot)
    assert ("draft", "count-draft.gguf") in [(r[0], r[1]) for r in view.rows()]

    view.select("draft", "count-draft.gguf")
    with qtbot.waitSignal(window.models_changed, timeout=5000):
        view.use_button.click()
    draft = str((library / "count-draft.gguf").resolve())  # the library's own path for it
    assert engine.load_calls[-1] == ("draft", draft)  # through the window's own load path
    assert window.draft.path == draft and panel.spec_type() == "draft"

    view.select("ngram")
    calls = len(engine.load_calls)
    view.use_button.click()
    assert panel.spec_type() == "ngram" and len(engine.load_calls) == calls  # nothing loaded

    other = str(library / "demo-target-f32.gguf")
    with qtbot.waitSignal(window.models_changed, timeout=5000):
        window.open_target(other)
    assert view.target == FinderTarget(path=other)  # the new target's candidates
    finished(view, qtbot)
    finder.close()
    assert not finder.isVisible()


def test_hub_drafts_of_the_family_are_decided_and_download_through_the_downloads_tab(
        monkeypatch, make_manager, qtbot, library, test_models):
    draft = (test_models / "count-draft.gguf").read_bytes()
    changed, _ = token_changed(draft, 1000)
    repos = [gguf_repo("acme/SmolLM2-Same-GGUF", {"same-Q8_0.gguf": draft}),
             gguf_repo("acme/SmolLM2-Token-GGUF", {"token-Q8_0.gguf": changed})]
    with serving(monkeypatch, repos):
        window = make_manager()
        view = window.finder
        window.find_draft(FinderTarget(path=str(library / "demo-target-f32.gguf")))
        finished(view, qtbot)
        hub = {name: (verdict, why) for _, name, where, verdict, why in view.rows()
               if where == "Hub"}
        assert hub["acme/SmolLM2-Same-GGUF/same-Q8_0.gguf"][0] == "Yes"
        verdict, why = hub["acme/SmolLM2-Token-GGUF/token-Q8_0.gguf"]
        assert verdict == "No" and "token" in why
        assert "checked from their headers: 2" in view.hub_line.text()

        view.select("draft", "acme/SmolLM2-Token-GGUF/token-Q8_0.gguf")
        assert not view.download_button.isEnabled()
        view.select("draft", "acme/SmolLM2-Same-GGUF/same-Q8_0.gguf")
        assert not view.use_button.isEnabled()  # on the Hub: downloaded first
        view.download_button.click()
        assert window.tabs.currentWidget() is window.downloads_tab
        qtbot.waitUntil(lambda: [r.status.model.name for r in
                                 window.downloads_tab.rows.values()] == ["same-Q8_0.gguf"])
        window.close()  # pauses the download before the hub goes


def test_a_hub_search_result_is_a_target_read_from_its_header(monkeypatch, make_manager,
                                                               qtbot, test_models):
    repos = [
        gguf_repo("acme/Count3-GGUF", {"count3-Q8_0.gguf": test_models / "count-target3.gguf",
                                       "eagle3-count.gguf": test_models / "eagle3-count.gguf"},
                  base_model="HuggingFaceTB/SmolLM2-1.7B-Instruct"),
        gguf_repo("acme/SmolLM2-Draft-GGUF", {"d-Q8_0.gguf": test_models / "count-draft.gguf"}),
    ]
    with serving(monkeypatch, repos):
        window = make_manager()
        tab = window.search_tab
        assert not tab.find_button.isEnabled()
        tab.search("Count3")
        qtbot.waitUntil(lambda: tab.repo_ids() == ["acme/Count3-GGUF"], timeout=15_000)
        tab.select_repo("acme/Count3-GGUF")
        tab.find_button.click()
        view = window.finder
        assert window.tabs.currentIndex() == FINDER_TAB
        assert view.target == FinderTarget(repo_id="acme/Count3-GGUF")
        finished(view, qtbot)
        rows = [(spec, name, verdict) for spec, name, where, verdict, _ in view.rows()
                if where == "Hub"]
        assert rows == [("eagle3", "acme/Count3-GGUF/eagle3-count.gguf", "Yes"),
                        ("draft", "acme/SmolLM2-Draft-GGUF/d-Q8_0.gguf", "Yes")]
        assert "read from the Hub" in view.summary.text()
        view.select("ngram")
        assert not view.use_button.isEnabled()  # the target is not on this computer
        assert "download it first" in view.use_button.toolTip()
        view.select("eagle3", "acme/Count3-GGUF/eagle3-count.gguf")
        assert view.download_button.isEnabled()
        window.close()


def test_measure_ranks_every_way_with_plain_decoding_and_use_this_takes_its_k(
        offline, monkeypatch, make_manager, qtbot, library):
    """Measured in a scripted engine (fixed step times, drafts wrong on every 5th token): the
    table ranks the measured ways around plain decoding, one slower than plain below it and
    saying so; Use this passes the K measured fastest; a second look reads the kept figures
    back without measuring."""
    engines: list[PairEngine] = []

    def engine():
        engines.append(PairEngine({"count-draft.gguf": 0.5, "eagle3-count.gguf": 40.0,
                                   "demo-target-f32.gguf": 40.0, "mtp": 1.0}))
        return engines[-1]
    window = make_manager(engine_factory=engine)
    view = window.finder
    view.measuring.tokens = 20
    window.find_draft(FinderTarget(path=str(library / "count-mtp.gguf")))
    finished(view, qtbot)
    qtbot.waitUntil(lambda: view.measure_button.isEnabled(), timeout=5000)
    assert engines == []  # nothing kept yet: no engine was started to look
    said = []
    view.measuring.progressed.connect(lambda fraction, _words: said.append(fraction))
    with qtbot.waitSignal(view.search_finished, timeout=30_000):
        view.measure_button.click()
    assert said == sorted(said) and len(said) > 10 and len(engines) == 1
    rows = [(spec, name, verdict) for spec, name, _, verdict, _ in view.rows()]
    ranked = [(spec, name) for spec, name, _ in rows]
    plain = ranked.index(("none", "—"))
    assert ranked.index(("draft", "count-draft.gguf")) < plain
    assert ranked.index(("mtp", "count-mtp.gguf")) < plain
    assert ranked.index(("eagle3", "eagle3-count.gguf")) > plain  # 40 ms a draft: slower
    slow = next(r for r in view.rows() if r[1] == "eagle3-count.gguf")
    assert slow[3] == "Yes, but slower" and "Slower than plain decoding" in slow[4]
    assert rows[-2:] == [("eagle3", "eagle3-bad-layers.gguf", "No"),
                         ("draft", "count-other-token.gguf", "No")]  # refused: last
    assert "Measured on this computer" in view.measure_line.text()

    view.select("draft", "count-draft.gguf")
    way = view.table.current_way()
    assert way is not None and way.speedup > 1 and "Measured" in view.details.text()
    details = view.details.text()  # what the speed-up is made of: wrong on every 5th token
    assert "Acceptance by draft position: 1.00 1.00 1.00 1.00 0.00" in details
    assert "Drafting costs 0.50 ms a token" in details and "K auto" in details
    with qtbot.waitSignal(window.use_spec) as spec:
        view.use_button.click()
    assert spec.args == ["draft", way.k]

    window.find_draft(FinderTarget(path=str(library / "count-mtp.gguf")))  # a second look
    finished(view, qtbot)
    qtbot.waitUntil(lambda: view.measured is not None, timeout=10_000)
    assert all(kept for _, kept in view.measured.measurements)
    assert [c[0] for c in engines[-1].calls] == []  # read back: nothing loaded or answered
    assert [(s, n) for s, n, _, _, _ in view.rows()][:len(ranked)] == ranked


def test_each_way_is_ranked_as_soon_as_it_is_measured(offline, make_manager, qtbot, library):
    window = make_manager(engine_factory=lambda: PairEngine({"count-draft.gguf": 0.5}))
    view = window.finder
    view.measuring.tokens = 12
    window.find_draft(FinderTarget(path=str(library / "count-mtp.gguf")))
    finished(view, qtbot)
    qtbot.waitUntil(lambda: view.measure_button.isEnabled(), timeout=5000)
    ranked_rows: list[int] = []  # how many rows had a speed-up at each partial answer
    view.measuring.partial.connect(lambda _m: ranked_rows.append(
        sum(1 for i in range(view.table.topLevelItemCount())
            if view.table.topLevelItem(i).data(0, WAY_ROLE) is not None)))
    with qtbot.waitSignal(view.search_finished, timeout=30_000):
        view.measure_button.click()
    n = len(view.measured.measurements)
    assert ranked_rows == list(range(2, n + 2))  # plain decoding and one more each time
