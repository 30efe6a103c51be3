"""One run over a finding's candidates (backend/models/pair_run.py): measured or read back,
ranked with plain decoding, cancelled with what was measured before kept, and a look that
only recalls, which starts no engine when nothing is kept."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from scripted_pairs import BUILD, ScriptedEngine

from backend.models.draft_finder import BUILT_IN, HUB, LIBRARY, PairCandidate, PairFinding
from backend.models.pair_run import PairRun
from backend.models.pair_store import PairStore


@pytest.fixture
def finding(tmp_path, monkeypatch):
    monkeypatch.setattr("backend.models.pair_run.engine_build", lambda _engine: BUILD)
    for name in ("target.gguf", "good.gguf", "slow.gguf"):
        (tmp_path / name).write_bytes(b"GGUF" + name.encode())
    target = SimpleNamespace(path=tmp_path / "target.gguf")  # all a run reads of it
    good = PairCandidate("draft", "good.gguf", LIBRARY, True, None, tmp_path / "good.gguf", 10)
    slow = PairCandidate("draft", "slow.gguf", LIBRARY, True, None, tmp_path / "slow.gguf", 10)
    lookup = PairCandidate("ngram", "", BUILT_IN, True, None, None, 0)
    hub = PairCandidate("draft", "acme/x/x.gguf", HUB, True, None, None, 10)
    return PairFinding(target, (good, slow, lookup, hub))


class Engines:
    """Makes the run's engine and counts how many were made."""

    def __init__(self) -> None:
        self.made: list[ScriptedEngine] = []

    def __call__(self) -> ScriptedEngine:
        engine = ScriptedEngine({"good.gguf": 0.5, "slow.gguf": 30.0})
        self.made.append(engine)
        return engine


def test_every_local_candidate_is_measured_and_ranked_and_a_recall_reads_them_back(
        finding, tmp_path):
    engines, store = Engines(), PairStore(tmp_path / "kept")
    run = PairRun(finding, 20, engine_factory=engines, store=store)
    said: list[float] = []
    measured = run.measure(lambda fraction, _words: said.append(fraction))
    assert [(m.candidate, kept) for m, kept in measured.measurements] == [
        ("good.gguf", False), ("slow.gguf", False), ("", False)]
    order = [(w.spec_type, w.candidate) for w in measured.ranking]
    assert order.index(("draft", "good.gguf")) < order.index(("none", ""))
    assert order.index(("none", "")) < order.index(("draft", "slow.gguf"))
    assert measured.not_downloaded == ("acme/x/x.gguf",) and not measured.cancelled
    assert said == sorted(said) and said[-1] == pytest.approx(1.0)
    assert len(engines.made) == 1

    again = PairRun(finding, 20, engine_factory=engines, store=store).recall()
    assert [(m.candidate, kept) for m, kept in again.measurements] == [
        ("good.gguf", True), ("slow.gguf", True), ("", True)]
    assert again.ranking == measured.ranking
    generated = [c for c in engines.made[-1].calls if c[0] in ("generate", "load_target")]
    assert generated == []  # read back: no model loaded, no answer made


def test_a_recall_with_nothing_kept_starts_no_engine(finding, tmp_path):
    engines = Engines()
    recalled = PairRun(finding, 20, engine_factory=engines,
                       store=PairStore(tmp_path / "empty")).recall()
    assert engines.made == [] and recalled.measurements == ()
    assert recalled.not_measured == ("good.gguf", "slow.gguf", "ngram")


def test_a_recall_of_another_budget_finds_nothing(finding, tmp_path):
    store = PairStore(tmp_path / "kept")
    PairRun(finding, 20, engine_factory=Engines(), store=store).measure()
    other = PairRun(finding, 24, engine_factory=Engines(), store=store).recall()
    assert other.measurements == () and len(other.not_measured) == 3


def test_cancel_keeps_what_was_measured_before_it(finding, tmp_path):
    engines, store = Engines(), PairStore(tmp_path / "kept")
    run = PairRun(finding, 20, engine_factory=engines, store=store)

    def cancel_in_the_second(_fraction, said):
        if "slow.gguf" in str(said):
            run.cancel()
    measured = run.measure(cancel_in_the_second)
    assert measured.cancelled
    assert [m.candidate for m, _ in measured.measurements] == ["good.gguf"]
    assert measured.not_measured == ("slow.gguf", "ngram")
    assert [(w.spec_type, w.candidate) for w in measured.ranking] == [
        ("draft", "good.gguf"), ("none", "")]
    assert len(list((tmp_path / "kept").glob("*.json"))) == 1


def test_a_hub_target_is_refused_without_an_engine(finding, tmp_path):
    engines = Engines()
    hub_target = PairFinding(finding.target, finding.candidates, target_bytes_read=1000)
    measured = PairRun(hub_target, 20, engine_factory=engines,
                       store=PairStore(tmp_path)).measure()
    assert engines.made == [] and measured.refused is not None
    assert "download it" in str(measured.refused)
