"""Route llama.cpp's own log into Python logging.

llama-cpp-python installs a callback that prints every llama.cpp message to stderr (thousands
during one model load). Draftlight sends them to the `llama.cpp` logger instead, where the app
or a test decides what to show.
"""

from __future__ import annotations

import ctypes
import logging

import llama_cpp

logger = logging.getLogger("llama.cpp")

# ggml_log_level: NONE, INFO, WARN, ERROR, DEBUG, CONT (continues the previous message)
_LEVELS = {0: logging.CRITICAL, 1: logging.DEBUG, 2: logging.INFO, 3: logging.WARNING,
           4: logging.DEBUG}
_last_level = logging.DEBUG


@llama_cpp.llama_log_callback
def _on_log(level: int, text: bytes, _user_data: ctypes.c_void_p) -> None:
    global _last_level
    # llama.cpp's INFO is a flood of load details: keep it at DEBUG here; its warnings and
    # errors stay visible one step lower, since most are about files the user chose.
    lvl = _last_level if level == 5 else _LEVELS.get(level, logging.DEBUG)
    _last_level = lvl
    if logger.isEnabledFor(lvl):
        logger.log(lvl, "%s", text.decode("utf-8", "replace").rstrip("\n"))


_installed = False


def install() -> None:
    """Install the callback once per process (the ctypes object lives at module level, so it
    is never collected while llama.cpp holds a pointer to it)."""
    global _installed
    if not _installed:
        llama_cpp.llama_log_set(_on_log, ctypes.c_void_p(0))
        _installed = True
