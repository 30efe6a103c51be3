"""The first run's speedup figure beside the ratio measured right after it, in the window.

    python bench/first_run_speedup.py [--shot FILE] [--rounds N]

A fresh machine, as a newcomer's: empty config, data and cache folders (no settings, no chats,
no K auto memory), the window started with `--screenshot` on the welcome view's draft-model
prompt with the demo defaults (K auto), its "×S vs plain" read from the stats line it prints.
Then, right after, as a person would check it: the same prompt in the window again, plainly
and with K auto in turn (the order alternating each round, the window's own drawing sharing
the cores as it did the first time), and the ratio of their mean tokens/s. Printed: the first
run's figure, that ratio and their quotient (the issue asks for 0.9–1.1). The first run's
screenshot is kept for looking at.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.chat.welcome import DEMO_PROMPTS  # noqa: E402

PROMPT = next(d.prompt for d in DEMO_PROMPTS if d.spec == "draft")
# What `--screenshot` prints once the answer is written: the stats line the window shows.
RATE = re.compile(r"([0-9.]+) tok/s")
FIGURE = re.compile(r"×([0-9.]+)(?:–([0-9.]+))? vs plain")


def fresh_env(home: Path) -> dict[str, str]:
    env = dict(os.environ, XDG_CONFIG_HOME=str(home / "config"), XDG_DATA_HOME=str(home / "data"),
               XDG_CACHE_HOME=str(home / "cache"), QT_QPA_PLATFORM="offscreen")
    # The demo pair is made from the installed package on a fresh machine: this machine's made
    # pair is linked in when it has one, so the run measures answers, not the conversion.
    made = Path.home() / ".local" / "share" / "draftlight" / "models" / "demo"
    if made.is_dir():
        target = home / "data" / "draftlight" / "models" / "demo"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.symlink_to(made)
    return env


def window_answer(shot: Path, env: dict[str, str], spec: str) -> tuple[float, str]:
    """The window started on `spec` (K: the panel's, auto on a fresh machine), the prompt
    sent, the window saved to `shot`: the answer's tok/s and its stats line, as shown."""
    done = subprocess.run([sys.executable, "-m", "app.shell.main", "--screenshot", str(shot),
                           "--spec", spec, "--prompt", PROMPT], cwd=ROOT, env=env, check=True,
                          timeout=900, capture_output=True, text=True)
    line = next(s for s in done.stdout.splitlines() if "tok/s" in s)
    rate = RATE.search(line)
    assert rate is not None, line
    return float(rate.group(1)), line.removeprefix("draftlight: ")


def figure(line: str) -> tuple[float, float, float] | None:
    """(the speedup, low, high) in a stats line; None when it gives none. A range is
    symmetric about the figure (plain_yardstick.speedup_range)."""
    found = FIGURE.search(line)
    if found is None:
        return None
    low = float(found.group(1))
    high = float(found.group(2) or low)
    return (low + high) / 2, low, high


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shot", type=Path, default=Path("first-run.png"))
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    rates: dict[str, list[float]] = {"none": [], "draft": []}
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        env = fresh_env(home)
        _, first = window_answer(args.shot.resolve(), env, "draft")
        print(f"first run, K auto: {first}")
        for r in range(args.rounds):
            for spec in (("none", "draft") if r % 2 == 0 else ("draft", "none")):
                rate, line = window_answer(home / "again.png", env, spec)
                rates[spec].append(rate)
                if spec == "draft":
                    print(f"  K auto again: {line.split('  ·  first')[0]}")
    ratio = statistics.mean(rates["draft"]) / statistics.mean(rates["none"])
    print(f"right after, in the window: plain {rates['none']}, K auto {rates['draft']} tok/s: "
          f"×{ratio:.2f}")
    shown = figure(first)
    if shown is not None:
        speedup, low, high = shown
        print(f"first run's figure ÷ that ratio: {speedup / ratio:.2f} "
              f"(its range {low / ratio:.2f}–{high / ratio:.2f})")
    print(f"screenshot: {args.shot}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
