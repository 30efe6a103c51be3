"""Hub GGUF models that may draft for a target, found by family and checked by their headers.

Families share one tokenizer across sizes, so the search is for the target's family: its
general.basename (or name without size words), and, for a target on the Hub, the base model
its model card names ("HuggingFaceTB/SmolLM2-1.7B-Instruct" → "SmolLM2"). Of the GGUF repos
found, those whose name says they are not smaller than the target are passed over, and one
file of each of the rest (MAX_REPOS at most) has its header read over Range requests
(remote_header.py): a few MB each, never the weights.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import httpx2
from huggingface_hub.errors import HfHubHTTPError, OfflineModeIsEnabled

from backend.models.hub import HubClient, HubError, HubModel
from backend.models.inspection import ModelInspection
from backend.models.pairing import draft_search_query
from backend.models.remote_header import RemoteHeaderError, inspect_hub_model
from backend.words import Words, words, words_of

MAX_REPOS = 6  # Hub repositories whose header is read per search: a few MB each
SEARCH_LIMIT = 30
# A draft is small, so a precise quantization costs little and drafts closer to the target.
PREFERRED_QUANTS = ("Q8_0", "Q6_K", "Q5_K_M", "Q4_K_M", "Q4_0")

NO_GGUF_MODELS = "{repo} has no GGUF models."
NO_SUCH_MODEL = "{repo} has no GGUF model {wanted}."
SEVERAL_MODELS = "{repo} has several {wanted} models ({names}); name the file."

_SIZE_WORD = re.compile(r"(?<![A-Za-z0-9.])(\d+(?:\.\d+)?)([KMB])(?![A-Za-z0-9])", re.I)
_SCALE = {"k": 10**3, "m": 10**6, "b": 10**9}


@dataclass(frozen=True)
class HubCheck:
    """One Hub file checked as a draft: its description, or why it could not be read."""

    model: HubModel
    inspection: ModelInspection | None
    bytes_read: int
    error: Words | None = None


def hub_target(client: HubClient, repo_id: str, wanted: str = "") -> tuple[
        HubModel, list[HubModel]]:
    """The model `wanted` (a file, a quantization, or "" for the preferred one) of a Hub
    repository, and all of the repository's models."""
    models = client.models(repo_id)
    proper = [m for m in models if not m.eagle3_head]
    if not proper:
        raise HubError(words(NO_GGUF_MODELS, repo=repo_id))
    if not wanted:
        return preferred(proper), models
    by_file = [m for m in models if any(p.path == wanted for p in m.parts)]
    by_quant = [m for m in proper if m.quantization.lower() == wanted.lower()]
    found = by_file or by_quant
    if len(found) == 1:
        return found[0], models
    if found:
        names = ", ".join(m.name for m in found)
        raise HubError(words(SEVERAL_MODELS, repo=repo_id, wanted=wanted, names=names))
    raise HubError(words(NO_SUCH_MODEL, repo=repo_id, wanted=repr(wanted)))


def preferred(models: list[HubModel]) -> HubModel:
    """The one file of a repository to check: a preferred quantization, else the smallest."""
    for quant in PREFERRED_QUANTS:
        for m in models:
            if m.quantization.upper() == quant:
                return m
    return min(models, key=lambda m: m.size)


def search_queries(client: HubClient, target: ModelInspection, repo_id: str | None) -> list[str]:
    """The family names to search for, the target's own first."""
    queries = [draft_search_query(target)]
    if repo_id is not None:
        queries += [family(b) for b in base_models(client, repo_id)]
    return [q for q in dict.fromkeys(q.strip() for q in queries) if q]


def base_models(client: HubClient, repo_id: str) -> list[str]:
    """The `base_model` of a repository's model card, or [] when it names none or cannot be
    read (it is only a hint for the search)."""
    try:
        info = client.api.model_info(repo_id, expand=["cardData"])
    except (HfHubHTTPError, OfflineModeIsEnabled, httpx2.HTTPError, OSError, ValueError):
        return []
    base = getattr(info.card_data, "base_model", None) if info.card_data else None
    if isinstance(base, str):
        return [base]
    return [b for b in base if isinstance(b, str)] if isinstance(base, list) else []


def family(model_id: str) -> str:
    """A model's family: its name up to its first size word ("Qwen2.5-7B-Instruct" →
    "Qwen2.5")."""
    name = model_id.rsplit("/", 1)[-1]
    parts = name.split("-")
    sized = [i for i, part in enumerate(parts) if _SIZE_WORD.fullmatch(part)]
    return "-".join(parts[: sized[0]]) if sized and sized[0] > 0 else name


def size_in_name(name: str) -> int | None:
    """The parameter count a repository or file name says ("…-0.5B-…" → 500,000,000)."""
    m = _SIZE_WORD.search(name.rsplit("/", 1)[-1])
    return int(float(m[1]) * _SCALE[m[2].lower()]) if m else None


@dataclass(frozen=True)
class HubSearch:
    checks: tuple[HubCheck, ...]
    error: Words | None = None  # why the Hub could not be searched (or not for every query)


def hub_checks(client: HubClient, target: ModelInspection, repo_id: str | None = None,
               repo_models: Sequence[HubModel] = (), max_repos: int = MAX_REPOS) -> HubSearch:
    """Each Hub file that may draft for `target`, checked. `repo_id` and `repo_models` are the
    target's own repository and its models when it is on the Hub: its EAGLE-3 heads are
    checked too, its other files are not (they are the target itself)."""
    checks = [check(client, m) for m in repo_models if m.eagle3_head]
    seen = {repo_id}
    error = None
    for query in search_queries(client, target, repo_id):
        try:
            found = client.search(query, limit=SEARCH_LIMIT)
        except HubError as exc:
            error = error or words_of(exc)
            continue
        for summary in found:
            if len(checks) >= max_repos:
                return HubSearch(tuple(checks), error)
            if summary.repo_id in seen:
                continue
            seen.add(summary.repo_id)
            said = size_in_name(summary.repo_id)
            if said is not None and said >= target.parameter_count:
                continue
            model = _pick(client, summary.repo_id, target, said is None)
            if model is not None:
                checks.append(check(client, model))
    return HubSearch(tuple(checks), error)


def _pick(client: HubClient, repo_id: str, target: ModelInspection,
          by_file_size: bool) -> HubModel | None:
    """The file of a found repository to check, or None: it has none smaller than the target
    (by file size where its name does not say how many parameters it has)."""
    try:
        models = client.models(repo_id)
    except HubError:
        return None  # found by the search but not listed: nothing to check
    proper = [m for m in models if not m.eagle3_head]
    if not proper:  # a repository of EAGLE-3 heads
        return min(models, key=lambda m: m.size) if models else None
    model = preferred(proper)
    return None if by_file_size and model.size >= target.file_size else model


def check(client: HubClient, model: HubModel) -> HubCheck:
    try:
        remote = inspect_hub_model(client, model)
    except RemoteHeaderError as exc:
        return HubCheck(model, None, exc.bytes_read, words_of(exc))
    return HubCheck(model, remote.inspection, remote.bytes_read)
