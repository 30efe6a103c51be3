"""What the Search tab learns of one Hub repository, off the GUI thread (Background): its GGUF
models and which of them are already in the models folder, then the context cache per token
and this machine's memory, which say whether each model fits.

Its words keep the Search tab's translation context ("SearchTab"), where they are listed."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from app.backend_text import error_text
from app.i18n import translate
from backend.models.hub import HubClient, HubModel
from backend.models.inspection import kv_bytes_per_token
from backend.models.memory import Memory
from backend.models.remote_header import read_hub_header
from backend.models.transfer import DownloadError, destination


@dataclass(frozen=True)
class RepoListing:
    repo_id: str
    models: list[HubModel]
    downloaded: frozenset[str]  # names of models already in the models folder


@dataclass(frozen=True)
class Sizing:
    repo_id: str
    kv_bytes_per_token: int  # 0 when the header could not be read
    memory: Memory
    problem: str = ""  # why the context cache is unknown


def list_repo(client: HubClient, repo_id: str, models_dir: Path) -> RepoListing:
    """The repository's models and which of them are already downloaded (network + disk)."""
    models = client.models(repo_id)
    downloaded = set()
    for m in models:
        try:
            if all(destination(models_dir, repo_id, p.path).is_file() for p in m.parts):
                downloaded.add(m.name)
        except DownloadError:
            pass
    return RepoListing(repo_id, models, frozenset(downloaded))


def size_repo(client: HubClient, listing: RepoListing, memory_source) -> Sizing:
    """The context cache per token, from the header of the repository's smallest model (every
    quantization of one model shares its shape), and this machine's memory."""
    memory = memory_source()
    try:
        kv = kv_bytes_per_token(read_hub_header(client, listing.models[0]))
    except Exception as exc:  # HubError, ModelFileError…: the fit is shown without the cache
        return Sizing(listing.repo_id, 0, memory,
                      translate("SearchTab", "The context cache is not counted: the model's "
                                "header could not be read ({error}).").format(
                          error=error_text(exc)))
    problem = "" if kv else translate("SearchTab", "The model's header does not give the "
                                      "context cache's size.")
    return Sizing(listing.repo_id, kv, memory, problem)
