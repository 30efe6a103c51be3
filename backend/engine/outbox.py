"""Messages to the window sent from a thread of their own.

Pickling a batch of steps and writing it to the pipe, done on the decoding thread, is time
llama.cpp waits for; at a GPU's rates every such microsecond a token counts. A sender thread
does it while llama_decode runs (it releases the GIL), in the order the messages were put.
"""

from __future__ import annotations

import queue
import threading
from multiprocessing.connection import Connection
from typing import Any

_DONE = object()


class Outbox:
    def __init__(self, conn: Connection) -> None:
        self._conn = conn
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._failed: BaseException | None = None
        self._thread = threading.Thread(target=self._send_all, name="engine-outbox",
                                        daemon=True)
        self._thread.start()

    def put(self, message: Any) -> None:
        """Queue one message; the sender's failure (the window gone), raised here."""
        if self._failed is not None:
            raise self._failed
        self._queue.put(message)

    def close(self) -> None:
        """Send what is queued and stop the sender; its failure, raised here."""
        self._queue.put(_DONE)
        self._thread.join()
        if self._failed is not None:
            raise self._failed

    def _send_all(self) -> None:
        while (message := self._queue.get()) is not _DONE:
            if self._failed is None:
                try:
                    self._conn.send(message)
                except BaseException as exc:  # raised again on the caller's thread
                    self._failed = exc
