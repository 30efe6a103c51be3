"""The window's log: a rotating file in platformdirs' user log folder (Help → Open log folder),
and warnings on stderr as before. No Qt here, so it is set up before the window exists.

Linux: ~/.local/state/draftlight/log/draftlight.log; macOS: ~/Library/Logs/draftlight/;
Windows: %LOCALAPPDATA%\\draftlight\\Logs\\. Three files of 1 MB at most: old lines go, the
folder never grows.
"""

from __future__ import annotations

import logging
import logging.handlers
import sys
from pathlib import Path

import platformdirs

from backend import APP_NAME, __version__

LOG_FILE = f"{APP_NAME}.log"
MAX_BYTES = 1_000_000
BACKUP_COUNT = 2  # draftlight.log, .log.1, .log.2
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"

log = logging.getLogger(__name__)
_installed: list[logging.Handler] = []


def log_dir() -> Path:
    return platformdirs.user_log_path(APP_NAME, appauthor=False)


def log_path() -> Path:
    return log_dir() / LOG_FILE


def setup_logging(folder: Path | None = None, *, level: int = logging.INFO) -> Path | None:
    """Send the root logger to the rotating file (INFO and above) and warnings to stderr;
    the file, or None when its folder cannot be made (then stderr only, said there). Calling
    it again replaces the handlers it added, never doubles them."""
    root = logging.getLogger()
    for handler in _installed:
        root.removeHandler(handler)
        handler.close()
    _installed.clear()
    stderr = logging.StreamHandler(sys.stderr)
    stderr.setLevel(logging.WARNING)
    stderr.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    _installed.append(stderr)
    path: Path | None = (folder or log_dir()) / LOG_FILE
    try:
        assert path is not None
        path.parent.mkdir(parents=True, exist_ok=True)
        file = logging.handlers.RotatingFileHandler(
            path, maxBytes=MAX_BYTES, backupCount=BACKUP_COUNT, encoding="utf-8")
    except OSError as exc:
        print(f"draftlight: no log file ({exc}); logging to stderr only", file=sys.stderr)
        path = None
    else:
        file.setLevel(level)
        file.setFormatter(logging.Formatter(FORMAT))
        _installed.append(file)
    for handler in _installed:
        root.addHandler(handler)
    root.setLevel(min(level, logging.WARNING))
    log.info("%s %s started (Python %s, %s)", APP_NAME, __version__,
             sys.version.split()[0], sys.platform)
    return path
