"""Every engine the app, the command line, the tests and the benches use offers the same
methods (backend.engine.protocol.EngineLike); only the engine process can be restarted."""

from __future__ import annotations

from scripted_engine import ScriptedEngine

from backend.engine.engine import Engine
from backend.engine.protocol import EngineLike, Recoverable
from backend.engine.remote import EngineProcess


def test_every_engine_is_engine_like():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    from ui_bench import SyntheticEngine

    far = EngineProcess()
    try:
        engines = [Engine(), far, ScriptedEngine(), SyntheticEngine(10, 4, 0)]
        assert all(isinstance(e, EngineLike) for e in engines)
        assert [isinstance(e, Recoverable) for e in engines] == [False, True, False, False]
    finally:
        far.close()


def test_a_class_missing_a_method_is_not_engine_like():
    class Partial:
        target = draft = None

        def generate(self, request):
            return iter(())

    assert not isinstance(Partial(), EngineLike)
