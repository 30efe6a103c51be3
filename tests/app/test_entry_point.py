"""`draftlight`: help and version without a display or Qt, subcommands routed to the CLI,
and `--screenshot` on the demo pair."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QImage

from app.shell.theme import LIGHT

ROOT = Path(__file__).resolve().parents[2]


def run_app(*args: str, env_extra: dict | None = None, timeout: float = 60):
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env.update(env_extra or {})
    code = ("import sys; from app.shell.main import main; rc = main(sys.argv[1:]); "
            "assert rc or 'PySide6' not in sys.modules or '--screenshot' in sys.argv; "
            "sys.exit(rc)")
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT, env=env)


def test_help_lists_gui_options_and_subcommands_without_qt():
    for args in (["--help"], ["--version"]):
        code = ("import sys; from app.shell.main import main\n"
                "try:\n    main(sys.argv[1:])\nexcept SystemExit as e:\n    rc = e.code\n"
                "assert 'PySide6' not in sys.modules, 'Qt imported'\nsys.exit(rc)")
        env = {k: v for k, v in os.environ.items()
               if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
        r = subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                           text=True, timeout=60, cwd=ROOT, env=env)
        assert r.returncode == 0, r.stderr
        if args == ["--help"]:
            for option in ("--screenshot", "--prompt", "--model", "--draft", "--spec",
                           "--n-draft", "generate", "models", "pairs"):
                assert option in r.stdout
        else:
            assert r.stdout.startswith("draftlight ")


@pytest.mark.parametrize("command", ["generate", "models", "pairs"])
def test_subcommands_go_to_the_cli_without_qt(command):
    r = run_app(command, "--help")
    assert r.returncode == 0, r.stderr
    assert f"draftlight {command}" in r.stdout


def test_no_display_is_said_in_words_not_a_qt_abort():
    r = run_app()
    assert r.returncode == 1
    assert "no display" in r.stderr and "Traceback" not in r.stderr


def test_bad_arguments_fail_with_a_message():
    r = run_app("--install-desktop", "--uninstall-desktop")
    assert r.returncode == 2 and "not allowed with" in r.stderr
    r = run_app("--n-draft", "40")
    assert r.returncode == 2 and "--n-draft" in r.stderr


def test_screenshot_without_a_prompt_shows_the_welcome_view(tmp_path, test_models):
    out = tmp_path / "welcome.png"
    r = run_app("--screenshot", str(out), "--model", str(test_models / "count-target.gguf"),
                "--settings", str(tmp_path / "s.json"), timeout=180)
    assert r.returncode == 0, r.stderr[-3000:]
    assert "draftlight: showing the welcome view" in r.stdout
    image = QImage(str(out))
    assert image.width() >= 1000 and image.height() >= 700


def test_screenshot_of_a_missing_model_fails_with_a_message(tmp_path):
    r = run_app("--screenshot", str(tmp_path / "s.png"), "--prompt", "hi",
                "--model", str(tmp_path / "nope.gguf"), "--settings", str(tmp_path / "s.json"),
                timeout=120)
    assert r.returncode != 0
    assert "draftlight:" in r.stderr and "nope.gguf" in r.stderr


@pytest.mark.slow
def test_screenshot_on_the_demo_pair_shows_colours_and_numbers(tmp_path, test_models):
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"schema_version": 1, "generation": {"max_tokens": 64},
                                    "window": {"theme": "light"}}))
    out = tmp_path / "shot.png"
    r = run_app("--screenshot", str(out), "--prompt", "Name three colours of the rainbow.",
                "--model", str(test_models / "demo-target-f32.gguf"),
                "--draft", str(test_models / "demo-draft-q8_0.gguf"),
                "--spec", "draft", "--n-draft", "6", "--settings", str(settings),
                "--theme", "light", timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    assert "tok/s" in r.stdout and "acceptance" in r.stdout and "drafted" in r.stdout
    image = QImage(str(out))
    assert image.width() >= 1000 and image.height() >= 700
    accepted = QColor(LIGHT.accepted_fg)
    hits = 0
    for y in range(0, image.height(), 2):
        for x in range(0, image.width(), 2):
            c = image.pixelColor(x, y)
            if (abs(c.red() - accepted.red()) < 40 and abs(c.green() - accepted.green()) < 40
                    and abs(c.blue() - accepted.blue()) < 40):
                hits += 1
    assert hits > 200, "no accepted-draft colour in the screenshot"


def test_screenshot_when_the_engine_dies_mid_answer(tmp_path, test_models):
    """The picture is taken when the engine dies too (it shows the kept answer and the
    message), and the app exits by itself with the reason, non-zero, not with a signal."""
    from backend.engine import crash_hook

    hook = tmp_path / "crash.json"
    crash_hook.arm(hook, at="step", n=3)
    out = tmp_path / "shot.png"
    r = run_app("--screenshot", str(out), "--prompt", "zero one",
                "--model", str(test_models / "count-target.gguf"),
                "--settings", str(tmp_path / "s.json"), timeout=180,
                env_extra={crash_hook.ENV: str(hook)})
    assert r.returncode == 1, r.stderr[-3000:]
    assert ("draftlight: the generation failed: llama.cpp crashed (segmentation fault) while "
            "answering with count-target.gguf.") in r.stderr
    image = QImage(str(out))
    assert image.width() >= 1000 and image.height() >= 700
    assert not hook.exists()  # the crash did happen
