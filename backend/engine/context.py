"""One llama.cpp context (a KV cache over a loaded model) that remembers which tokens it holds,
so a new request or a draft step decodes only what the cache lacks."""

from __future__ import annotations

from collections.abc import Callable

import llama_cpp
import numpy as np

from backend.engine import row_stats
from backend.engine.errors import EngineError
from backend.engine.model import LoadedModel
from backend.engine.output_rows import OutputRows
from backend.engine.token_batch import TokenBatch
from backend.engine.tree.refusals import TREE_RECURRENT
from backend.engine.tree.structure import DraftTree
from backend.models.eagle3 import target_refusal
from backend.models.head_files import head_target_refusal
from backend.words import words

NO_CONTEXT = ("llama.cpp could not create a context of {n_ctx} tokens for {name} (not enough "
              "memory?).")
CONTEXT_FULL = "The conversation no longer fits the context of {n_ctx} tokens."
DECODE_FAILED = "llama.cpp failed to decode a batch (code {code})."

# Recurrent-state snapshots kept by default for a recurrent or hybrid model: a rejected draft
# of K tokens rolls back K positions, so K + 1 covers drafts up to K = 8 (the default); the
# engine gives a target more when a request drafts longer (Engine._fit_rollback).
DEFAULT_RS_SNAPSHOTS = 9



def common_prefix(a: list[int], b: list[int], limit: int, known: int = 0) -> int:
    """How many leading tokens `a` and `b` share, at most `limit`, the first `known` of them
    known to be shared. List slices compare in C, bisected on a mismatch, never a Python
    loop over the tokens."""
    n = min(len(a), len(b), limit)
    lo = min(known, n)
    if a[lo:n] == b[lo:n]:  # the usual case: one comparison
        return n
    hi = n  # a[:lo] == b[:lo] and a[:hi] != b[:hi]
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid
    return lo

class Context:
    """Sequence 0 of a llama.cpp context. `tokens[i]` is the token at position i of the cache.

    `n_rs_seq` > 0 keeps that many recurrent-state snapshots, so that a recurrent or hybrid
    model can roll back up to n_rs_seq positions once after each decode (see `truncate`).
    """

    def __init__(
        self,
        model: LoadedModel,
        *,
        n_ctx: int,
        n_threads: int,
        n_batch: int = 512,
        n_ubatch: int = 512,
        n_rs_seq: int = 0,
        ctx_type: int = llama_cpp.LLAMA_CONTEXT_TYPE_DEFAULT,
        ctx_other: llama_cpp.llama_context_p | None = None,
        n_seq_max: int = 1,
    ) -> None:
        """`ctx_other`: the llama.cpp context of another model whose weights this one's graph
        borrows (an EAGLE-3 head without its own token embedding or output uses the
        target's). `n_seq_max` > 1 makes a context that verifies draft trees of up to that
        many leaves (`decode_tree`), its KV cache unified: the branches share the history's
        cells and llama.cpp's tree attention needs them in one cache."""
        self.model = model
        self.n_rs_seq = n_rs_seq
        # Called as on_decode(self, pos0, tokens, rows) after each decoded chunk, while
        # llama.cpp's per-token outputs of that chunk are still readable (the MTP drafter reads
        # the NextN hidden rows there): `rows` None for a chunk, whose token i is its row i; for
        # a draft tree, once its branch is kept (`keep_branch`), the batch rows of the root and
        # the kept nodes, in position order. The engine sets and clears it around a request.
        self.on_decode: Callable[[Context, int, list[int], list[int] | None], None] | None = None
        params = llama_cpp.llama_context_default_params()
        params.n_ctx = n_ctx
        params.n_batch = n_batch
        params.n_ubatch = n_ubatch
        params.n_seq_max = n_seq_max
        params.kv_unified = n_seq_max > 1
        params.n_threads = n_threads
        params.n_threads_batch = n_threads
        params.n_rs_seq = n_rs_seq
        params.ctx_type = ctx_type
        params.no_perf = True
        if ctx_other is not None:
            params.ctx_other = ctx_other
        elif model.inspection.eagle3 is not None:
            # an EAGLE-3 head made the model that answers (the target) would answer with
            # unknown tokens forever, or abort llama.cpp when it borrows the target's weights
            raise EngineError(target_refusal(model.inspection) or "")
        elif (refusal := head_target_refusal(model.inspection.architecture,
                                             model.inspection.path.name)) is not None:
            # a DFlash head or a Gemma 4 assistant made the target: refused before llama.cpp
            # answers garbage or fails to make the context
            raise EngineError(refusal)
        ctx = llama_cpp.llama_init_from_model(model.model, params)
        if not ctx:
            raise EngineError(words(NO_CONTEXT, n_ctx=n_ctx, name=model.info.name))
        self.ctx = ctx
        self.n_ctx = llama_cpp.llama_n_ctx(ctx)
        self.n_batch = n_batch
        self.memory = llama_cpp.llama_get_memory(ctx)
        self.tokens: list[int] = []
        # The list `sync` last made the cache hold, and how many of its first tokens the cache
        # still holds: the next sync of that list, which only grows (the engine's history
        # within an answer), compares only what follows. Compared whole, a 32,000-token
        # history cost a draft model ~100 µs a step.
        self._synced: list[int] | None = None
        self._synced_n = 0
        self._tree: DraftTree | None = None  # decoded by decode_tree, until keep_branch
        self.n_seq_max = n_seq_max
        self._batch = TokenBatch(n_batch, n_seq_max)
        self._outputs = OutputRows(ctx, model.n_vocab)

    # -- cache bookkeeping ---------------------------------------------------------------
    @property
    def n_past(self) -> int:
        return len(self.tokens)

    def truncate(self, n: int) -> bool:
        """Forget every position from n on. False when the memory cannot roll back that far
        (recurrent models keep only a few snapshots); the caller then starts over."""
        if n >= len(self.tokens):
            return True
        ok = llama_cpp.llama_memory_seq_rm(self.memory, 0, n, -1)
        if ok:
            del self.tokens[n:]
            self._synced_n = min(self._synced_n, n)
        return bool(ok)

    def clear(self) -> None:
        llama_cpp.llama_memory_clear(self.memory, True)
        self.tokens.clear()
        self._synced_n = 0

    # -- decoding ------------------------------------------------------------------------
    def decode(self, tokens: list[int], *, all_logits: bool = False) -> np.ndarray:
        """Append `tokens` at the end of the cache and return their logits rows: one row per
        token with `all_logits`, else one row for the last token. The array is a view into
        llama.cpp's buffer, valid until the next decode on this context."""
        if not tokens:
            raise ValueError("nothing to decode")
        self._fits(len(tokens))
        rows = None
        for start in range(0, len(tokens), self.n_batch):
            chunk = tokens[start : start + self.n_batch]
            last_chunk = start + self.n_batch >= len(tokens)
            rows = self._decode_chunk(chunk, all_logits=all_logits, want=last_chunk)
        assert rows is not None
        return rows

    def launch(self, token: int) -> None:
        """Begin decoding `token` at the end of the cache, its logits row read later by
        `rows(1)`. llama.cpp's decode returns once a GPU (CUDA, Metal) has the work and its
        outputs wait for it (`llama_get_logits` synchronises), so what the caller does in
        between overlaps the decoding; on the CPU the decode is done when this returns."""
        self._fits(1)
        self._launch_chunk([token], all_logits=True, want=True)

    @property
    def batch(self) -> llama_cpp.llama_batch:
        """The batch its decodes are given (the C loop of greedy_loop.py writes it too)."""
        return self._batch.batch

    def rows(self, n: int) -> np.ndarray:
        """The last decode's first n logits rows (a view into llama.cpp's buffer, valid until
        the next decode), once the decode is done."""
        return self._outputs.rows(n)

    def _fits(self, n_positions: int) -> None:
        """Refuse, in words, a decode that would take the cache past its n_ctx positions."""
        if len(self.tokens) + n_positions > self.n_ctx:
            raise EngineError(words(CONTEXT_FULL, n_ctx=self.n_ctx))

    def _decode_chunk(self, chunk: list[int], *, all_logits: bool, want: bool) -> np.ndarray:
        self._launch_chunk(chunk, all_logits=all_logits, want=want)
        if not want:
            return np.empty((0, 0), np.float32)
        return self.rows(len(chunk) if all_logits else 1)

    def _launch_chunk(self, chunk: list[int], *, all_logits: bool, want: bool) -> None:
        pos0 = len(self.tokens)
        self._batch.chain(pos0, chunk, all_outputs=all_logits and want, last_output=want)
        row_stats.settle(self)  # rows read in the background from the buffer it writes
        rc = llama_cpp.llama_decode(self.ctx, self._batch.batch)
        if rc != 0:
            # llama_decode returns errors instead of raising (e.g. -1 for an occupied position)
            raise EngineError(words(DECODE_FAILED, code=rc))
        self.tokens.extend(chunk)
        if self.on_decode is not None:
            self.on_decode(self, pos0, chunk, None)

    # -- draft trees (backend/engine/tree) -------------------------------------------------
    def decode_tree(self, root: int, tree: DraftTree) -> np.ndarray:
        """Decode the history's last token `root` and every node of `tree` in one batch, each
        node at its depth's position and in the sequences of the leaves below it (the root in
        all), and return the rows: row 0 after the root, row i + 1 after node i. The history
        (sequence 0) is first shared with the other leaves' sequences. Until `keep_branch`,
        `tokens` holds the history and the root only."""
        if self.model.recurrent:  # llama.cpp refuses cells shared between sequences there
            raise EngineError(words(TREE_RECURRENT, name=self.model.info.name))
        n = len(tree) + 1
        seqs = tree.sequences()
        n_leaves = max(1, len(tree.leaves()))
        if n_leaves > self.n_seq_max:
            raise ValueError(f"{n_leaves} leaves, more than this context's {self.n_seq_max}")
        if n > self._batch.cap:
            raise ValueError(f"a tree of {n} tokens, more than a batch of {self._batch.cap}")
        self._fits(1 + max((tree.depth(i) for i in range(len(tree))), default=0))
        for s in range(1, n_leaves):
            llama_cpp.llama_memory_seq_cp(self.memory, 0, s, -1, -1)
        self._batch.mixed()
        b = self._batch.batch
        pos0 = len(self.tokens)
        b.token[0], b.pos[0], b.logits[0] = root, pos0, True
        b.n_seq_id[0] = n_leaves
        for s in range(n_leaves):
            b.seq_id[0][s] = s
        for i, tok in enumerate(tree.tokens):
            b.token[i + 1] = tok
            b.pos[i + 1] = pos0 + tree.depth(i)
            b.logits[i + 1] = True
            b.n_seq_id[i + 1] = len(seqs[i])
            for k, s in enumerate(seqs[i]):
                b.seq_id[i + 1][k] = s
        b.n_tokens = n
        row_stats.settle(self)  # rows read in the background from the buffer it writes
        rc = llama_cpp.llama_decode(self.ctx, b)
        if rc != 0:
            raise EngineError(words(DECODE_FAILED, code=rc))
        self.tokens.append(root)
        self._tree = tree
        return self._outputs.rows(n)

    def keep_branch(self, path: tuple[int, ...] | list[int]) -> None:
        """After `decode_tree`: keep the accepted nodes `path` (root-ward first) in sequence 0
        at their positions, and drop every other branch's cells and sequence ids. A follower
        (`on_decode`) is told the branch now: the tree batch's outputs are still readable, as
        nothing has been decoded on this context since."""
        tree, self._tree = self._tree, None
        if tree is None:
            raise RuntimeError("keep_branch without decode_tree")
        seqs = tree.sequences()
        # a sequence through the last accepted node holds the whole accepted path
        keep = seqs[path[-1]][0] if path else 0
        end = len(self.tokens) + len(path)  # the root is in tokens already
        llama_cpp.llama_memory_seq_keep(self.memory, keep)
        if keep != 0:
            llama_cpp.llama_memory_seq_cp(self.memory, keep, 0, -1, -1)
            llama_cpp.llama_memory_seq_rm(self.memory, keep, -1, -1)
        llama_cpp.llama_memory_seq_rm(self.memory, 0, end, -1)  # the branch past the path
        pos0 = len(self.tokens) - 1  # the root's
        self.tokens.extend(tree.tokens[i] for i in path)
        if self.on_decode is not None:
            self.on_decode(self, pos0, self.tokens[pos0:], [0, *(n + 1 for n in path)])

    # -- branches beside sequence 0 (a drafter continuing a tree's alternatives) -----------
    def decode_forks(self, rows: list[tuple[int, int, int, bool]]) -> np.ndarray:
        """Decode one token in each of several forks of sequence 0, in one batch, and return
        their logits rows. Row (seq, token, pos, new): a new fork `seq` (1 ≤ seq < n_seq_max)
        first shares sequence 0's cells before `pos`; an old one goes on where it was.
        `tokens` (sequence 0's) is unchanged; `drop_forks` removes them."""
        if not 0 < len(rows) <= self._batch.cap:
            raise ValueError(f"{len(rows)} fork rows for a batch of {self._batch.cap}")
        for seq, _token, pos, _new in rows:  # all checked before any fork is made
            if not 0 < seq < self.n_seq_max or pos >= self.n_ctx:
                raise ValueError(f"no fork {seq} at {pos} in this context")
        self._batch.mixed()
        b = self._batch.batch
        for i, (seq, token, pos, new) in enumerate(rows):
            if new:
                llama_cpp.llama_memory_seq_cp(self.memory, 0, seq, 0, pos)
            b.token[i], b.pos[i], b.logits[i] = token, pos, True
            b.n_seq_id[i] = 1
            b.seq_id[i][0] = seq
        b.n_tokens = len(rows)
        row_stats.settle(self)  # rows read in the background from the buffer it writes
        rc = llama_cpp.llama_decode(self.ctx, b)
        if rc != 0:
            raise EngineError(words(DECODE_FAILED, code=rc))
        return self._outputs.rows(len(rows))

    def drop_forks(self, seqs: list[int]) -> None:
        """Forget forks made by `decode_forks` (cells shared with sequence 0 stay its own)."""
        for seq in seqs:
            llama_cpp.llama_memory_seq_rm(self.memory, seq, -1, -1)

    def _keep_common_prefix(self, tokens: list[int], limit: int, known: int = 0) -> int:
        common = common_prefix(self.tokens, tokens, limit, known)
        if not self.truncate(common):
            self.clear()
            common = 0
        return common

    def prefill(self, tokens: list[int], *, reuse_max: int | None = None) -> int:
        """Make the cache hold exactly `tokens` (no logits needed); returns how many of them
        were already cached from an earlier request (at most `reuse_max`)."""
        limit = len(tokens) if reuse_max is None else min(reuse_max, len(tokens))
        common = self._keep_common_prefix(tokens, limit)
        if common < len(tokens):
            self.decode(tokens[common:])
        return common

    def sync(self, tokens: list[int]) -> np.ndarray:
        """Make the cache hold exactly `tokens`, decoding only the part it lacks, and return
        the logits after the last token. Keeps the longest common prefix (prefix caching).
        The list of the last sync, given again, is taken to have only grown since."""
        known = self._synced_n if tokens is self._synced else 0
        # decode at least one token, to have its logits
        common = self._keep_common_prefix(tokens, len(tokens) - 1, known)
        logits = self.decode(tokens[common:])[0]
        self._synced, self._synced_n = tokens, len(tokens)
        return logits

    def close(self) -> None:
        if getattr(self, "ctx", None):
            row_stats.settle(self)
            self._batch.free()
            llama_cpp.llama_free(self.ctx)
            self.ctx = None
