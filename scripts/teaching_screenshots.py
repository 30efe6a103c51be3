"""Make docs/ screenshots of teaching mode on the demo pair: the inspector on a rejected draft,
the replay mid-step, the race and presentation mode.

    QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/teaching_screenshots.py [OUT_DIR]

A developer's tool (minutes on 2 cores, the real engine): the pictures are looked at before
they go into docs/, which a test cannot do.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.shell.qt_app import ensure_application  # noqa: E402
from app.shell.startup import build_window  # noqa: E402
from backend.settings import Settings  # noqa: E402

PROMPT = "Write a Python function that tells whether a number is prime, with a docstring."


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs"
    app = ensure_application()
    tmp = Path(tempfile.mkdtemp())
    window = build_window(Settings(), settings_path=tmp / "settings.toml", persist=False)
    window.resize(1500, 900)
    state: dict = {"sent": False}

    def on_models(target, draft) -> None:
        if state["sent"] or target is None or draft is None:
            return
        state["sent"] = True
        window.panel.set_spec_type("draft")
        window.panel.n_draft.setValue(6)
        window.panel.temperature.setValue(0.7)
        window.panel.seed.setValue(11)
        window.panel.max_tokens.setValue(120)
        window.send(PROMPT)

    def on_finished(widget) -> None:
        QTimer.singleShot(300, lambda: shoot(widget))

    def shoot(widget) -> None:
        log = widget.answer.tokens
        rejected = [i for i in range(len(log)) if log.origin[i] != "target"
                    and not log.accepted[i] and log.inspection[i] is not None]
        index = rejected[len(rejected) // 2] if rejected else 0
        window.teaching.inspect(widget, index)
        QTimer.singleShot(400, lambda: shoot_inspector(widget))

    def shoot_inspector(widget) -> None:
        window.transcript.ensureWidgetVisible(widget)
        app.processEvents()
        window.grab().save(str(out / "inspector.png"))
        replay = window.teaching.open_tool(widget, "replay")
        replay.resize(900, 560)
        step = next((i for i, s in enumerate(replay.script.steps)
                     if 0 < s.n_accepted < s.n_drafted and i > 3), 0)
        replay.show_frame(replay.script.frame_of_step(step) + 1)  # the verdict
        app.processEvents()
        replay.grab().save(str(out / "replay.png"))
        replay.close()
        charts = window.teaching.open_tool(widget, "charts")
        charts.resize(1300, 480)
        app.processEvents()
        charts.grab().save(str(out / "charts.png"))
        charts.close()
        race = window.teaching.open_tool(widget, "race")
        race.resize(1300, 640)
        race.speed.setCurrentIndex(2)  # a quarter of the measured speed: mid-race on screen

        def race_done() -> None:
            if len(race.answers) < 2:
                QTimer.singleShot(500, race_done)
                return
            QTimer.singleShot(2500, lambda: shoot_race(race))

        race_done()

    def shoot_race(race) -> None:
        race.grab().save(str(out / "race.png"))
        race.timer.stop()
        race.advance_to(1e12)
        race.grab().save(str(out / "race-end.png"))
        race.close()
        window.teaching.presentation.action.trigger()
        window.teaching.presentation.set_step_delay(0.25)
        window.panel.temperature.setValue(0.0)
        window.answer_finished.disconnect(on_finished)
        window.chat_list.new_chat()
        window.send("Explain in three sentences why the sky is blue.")
        QTimer.singleShot(500, shoot_presentation)

    def shoot_presentation(waited_s: float = 0.0) -> None:
        # once a few slowed steps are on screen (a fixed wait caught an empty answer when the
        # machine was busy), or after a minute whatever is there
        streaming = window.transcript._streaming
        if (streaming is None or streaming.answer.n_steps < 8) and waited_s < 60:
            QTimer.singleShot(500, lambda: shoot_presentation(waited_s + 0.5))
            return
        window.grab().save(str(out / "presentation.png"))
        window.flow.stop()
        app.exit(0)

    window.models_changed.connect(on_models)
    window.answer_finished.connect(on_finished)
    window.open_demo(spec="draft")
    window.show()
    QTimer.singleShot(600_000, lambda: app.exit(1))
    code = app.exec()
    window.close()
    QApplication.processEvents()
    return code


if __name__ == "__main__":
    sys.exit(main())
