"""Which server and which of its models: what the window remembers and how a server target
travels as the "path" of `EngineLike.load_target` (never with its API key, which stays in
this process: `remember_key`)."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from urllib.parse import urlsplit


def normalize_base_url(url: str) -> str:
    """backend.serving.client's, imported on first use: the window asks `is_server_path` at
    start, and the HTTP client behind the rest costs a tenth of its start-up."""
    from backend.serving.client import normalize_base_url as normalize

    return normalize(url)


PREFIX = "server+"  # a target path naming a server model: server+<base url>#<model>

_keys: dict[str, str] = {}
_keys_lock = threading.Lock()


@dataclass(frozen=True)
class ServerTarget:
    base_url: str
    model: str

    @property
    def path(self) -> str:
        return f"{PREFIX}{normalize_base_url(self.base_url)}#{self.model}"

    @property
    def name(self) -> str:
        """The model as the window names it: its id and the server's host."""
        return f"{self.model} @ {urlsplit(normalize_base_url(self.base_url)).netloc}"


def is_server_path(path: str) -> bool:
    return str(path).startswith(PREFIX)


def parse_server_path(path: str) -> ServerTarget:
    base_url, _, model = str(path)[len(PREFIX):].partition("#")
    return ServerTarget(base_url, model)


def remember_key(base_url: str, api_key: str) -> None:
    """The key for a server, for this process's later loads and answers (set by the window
    or the command line before it loads a server target; "" forgets it)."""
    with _keys_lock:
        _keys[normalize_base_url(base_url)] = api_key


def key_for(base_url: str) -> str:
    with _keys_lock:
        return _keys.get(normalize_base_url(base_url), "")
