"""Finding GGUF models on the Hugging Face Hub, through huggingface_hub.

Search, file listings (with each LFS file's SHA-256 and size), URLs, authentication
(`HF_TOKEN` or a stored login) and the HTTP session are all huggingface_hub's. What is added
here: GGUF files grouped into models by quantization (split parts joined into one model), and
a model's header read with two or three ranged requests, so that its KV-cache size, and so
whether it fits this machine, is known before downloading gigabytes; and a Hub that cannot
be reached said so in a few seconds, in words, rather than after the resolver's and the
client's retries as an errno.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

import httpx2
from huggingface_hub import HfApi, constants, hf_hub_url
from huggingface_hub.errors import HfHubHTTPError, OfflineModeIsEnabled
from huggingface_hub.hf_api import RepoFile
from huggingface_hub.utils import build_hf_headers

from backend import APP_NAME
from backend.models.gguf_header import HeaderTruncatedError
from backend.models.memory import Memory, MemoryEstimate, estimate
from backend.models.naming import quantization_from_name, split_name
from backend.models.reachability import Unreachable, check_reachable
from backend.words import Words, words

# What a failed Hub request says, as templates (backend/words.py): "Could not {doing}: …".
SEARCHING = "search the Hub"
LISTING = "list the files of {repo}"
READING_HEADER = "read the header of {path}"
COULD_NOT = "Could not {doing}: {reason}."
COULD_NOT_BECAUSE = "Could not {doing}: {error}"
NOT_AUTHORISED = "not authorised (set HF_TOKEN?)"
ACCESS_DENIED = "access denied (gated repo?)"
NOT_FOUND = "not found"
UNREACHABLE = "The Hugging Face Hub cannot be reached from this computer."
OFFLINE_MODE = "Hugging Face's offline mode is on (HF_HUB_OFFLINE is set)"


@dataclass(frozen=True)
class RepoSummary:
    repo_id: str
    downloads: int
    likes: int
    last_modified: datetime | None


@dataclass(frozen=True)
class HubFile:
    path: str  # path inside the repository
    size: int
    sha256: str | None  # the LFS object id; None for a file stored in plain git


@dataclass(frozen=True)
class HubModel:
    """One model in a repository: a single GGUF file, or all parts of a split one."""

    repo_id: str
    quantization: str  # from the file name; "unknown" when the name does not say
    parts: tuple[HubFile, ...]
    revision: str = constants.DEFAULT_REVISION

    @property
    def name(self) -> str:
        return self.parts[0].path

    @property
    def eagle3_head(self) -> bool:
        """An EAGLE-3 draft head, by its file name: a head comes as its own repository or as
        an `eagle3-*.gguf` sidecar beside its target's files (where llama.cpp's `-hf` finds
        it); its header (architecture `eagle3`) is what the library then trusts."""
        base = self.name.rsplit("/", 1)[-1].lower()
        return "eagle3" in base or "eagle-3" in base

    @property
    def size(self) -> int:
        return sum(p.size for p in self.parts)


class HubError(Exception):
    """A Hub request failed; the message is one line for a person, its one argument, as Words
    (backend/words.py; `str(exc)` is the English sentence)."""

    def __init__(self, message: Words | str) -> None:
        super().__init__(message)


class HubUnreachable(HubError):
    """No connection to the Hub at all (no network, no name resolution, a proxy or firewall in
    the way): said as one sentence; `detail` is what the resolver or socket said."""

    def __init__(self, detail: str = "") -> None:
        super().__init__(words(UNREACHABLE))
        self.detail = detail


class HubClient:
    """The Hub as the model manager sees it. `endpoint` and `token` default to what every
    huggingface_hub program uses: `HF_ENDPOINT` and `HF_TOKEN` (or the stored login)."""

    def __init__(self, endpoint: str | None = None, token: str | bool | None = None) -> None:
        # Read HF_ENDPOINT now rather than trusting the value huggingface_hub froze at import.
        self.endpoint = (endpoint or os.environ.get("HF_ENDPOINT") or constants.ENDPOINT).rstrip(
            "/"
        )
        self.token = token
        self.api = HfApi(endpoint=self.endpoint, token=token, library_name=APP_NAME)

    def search(self, query: str, limit: int = 30) -> list[RepoSummary]:
        """GGUF repositories matching `query`, most downloaded first."""
        self._check_reachable(words(SEARCHING))
        with _hub_errors(words(SEARCHING)):
            found = self.api.list_models(
                search=query or None,
                filter="gguf",
                sort="downloads",
                limit=limit,
                expand=["downloads", "likes", "lastModified"],
            )
            return [
                RepoSummary(m.id, m.downloads or 0, m.likes or 0, m.last_modified) for m in found
            ]

    def models(self, repo_id: str, revision: str | None = None) -> list[HubModel]:
        """The GGUF models in a repository, sorted by quantization then name. Vision
        projectors (`mmproj-…`) are left out: they are not language models."""
        revision = revision or constants.DEFAULT_REVISION
        self._check_reachable(words(LISTING, repo=repo_id))
        with _hub_errors(words(LISTING, repo=repo_id)):
            files = [
                f
                for f in self.api.list_repo_tree(repo_id, recursive=True, revision=revision)
                if isinstance(f, RepoFile) and f.path.lower().endswith(".gguf")
            ]
        return group_models(repo_id, revision, files)

    def _check_reachable(self, doing: Words) -> None:
        """Fail within seconds when the Hub cannot be reached, before huggingface_hub waits on
        the resolver and retries."""
        if constants.HF_HUB_OFFLINE:
            raise HubError(words(COULD_NOT, doing=doing, reason=words(OFFLINE_MODE)))
        try:
            check_reachable(self.endpoint)
        except Unreachable as exc:
            raise HubUnreachable(str(exc)) from exc

    def url(self, repo_id: str, path: str, revision: str | None = None) -> str:
        return hf_hub_url(repo_id, path, revision=revision, endpoint=self.endpoint)

    def headers(self) -> dict[str, str]:
        return build_hf_headers(token=self.token, library_name=APP_NAME)


def group_models(repo_id: str, revision: str, files: list[RepoFile]) -> list[HubModel]:
    """Join split parts into one model each; leave out projectors and incomplete splits."""
    singles: list[HubModel] = []
    splits: dict[tuple[str, int], dict[int, HubFile]] = {}
    for f in files:
        base = f.path.rsplit("/", 1)[-1].lower()
        if base.startswith("mmproj") or "/mmproj" in f.path.lower():
            continue
        hub_file = HubFile(f.path, f.size, f.lfs.sha256 if f.lfs else None)
        split = split_name(f.path)
        if split is None:
            singles.append(_model(repo_id, revision, (hub_file,)))
        else:
            splits.setdefault((split.prefix, split.count), {})[split.number] = hub_file
    for (_, count), parts in splits.items():
        if len(parts) == count:  # a split with parts missing on the Hub cannot be loaded
            singles.append(_model(repo_id, revision, tuple(parts[n] for n in sorted(parts))))
    return sorted(singles, key=lambda m: (_quant_order(m.quantization), m.name))


def by_quantization(models: list[HubModel]) -> dict[str, list[HubModel]]:
    grouped: dict[str, list[HubModel]] = {}
    for m in models:
        grouped.setdefault(m.quantization, []).append(m)
    return grouped


def memory_fit(
    model: HubModel,
    kv_bytes_per_token: int,
    n_ctx: int,
    companion: tuple[int, int] | None = None,
    memory: Memory | None = None,
) -> MemoryEstimate:
    """Whether `model` fits this machine for `n_ctx` tokens of context; `companion` is the
    (weights, KV-cache) bytes of the other model of the pair (a draft, or the target)."""
    parts = [(model.size, kv_bytes_per_token * n_ctx)]
    if companion is not None:
        parts.append(companion)
    return estimate(parts, memory)


def _model(repo_id: str, revision: str, parts: tuple[HubFile, ...]) -> HubModel:
    quant = quantization_from_name(parts[0].path) or "unknown"
    return HubModel(repo_id, quant, parts, revision)


def _quant_order(quant: str) -> tuple[int, str]:
    """Smallest first: by the bit count in the name (IQ2 < Q4 < Q8 < F16 < F32)."""
    digits = "".join(c for c in quant.split("_")[0] if c.isdigit())
    return (int(digits) if digits else 99, quant)


class _hub_errors:
    """Turn huggingface_hub's and the network's exceptions into one HubError line."""

    def __init__(self, doing: Words) -> None:
        self.doing = doing

    def __enter__(self) -> None:
        return None

    def __exit__(self, exc_type, exc, tb) -> Literal[False]:  # never swallows: re-raises in words
        if exc is None or isinstance(exc, HubError | HeaderTruncatedError):
            return False
        if isinstance(exc, OfflineModeIsEnabled):
            raise HubError(words(COULD_NOT, doing=self.doing, reason=words(OFFLINE_MODE))) from exc
        if isinstance(exc, httpx2.ConnectError | httpx2.ConnectTimeout | httpx2.ProxyError):
            raise HubUnreachable(str(exc).splitlines()[0] if str(exc) else "") from exc
        if isinstance(exc, HfHubHTTPError):
            status = exc.response.status_code if exc.response is not None else None
            reason = {
                401: words(NOT_AUTHORISED),
                403: words(ACCESS_DENIED),
                404: words(NOT_FOUND),
            }.get(status or 0) or str(exc).splitlines()[0]
            raise HubError(words(COULD_NOT, doing=self.doing, reason=reason)) from exc
        if isinstance(exc, OSError | ConnectionError) or type(exc).__module__.startswith(
            ("httpx", "huggingface_hub")
        ):
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise HubError(words(COULD_NOT_BECAUSE, doing=self.doing, error=first)) from exc
        return False
