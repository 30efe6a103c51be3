"""Make docs/chats.png: the chat list (pinned, day captions, search field) beside a chat whose
answer was regenerated, so it shows its versions (‹ 2 / 2 ›), the settings it was made with,
the system prompt and the context count; answered by the demo pair.

    QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/chats_screenshot.py [OUT.png]

A developer's tool (the real engine, a minute on 2 cores): the picture is looked at before it
goes into docs/, which a test cannot do.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.shell.qt_app import ensure_application  # noqa: E402
from app.shell.startup import build_window  # noqa: E402
from backend.chats import ChatStore  # noqa: E402
from backend.settings import Settings  # noqa: E402

PROMPT = "In two sentences: why does a small draft model make a big one answer faster?"
DAY = 86_400.0
EARLIER = [  # (title, days ago, pinned, question, answer)
    ("Pangolin facts", 0.2, False, "Tell me about pangolins", "Pangolins are covered in scales…"),
    ("Regex for dates", 1.1, False, "A regex for ISO dates?", r"\d{4}-\d{2}-\d{2}"),
    ("Trip to Lisbon", 3.2, False, "Plan a day in Lisbon", "Start in Alfama…"),
    ("Draft length notes", 9.0, True, "What K should I use?", "It depends on acceptance…"),
    ("Sourdough starter", 12.4, False, "Why is my starter flat?", "Feed it more often…"),
]


def seed_store(path: Path) -> None:
    store = ChatStore(path)
    now = time.time()
    for title, days, pinned, question, answer in EARLIER:
        chat = store.create(title)
        store.add_user(chat, question)
        store.add_answer(chat, answer, model_name="SmolLM2-135M-Instruct", spec_type="draft")
        store._db.execute("UPDATE chats SET updated_at = ?, created_at = ? WHERE id = ?",
                          (now - days * DAY, now - days * DAY, chat))
        if pinned:
            store.set_pinned(chat, True)
    store.close()


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "chats.png"
    app = ensure_application()
    tmp = Path(tempfile.mkdtemp())
    seed_store(tmp / "chats.sqlite3")
    window = build_window(Settings(), settings_path=tmp / "settings.json",
                          chats_path=tmp / "chats.sqlite3")
    window.resize(1500, 900)
    state = {"answers": 0, "sent": False}

    def on_models(target, draft) -> None:
        if state["sent"] or target is None or draft is None:
            return
        state["sent"] = True
        window.panel.set_spec_type("draft")
        window.panel.n_draft.setValue(6)
        window.panel.temperature.setValue(0.7)
        window.panel.max_tokens.setValue(90)
        window.panel.seed.setValue(1)
        window.chat_actions.set_system_prompt("You are a concise teacher.")
        window.send(PROMPT)

    def on_finished(widget) -> None:
        state["answers"] += 1
        if state["answers"] == 1:
            window.panel.seed.setValue(7)  # another sample: a version with its own words
            QTimer.singleShot(300, window.flow.regenerate)
        else:
            QTimer.singleShot(600, shoot)

    def shoot() -> None:
        window.transcript.verticalScrollBar().setValue(0)
        app.processEvents()
        window.grab().save(str(out))
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
