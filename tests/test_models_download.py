"""Downloads from a fake hub: resume after a cut and after a killed process, SHA-256 checks
(also of bytes that arrive on a resumed range), disk-space refusal, unsafe names, and the
queue's pause and cancel. Downloads that must still be running when the test acts are held
by the fake hub at a byte offset until the test releases them: no race with the machine's
speed."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from fakehub import gguf_repo, released_when, serving

from backend.models import transfer
from backend.models.download import DownloadManager, State
from backend.models.hub import HubClient
from backend.models.inspection import inspect_model
from backend.models.transfer import (
    ChecksumMismatchError,
    DownloadError,
    NotEnoughSpaceError,
    destination,
    partial_path,
)

ROOT = Path(__file__).resolve().parents[1]
REPO = "acme/Count-GGUF"
FILE = "count-draft-Q8_0.gguf"


@pytest.fixture
def model_bytes(test_models) -> bytes:
    return (test_models / "count-draft.gguf").read_bytes()


@pytest.fixture
def repo(model_bytes):
    return gguf_repo(REPO, {FILE: model_bytes})


def _download(hub_client: HubClient, models_dir: Path, stop: threading.Event | None = None):
    model = hub_client.models(REPO)[0]
    part = model.parts[0]
    dest = destination(models_dir, REPO, part.path)
    return transfer.download(
        hub_client.url(REPO, part.path),
        dest,
        size=part.size,
        sha256=part.sha256,
        headers=hub_client.headers(),
        stop=stop,
    )


def _nothing_kept(models_dir: Path) -> bool:
    dest = destination(models_dir, REPO, FILE)
    return not dest.exists() and not partial_path(dest).exists()


def test_a_cut_connection_resumes_where_it_stopped_and_ends_verified(
    monkeypatch, repo, model_bytes, tmp_path
):
    repo.files[FILE].cut_after = [3_000_000, 5_000_000]
    with serving(monkeypatch, [repo]) as hub:
        path = _download(HubClient(), tmp_path)
        ranges = hub.ranges(FILE)
        redirects = hub.redirects(FILE)
    assert path.read_bytes() == model_bytes
    assert ranges == [None, "bytes=3000000-", "bytes=8000000-"]
    assert redirects == 3  # each request went through /resolve/'s redirect, as on the Hub
    assert not partial_path(path).exists()
    assert inspect_model(path).architecture == "llama"


def test_corrupt_bytes_on_a_resumed_range_end_in_a_hash_mismatch_and_no_file(
    monkeypatch, repo, tmp_path
):
    """The Hub's hash is right and the first response's bytes are too; the bytes after the
    cut are not. The hash must cover the resumed part as well."""
    f = repo.files[FILE]
    f.cut_after, f.corrupt_resumed = [3_000_000], True
    with serving(monkeypatch, [repo]) as hub, \
            pytest.raises(ChecksumMismatchError, match="SHA-256"):
        _download(HubClient(), tmp_path)
    assert hub.ranges(FILE) == [None, "bytes=3000000-"]
    assert _nothing_kept(tmp_path)


def test_a_download_resumed_from_disk_with_corrupt_bytes_fails_and_keeps_nothing(
    monkeypatch, repo, tmp_path
):
    """A download stopped (the partial file stays), then continued in a later call from the
    bytes on disk, receives a corrupt range: the hash of the whole file catches it."""
    f = repo.files[FILE]
    f.hold(2_000_000)
    stop = threading.Event()
    with serving(monkeypatch, [repo]) as hub:
        with released_when(f, stop):
            first = threading.Thread(target=_stopped_download, args=(tmp_path, stop))
            first.start()
            assert f.held.wait(30)
            stop.set()  # the download notices with the next bytes: the hold's release
            first.join()
        on_disk = partial_path(destination(tmp_path, REPO, FILE)).stat().st_size
        assert 0 < on_disk < len(f.data)  # (it may stop before the hold: it reads behind)
        f.corrupt_resumed = True
        with pytest.raises(ChecksumMismatchError, match="deleted"):
            _download(HubClient(), tmp_path)
        assert hub.ranges(FILE)[-1] == f"bytes={on_disk}-"
    assert _nothing_kept(tmp_path)


def _stopped_download(models_dir: Path, stop: threading.Event) -> None:
    with pytest.raises(transfer.DownloadStopped):
        _download(HubClient(), models_dir, stop)


def test_a_killed_download_continues_from_the_bytes_on_disk(
    monkeypatch, repo, model_bytes, tmp_path
):
    f = repo.files[FILE]
    f.hold(2_000_000)  # the child surely has these bytes, and not all, when it is killed
    with serving(monkeypatch, [repo]) as hub:
        dest = destination(tmp_path, REPO, FILE)
        script = (
            "import sys; from pathlib import Path\n"
            "from backend.models.hub import HubClient\n"
            "from backend.models import transfer\n"
            "c = HubClient(); m = c.models(sys.argv[2])[0]; p = m.parts[0]\n"
            "transfer.download(c.url(m.repo_id, p.path), Path(sys.argv[1]), size=p.size,"
            " sha256=p.sha256, headers=c.headers())\n"
        )
        env = {**os.environ, "HF_ENDPOINT": hub.endpoint, "PYTHONPATH": str(ROOT)}
        env.pop("HF_HUB_OFFLINE", None)
        child = subprocess.Popen([sys.executable, "-c", script, str(dest), REPO], env=env)
        partial = partial_path(dest)
        try:
            assert f.held.wait(60), "the child never reached the hold"
            # sent is not yet written: wait for the child to write what it received (the
            # deadline only stops a hang; the file stops growing at the hold either way)
            deadline = time.monotonic() + 60
            while not (partial.exists() and partial.stat().st_size == 2_000_000):
                assert child.poll() is None and time.monotonic() < deadline, "no progress"
                time.sleep(0.02)
        finally:
            child.kill()
            child.wait(timeout=10)
            f.release.set()
        on_disk = partial.stat().st_size
        assert on_disk == 2_000_000
        path = _download(HubClient(), tmp_path)
        ranges = hub.ranges(FILE)
    assert ranges[-1] == f"bytes={on_disk}-"  # not from zero
    assert path.read_bytes() == model_bytes


def test_bytes_that_do_not_match_the_hubs_hash_are_rejected(
    monkeypatch, repo, model_bytes, tmp_path
):
    repo.files[FILE].advertised_sha256 = "0" * 64
    with serving(monkeypatch, [repo]), pytest.raises(ChecksumMismatchError, match="SHA-256"):
        _download(HubClient(), tmp_path)
    dest = destination(tmp_path, REPO, FILE)
    assert not dest.exists() and not partial_path(dest).exists()


def test_responses_that_bring_no_bytes_end_in_an_error(monkeypatch, repo, tmp_path):
    f = repo.files[FILE]
    f.empty_bodies = 1000
    stop = threading.Event()
    outcome = []

    def attempt() -> None:
        try:
            _download(HubClient(), tmp_path, stop)
        except Exception as exc:  # the outcome is what is checked
            outcome.append(exc)

    with serving(monkeypatch, [repo]) as hub:
        thread = threading.Thread(target=attempt)
        thread.start()
        # a download that gave up has asked at most 1 + MAX_STALLED_RETRIES times; one that
        # asks far more is looping: stop it (the test then fails on its outcome)
        while thread.is_alive() and len(hub.ranges(FILE)) < 50:
            thread.join(0.05)
        stop.set()
        thread.join()
    assert outcome and isinstance(outcome[0], DownloadError), outcome
    assert len(hub.ranges(FILE)) <= 1 + transfer.MAX_STALLED_RETRIES + 1


def test_too_little_disk_space_is_refused_before_any_request(monkeypatch, repo, tmp_path):
    monkeypatch.setattr(transfer, "free_space", lambda folder: 1_000_000)
    with serving(monkeypatch, [repo]) as hub:
        with pytest.raises(NotEnoughSpaceError, match="Not enough disk space"):
            _download(HubClient(), tmp_path)
        assert hub.ranges(FILE) == []


@pytest.mark.parametrize(
    "name", ["../evil.gguf", "a/../../evil.gguf", "/etc/evil.gguf", "C:evil.gguf", "a\\..\\e.gguf"]
)
def test_a_file_name_that_escapes_the_models_folder_is_refused(name, tmp_path):
    with pytest.raises(DownloadError, match="escape"):
        destination(tmp_path, REPO, name)


def test_the_token_is_sent_like_every_huggingface_hub_program(monkeypatch, repo, tmp_path):
    monkeypatch.setenv("HF_TOKEN", "hf_secret")
    with serving(monkeypatch, [repo]) as hub:
        _download(HubClient(), tmp_path)
        auth = {r.headers.get("authorization") for r in hub.requests}
    assert auth == {"Bearer hf_secret"}


def test_the_queue_reports_progress_pauses_resumes_and_cancels(monkeypatch, repo, tmp_path):
    f = repo.files[FILE]
    seen = []

    with serving(monkeypatch, [repo]) as hub:
        client = HubClient()
        model = client.models(REPO)[0]
        with DownloadManager(client, tmp_path, on_update=seen.append) as manager:
            f.hold(1_000_000)
            job = manager.enqueue(model)
            assert f.held.wait(30)
            assert manager.status(job).state == State.RUNNING
            manager.pause(job)
            f.release.set()  # the pause is seen with the next bytes
            assert manager.wait(job, 30).state == State.PAUSED
            paused_at = partial_path(destination(tmp_path, REPO, FILE)).stat().st_size
            assert 0 < paused_at < model.size
            manager.resume(job)
            done = manager.wait(job, 60)
            assert done.state == State.DONE and done.path is not None
            assert hub.ranges(FILE)[-1] == f"bytes={paused_at}-"

            done.path.unlink()
            f.hold(1_000_000)
            second = manager.enqueue(model)
            assert f.held.wait(30)
            manager.cancel(second)
            f.release.set()
            assert manager.wait(second, 30).state == State.CANCELLED
    dest = destination(tmp_path, REPO, FILE)
    assert not partial_path(dest).exists() and not dest.exists()
    progress = [s for s in seen if s.state == State.RUNNING and s.speed > 0]
    assert progress and all(s.total == model.size for s in progress)
    assert any(s.eta is not None for s in progress)


def test_close_pauses_a_running_download_and_joins_the_worker(monkeypatch, repo, tmp_path):
    f = repo.files[FILE]
    f.hold(1_000_000)
    with serving(monkeypatch, [repo]):
        client = HubClient()
        manager = DownloadManager(client, tmp_path)
        job = manager.enqueue(client.models(REPO)[0])
        assert f.held.wait(30)
        with released_when(f, manager._stops[job]):  # close() sets it, then joins
            manager.close()
        assert manager.status(job).state == State.PAUSED
        assert partial_path(destination(tmp_path, REPO, FILE)).stat().st_size > 0
