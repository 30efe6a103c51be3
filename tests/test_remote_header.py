"""A Hub file's GGUF header read over Range requests against a fake hub: what it decides, the
words of each failure, and the bytes it reads."""

from __future__ import annotations

import pytest
from fakehub import FakeFile, FakeRepo, gguf_repo, serving
from huggingface_hub import constants
from pair_files import smaller_vocabulary, token_changed

from backend.models import remote_header
from backend.models.eagle3 import head_incompatibility
from backend.models.gguf_header import NOT_GGUF_TEXT, TOO_SHORT_FOR_COUNT, read_header
from backend.models.hub import NOT_FOUND, UNREACHABLE, HubClient, HubFile, HubModel
from backend.models.inspection import IN_FILE, inspect_model
from backend.models.pairing import draft_verdicts
from backend.models.remote_header import (
    CUT_SHORT,
    FIRST_READ,
    HEADER_TOO_BIG,
    MAX_HEADER_BYTES,
    READ_CHUNK,
    REDIRECT_LOOP,
    RemoteHeaderError,
    inspect_hub_model,
)
from backend.models.vocab import OTHER_SIZE, OTHER_TOKEN, incompatibility

# What one file may cost, however its server answers: the header bound, plus what one network
# read can bring past it before it is seen.
BOUND = MAX_HEADER_BYTES + READ_CHUNK
FILE = "draft-Q8_0.gguf"


def only_model(client: HubClient, repo_id: str) -> HubModel:
    (model,) = client.models(repo_id)
    return model


def read(hub, repo_id: str, **client) -> remote_header.RemoteInspection:
    c = HubClient(endpoint=hub.endpoint, **client)
    return inspect_hub_model(c, only_model(c, repo_id))


def refusal(hub, repo_id: str) -> RemoteHeaderError:
    with pytest.raises(RemoteHeaderError) as caught:
        read(hub, repo_id)
    assert caught.value.bytes_read <= BOUND
    return caught.value


def local_header_end(path) -> int:
    return read_header(path.read_bytes()).data_offset


def reason_of(exc: RemoteHeaderError):
    """The reason inside "Could not read the header of NAME: reason." (or "NAME: error")."""
    values = dict(exc.args[0].values)
    return values.get("reason") or values["error"]


@pytest.fixture(scope="module")
def draft(test_models) -> bytes:
    return (test_models / "count-draft.gguf").read_bytes()


def test_a_shared_vocabulary_is_decided_from_a_few_ranged_reads(monkeypatch, test_models, draft):
    target = inspect_model(test_models / "count-target.gguf")
    local = inspect_model(test_models / "count-draft.gguf")
    with serving(monkeypatch, [gguf_repo("acme/Draft-GGUF", {FILE: draft})]) as hub:
        remote = read(hub, "acme/Draft-GGUF")
        ranges = hub.ranges(FILE)
    m = remote.inspection
    assert incompatibility(target.vocab, m.vocab) is None
    assert (m.vocab_fingerprint, m.parameter_count, m.name) == (
        local.vocab_fingerprint, local.parameter_count, local.name)
    assert m.path.as_posix() == f"acme/Draft-GGUF/{FILE}" and m.file_size == len(draft)
    # 256 KiB, then twice as many each round, each range following on from the last
    assert ranges[0] == f"bytes=0-{FIRST_READ - 1}"
    assert ranges[1] == f"bytes={FIRST_READ}-{2 * FIRST_READ - 1}"
    header_end = local_header_end(test_models / "count-draft.gguf")
    assert header_end <= remote.bytes_read < 2 * header_end < len(draft) // 4


def test_the_same_words_decide_a_remote_file_as_a_local_one(monkeypatch, test_models, draft,
                                                           tmp_path):
    """Another token at the same vocabulary size, and another size: refused in the same words
    whether the file is read from disk or over HTTP."""
    changed, token_id = token_changed(draft, 1000)
    (tmp_path / "token.gguf").write_bytes(changed)
    smaller_vocabulary(test_models / "count-draft.gguf", 1000, tmp_path / "small.gguf")
    repos = [gguf_repo("acme/Token-GGUF", {FILE: changed}),
             gguf_repo("acme/Small-GGUF", {FILE: tmp_path / "small.gguf"})]
    target_path = test_models / "count-target.gguf"
    target = inspect_model(target_path)
    local = dict(draft_verdicts(str(target_path), [str(tmp_path / "token.gguf"),
                                                   str(tmp_path / "small.gguf")]))
    with serving(monkeypatch, repos) as hub:
        by_token = incompatibility(target.vocab, read(hub, "acme/Token-GGUF").inspection.vocab)
        by_size = incompatibility(target.vocab, read(hub, "acme/Small-GGUF").inspection.vocab)
    assert by_token is not None and by_token.template == OTHER_TOKEN
    assert dict(by_token.values)["i"] == token_id
    assert by_size is not None and by_size.template == OTHER_SIZE
    assert by_token == local[str(tmp_path / "token.gguf")]
    assert by_size == local[str(tmp_path / "small.gguf")]


def test_eagle3_heads_get_the_same_verdicts_remote_and_local(monkeypatch, test_models):
    """Their d2t table too is read (one more range), so every head rule applies as on disk."""
    names = ["eagle3-count.gguf", "eagle3-d2t.gguf", "eagle3-bad-layers.gguf",
             "eagle3-bad-d2t.gguf", "eagle3-bad-vocab.gguf"]
    target = inspect_model(test_models / "count-target3.gguf")
    repos = [gguf_repo(f"acme/Head{i}", {n: test_models / n}) for i, n in enumerate(names)]
    with serving(monkeypatch, repos) as hub:
        remote = [read(hub, f"acme/Head{i}") for i in range(len(names))]
    for name, r in zip(names, remote, strict=True):
        local = inspect_model(test_models / name)
        assert r.inspection.eagle3 == local.eagle3, name
        assert head_incompatibility(target, r.inspection) == head_incompatibility(target, local)
        assert r.bytes_read <= BOUND
    assert head_incompatibility(target, remote[0].inspection) is None
    assert head_incompatibility(target, remote[2].inspection) is not None


def test_a_server_that_ignores_range_is_read_only_until_the_header_is_in(monkeypatch, draft,
                                                                          test_models):
    repo = FakeRepo("acme/NoRange-GGUF", {FILE: FakeFile(draft, ignore_range=True)})
    with serving(monkeypatch, [repo]) as hub:
        remote = read(hub, "acme/NoRange-GGUF")
        ranges = hub.ranges(FILE)
    assert remote.inspection.vocab.n_tokens == 49152
    assert len(ranges) == 1  # one response, streamed as far as needed, then closed
    header_end = local_header_end(test_models / "count-draft.gguf")
    assert header_end <= remote.bytes_read < 2 * header_end + READ_CHUNK < len(draft) // 3


def test_a_connection_cut_short_is_a_reason_not_a_traceback(monkeypatch, draft):
    repo = FakeRepo("acme/Cut-GGUF", {FILE: FakeFile(draft, cut_after=[100_000])})
    with serving(monkeypatch, [repo]) as hub:
        exc = refusal(hub, "acme/Cut-GGUF")
    assert reason_of(exc).template == CUT_SHORT and exc.bytes_read == 100_000
    assert "closed after 100,000 bytes" in str(exc)


def test_a_file_that_ends_inside_its_header_says_so(monkeypatch, draft):
    with serving(monkeypatch, [gguf_repo("acme/Short-GGUF", {FILE: draft[:1_000_000]})]) as hub:
        exc = refusal(hub, "acme/Short-GGUF")
    assert exc.args[0].template == IN_FILE and reason_of(exc).template == TOO_SHORT_FOR_COUNT
    assert exc.bytes_read == 1_000_000


def test_a_renamed_repository_is_followed_through_its_redirects(monkeypatch, draft):
    repo = gguf_repo("acme/Old-GGUF", {FILE: draft}, renamed_to="acme/New-GGUF")
    with serving(monkeypatch, [repo]) as hub:
        remote = read(hub, "acme/Old-GGUF")
        paths = [r.path for r in hub.requests if FILE in r.path]
    assert remote.inspection.vocab.n_tokens == 49152
    assert paths[:3] == [f"/acme/Old-GGUF/resolve/main/{FILE}",
                         f"/acme/New-GGUF/resolve/main/{FILE}", f"/cdn/acme/New-GGUF/main/{FILE}"]


@pytest.mark.parametrize(("repo", "template"), [
    (gguf_repo("acme/Loop-GGUF", {FILE: b"GGUF"}, renamed_to="acme/Loop-GGUF"), REDIRECT_LOOP),
    (FakeRepo("acme/Gone-GGUF", {FILE: FakeFile(b"GGUF", status=404)}), NOT_FOUND),
    (gguf_repo("acme/Page-GGUF", {FILE: b"<html><body>Sign in</body></html>\n" * 20}),
     NOT_GGUF_TEXT),
])
def test_each_failure_is_one_reason_in_words(monkeypatch, repo, template):
    with serving(monkeypatch, [repo]) as hub:
        exc = refusal(hub, repo.repo_id)
    assert reason_of(exc).template == template
    assert "\n" not in str(exc) and "Traceback" not in str(exc)


@pytest.mark.parametrize("ignore_range", [False, True])
def test_a_header_past_the_bound_is_refused_within_it(monkeypatch, draft, ignore_range):
    monkeypatch.setattr(remote_header, "MAX_HEADER_BYTES", 512 * 2**10)
    repo = FakeRepo("acme/Huge-GGUF", {FILE: FakeFile(draft, ignore_range=ignore_range)})
    with serving(monkeypatch, [repo]) as hub:
        exc = refusal(hub, "acme/Huge-GGUF")
    assert reason_of(exc).template == HEADER_TOO_BIG
    assert exc.bytes_read <= 512 * 2**10 + READ_CHUNK


def test_the_token_goes_with_every_request(monkeypatch, draft):
    with serving(monkeypatch, [gguf_repo("acme/Private-GGUF", {FILE: draft})]) as hub:
        read(hub, "acme/Private-GGUF", token="hf_secret")
        sent = [r.headers.get("authorization") for r in hub.requests if FILE in r.path]
    assert sent and all(a == "Bearer hf_secret" for a in sent)


def test_an_unreachable_server_is_one_sentence(monkeypatch):
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    client = HubClient(endpoint="http://127.0.0.1:1")
    model = HubModel("acme/X", "Q8_0", (HubFile(FILE, 14_000_000, None),))
    with pytest.raises(RemoteHeaderError) as caught:
        inspect_hub_model(client, model)
    assert caught.value.args[0].template == UNREACHABLE and caught.value.bytes_read == 0
