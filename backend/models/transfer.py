"""One file from the Hub to disk: resumable across restarts, verified, moved in only when whole.

What huggingface_hub 2.4's `hf_hub_download` lacks, measured against a local fake hub, and so
what this module adds (and only this): it checks the size but not the SHA-256; it resumes only
within one call; and after a crash it leaves a randomly named `.incomplete` file that the next
call ignores. Here the partial file has a fixed name next to its destination, with a small
sidecar recording what it is a partial of, so the next run (after a pause, a network cut or a
killed process) asks for `Range: bytes=<size on disk>-` and carries on. Bytes are hashed as
they are written; the file is renamed into place only when its SHA-256 equals the Hub's.
URLs, authentication, the HTTP session and retry with backoff are huggingface_hub's.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import httpx2
from huggingface_hub import constants
from huggingface_hub.utils import hf_raise_for_status, http_stream_backoff

from backend.words import Words, words

PARTIAL_SUFFIX = ".partial"
SIDECAR_SUFFIX = ".partial.json"
DISK_RESERVE = 64 * 2**20  # never fill the disk to the last byte
MAX_STALLED_RETRIES = 5  # attempts in a row that bring no new bytes before giving up
PROGRESS_INTERVAL = 0.1  # seconds between progress reports (the last one is always sent)

_REPO_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*$")

# What a download says when it cannot go on, as templates (backend/words.py).
NOT_A_REPO = "{repo} is not a valid repository name."
ESCAPING_NAME = "Refusing to download {name}: the name would escape the models folder."
NO_SPACE = ("Not enough disk space for {name}: it needs {needed} more, and only {free} is free "
            "in {folder}.")
KEEPS_FAILING = "The download of {name} keeps failing; it will continue from here next time."
KEEPS_FAILING_BECAUSE = ("The download of {name} keeps failing ({error}); it will continue from "
                         "here next time.")
DAMAGED = ("{name} is damaged: its SHA-256 ({got}…) is not the one the Hub lists ({listed}…). "
           "The downloaded bytes were deleted.")
HUB_REFUSED = "The Hub refused the download: {error}"
BAD_RANGE = "The server answered a request for bytes from {offset} with {answer}."
TOO_MANY_BYTES = "The server sent more bytes than the Hub listed for the file."


class DownloadError(Exception):
    """A download that cannot go on; the message is one line for a person, its one argument,
    as Words (backend/words.py; `str(exc)` is the English sentence)."""

    def __init__(self, message: Words | str) -> None:
        super().__init__(message)


class NotEnoughSpaceError(DownloadError):
    pass


class ChecksumMismatchError(DownloadError):
    pass


class DownloadStopped(Exception):
    """Raised inside `download` when its stop event is set (pause or cancel)."""


@dataclass(frozen=True)
class Progress:
    done: int  # bytes on disk
    total: int
    speed: float  # bytes per second, smoothed
    eta: float | None  # seconds left, when the speed is known


ProgressCallback = Callable[[Progress], None]


def free_space(folder: Path) -> int:
    """Free bytes on the disk holding `folder` (a seam for tests to simulate a full disk)."""
    return shutil.disk_usage(folder).free


def destination(models_dir: Path, repo_id: str, path_in_repo: str) -> Path:
    """Where a Hub file goes: `<models_dir>/<owner>/<repo>/<path>`. Refuses any name that
    would land outside `models_dir` (`..`, absolute paths, drive letters, backslashes)."""
    if not _REPO_ID.match(repo_id) or ".." in repo_id:
        raise DownloadError(words(NOT_A_REPO, repo=repr(repo_id)))
    parts = path_in_repo.split("/")
    if (
        not path_in_repo
        or "\\" in path_in_repo
        or "\0" in path_in_repo
        or ":" in path_in_repo
        or path_in_repo.startswith("/")
        or any(p in ("", ".", "..") for p in parts)
    ):
        raise DownloadError(words(ESCAPING_NAME, name=repr(path_in_repo)))
    root = Path(models_dir).resolve()
    target = (root / repo_id / path_in_repo).resolve()
    if not target.is_relative_to(root):
        raise DownloadError(words(ESCAPING_NAME, name=repr(path_in_repo)))
    return target


def partial_path(dest: Path) -> Path:
    return dest.with_name(dest.name + PARTIAL_SUFFIX)


def discard_partial(dest: Path) -> None:
    for p in (partial_path(dest), dest.with_name(dest.name + SIDECAR_SUFFIX)):
        p.unlink(missing_ok=True)


def download(
    url: str,
    dest: Path,
    *,
    size: int,
    sha256: str | None,
    headers: dict[str, str] | None = None,
    stop: threading.Event | None = None,
    on_progress: ProgressCallback | None = None,
    already_done: int = 0,
    overall_size: int | None = None,
) -> Path:
    """Fetch `url` into `dest`, continuing a partial file left by an earlier run.

    `already_done` and `overall_size` put the reported progress in the frame of a whole split
    model, of which this file is one part.
    Raises DownloadStopped when `stop` is set (the partial file stays, to resume later),
    NotEnoughSpaceError before any request when the disk is too full, ChecksumMismatchError
    (after deleting the bytes) when the file is not what the Hub advertised, DownloadError
    when the server keeps failing.
    """
    if dest.is_file() and dest.stat().st_size == size:
        return dest  # verified when it was moved into place
    dest.parent.mkdir(parents=True, exist_ok=True)
    partial = partial_path(dest)
    offset = _usable_partial(dest, size, sha256)
    needed = size - offset
    free = free_space(dest.parent)
    if needed + DISK_RESERVE > free:
        raise NotEnoughSpaceError(words(NO_SPACE, name=dest.name, needed=_human(needed),
                                        free=_human(free), folder=dest.parent))
    _write_sidecar(dest, url, size, sha256)
    hasher = hashlib.sha256()
    if offset:
        with open(partial, "rb") as f:  # hash state cannot be saved, so re-read what is there
            while chunk := f.read(1 << 20):
                hasher.update(chunk)
    meter = _Meter(size, already_done, overall_size or already_done + size, on_progress)
    meter.report(offset, force=True)
    stalled = 0
    with open(partial, "ab") as out:
        while offset < size:
            if stop is not None and stop.is_set():
                raise DownloadStopped
            before = offset
            try:
                offset = _fetch_from(url, headers or {}, offset, size, out, hasher, stop, meter)
                failure: BaseException | None = None
            except (httpx2.TransportError, httpx2.StreamError) as exc:
                offset = out.tell()  # every chunk written (and hashed) before the cut counts
                failure = exc
            except _RestartFromZero:
                out.truncate(0)
                out.seek(0)
                hasher = hashlib.sha256()
                offset = 0
                continue
            if offset < size:
                # A cut connection, or a response that ended early, even without a byte (an
                # empty 200): ask again from here, but give up when attempts bring nothing.
                stalled = 0 if offset > before else stalled + 1
                if stalled > MAX_STALLED_RETRIES:
                    if failure is None:
                        said = words(KEEPS_FAILING, name=dest.name)
                    else:
                        said = words(KEEPS_FAILING_BECAUSE, name=dest.name,
                                     error=str(failure) or type(failure).__name__)
                    raise DownloadError(said) from failure
                if offset == before:
                    time.sleep(min(0.2 * 2**stalled, 5))
        out.flush()
        os.fsync(out.fileno())
    meter.report(offset, force=True)
    if sha256 is not None and hasher.hexdigest() != sha256.lower():
        discard_partial(dest)
        raise ChecksumMismatchError(words(DAMAGED, name=dest.name,
                                          got=hasher.hexdigest()[:12], listed=sha256[:12]))
    os.replace(partial, dest)
    dest.with_name(dest.name + SIDECAR_SUFFIX).unlink(missing_ok=True)
    return dest


class _RestartFromZero(Exception):
    """The server ignored the Range request and is sending the whole file again."""


def _fetch_from(url, headers, offset, size, out, hasher, stop, meter) -> int:
    """One ranged GET from `offset`; returns the new offset (possibly short of `size` when the
    server ends the response early, which the caller answers with another ranged GET)."""
    request_headers = dict(headers)
    if offset:
        request_headers["Range"] = f"bytes={offset}-"
    with http_stream_backoff(
        "GET",
        url,
        headers=request_headers,
        timeout=constants.HF_HUB_DOWNLOAD_TIMEOUT,
        retry_on_exceptions=(httpx2.ConnectError, httpx2.ConnectTimeout),
    ) as response:
        if response.status_code == 416 and offset == size:
            return offset
        if response.status_code >= 400:
            response.read()
            try:
                hf_raise_for_status(response)
            except Exception as exc:
                first = (str(exc).splitlines() or [""])[0]
                raise DownloadError(words(HUB_REFUSED, error=first)) from exc
        if offset and response.status_code == 200:
            raise _RestartFromZero
        if offset and not response.headers.get("Content-Range", "").startswith(f"bytes {offset}-"):
            raise DownloadError(words(BAD_RANGE, offset=offset,
                                      answer=repr(response.headers.get("Content-Range"))))
        for chunk in response.iter_bytes():  # as they arrive: a cut loses nothing received
            if offset + len(chunk) > size:
                raise DownloadError(words(TOO_MANY_BYTES))
            out.write(chunk)
            out.flush()
            hasher.update(chunk)
            offset += len(chunk)
            meter.report(offset)
            if stop is not None and stop.is_set():
                raise DownloadStopped
    return offset


def _usable_partial(dest: Path, size: int, sha256: str | None) -> int:
    """The bytes already on disk that belong to this very file; anything else is discarded."""
    partial = partial_path(dest)
    sidecar = dest.with_name(dest.name + SIDECAR_SUFFIX)
    try:
        meta = json.loads(sidecar.read_text(encoding="utf-8"))
        have = partial.stat().st_size
    except (OSError, ValueError):
        discard_partial(dest)
        return 0
    if meta.get("size") != size or meta.get("sha256") != sha256 or have > size:
        discard_partial(dest)  # the file changed on the Hub since: start over
        return 0
    return have


def _write_sidecar(dest: Path, url: str, size: int, sha256: str | None) -> None:
    sidecar = dest.with_name(dest.name + SIDECAR_SUFFIX)
    tmp = sidecar.with_name(sidecar.name + ".tmp")
    tmp.write_text(json.dumps({"url": url, "size": size, "sha256": sha256}), encoding="utf-8")
    os.replace(tmp, sidecar)


class _Meter:
    """Smoothed speed and time left, reported at most every PROGRESS_INTERVAL seconds."""

    def __init__(self, size: int, base: int, total: int, callback: ProgressCallback | None) -> None:
        self.size = size
        self.base = base
        self.total = total
        self.callback = callback
        self.speed = 0.0
        self._last_time = time.monotonic()
        self._last_done: int | None = None
        self._last_report = 0.0

    def report(self, done: int, force: bool = False) -> None:
        now = time.monotonic()
        if self._last_done is not None and now > self._last_time:
            instant = (done - self._last_done) / (now - self._last_time)
            self.speed = instant if self.speed == 0 else 0.8 * self.speed + 0.2 * instant
        self._last_time, self._last_done = now, done
        if self.callback is None or (not force and now - self._last_report < PROGRESS_INTERVAL):
            return
        self._last_report = now
        left = self.total - self.base - done
        eta = left / self.speed if self.speed > 0 else None
        with contextlib.suppress(Exception):  # a faulty observer must not break a download
            self.callback(Progress(self.base + done, self.total, self.speed, eta))


def _human(n: int) -> str:
    size = float(n)
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB"):
        if size < 1024 or unit == "TiB":
            return f"{size:,.0f} {unit}" if unit == "bytes" else f"{size:.1f} {unit}"
        size /= 1024
    return str(n)
