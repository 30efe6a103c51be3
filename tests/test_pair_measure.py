"""Measuring a target's ways to speculate (backend/models/pair_measure.py, pair_store.py,
pair_results.py): on a scripted engine whose step times are fixed, so that ranks are
certain on any machine, and on the counting models, whose α by position is."""

from __future__ import annotations

import dataclasses
import os

import pytest
from engine.runner import loaded_engine
from scripted_pairs import BUILD, ScriptedEngine

from backend.models.draft_finder import BUILT_IN, HUB, LIBRARY, PairCandidate
from backend.models.inspection import inspect_model
from backend.models.pair_measure import FIXED_KS, PROMPTS, PairBench
from backend.models.pair_results import SLOWER_THAN_PLAIN, rank
from backend.models.pair_store import DAMAGED, PairStore, measurement_key


@pytest.fixture
def files(tmp_path):
    for name in ("target.gguf", "good.gguf", "slow.gguf"):
        (tmp_path / name).write_bytes(b"GGUF" + name.encode())
    return tmp_path


def draft(files, name: str) -> PairCandidate:
    return PairCandidate("draft", name, LIBRARY, True, None, files / name, 10)


def scripted(files, tokens: int = 40) -> tuple[ScriptedEngine, PairBench]:
    engine = ScriptedEngine({"good.gguf": 0.5, "slow.gguf": 30.0})
    return engine, PairBench(engine, files / "target.gguf", tokens=tokens)


def test_a_draft_that_is_mostly_right_ranks_above_plain_and_a_slow_one_below(files):
    engine, bench = scripted(files)
    said: list[tuple[float, str]] = []
    good = bench.measure(draft(files, "good.gguf"), lambda f, w: said.append((f, str(w))))
    slow = bench.measure(draft(files, "slow.gguf"))
    assert good is not None and slow is not None
    assert [(r.spec_type, r.k) for r in good.rows] == [
        ("none", 0), *(("draft", k) for k in FIXED_KS), ("draft", 0)]
    assert all(r.n_tokens >= 3 * 40 for r in good.rows)
    assert [a.alpha for a in good.alphas][:4] == [1.0, 1.0, 1.0, 1.0]  # wrong on the 5th
    assert good.alphas[4].alpha == 0.0
    assert good.draft_ms_per_token == pytest.approx(0.5)
    assert good.cost_ratio == pytest.approx(0.05)  # 0.5 ms over a 10 ms plain step
    assert good.verify_ms_per_token == pytest.approx(0.5) and good.verify_cost > 0
    assert good.best_fixed.k == 4 and good.rows[2].predicted is not None
    # progress: from 0 to 1, each answer named, the warm-up first
    assert said[0][0] == 0 and said[-1][0] == 1 and len(said) == 2 + 3 * 5
    assert said[0][1] == "Measuring draft model good.gguf: plain decoding, answer 1 of 16."
    assert "K = 4" in said[3][1] and "K auto" in said[-2][1]
    ranking = rank([slow, good])
    assert [(w.candidate, w.k) for w in ranking] == [("good.gguf", 4), ("", None),
                                                     ("slow.gguf", 4)]
    assert ranking[0].speedup > 1 > ranking[2].speedup and ranking[0].note is None
    assert ranking[2].note.template == SLOWER_THAN_PLAIN and "Slower" in str(ranking[2].note)
    # the engine is left without a draft, as it was found
    assert engine.draft is None and engine.calls[-1] == ("unload_draft",)


def test_n_gram_lookup_needs_no_file_and_plain_wins_a_tie(files):
    engine, bench = scripted(files, tokens=8)
    ngram = bench.measure(PairCandidate("ngram", "", BUILT_IN, True, None))
    assert ngram is not None and not any(c[0] == "load_draft" for c in engine.calls)
    assert rank([])[0].spec_type == "none"
    tied = rank([ngram.__class__(**{**ngram.__dict__, "rows": (ngram.rows[0],) * 5})])
    assert [w.spec_type for w in tied] == ["none", "ngram"]


def test_a_hub_candidate_is_not_measured(files):
    _, bench = scripted(files)
    with pytest.raises(ValueError, match="cannot be measured"):
        bench.measure(PairCandidate("draft", "acme/X/x.gguf", HUB, True, None))


def test_cancel_stops_between_answers_and_within_one_and_keeps_nothing(files, tmp_path):
    engine, bench = scripted(files)
    store = PairStore(tmp_path / "kept")
    candidate = draft(files, "good.gguf")

    def cancel_at_third(fraction, _said):
        if fraction > 2 / 16:
            bench.cancel()

    assert store.recall_or_measure(bench, candidate, progress=cancel_at_third,
                                   build=BUILD).measurement is None
    assert sum(c[0] == "generate" for c in engine.calls) == 3  # the 4th never began
    steps = iter(range(1000))
    engine.on_step = lambda: next(steps) == 30 and bench.cancel()  # within an answer
    assert store.recall_or_measure(bench, candidate, build=BUILD).measurement is None
    assert not list((tmp_path / "kept").glob("*.json"))
    assert engine.draft is None  # restored after a cancel too
    engine.on_step = None
    assert bench.measure(candidate) is not None  # a new measurement is not cancelled


def test_a_second_look_reads_the_kept_measurement_without_the_engine(files, tmp_path):
    engine, bench = scripted(files)
    store = PairStore(tmp_path / "kept")
    candidate = draft(files, "good.gguf")
    first = store.recall_or_measure(bench, candidate, build=BUILD)
    assert first.measurement is not None and not first.kept
    n_calls = len(engine.calls)
    again = store.recall_or_measure(bench, candidate, build=BUILD)
    assert again.kept and again.note is None and len(engine.calls) == n_calls
    assert again.measurement == first.measurement
    # another build, budget or candidate file is another key: measured again
    other = store.recall_or_measure(bench, candidate, build={"version": "other"})
    assert not other.kept and len(engine.calls) > n_calls
    n_calls = len(engine.calls)
    (files / "good.gguf").write_bytes(b"GGUF re-downloaded, another size")
    changed = store.recall_or_measure(bench, candidate, build=BUILD)
    assert not changed.kept and len(engine.calls) > n_calls


def test_a_line_fitted_below_zero_is_kept_and_read_back(files, tmp_path):
    # a verify line fitted to noisy steps may cross zero: still a measurement, not a damaged file
    _, bench = scripted(files)
    candidate = draft(files, "good.gguf")
    measured = bench.measure(candidate)
    assert measured is not None
    noisy = dataclasses.replace(measured, verify_ms_intercept=-1.5)
    store = PairStore(tmp_path / "kept")
    key = measurement_key(bench, candidate, build=BUILD)
    store.save(key, noisy)
    back, note = store.load(key, candidate.name)
    assert note is None and back == noisy


def test_the_key_follows_the_files(files):
    _, bench = scripted(files)
    candidate = draft(files, "good.gguf")
    key = measurement_key(bench, candidate, BUILD)
    st = (files / "target.gguf").stat()
    os.utime(files / "target.gguf", ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    assert measurement_key(bench, candidate, BUILD) != key
    mtp = PairCandidate("mtp", "target.gguf", "target", True, None, files / "target.gguf")
    assert measurement_key(bench, mtp, BUILD)["draft"] is None


@pytest.mark.parametrize("damage", [b"{not json", b'{"key": 1}', b"\xff\xfe",
                                    "rows"])
def test_a_damaged_kept_file_is_ignored_in_words(files, tmp_path, damage):
    engine, bench = scripted(files, tokens=8)
    store = PairStore(tmp_path / "kept")
    candidate = draft(files, "good.gguf")
    store.recall_or_measure(bench, candidate, build=BUILD)
    path = store.path_for(measurement_key(bench, candidate, BUILD))
    if damage == "rows":  # valid JSON, the right key, a measurement without its rows
        import json
        doc = json.loads(path.read_text())
        doc["measurement"]["rows"] = doc["measurement"]["rows"][:1]
        damage = json.dumps(doc).encode()
    path.write_bytes(damage)
    n_calls = len(engine.calls)
    looked = store.recall_or_measure(bench, candidate, build=BUILD)
    assert looked.measurement is not None and not looked.kept
    assert len(engine.calls) > n_calls
    assert looked.note is not None and looked.note.template == DAMAGED
    assert "good.gguf" in str(looked.note)
    assert store.recall_or_measure(bench, candidate, build=BUILD).kept  # mended


def test_the_counting_pair_drafts_as_the_models_say(test_models, tmp_path):
    """The real engine: α by position is the counting draft's, whatever the machine's speed
    (it skips a word at every 4th place of the cycle, so a long draft fails by position 5)."""
    target = test_models / "count-target.gguf"
    with loaded_engine(target, n_ctx=512, n_threads=1) as engine:
        bench = PairBench(engine, target, tokens=16, ks=(2, 8), n_threads=1)
        candidate = PairCandidate("draft", "count-draft.gguf", LIBRARY, True, None,
                                  test_models / "count-draft.gguf")
        found = bench.measure(candidate)
        assert engine.draft is None
    assert found is not None and len(PROMPTS) == 3
    assert [(r.spec_type, r.k, r.n_tokens) for r in found.rows] == [
        ("none", 0, 48), ("draft", 2, 48), ("draft", 8, 48), ("draft", 0, 48)]
    alphas = [a.alpha for a in found.alphas]
    assert len(alphas) == 8 and alphas[0] == 1.0 and alphas[4] == 0.0
    assert found.rows[0].n_drafted == 0 and found.rows[2].n_drafted > 0
    assert found.rows[2].acceptance_rate < 1.0
    assert inspect_model(target).name == "count-target"
