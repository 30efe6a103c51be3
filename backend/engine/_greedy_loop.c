/* The plain greedy loop of backend/engine/plain_chunk.py in C: for each token, the row's repeat
penalty and argmax, then the next decode begun, through llama.cpp's own functions (their
addresses given once by `bind`), without the GIL, until a time budget is spent.

At a GPU's token rates a token takes ~1 ms, and the Python between two decodes (the ctypes calls
into llama.cpp, the batch's fields, the loop itself) is a few per cent of it; here it is the
row's argmax alone (bench/engine_overhead_bench.py --no-inspect: 42 -> 33 us a token in all).
The tokens are the Python loop's: the same penalty, in float32, on the same distinct tokens of
the history's last `last_n`, and the same argmax (the lowest id among equal largest logits). A
row numpy must read (a NaN, +inf, all -inf) is handed back penalised and undecided, and a
failed decode is reported with its code: the caller reads the rest.

llama_batch is declared here as llama.h declares it at the pinned llama.cpp; the caller checks
that its size and offsets are those of llama-cpp-python's binding before it calls (`layout`). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_row_argmax.h"

#if defined(_WIN32)
#include <windows.h>
static double now_s(void) {
    LARGE_INTEGER t, f;
    QueryPerformanceCounter(&t);
    QueryPerformanceFrequency(&f);
    return (double)t.QuadPart / (double)f.QuadPart;
}
#else
#include <time.h>
static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
#endif

typedef struct llama_batch {
    int32_t n_tokens;
    int32_t *token;
    float *embd;
    int32_t *pos;
    int32_t *n_seq_id;
    int32_t **seq_id;
    int8_t *logits;
} llama_batch;

typedef int32_t (*decode_fn)(void *ctx, llama_batch batch);
typedef float *(*logits_fn)(void *ctx);
typedef bool (*eog_fn)(const void *vocab, int32_t token);

static decode_fn decode;
static logits_fn get_logits;
static eog_fn is_eog;

/* How a chunk ended: its last token's decode begun and the budget spent; its last token ending
   the answer (end of generation, the most tokens, a full context) and not decoded; a row handed
   back to numpy (penalised, undecided); no logits from llama.cpp; a decode that failed. */
enum { LAUNCHED, ENDED, HANDED_BACK, NO_LOGITS, DECODE_FAILED };

static PyObject *bind(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "bind(llama_decode, llama_get_logits, llama_vocab_is_eog)");
        return NULL;
    }
    void *fns[3];
    for (int i = 0; i < 3; i++) {
        fns[i] = PyLong_AsVoidPtr(args[i]);
        if (fns[i] == NULL) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a null function address");
            return NULL;
        }
    }
    decode = (decode_fn)fns[0];
    get_logits = (logits_fn)fns[1];
    is_eog = (eog_fn)fns[2];
    Py_RETURN_NONE;
}

static PyObject *layout(PyObject *self, PyObject *unused) {
    (void)self, (void)unused;
    return Py_BuildValue("(n(nnnnnnn))", (Py_ssize_t)sizeof(llama_batch),
                         (Py_ssize_t)offsetof(llama_batch, n_tokens),
                         (Py_ssize_t)offsetof(llama_batch, token),
                         (Py_ssize_t)offsetof(llama_batch, embd),
                         (Py_ssize_t)offsetof(llama_batch, pos),
                         (Py_ssize_t)offsetof(llama_batch, n_seq_id),
                         (Py_ssize_t)offsetof(llama_batch, seq_id),
                         (Py_ssize_t)offsetof(llama_batch, logits));
}

/* The chunk's state: the penalty's window (a ring over the history's last `cap` tokens), the
   decided tokens and each one's ms since the one before. */
typedef struct {
    int32_t *window;
    long cap, len, head;
    int32_t *tokens;
    double *ms;
    long n, room;
} Chunk;

static int keep(Chunk *c, int32_t token, double ms) {
    if (c->n == c->room) {
        long room = c->room ? 2 * c->room : 64;
        int32_t *tokens = realloc(c->tokens, room * sizeof *tokens);
        if (tokens) c->tokens = tokens;
        double *times = tokens ? realloc(c->ms, room * sizeof *times) : NULL;
        if (times) c->ms = times;
        if (!tokens || !times) return -1;
        c->room = room;
    }
    c->tokens[c->n] = token;
    c->ms[c->n++] = ms;
    if (c->cap) {
        if (c->len < c->cap) {
            c->window[(c->head + c->len++) % c->cap] = token;
        } else {
            c->window[c->head] = token;
            c->head = (c->head + 1) % c->cap;
        }
    }
    return 0;
}

/* The repeat penalty on the window's distinct tokens, each once: `stamps` (n_vocab + 1 uint32,
   the last the generation) marks the tokens penalised for this row. */
static void penalize_window(float *x, const Chunk *c, uint32_t *stamps, long n_vocab, float p) {
    uint32_t gen = ++stamps[n_vocab];
    if (gen == 0) { /* wrapped: every old mark could read as this row's */
        memset(stamps, 0, (size_t)n_vocab * sizeof *stamps);
        gen = stamps[n_vocab] = 1;
    }
    for (long j = 0; j < c->len; j++) {
        int32_t t = c->window[(c->head + j) % c->cap];
        if (stamps[t] != gen) {
            stamps[t] = gen;
            x[t] = penalized(x[t], p);
        }
    }
}

static PyObject *chunk(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 12) {
        PyErr_SetString(PyExc_TypeError,
                        "chunk(ctx, vocab, batch, n_vocab, history, penalty, last_n, stamps, "
                        "n_past, n_ctx, max_new, budget_s)");
        return NULL;
    }
    if (decode == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "bind() first");
        return NULL;
    }
    void *ctx = PyLong_AsVoidPtr(args[0]);
    const void *vocab = PyLong_AsVoidPtr(args[1]);
    llama_batch *batch = PyLong_AsVoidPtr(args[2]);
    long n_vocab = PyLong_AsLong(args[3]);
    PyObject *history = args[4];
    double penalty = PyFloat_AsDouble(args[5]);
    long last_n = PyLong_AsLong(args[6]);
    long n_past = PyLong_AsLong(args[8]);
    long n_ctx = PyLong_AsLong(args[9]);
    long max_new = PyLong_AsLong(args[10]);
    double budget = PyFloat_AsDouble(args[11]);
    if (PyErr_Occurred()) return NULL;
    if (!ctx || !vocab || !batch || n_vocab <= 0 || last_n < 0 || max_new < 1) {
        PyErr_SetString(PyExc_ValueError, "chunk: a null pointer or an empty vocabulary");
        return NULL;
    }
    if (!PyList_Check(history)) {
        PyErr_SetString(PyExc_TypeError, "chunk: the history is a list of token ids");
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(args[7], &view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return NULL;
    PyObject *out = NULL;
    Chunk c = {0};
    if (view.len < (Py_ssize_t)((n_vocab + 1) * sizeof(uint32_t))) {
        PyErr_SetString(PyExc_ValueError, "chunk: stamps hold n_vocab + 1 uint32");
        goto done;
    }
    Py_ssize_t n_hist = PyList_GET_SIZE(history);
    c.cap = penalty != 1.0 ? last_n : 0;
    if (c.cap) {
        c.window = malloc((size_t)c.cap * sizeof *c.window);
        if (!c.window) {
            PyErr_NoMemory();
            goto done;
        }
        for (Py_ssize_t i = n_hist > c.cap ? n_hist - c.cap : 0; i < n_hist; i++) {
            long t = PyLong_AsLong(PyList_GET_ITEM(history, i));
            if (t < 0 || t >= n_vocab) {
                if (!PyErr_Occurred())
                    PyErr_Format(PyExc_IndexError, "token %ld outside a row of %ld", t, n_vocab);
                goto done;
            }
            c.window[c.len++] = (int32_t)t;
        }
    }
    float p = (float)penalty;
    uint32_t *stamps = view.buf;
    int status = LAUNCHED, rc = 0, failed = 0;
    double launch_ms = 0.0;
    Py_BEGIN_ALLOW_THREADS
    double start = now_s(), last = start;
    for (;;) {
        float *x = get_logits(ctx);
        if (x == NULL) {
            status = NO_LOGITS;
            break;
        }
        if (c.len) penalize_window(x, &c, stamps, n_vocab, p);
        long best = argmax_checked(x, n_vocab);
        if (best < 0) {
            status = HANDED_BACK;
            break;
        }
        double t = now_s();
        if (keep(&c, (int32_t)best, 1000.0 * (t - last)) < 0) {
            failed = 1;
            break;
        }
        last = t;
        if (is_eog(vocab, (int32_t)best) || c.n >= max_new || n_past >= n_ctx) {
            status = ENDED;
            break;
        }
        batch->n_tokens = 1;
        batch->token[0] = (int32_t)best;
        batch->pos[0] = (int32_t)n_past;
        batch->n_seq_id[0] = 1;
        batch->seq_id[0][0] = 0;
        batch->logits[0] = 1;
        double begun = now_s();
        rc = decode(ctx, *batch);
        double launched = now_s();
        if (rc != 0) {
            status = DECODE_FAILED;
            break;
        }
        n_past++;
        if (launched - start >= budget) {
            launch_ms = 1000.0 * (launched - begun);
            break;
        }
    }
    Py_END_ALLOW_THREADS
    if (failed) {
        PyErr_NoMemory();
        goto done;
    }
    PyObject *tokens = PyList_New(c.n), *times = PyList_New(c.n);
    if (tokens && times) {
        for (long i = 0; i < c.n; i++) {
            PyList_SET_ITEM(tokens, i, PyLong_FromLong(c.tokens[i]));
            PyList_SET_ITEM(times, i, PyFloat_FromDouble(c.ms[i]));
        }
        if (!PyErr_Occurred())
            out = Py_BuildValue("(iOOdi)", status, tokens, times, launch_ms, rc);
    }
    Py_XDECREF(tokens);
    Py_XDECREF(times);
done:
    free(c.window);
    free(c.tokens);
    free(c.ms);
    PyBuffer_Release(&view);
    return out;
}

static PyMethodDef methods[] = {
    {"bind", (PyCFunction)(void (*)(void))bind, METH_FASTCALL,
     "bind(llama_decode, llama_get_logits, llama_vocab_is_eog): their addresses, once."},
    {"layout", layout, METH_NOARGS,
     "layout() -> (sizeof llama_batch, (its seven fields' offsets)) as declared here."},
    {"chunk", (PyCFunction)(void (*)(void))chunk, METH_FASTCALL,
     "chunk(ctx, vocab, batch, n_vocab, history, penalty, last_n, stamps, n_past, n_ctx,\n"
     "max_new, budget_s) -> (status, tokens, ms, launch_ms, rc): greedy tokens decided from\n"
     "the last decode's row on, each but an ending one decoded, until budget_s is spent."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, .m_name = "_greedy_loop", .m_size = 0, .m_methods = methods};

PyMODINIT_FUNC PyInit__greedy_loop(void) { return PyModule_Create(&module); }
