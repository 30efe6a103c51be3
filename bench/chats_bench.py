"""How fast saved chats come back: a long answer, a large library, a search.

    python bench/chats_bench.py            # 10,000-token answer, 1,000 chats, 5 repeats
    python bench/chats_bench.py --chats 5000 --tokens 50000

1. A 10,000-token answer (every token with its origin, verdict and probabilities, saved in
   chunks as it streamed): the store's read (`ChatStore.load`, on the window's store thread)
   and the window's model of it (`Conversation.load_messages`: the Answer with its TokenLog
   and chart lists), then drawing it in an AnswerWidget (GUI thread). Target: read + model
   well under 100 ms.
2. A library of 1,000 chats of 10 messages: opening the store, listing the titles (what the
   window reads at start, on the GUI thread) and building the chat list widget. Target: no
   delay a person notices (under 100 ms together).
3. A full-text search over that library (store thread).
Reports the median of the repeats, in milliseconds.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from backend.chats import TOKEN_FIELDS, ChatStore  # noqa: E402

WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
         "pangolin", "armadillo", "speculative", "decoding", "draft", "target", "accepted",
         "rejected"]


def token_columns(n: int, rng: random.Random) -> dict[str, list]:
    cols: dict[str, list] = {name: [] for name in TOKEN_FIELDS}
    for i in range(n):
        origin = "target" if i % 5 == 4 else "draft"
        cols["id"].append(rng.randrange(50_000))
        cols["text"].append(" " + rng.choice(WORDS))
        cols["origin"].append(origin)
        cols["accepted"].append(origin == "target" or rng.random() < 0.8)
        cols["step"].append(i // 5)
        cols["p_target"].append(round(rng.random(), 4))
        cols["p_draft"].append(None if origin == "target" else round(rng.random(), 4))
        cols["head"].append(None)
    for name in TOKEN_FIELDS:  # columns added by later versions, empty here
        if len(cols[name]) < n:
            cols[name] = [None] * n
    return cols


def ms(fn, repeats: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        result = fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), result


def long_answer(folder: Path, n_tokens: int, repeats: int) -> None:
    from app.chat.conversation import Conversation

    rng = random.Random(1)
    store = ChatStore(folder / "long.sqlite3")
    chat = store.create("long")
    store.add_user(chat, "write a lot")
    cols = token_columns(n_tokens, rng)
    message, saved = None, 0
    for start in range(0, n_tokens, 200):  # saved as it streamed: many small appends
        part = {k: v[start:start + 200] for k, v in cols.items()}
        message = store.save_answer(chat, message, "".join(cols["text"][:start + 200]),
                                    stop_reason="interrupted")
        saved += store.append_tokens(message, saved, part)
    store.save_answer(chat, message, "".join(cols["text"]), stop_reason="eos",
                      stats={"n_generated": n_tokens})
    size = (folder / "long.sqlite3").stat().st_size
    read_ms, messages = ms(lambda: store.load(chat, all_versions=True), repeats)

    def model() -> Conversation:
        conv = Conversation()
        conv.load_messages(messages)  # type: ignore[arg-type]
        return conv

    model_ms, conv = ms(model, repeats)
    print(f"{n_tokens:,}-token answer: store read {read_ms:.1f} ms + window model "
          f"{model_ms:.1f} ms = {read_ms + model_ms:.1f} ms (file {size / 1024:.0f} KiB)")

    from PySide6.QtWidgets import QApplication

    from app.transcript.message_widgets import AnswerWidget

    QApplication.instance() or QApplication([])
    answer = conv.turns[-1].answer  # type: ignore[union-attr]

    def draw() -> None:
        widget = AnswerWidget(answer)
        widget.render_pending()
        widget.refresh()
        widget.deleteLater()

    draw_ms, _ = ms(draw, repeats)
    print(f"  drawing it coloured in an AnswerWidget (GUI thread): {draw_ms:.1f} ms")
    store.close()


def library(folder: Path, n_chats: int, repeats: int) -> None:
    rng = random.Random(2)
    path = folder / "library.sqlite3"
    store = ChatStore(path)
    for c in range(n_chats):
        chat = store.create(f"chat {c}")
        for _ in range(5):
            store.add_user(chat, " ".join(rng.choice(WORDS) for _w in range(12)) + f" q{c}")
            store.add_answer(chat, " ".join(rng.choice(WORDS) for _w in range(60)),
                             tokens=token_columns(60, rng), stats={"n_generated": 60})
    store.close()
    size = path.stat().st_size

    def open_and_list():
        s = ChatStore(path)
        titles = s.list()
        s.close()
        return titles

    open_ms, titles = ms(open_and_list, repeats)
    print(f"{n_chats:,} chats ({n_chats * 10:,} messages, {size / 2**20:.1f} MiB): open + list "
          f"{open_ms:.1f} ms ({len(titles):,} titles)")  # type: ignore[arg-type]

    from PySide6.QtWidgets import QApplication

    from app.chat.chat_list import ChatList
    from app.chat.chat_session import ChatSession

    QApplication.instance() or QApplication([])
    session = ChatSession(ChatStore(path))

    def build() -> None:
        ChatList(session).deleteLater()

    list_ms, _ = ms(build, repeats)
    print(f"  building the chat list widget: {list_ms:.1f} ms")
    search_ms, hits = ms(lambda: session.store.search(f"pangolin q{n_chats // 2}"), repeats)
    print(f"  full-text search over every message: {search_ms:.1f} ms "
          f"({len(hits)} hit)")  # type: ignore[arg-type]
    session.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tokens", type=int, default=10_000)
    ap.add_argument("--chats", type=int, default=1_000)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="chats-bench-") as folder:
        long_answer(Path(folder), args.tokens, args.repeats)
        library(Path(folder), args.chats, args.repeats)


if __name__ == "__main__":
    main()
