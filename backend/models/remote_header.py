"""A GGUF model on the Hub described from its header alone, read with HTTP Range requests.

Whether a Hub file can draft for a target is decided before anyone downloads gigabytes: its
first bytes are fetched (FIRST_READ, then twice as many, …) until the header parses, and at
most MAX_HEADER_BYTES per file, past which the file is refused in words. A server that
ignores Range answers with the whole file: its body is read only until the header is in, and
the connection is then closed. The header's bytes are then described by the very code that
describes a local file (`inspection._describe`), so the vocabulary rule, the EAGLE-3 rule and
their words are the same for both.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

import httpx2
from huggingface_hub.errors import OfflineModeIsEnabled
from huggingface_hub.utils import get_session

from backend.models.gguf_header import GGUFHeader, HeaderTruncatedError, ModelFileError, read_header
from backend.models.hub import (
    ACCESS_DENIED,
    COULD_NOT,
    COULD_NOT_BECAUSE,
    NOT_AUTHORISED,
    NOT_FOUND,
    OFFLINE_MODE,
    READING_HEADER,
    UNREACHABLE,
    HubClient,
    HubError,
    HubModel,
)
from backend.models.inspection import IN_FILE, ModelInspection, _describe
from backend.words import Words, words

FIRST_READ = 256 * 2**10
# A 262k-token vocabulary with its merges makes a header of a few MB; past this a file is
# refused rather than read on (a corrupt header, or no model at all).
MAX_HEADER_BYTES = 16 * 2**20
READ_CHUNK = 64 * 2**10  # httpcore's read size: what may come in past a bound before it is seen
TIMEOUT_S = 30.0
_UNKNOWN_SIZE = 2**62  # a size no header can reach, while the server has not said the real one

CUT_SHORT = "the connection closed after {n:,} bytes, before the bytes it announced had come"
NO_BYTES = "the server sent no bytes from byte {start:,} on"
REDIRECT_LOOP = "the server redirected the request too many times (a redirect loop?)"
TIMED_OUT = "the server did not answer within {seconds:g} s"
SERVER_ANSWERED = "the server answered with status {status}"
HEADER_TOO_BIG = ("its header is larger than {limit} MiB, more than is read to check a model "
                  "before downloading it")


class RemoteHeaderError(HubError):
    """A Hub file whose header could not be read or used, in words; `bytes_read` is what was
    fetched before giving up."""

    def __init__(self, message: Words, bytes_read: int) -> None:
        super().__init__(message)
        self.bytes_read = bytes_read


@dataclass(frozen=True)
class RemoteInspection:
    inspection: ModelInspection  # its path is "REPO/FILE", not a file on this computer
    bytes_read: int


def inspect_hub_model(client: HubClient, model: HubModel) -> RemoteInspection:
    """Describe a Hub model from its first part's header, as `inspect_model` describes a local
    file. Raises RemoteHeaderError (with the bytes read) when it cannot."""
    part = model.parts[0]
    url = client.url(model.repo_id, part.path, model.revision)
    name = PurePosixPath(part.path).name
    reader = RangeReader(url, client.headers(), name)
    try:
        header, data = read_remote_header(reader, part.size)
        inspection = _described(header, data, model.size, _d2t_bytes(reader, header, data))
    except ModelFileError as exc:
        raise RemoteHeaderError(words(IN_FILE, name=name, error=exc), reader.bytes_read) from None
    finally:
        reader.close()
    shown = Path(model.repo_id, part.path)
    if not header.value("general.name"):  # else named after the file it was read from
        inspection = replace(inspection, name=shown.stem)
    return RemoteInspection(replace(inspection, path=shown), reader.bytes_read)


def read_hub_header(client: HubClient, model: HubModel) -> GGUFHeader:
    """The header of a Hub model's first part (the memory fit's KV cache size comes from it).
    Raises ModelFileError or RemoteHeaderError, in words, when it cannot be read."""
    part = model.parts[0]
    reader = RangeReader(client.url(model.repo_id, part.path, model.revision),
                         client.headers(), PurePosixPath(part.path).name)
    try:
        return read_remote_header(reader, part.size)[0]
    finally:
        reader.close()


def read_remote_header(reader: RangeReader, size: int | None = None) -> tuple[GGUFHeader, bytes]:
    """The header, and the file's first bytes that hold it, fetched FIRST_READ at a time, then
    twice as many each round, up to MAX_HEADER_BYTES. Raises ModelFileError for a file that
    is no usable GGUF, RemoteHeaderError for everything else."""
    buf = b""
    want = FIRST_READ
    while True:
        buf += reader.read(len(buf), want if size is None else min(want, size))
        size = reader.size or size
        ended = reader.ended_at is not None
        try:
            return read_header(buf, file_size=len(buf) if ended else size or _UNKNOWN_SIZE), buf
        except HeaderTruncatedError as exc:
            if ended or (size is not None and len(buf) >= size):
                raise
            if len(buf) >= MAX_HEADER_BYTES:
                raise reader.error(words(HEADER_TOO_BIG, limit=MAX_HEADER_BYTES // 2**20)) \
                    from None
            want = min(max(2 * want, exc.needed), MAX_HEADER_BYTES)


class RangeReader:
    """Bytes of one file on a web server, read with Range requests through huggingface_hub's
    HTTP session (its redirects, proxies and offline mode), counted. One response stays open
    while the bytes wanted follow on from it, so a server that ignores Range streams the file
    once, from its start, only as far as it is read."""

    def __init__(self, url: str, headers: Mapping[str, str], name: str) -> None:
        self.url = url
        self.headers = {**headers, "Accept-Encoding": "identity"}
        self.name = name
        self.bytes_read = 0
        self.size: int | None = None  # the whole file's, once the server says it
        self.ended_at: int | None = None  # where the file ended, when it was read to its end
        self._response: httpx2.Response | None = None
        self._chunks: Iterator[bytes] = iter(())
        self._pos = 0  # the file offset of the open response's next byte
        self._response_bytes = 0  # what the open response has brought so far
        self._whole_file = False  # the open response is a 200: the file from its start

    def read(self, start: int, end: int) -> bytes:
        """The file's bytes from `start` up to `end`, fewer when it ends first, and more when
        the last network read brought more (kept, so the open response reads on from there)."""
        out = bytearray()
        while start + len(out) < end and self.ended_at is None:
            pos = start + len(out)
            if self._response is None or self._pos > pos:
                self._open(pos, end)
                continue
            chunk = self._next_chunk()
            if chunk is None:  # this response is over: the file's end, or the range's
                self._response_ended(pos)
                continue
            skip = pos - self._pos  # a whole file from byte 0 where later ones were asked
            self._pos += len(chunk)
            if self.bytes_read > MAX_HEADER_BYTES:
                raise self.error(words(HEADER_TOO_BIG, limit=MAX_HEADER_BYTES // 2**20))
            out += chunk[skip:]
        return bytes(out)

    def _response_ended(self, pos: int) -> None:
        whole, fresh = self._whole_file, self._response_bytes == 0
        self._close_response()
        if whole:  # a complete 200 body is the whole file (a cut one raised CUT_SHORT)
            self.ended_at = self.size = self._pos
        elif fresh:  # a range that brought nothing
            if self.size is not None and pos < self.size:
                raise self.error(words(NO_BYTES, start=pos))
            self.ended_at = pos

    def error(self, reason: Words) -> RemoteHeaderError:
        """`reason` as this file's refusal: "Could not read the header of NAME: reason"."""
        path = words(READING_HEADER, path=self.name)
        return RemoteHeaderError(words(COULD_NOT, doing=path, reason=reason), self.bytes_read)

    def close(self) -> None:
        self._close_response()

    def _open(self, start: int, end: int) -> None:
        self._close_response()
        session = get_session()
        headers = {**self.headers, "Range": f"bytes={start}-{end - 1}"}
        with _failures(self):
            request = session.build_request("GET", self.url, headers=headers,
                                            timeout=httpx2.Timeout(TIMEOUT_S))
            response = session.send(request, stream=True, follow_redirects=True)
        self._response, self._response_bytes = response, 0
        status = response.status_code
        if status == 416:  # nothing at `start`: the file ends there
            self._close_response()
            self.ended_at = start
            return
        reason = {401: words(NOT_AUTHORISED), 403: words(ACCESS_DENIED),
                  404: words(NOT_FOUND)}.get(status)
        if reason is not None or status not in (200, 206):
            raise self.error(reason or words(SERVER_ANSWERED, status=status))
        self._whole_file = status == 200
        self._pos = 0
        length = response.headers.get("content-length", "")
        if status == 206:
            m = re.match(r"bytes (\d+)-\d+/(\d+|\*)", response.headers.get("content-range", ""))
            if m is None or int(m[1]) > start:
                raise self.error(words(SERVER_ANSWERED, status=status))
            self._pos = int(m[1])
            self.size = int(m[2]) if m[2] != "*" else self.size
        elif length.isdigit():
            self.size = int(length)
        self._chunks = response.iter_raw()

    def _next_chunk(self) -> bytes | None:
        with _failures(self):
            chunk = next(self._chunks, None)
        if chunk is not None:
            self.bytes_read += len(chunk)
            self._response_bytes += len(chunk)
        return chunk

    def _close_response(self) -> None:
        if self._response is not None:
            self._response.close()
            self._response = None


@contextmanager
def _failures(reader: RangeReader) -> Iterator[None]:
    """huggingface_hub's and the network's exceptions as this file's refusal, in words."""
    try:
        yield
    except RemoteHeaderError:
        raise
    except (OfflineModeIsEnabled, httpx2.HTTPError, OSError) as exc:
        reader.close()
        if isinstance(exc, httpx2.ConnectError | httpx2.ConnectTimeout | httpx2.ProxyError):
            raise RemoteHeaderError(words(UNREACHABLE), reader.bytes_read) from exc
        if isinstance(exc, OfflineModeIsEnabled):
            reason = words(OFFLINE_MODE)
        elif isinstance(exc, httpx2.TooManyRedirects):
            reason = words(REDIRECT_LOOP)
        elif isinstance(exc, httpx2.TimeoutException):
            reason = words(TIMED_OUT, seconds=TIMEOUT_S)
        elif isinstance(exc, httpx2.RemoteProtocolError):
            reason = words(CUT_SHORT, n=reader.bytes_read)
        else:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            path = words(READING_HEADER, path=reader.name)
            raise RemoteHeaderError(words(COULD_NOT_BECAUSE, doing=path, error=first),
                                    reader.bytes_read) from exc
        raise reader.error(reason) from exc


def _d2t_bytes(reader: RangeReader, header: GGUFHeader, data: bytes) -> bytes | None:
    """An EAGLE-3 head's d2t table (a few hundred kB), which its rule reads."""
    d2t = next((t for t in header.tensors if t.name == "d2t"), None)
    if header.value("general.architecture") != "eagle3" or d2t is None:
        return None
    start = header.data_offset + d2t.offset
    if start + d2t.n_bytes <= len(data):  # it came with the header
        return data[start : start + d2t.n_bytes]
    return reader.read(start, start + d2t.n_bytes)[: d2t.n_bytes]


def _described(header: GGUFHeader, data: bytes, file_size: int,
               d2t: bytes | None) -> ModelInspection:
    """`_describe` reads token texts and a head's d2t table from a file: given one in a folder
    of its own that holds the header, with the d2t table (if any) moved to just after it, and
    the token texts loaded before the file goes."""
    tensors = [replace(t, offset=0) if t.name == "d2t" and d2t is not None else t
               for t in header.tensors]
    with tempfile.TemporaryDirectory(prefix="draftlight-header-") as folder:
        path = Path(folder, "header.gguf")
        path.write_bytes(data[: header.data_offset].ljust(header.data_offset, b"\0")
                         + (d2t or b""))
        inspection = _describe(path, header, file_size, tensors)
        inspection.vocab.tokens[:1]  # loads (and keeps) every token text
    return inspection
