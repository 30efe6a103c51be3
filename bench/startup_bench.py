"""Time to a visible window: `draftlight` started as a person starts it, until its window is
first painted, and until its models have loaded (which must come after: the window is never
held back by a model).

    python bench/startup_bench.py [--runs N] [--first-run]

Each run is a fresh process (`python -m app.shell.main`, the entry point's code) with its own empty
settings and chat folders, so nothing is warm but the operating system's file cache (the
first run warms that; it is reported apart). `--first-run` also empties the model folders, so
the demo pair is made from the bundled model (with its progress bar) as on a new machine.
Target: visible <= 1 s. Prints one JSON line per run and a summary.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Runs inside the child: `app.shell.main.main` as the entry point calls it, with a hook that notes
# the window's first paint and the models' arrival, then quits.
CHILD = r"""
import json, sys, time
t0 = float(sys.argv[1])
import app.shell.startup as startup
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication

marks = {}

class FirstPaint(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and "visible_s" not in marks:
            marks["visible_s"] = time.time() - t0
        return False

build = startup.build_window
def build_window(*args, **kwargs):
    window = build(*args, **kwargs)
    marks["built_s"] = time.time() - t0
    hook = FirstPaint(window)
    window.installEventFilter(hook)
    def loaded(target, draft):
        if target is not None and "models_s" not in marks:
            marks["models_s"] = time.time() - t0
            QTimer.singleShot(100, QApplication.instance().quit)
    window.models_changed.connect(loaded)
    QTimer.singleShot(120_000, QApplication.instance().quit)
    return window
startup.build_window = build_window

from app.shell.main import main
code = main([])
print("MARKS " + json.dumps(marks), flush=True)
"""


def one_run(first_run: bool, models_dir: Path | None) -> dict:
    with tempfile.TemporaryDirectory(prefix="draftlight-startup-") as tmp:
        env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen"),
               "XDG_CONFIG_HOME": f"{tmp}/config", "XDG_STATE_HOME": f"{tmp}/state"}
        if first_run:  # no models made yet: the demo pair is made from the bundled model
            env["XDG_DATA_HOME"] = f"{tmp}/data"
            env["XDG_CACHE_HOME"] = f"{tmp}/cache"
        t0 = time.time()
        out = subprocess.run([sys.executable, "-c", CHILD, repr(t0)], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=300)
        line = next((x for x in out.stdout.splitlines() if x.startswith("MARKS ")), None)
        if line is None:
            raise SystemExit(f"the window did not report:\n{out.stdout}\n{out.stderr}")
        return json.loads(line[len("MARKS "):])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--first-run", action="store_true",
                        help="empty model folders too: the demo pair is made on each run")
    args = parser.parse_args()
    runs = [one_run(args.first_run, None) for _ in range(args.runs + 1)]
    for i, r in enumerate(runs):
        print(json.dumps({"run": i, "cold_file_cache": i == 0, **{
            k: round(v, 3) for k, v in r.items()}}))
    warm = runs[1:]
    visible = statistics.median(r["visible_s"] for r in warm)
    models = statistics.median(r.get("models_s", float("nan")) for r in warm)
    before = all(r["visible_s"] < r.get("models_s", float("inf")) for r in runs)
    print(json.dumps({"median_visible_s": round(visible, 3), "median_models_s": round(models, 3),
                      "visible_before_models_every_run": before,
                      "pass": visible <= 1.0 and before}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
