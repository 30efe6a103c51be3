"""Search and file listings through the real huggingface_hub client against a fake hub."""

from __future__ import annotations

import pytest
from fakehub import counting_repos, serving

from backend.models.hub import HubClient, HubError, by_quantization, memory_fit
from backend.models.inspection import kv_bytes_per_token
from backend.models.memory import Fit, Memory
from backend.models.remote_header import read_hub_header


@pytest.fixture
def repos(test_models):
    return counting_repos(test_models)


def test_search_returns_gguf_repositories_with_their_numbers(monkeypatch, repos):
    with serving(monkeypatch, repos) as hub:
        found = HubClient().search("count")
        query = next(r for r in hub.requests if r.path == "/api/models")
    assert [r.repo_id for r in found] == ["acme/Count-GGUF", "other/Counting-Tiny-GGUF"]
    assert (found[0].downloads, found[0].likes, found[0].last_modified.year) == (1200, 7, 2025)
    assert query.method == "GET"


def test_files_are_grouped_by_quantization_with_split_parts_as_one_model(monkeypatch, repos):
    with serving(monkeypatch, repos):
        models = HubClient().models("acme/Count-GGUF")
    grouped = by_quantization(models)
    assert set(grouped) == {"Q8_0", "F16", "F32"}  # the projector is not a model
    (split,) = grouped["F32"]
    assert len(split.parts) == 3 and split.size == sum(p.size for p in split.parts)
    assert split.name == "big/count-F32-00001-of-00003.gguf"
    assert all(p.sha256 and len(p.sha256) == 64 for m in models for p in m.parts)


def test_fit_counts_weights_kv_cache_and_the_draft(monkeypatch, repos):
    with serving(monkeypatch, repos):
        client = HubClient()
        model = client.models("acme/Count-GGUF")[0]
        kv = kv_bytes_per_token(read_hub_header(client, model))
    assert kv == 128  # 1 layer × 2 KV heads × (16 K + 16 V values) × 2 bytes (F16)
    roomy = Memory(total=64 * 2**30, available=32 * 2**30)
    alone = memory_fit(model, kv, 4096, memory=roomy)
    paired = memory_fit(model, kv, 4096, companion=(2 * 2**30, 2**28), memory=roomy)
    assert alone.fit == Fit.FITS and paired.total > alone.total + 2 * 2**30
    small = Memory(total=2 * 2**30, available=2**30)
    assert memory_fit(model, kv, 4096, companion=(2 * 2**30, 0), memory=small).fit == Fit.TOO_BIG


def test_an_unknown_repository_is_one_clear_error(monkeypatch, repos):
    with serving(monkeypatch, repos), pytest.raises(HubError, match="not found"):
        HubClient().models("nobody/nothing")
