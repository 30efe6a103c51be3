"""The model manager window against a fake Hub on 127.0.0.1 and the test models: search, files
grouped by quantization with memory fits, downloads (done, failed, paused), the library with
inspection facts and broken files, draft pairing, and the main window's use of it."""

from __future__ import annotations

import shutil
import struct

import pytest
from fakehub import counting_repos, gguf_repo, released_when, serving
from gguf_corpus import base_kvs, build, kv_u32, s
from scripted_engine import ScriptedEngine

from app.models.manager_window import ModelManagerWindow
from app.models.repo_files import FIT, FIT_DRAFT, MODEL_ROLE
from backend.models import transfer
from backend.models.download import State
from backend.models.memory import FIXED_OVERHEAD, Fit, Memory
from backend.settings import load_settings

ROOMY = Memory(total=64 * 2**30, available=32 * 2**30)
REPO = "acme/Count-GGUF"


@pytest.fixture
def repos(test_models):
    return counting_repos(test_models)


@pytest.fixture
def make_manager(qtbot, tmp_path):
    """make_manager(**kwargs) -> a shown ModelManagerWindow with its models folder in tmp_path;
    closed (threads stopped) after the test, or earlier by the test itself."""
    windows = []

    def make(*, memory=ROOMY, **kwargs):
        kwargs.setdefault("models_dir", tmp_path / "models")
        window = ModelManagerWindow(memory_source=lambda: memory, **kwargs)
        qtbot.addWidget(window)
        window.show()
        windows.append(window)
        return window

    yield make
    for window in windows:
        window.close()


def search(window, qtbot, query):
    window.search_tab.search(query)
    qtbot.waitUntil(lambda: window.search_tab.search_button.isEnabled(), timeout=15_000)


def open_repo(window, qtbot, repo_id=REPO):
    tab = window.search_tab
    tab.select_repo(repo_id)
    qtbot.waitUntil(lambda: bool(tab.groups()) and all(
        item.text(FIT) != "checking…" for items in tab.groups().values() for item in items),
        timeout=15_000)
    return tab.groups()


def wait_library(window, qtbot):
    with qtbot.waitSignal(window.library_tab.scanned, timeout=30_000):
        pass


def download_row(window, qtbot, name, states):
    tab = window.downloads_tab
    qtbot.waitUntil(lambda: any(r.status.model.name == name and r.status.state in states
                                for r in tab.rows.values()), timeout=30_000)
    return next(r for r in tab.rows.values() if r.status.model.name == name)


# Search -------------------------------------------------------------------------------------


def test_search_shows_gguf_repositories_with_their_numbers(monkeypatch, repos, make_manager,
                                                           qtbot):
    with serving(monkeypatch, repos):
        window = make_manager()
        search(window, qtbot, "count")
        tab = window.search_tab
        assert tab.repo_ids() == ["acme/Count-GGUF", "other/Counting-Tiny-GGUF"]
        first = tab.repos.topLevelItem(0)
        assert (first.text(1), first.text(2)) == ("1.2k", "7")
        assert first.text(3)  # last update, in words
        assert "2 GGUF repositories" in tab.status.text()
        search(window, qtbot, "nothing-like-this")
        assert tab.repo_ids() == [] and "No GGUF repositories" in tab.status.text()
        window.close()


def test_a_repositorys_files_are_grouped_by_quantization_with_their_fit(
        monkeypatch, repos, make_manager, qtbot, test_models):
    with serving(monkeypatch, repos):
        # Room for one small model, not for it and a draft of the same size.
        window = make_manager(memory=Memory(total=280 * 2**20, available=280 * 2**20))
        search(window, qtbot, "count")
        groups = open_repo(window, qtbot)
        assert list(groups) == ["Q8_0", "F16", "F32"]  # smallest first; no projector
        (split,) = groups["F32"]
        model = split.data(0, MODEL_ROLE)
        assert len(model.parts) == 3 and "(3 parts)" in split.text(0)
        (q8,) = groups["Q8_0"]
        assert q8.data(FIT, MODEL_ROLE).fit == Fit.FITS and q8.text(FIT).startswith("Fits")
        assert window.search_tab.files.isColumnHidden(FIT_DRAFT)

        window.set_runtime(4096, draft=str(test_models / "count-draft.gguf"))
        tab = window.search_tab
        qtbot.waitUntil(lambda: not tab.files.isColumnHidden(FIT_DRAFT), timeout=10_000)
        (q8,) = tab.groups()["Q8_0"]
        assert q8.data(FIT, MODEL_ROLE).fit == Fit.FITS
        assert q8.data(FIT_DRAFT, MODEL_ROLE).fit == Fit.TOO_BIG
        assert q8.text(FIT_DRAFT).startswith("Too big")
        assert "count-draft.gguf" in tab.files.headerItem().text(FIT_DRAFT)
        window.close()


def test_an_unknown_repository_or_offline_hub_is_a_sentence(monkeypatch, make_manager, qtbot):
    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_OFFLINE", True)
    window = make_manager()
    search(window, qtbot, "anything")
    assert window.search_tab.status.text().startswith("Could not search the Hub")


# Downloads ----------------------------------------------------------------------------------


def test_a_download_completes_and_the_model_appears_in_the_library(
        monkeypatch, repos, make_manager, qtbot, tmp_path):
    with serving(monkeypatch, repos):
        window = make_manager()
        wait_library(window, qtbot)
        search(window, qtbot, "count")
        open_repo(window, qtbot)
        with qtbot.waitSignal(window.library_tab.scanned, timeout=30_000):
            window.search_tab.download_button("count-Q8_0.gguf").click()
            row = download_row(window, qtbot, "count-Q8_0.gguf", {State.DONE})
        assert row.detail.text().startswith("Done")
        assert window.tabs.currentWidget() is window.downloads_tab
        path = tmp_path / "models" / REPO / "count-Q8_0.gguf"
        (entry,) = window.library_tab.entries()
        assert entry.ok and entry.path == path
        assert window.library_tab.selected().path == path
        button = window.search_tab.download_button("count-Q8_0.gguf")
        assert button.text() == "Downloaded" and not button.isEnabled()
        window.close()


def _split_part(number: int) -> bytes:
    """Part `number` of a 2-part model, as llama.cpp's gguf-split writes it."""
    split = [kv_u32("split.no", number - 1), s("split.count") + struct.pack("<IH", 2, 2)]
    return build(kvs=[*base_kvs(), *split] if number == 1 else split)


def test_a_split_model_downloads_as_one_model(monkeypatch, make_manager, qtbot):
    repo = gguf_repo("acme/Split-GGUF", {"m-Q4_0-00001-of-00002.gguf": _split_part(1),
                                         "m-Q4_0-00002-of-00002.gguf": _split_part(2)})
    with serving(monkeypatch, [repo]):
        window = make_manager()
        search(window, qtbot, "split")
        groups = open_repo(window, qtbot, "acme/Split-GGUF")
        assert list(groups) == ["Q4_0"] and len(groups["Q4_0"]) == 1
        name = "m-Q4_0-00001-of-00002.gguf"
        with qtbot.waitSignal(window.library_tab.scanned, timeout=30_000):
            window.search_tab.download_button(name).click()
            download_row(window, qtbot, name, {State.DONE})
        (entry,) = window.library_tab.entries()
        assert entry.ok and entry.inspection.n_parts == 2
        assert "(2 parts)" in window.library_tab.item_for(entry.path.name).text(0)
        window.close()


def test_a_mismatched_download_shows_its_error_and_adds_nothing(
        monkeypatch, repos, make_manager, qtbot, tmp_path):
    repos[0].files["count-Q8_0.gguf"].advertised_sha256 = "0" * 64
    with serving(monkeypatch, repos):
        window = make_manager()
        wait_library(window, qtbot)
        search(window, qtbot, "count")
        open_repo(window, qtbot)
        window.search_tab.download_button("count-Q8_0.gguf").click()
        row = download_row(window, qtbot, "count-Q8_0.gguf", {State.FAILED})
        assert "SHA-256" in row.detail.text() and "damaged" in row.detail.text()
        assert row.pause_button.text() == "Retry" and row.pause_button.isVisible()
        window.library_tab.refresh()
        wait_library(window, qtbot)
        assert window.library_tab.entries() == []
        assert not list((tmp_path / "models").rglob("*.gguf"))
        window.close()


def test_too_little_disk_space_is_said_in_the_row(monkeypatch, repos, make_manager, qtbot):
    monkeypatch.setattr(transfer, "free_space", lambda folder: 1_000_000)
    with serving(monkeypatch, repos):
        window = make_manager()
        search(window, qtbot, "count")
        open_repo(window, qtbot)
        window.search_tab.download_button("count-F16.gguf").click()
        row = download_row(window, qtbot, "count-F16.gguf", {State.FAILED})
        assert "Not enough disk space" in row.detail.text()
        window.close()


def test_a_file_gone_from_the_hub_is_a_network_error_in_the_row(monkeypatch, repos,
                                                                  make_manager, qtbot):
    with serving(monkeypatch, repos):
        window = make_manager()
        search(window, qtbot, "count")
        open_repo(window, qtbot)
        del repos[0].files["count-F16.gguf"]  # listed a moment ago, gone now
        window.search_tab.download_button("count-F16.gguf").click()
        row = download_row(window, qtbot, "count-F16.gguf", {State.FAILED})
        assert "The Hub refused the download" in row.detail.text()
        assert "404" in row.detail.text() or "not found" in row.detail.text().lower()
        window.close()


def test_pause_resume_and_cancel_from_the_rows(monkeypatch, repos, make_manager, qtbot,
                                               tmp_path):
    q8 = repos[0].files["count-Q8_0.gguf"]
    # a trickle, so that speed and time left are shown, up to a hold that keeps the download
    # running until the test has seen them, however slow or fast the machine
    q8.bytes_per_second = 4e6
    with serving(monkeypatch, repos):
        window = make_manager()
        search(window, qtbot, "count")
        open_repo(window, qtbot)
        q8.hold(1_000_000)  # (not before: the header read for the memory fit reads 2 MB)
        window.search_tab.download_button("count-Q8_0.gguf").click()
        window.search_tab.download_button("count-F16.gguf").click()
        tab = window.downloads_tab
        first = download_row(window, qtbot, "count-Q8_0.gguf", {State.RUNNING})
        second = download_row(window, qtbot, "count-F16.gguf", {State.QUEUED})
        assert "Waiting" in second.detail.text() and window.tabs.tabText(1) == "Downloads (2)"
        qtbot.waitUntil(lambda: first.status.done > 0 and "/s" in first.detail.text(),
                        timeout=30_000)
        assert "left" in first.detail.text() and " of " in first.detail.text()
        assert first.status.state == State.RUNNING
        first.pause_button.click()
        q8.release.set()  # the pause is seen with the next bytes
        qtbot.waitUntil(lambda: first.status.state == State.PAUSED, timeout=30_000)
        assert first.pause_button.text() == "Resume"
        second.cancel_button.click()
        qtbot.waitUntil(lambda: second.status.state == State.CANCELLED, timeout=30_000)
        q8.bytes_per_second = None
        first.pause_button.click()
        qtbot.waitUntil(lambda: first.status.state == State.DONE, timeout=30_000)
        assert tab.active_count() == 0 and window.tabs.tabText(1) == "Downloads"
        assert not list((tmp_path / "models").rglob("count-F16*"))
        window.close()


def test_closing_the_window_pauses_a_running_download(monkeypatch, repos, make_manager, qtbot,
                                                      tmp_path):
    q8 = repos[0].files["count-Q8_0.gguf"]
    with serving(monkeypatch, repos):
        window = make_manager()
        search(window, qtbot, "count")
        open_repo(window, qtbot)
        q8.hold(1_000_000)  # still running when the window closes
        window.search_tab.download_button("count-Q8_0.gguf").click()
        row = download_row(window, qtbot, "count-Q8_0.gguf", {State.RUNNING})
        assert q8.held.wait(30)
        stop = window.downloads.manager._stops[row.status.job_id]  # set by the close
        with released_when(q8, stop), qtbot.waitSignal(window.closed, timeout=15_000):
            window.close()
        assert window.downloads.manager.status(row.status.job_id).state == State.PAUSED
        partial = tmp_path / "models" / REPO / "count-Q8_0.gguf.partial"
        assert partial.exists()


# Library ------------------------------------------------------------------------------------


@pytest.fixture
def library_dir(tmp_path, test_models):
    folder = tmp_path / "models"
    folder.mkdir()
    (folder / "broken.gguf").write_bytes((test_models / "count-draft.gguf").read_bytes()[:5000])
    return folder


def test_the_library_lists_models_with_their_facts_and_broken_files_in_words(
        make_manager, qtbot, test_models, library_dir):
    window = make_manager(models_dir=library_dir, extra_folders=[test_models])
    wait_library(window, qtbot)
    tab = window.library_tab
    names = {e.path.name for e in tab.entries()}
    assert {"count-target.gguf", "count-draft.gguf", "demo-target-f32.gguf",
            "demo-draft-q8_0.gguf", "broken.gguf"} <= names
    demo = tab.item_for("demo-target-f32.gguf")
    assert [demo.text(c) for c in range(1, 8)] == [
        "llama", "135M", "F32", "8,192", "yes", "none", "514.8 MiB"]
    assert tab.item_for("demo-draft-q8_0.gguf").text(3) == "Q8_0"
    assert tab.item_for("count-mtp.gguf").text(6) == "1"  # its MTP heads
    broken = tab.item_for("broken.gguf")
    assert broken.isFirstColumnSpanned()
    assert "cannot be used" in broken.text(0) and "truncated" in broken.text(0)
    tab.select("broken.gguf")
    assert not tab.target_button.isEnabled() and tab.delete_button.isEnabled()
    assert "truncated" in tab.details.text()
    assert "models" in tab.folders_label.text() and str(test_models) in tab.folders_label.text()


def test_pairing_shows_the_demo_draft_compatible_with_the_demo_target(
        make_manager, qtbot, test_models, library_dir, monkeypatch, repos):
    window = make_manager(models_dir=library_dir, extra_folders=[test_models])
    wait_library(window, qtbot)
    tab = window.library_tab
    tab.select("demo-target-f32.gguf")
    pairing = tab.pairing
    qtbot.waitUntil(lambda: "demo-draft-q8_0.gguf" in pairing.rows(), timeout=30_000)
    verdict, why = pairing.rows()["demo-draft-q8_0.gguf"]
    assert verdict == "Yes" and "smaller" in why
    assert pairing.rows()["count-draft.gguf"][0] == "Yes"
    assert "broken.gguf" not in pairing.rows()
    assert "demo-target-f32.gguf" in pairing.title()

    monkeypatch.setattr("huggingface_hub.constants.HF_HUB_OFFLINE", True)
    pairing.search_button.click()
    assert window.tabs.currentWidget() is window.search_tab
    assert window.search_tab.query.text() == "smollm2"
    qtbot.waitUntil(lambda: window.search_tab.search_button.isEnabled(), timeout=15_000)


def test_use_as_target_and_draft_are_signals(make_manager, qtbot, test_models, library_dir):
    window = make_manager(models_dir=library_dir, extra_folders=[test_models])
    wait_library(window, qtbot)
    tab = window.library_tab
    tab.select("count-target.gguf")
    with qtbot.waitSignal(window.use_as_target) as target:
        tab.target_button.click()
    assert target.args == [str(test_models / "count-target.gguf")]
    tab.select("count-draft.gguf")
    with qtbot.waitSignal(window.use_as_draft) as draft:
        tab.draft_button.click()
    assert draft.args == [str(test_models / "count-draft.gguf")]


def test_reveal_opens_the_models_folder(make_manager, qtbot, test_models, library_dir,
                                        monkeypatch):
    opened = []
    monkeypatch.setattr("app.models.library_tab.QDesktopServices.openUrl",
                        lambda url: opened.append(url.toLocalFile()) or True)
    window = make_manager(models_dir=library_dir, extra_folders=[test_models])
    wait_library(window, qtbot)
    window.library_tab.select("count-draft.gguf")
    window.library_tab.reveal_button.click()
    assert opened == [str(test_models)]


def test_import_add_folder_and_delete_with_confirmation(make_manager, qtbot, test_models,
                                                        tmp_path):
    window = make_manager()
    wait_library(window, qtbot)
    tab = window.library_tab
    assert tab.entries() == [] and "No models yet" in tab.status.text()
    with qtbot.waitSignal(tab.scanned, timeout=30_000):
        tab.import_files([str(test_models / "count-draft.gguf")])
    imported = tmp_path / "models" / "count-draft.gguf"
    assert [e.path for e in tab.entries()] == [imported]
    assert tab.selected().path == imported

    other = tmp_path / "other"
    other.mkdir()
    shutil.copyfile(test_models / "count-target.gguf", other / "mine.gguf")
    with qtbot.waitSignal(window.folders_changed) as changed, \
            qtbot.waitSignal(tab.scanned, timeout=30_000):
        tab.add_folder(str(other))
    assert changed.args == [[str(other.resolve())]]
    assert {e.path.name for e in tab.entries()} == {"count-draft.gguf", "mine.gguf"}

    asked = []
    tab.confirm = lambda parent, title, text: asked.append(text) or False
    tab.select("count-draft.gguf")
    tab.delete_button.click()
    assert imported.exists() and "count-draft.gguf" in asked[0]
    tab.confirm = lambda parent, title, text: True
    with qtbot.waitSignal(tab.scanned, timeout=30_000):
        tab.delete_button.click()
    assert not imported.exists()
    assert [e.path.name for e in tab.entries()] == ["mine.gguf"]

    tab.select("mine.gguf")
    with qtbot.waitSignal(window.folders_changed) as changed, \
            qtbot.waitSignal(tab.scanned, timeout=30_000):
        tab.remove_folder_button.click()
    assert changed.args == [[]] and tab.entries() == []
    assert (other / "mine.gguf").exists()  # forgetting a folder deletes nothing


def test_a_broken_import_is_refused_in_words(make_manager, qtbot, tmp_path):
    window = make_manager()
    wait_library(window, qtbot)
    junk = tmp_path / "junk.gguf"
    junk.write_bytes(b"not a model")
    with qtbot.waitSignal(window.library_tab.scanned, timeout=30_000):
        window.library_tab.import_files([str(junk)])
    assert window.library_tab.status.text().startswith("Import failed: junk.gguf")
    assert window.library_tab.entries() == []


def test_model_text_is_shown_as_plain_text(make_manager, qtbot, tmp_path):
    folder = tmp_path / "models"
    folder.mkdir()
    (folder / "<b>bold<i>.gguf").write_bytes(b"GGUF")
    window = make_manager(models_dir=folder)
    wait_library(window, qtbot)
    tab = window.library_tab
    tab.select("<b>bold<i>.gguf")
    assert "<b>bold<i>.gguf" in tab.item_for("<b>bold<i>.gguf").text(0)
    assert "&lt;b&gt;" in tab.item_for("<b>bold<i>.gguf").toolTip(0)
    for label in (tab.details, tab.status, tab.pairing.summary,
                  window.search_tab.status, window.search_tab.repo_title):
        assert label.textFormat().name == "PlainText"
    assert "<b>bold<i>.gguf" in tab.details.text()


# The main window ----------------------------------------------------------------------------


def test_the_main_window_opens_the_manager_and_loads_what_it_picks(
        make_window, qtbot, test_models, settings_path, tmp_path):
    window = make_window(ScriptedEngine())
    window.file_menu.models_action.trigger()
    manager = window.model_manager.window
    assert manager is not None and manager.isVisible()
    with qtbot.waitSignal(window.models_changed, timeout=5000):
        manager.use_as_target.emit(str(test_models / "count-target.gguf"))
    assert window.target.path == str(test_models / "count-target.gguf")
    assert manager._runtime.target == window.target.path
    with qtbot.waitSignal(window.models_changed, timeout=5000):
        manager.use_as_draft.emit(str(test_models / "count-draft.gguf"))
    assert window.draft.path == str(test_models / "count-draft.gguf")

    folder = tmp_path / "more"
    folder.mkdir()
    with qtbot.waitSignal(manager.library_tab.scanned, timeout=30_000):
        manager.library_tab.add_folder(str(folder))
    assert load_settings(settings_path).models.library_folders == [str(folder.resolve())]

    with qtbot.waitSignal(manager.closed, timeout=15_000):
        manager.close()
    qtbot.waitUntil(lambda: window.model_manager.window is None)
    window.file_menu.models_action.trigger()  # a new one, with the remembered folder
    assert str(folder.resolve()) in window.model_manager.window.library_tab.folders_label.text()
    wait_library(window.model_manager.window, qtbot)


def test_a_stale_status_arriving_late_does_not_undo_a_newer_one(tmp_path, qtbot):
    """The manager reports from the caller's thread and from the download thread, so a
    download refused at once can deliver FAILED before QUEUED; the row must stay FAILED."""
    from app.models.downloads import Downloads
    from backend.models.download import DownloadStatus
    from backend.models.hub import HubClient, HubFile, HubModel
    from backend.words import Words

    downloads = Downloads(HubClient(endpoint="http://127.0.0.1:9"), tmp_path)
    model = HubModel("acme/x", "Q8_0", (HubFile("x-Q8_0.gguf", 10, None),))
    seen = []
    downloads.updated.connect(seen.append)
    try:
        failed = DownloadStatus(1, model, State.FAILED, error=Words("Not enough disk space"),
                                seq=2)
        queued = DownloadStatus(1, model, State.QUEUED, seq=1)
        downloads._on_arrived(failed)
        downloads._on_arrived(queued)
        assert [s.state for s in seen] == [State.FAILED]
    finally:
        downloads.close()


def test_the_fit_counts_the_gpu_only_under_the_gpu_layers_setting(
        make_window, monkeypatch, repos, qtbot):
    """A machine whose RAM is too small for the model and whose GPU could take it: "fits" with
    GPU layers auto, "too big" with GPU layers 0, as the setting stands when the repository is
    opened."""
    ram = FIXED_OVERHEAD + 2**20  # llama.cpp's own buffers and a MiB: not the model too

    def machine(gpu_layers=-1):
        gpu = 0 if gpu_layers == 0 else 8 * 2**30
        return Memory(total=ram, available=ram, gpu_total=gpu, gpu_available=gpu,
                      gpu_takes_all=gpu_layers < 0)

    monkeypatch.setattr("app.models.launcher.system_memory", machine)
    with serving(monkeypatch, repos):
        window = make_window(ScriptedEngine())
        fits = {}
        for gpu_layers in (0, -1):
            window.settings.models.gpu_layers = gpu_layers
            window.file_menu.models_action.trigger()
            manager = window.model_manager.window
            search(manager, qtbot, "count")
            (q8,) = open_repo(manager, qtbot)["Q8_0"]
            fits[gpu_layers] = q8.data(FIT, MODEL_ROLE).fit
            assert ("GPU: 8.0 GiB free of 8.0 GiB" in manager.search_tab.memory_note.text()) \
                == (gpu_layers != 0)
            with qtbot.waitSignal(manager.closed, timeout=15_000):
                manager.close()
            qtbot.waitUntil(lambda: window.model_manager.window is None)
        assert fits == {0: Fit.TOO_BIG, -1: Fit.FITS}
