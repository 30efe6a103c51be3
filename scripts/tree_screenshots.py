"""Screenshots of token trees on the demo pair: the inspector on a token a tree kept beside the
drafter's first choice, the replay proposing and judging that step's tree, and that replay in
presentation mode.

    QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/tree_screenshots.py [OUT_DIR] [SPEC]

SPEC: draft (default) or ngram. A developer's tool (a minute on 2 cores, the real engine): the
pictures are to be looked at, which a test cannot do.
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

PROMPTS = {
    "draft": "Write a short story about a lighthouse keeper and the sea.",
    "ngram": "Repeat exactly: the cat sat on the mat, the cat sat on the hat, the cat sat on "
             "the bat, the cat sat on",
}


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp())
    spec = sys.argv[2] if len(sys.argv) > 2 else "draft"
    out.mkdir(parents=True, exist_ok=True)
    app = ensure_application()
    tmp = Path(tempfile.mkdtemp())
    window = build_window(Settings(), settings_path=tmp / "settings.toml", persist=False)
    window.resize(1900, 1000)
    state: dict = {"sent": False}

    def on_models(target, draft) -> None:
        if state["sent"] or target is None:
            return
        state["sent"] = True
        window.panel.set_spec_type(spec)
        window.panel.n_draft.setValue(4)
        window.panel.tree_nodes.setValue(16)
        window.panel.temperature.setValue(0.8)  # sampled: the second choices stand more often
        window.panel.seed.setValue(7)
        window.panel.max_tokens.setValue(160)  # enough draft steps for the advisor
        window.send(PROMPTS[spec])

    def on_finished(widget) -> None:
        window.answer_finished.disconnect(on_finished)
        QTimer.singleShot(300, lambda: shoot(widget))

    def shoot(widget) -> None:
        answer = widget.answer
        log = answer.tokens
        branched = sorted(n for n in answer.trees if any(
            node.kept and node.rank > 0 for node in answer.trees[n]))
        print(f"{len(answer.trees)} tree steps, {len(branched)} kept a branch beside the chain",
              flush=True)
        index = log.branches[0] if log.branches else next(
            (i for i in range(len(log)) if log.step[i] in answer.trees), 0)
        window.teaching.inspect(widget, index)
        QTimer.singleShot(300, lambda: shoot_inspector(widget, index))  # the dock settles

    def shoot_inspector(widget, index: int) -> None:
        log = widget.answer.tokens
        window.transcript.ensureWidgetVisible(widget)
        app.processEvents()
        window.grab().save(str(out / f"tree-inspector-{spec}.png"))
        replay = window.teaching.open_tool(widget, "replay")
        replay.resize(1000, 640)
        number = log.step[index]
        step = next(i for i, s in enumerate(replay.script.steps) if s.number == number)
        frame = replay.script.frame_of_step(step)
        replay.show_frame(frame)  # the tree proposed
        app.processEvents()
        replay.grab().save(str(out / f"tree-replay-proposed-{spec}.png"))
        replay.show_frame(frame + 1)  # the verdict walking down it
        app.processEvents()
        replay.grab().save(str(out / f"tree-replay-verdict-{spec}.png"))
        replay.close()
        window.teaching.presentation.action.trigger()
        QTimer.singleShot(500, lambda: shoot_presentation(widget, number))

    def shoot_presentation(widget, number: int) -> None:
        # on stage the inspector folds away (it would squeeze the answer): the replay, in the
        # projector's type and colours, is where the room sees the tree
        replay = window.teaching.open_tool(widget, "replay")
        replay.resize(1600, 900)
        step = next(i for i, s in enumerate(replay.script.steps) if s.number == number)
        replay.show_frame(replay.script.frame_of_step(step) + 1)
        app.processEvents()
        replay.grab().save(str(out / f"tree-presentation-{spec}.png"))
        print(f"saved in {out}", flush=True)
        app.exit(0)

    window.models_changed.connect(on_models)
    window.answer_finished.connect(on_finished)
    window.open_demo(spec="draft")
    window.show()
    QTimer.singleShot(300_000, lambda: app.exit(1))
    code = app.exec()
    window.close()
    QApplication.processEvents()
    return code


if __name__ == "__main__":
    sys.exit(main())
