"""llama-cpp-python's own OpenAI-compatible server (`python -m llama_cpp.server`) on
127.0.0.1, serving a test model, for the tests that need a real server."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2

MODEL = "count"  # the alias the test model is served under
START_LIMIT_S = 180  # a safety net so a broken server fails the test instead of hanging it


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Running(str):
    """The base URL of a started server, which can also kill it (a server that dies)."""

    proc: subprocess.Popen

    def kill(self) -> None:
        self.proc.kill()


@contextlib.contextmanager
def llama_cpp_server(model: Path, *, port: int | None = None, api_key: str = "",
                     n_ctx: int = 4096) -> Iterator[Running]:
    """Start the server, wait until it lists its model, yield its base URL, stop it."""
    port = port or free_port()
    cmd = [sys.executable, "-m", "llama_cpp.server", "--model", str(model), "--host",
           "127.0.0.1", "--port", str(port), "--n_ctx", str(n_ctx), "--model_alias", MODEL,
           "--n_threads", "1"]
    if api_key:
        cmd += ["--api_key", api_key]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = Running(f"http://127.0.0.1:{port}/v1")
    url.proc = proc
    try:
        deadline = time.monotonic() + START_LIMIT_S
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        while True:
            if proc.poll() is not None:
                raise RuntimeError("llama_cpp.server exited: "
                                   + (proc.stderr.read().decode()[-2000:] if proc.stderr else ""))
            try:
                if httpx2.get(url + "/models", headers=headers, timeout=2).status_code == 200:
                    break
            except httpx2.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("llama_cpp.server did not start")
            time.sleep(0.1)
        yield url
    finally:
        stop(proc)


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.wait()
    if proc.stderr:
        proc.stderr.close()
