"""Downloads from a fake hub: resume after a cut and after a killed process, SHA-256 checks,
disk-space refusal, unsafe names, and the queue's pause and cancel."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from fakehub import gguf_repo, serving

from backend.models import transfer
from backend.models.download import DownloadManager, State
from backend.models.hub import HubClient
from backend.models.inspect import inspect_model
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


def _download(hub_client: HubClient, models_dir: Path):
    model = hub_client.models(REPO)[0]
    part = model.parts[0]
    dest = destination(models_dir, REPO, part.path)
    return transfer.download(
        hub_client.url(REPO, part.path),
        dest,
        size=part.size,
        sha256=part.sha256,
        headers=hub_client.headers(),
    )


def test_a_cut_connection_resumes_where_it_stopped_and_ends_verified(
    monkeypatch, repo, model_bytes, tmp_path
):
    repo.files[FILE].cut_after = [3_000_000, 5_000_000]
    with serving(monkeypatch, [repo]) as hub:
        path = _download(HubClient(), tmp_path)
        ranges = hub.ranges(FILE)
    assert path.read_bytes() == model_bytes
    assert ranges == [None, "bytes=3000000-", "bytes=8000000-"]
    assert not partial_path(path).exists()
    assert inspect_model(path).architecture == "llama"


def test_a_killed_download_continues_from_the_bytes_on_disk(
    monkeypatch, repo, model_bytes, tmp_path
):
    repo.files[FILE].bytes_per_second = 4e6
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
        try:
            partial = partial_path(dest)
            deadline = time.monotonic() + 60
            while not (partial.exists() and partial.stat().st_size > 1_000_000):
                assert child.poll() is None and time.monotonic() < deadline, "no progress"
                time.sleep(0.05)
        finally:
            child.kill()
            child.wait(timeout=10)
        on_disk = partial.stat().st_size
        assert 0 < on_disk < len(model_bytes)
        repo.files[FILE].bytes_per_second = None
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
    repo.files[FILE].bytes_per_second = 8e6
    seen = []
    running = threading.Event()

    def observe(status):
        seen.append(status)
        if status.state == State.RUNNING and status.done > 500_000:
            running.set()

    with serving(monkeypatch, [repo]) as hub:
        client = HubClient()
        model = client.models(REPO)[0]
        with DownloadManager(client, tmp_path, on_update=observe) as manager:
            job = manager.enqueue(model)
            assert running.wait(30)
            manager.pause(job)
            assert manager.wait(job, 30).state == State.PAUSED
            paused_at = partial_path(destination(tmp_path, REPO, FILE)).stat().st_size
            repo.files[FILE].bytes_per_second = None
            manager.resume(job)
            done = manager.wait(job, 60)
            assert done.state == State.DONE and done.path is not None
            assert hub.ranges(FILE)[-1] == f"bytes={paused_at}-"

            repo.files[FILE].bytes_per_second = 8e6
            done.path.unlink()
            running.clear()
            second = manager.enqueue(model)
            assert running.wait(30)
            manager.cancel(second)
            assert manager.wait(second, 30).state == State.CANCELLED
    dest = destination(tmp_path, REPO, FILE)
    assert not partial_path(dest).exists() and not dest.exists()
    progress = [s for s in seen if s.state == State.RUNNING and s.speed > 0]
    assert progress and all(s.total == model.size for s in progress)
    assert any(s.eta is not None for s in progress)


def test_close_pauses_a_running_download_and_joins_the_worker(monkeypatch, repo, tmp_path):
    repo.files[FILE].bytes_per_second = 4e6
    with serving(monkeypatch, [repo]):
        client = HubClient()
        manager = DownloadManager(client, tmp_path)
        job = manager.enqueue(client.models(REPO)[0])
        deadline = time.monotonic() + 30
        while manager.status(job).done < 200_000 and time.monotonic() < deadline:
            time.sleep(0.05)
        manager.close()
        assert manager.status(job).state == State.PAUSED
        assert partial_path(destination(tmp_path, REPO, FILE)).exists()
