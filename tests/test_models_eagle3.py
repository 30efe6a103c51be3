"""EAGLE-3 heads in the model library: recognised from their headers (pure Python, no
llama.cpp), paired with the targets they fit, and refused with the reason otherwise."""

from __future__ import annotations

from backend.models.eagle3 import LAYER_CAPTURE_ARCHITECTURES, head_incompatibility
from backend.models.inspection import inspect_model
from backend.models.library import Library
from backend.models.pairing import draft_candidates, draft_verdicts

GOOD = ("eagle3-count.gguf", "eagle3-token.gguf", "eagle3-own.gguf", "eagle3-d2t.gguf")
BAD = {
    "eagle3-bad-layers.gguf": "reads layer 4 of its target, but count-target3 has 4 layers "
                              "(0–3): it was made for a bigger model.",
    "eagle3-bad-hidden.gguf": "was made for a target with hidden size 48, but count-target3 "
                              "has 32.",
    "eagle3-bad-width.gguf": "borrows the target's token embedding, which needs its hidden "
                             "size (48) to equal count-target3's (32).",
    "eagle3-bad-d2t.gguf": "'s d2t table maps to token id 49159, outside count-target3's "
                           "vocabulary of 49,152 tokens.",
    "eagle3-bad-d2t-no-output.gguf": "maps a reduced vocabulary (d2t) but has no output "
                                     "matrix of its own, so llama.cpp cannot use it.",
    "eagle3-bad-vocab.gguf": "was made for another vocabulary: The vocabularies differ at "
                             "token 1000",
}


def test_heads_pair_with_the_target_they_fit_and_say_why_not(test_models):
    models = Library(test_models).models()
    target = next(m for m in models if m.path.name == "count-target3.gguf")
    rows = {r.model.path.name: r for r in draft_candidates(target, models)}
    for name in GOOD:
        assert rows[name].compatible, rows[name].reason
        assert rows[name].kind == "EAGLE-3 head"
        assert "spec type EAGLE-3" in str(rows[name].reason or "")
    for name, words in BAD.items():
        assert not rows[name].compatible
        assert str(rows[name].reason).startswith(name) and words in str(rows[name].reason)
    assert rows["count-draft.gguf"].compatible and rows["count-draft.gguf"].kind == "draft model"


def test_the_panel_verdicts_follow_the_same_rule(test_models):
    target = str(test_models / "count-target3.gguf")
    verdicts = dict(draft_verdicts(target, [str(test_models / n) for n in (*GOOD, *BAD)]))
    assert [verdicts[str(test_models / n)] for n in GOOD] == [None] * len(GOOD)
    for name, words in BAD.items():
        assert words in str(verdicts[str(test_models / name)] or "")
    qwen2 = dict(draft_verdicts(str(test_models / "count-qwen2.gguf"),
                                [str(test_models / "eagle3-count.gguf")]))
    assert str(qwen2[str(test_models / "eagle3-count.gguf")]) == (
        "count-qwen2 is a qwen2 model, and llama.cpp cannot read the hidden states of that "
        "architecture, so no EAGLE-3 head can draft for it.")


def test_a_head_as_the_target_pairs_with_nothing(test_models):
    models = Library(test_models).models()
    head = next(m for m in models if m.path.name == "eagle3-count.gguf")
    rows = draft_candidates(head, models)
    assert rows and not any(r.compatible for r in rows)
    assert all("choose it as the draft with spec type EAGLE-3" in str(r.reason or "") for r in rows)


def test_a_draft_model_is_no_head(test_models):
    target = inspect_model(test_models / "count-target3.gguf")
    reason = head_incompatibility(target, inspect_model(test_models / "count-draft.gguf"))
    assert str(reason) == ("count-draft.gguf is not an EAGLE-3 head llama.cpp can read: spec "
                           "type EAGLE-3 needs a draft of architecture eagle3 with its layer keys.")


def test_the_capture_list_names_the_architectures_the_notes_name():
    assert {"llama", "qwen3", "qwen3moe", "qwen35", "gpt-oss", "gemma4"} <= \
        LAYER_CAPTURE_ARCHITECTURES
    assert not {"qwen2", "mistral3", "smollm3", "gemma3"} & LAYER_CAPTURE_ARCHITECTURES


def test_hub_search_and_files_find_a_sidecar_head(monkeypatch, test_models, capsys):
    """A model repository with an `eagle3-*.gguf` sidecar: search finds the repository, `files`
    lists the head as such, and the KV size comes from the model's header, not the head's."""
    import json

    from fakehub import gguf_repo, serving

    from backend.cli.main import main
    from backend.models.hub import HubClient

    repo = gguf_repo("acme/Count3-GGUF", {
        "count3-F32.gguf": (test_models / "count-target3.gguf").read_bytes(),
        "eagle3-count3-F32.gguf": (test_models / "eagle3-count.gguf").read_bytes(),
    })
    with serving(monkeypatch, [repo]):
        assert main(["models", "search", "count3", "--json"]) == 0
        assert json.loads(capsys.readouterr().out)[0]["repo_id"] == "acme/Count3-GGUF"
        models = {m.name: m for m in HubClient().models("acme/Count3-GGUF")}
        assert models["eagle3-count3-F32.gguf"].eagle3_head
        assert not models["count3-F32.gguf"].eagle3_head
        assert main(["models", "files", "acme/Count3-GGUF", "--json"]) == 0
        rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
        assert rows["eagle3-count3-F32.gguf"]["eagle3_head"] is True
        assert main(["models", "files", "acme/Count3-GGUF"]) == 0
        out = capsys.readouterr().out
        assert "eagle3-count3-F32.gguf (EAGLE-3 head: a draft for spec type eagle3)" in out
        assert "KV cache not counted" not in out
    assert main(["models", "inspect", str(test_models / "eagle3-d2t.gguf")]) == 0
    out = capsys.readouterr().out
    assert "EAGLE-3 head    for a target of hidden size 32, reads its layers 0, 2, 3; draft " \
           "vocabulary 20 tokens (d2t)" in out


def test_an_embedding_of_another_vocabulary_is_refused(test_models):
    import dataclasses

    target = inspect_model(test_models / "count-target3.gguf")
    head = inspect_model(test_models / "eagle3-own.gguf")
    assert head.eagle3 is not None and head.eagle3.embedding_rows == 49152
    assert head_incompatibility(target, head) is None
    cut = dataclasses.replace(head, eagle3=dataclasses.replace(head.eagle3, embedding_rows=100))
    assert str(head_incompatibility(target, cut)) == (
        "eagle3-own.gguf's token embedding has rows for 100 tokens, and count-target3's "
        "vocabulary has 49,152.")


def test_a_head_that_reads_two_layers_is_refused_before_llama_cpp(tmp_path):
    import pytest
    from build import Tokenizer, smollm2_path
    from eagle3 import write_eagle3

    from backend.models.gguf_header import ModelFileError

    path = tmp_path / "two-layers.gguf"
    write_eagle3(path, Tokenizer(smollm2_path()), name="two layers", target_layers=(0, 1))
    with pytest.raises(ModelFileError) as info:
        inspect_model(path)
    assert "lists 2 target layers; llama.cpp loads only heads that read exactly 3" in \
        str(info.value)
