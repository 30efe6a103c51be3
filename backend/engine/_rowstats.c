/* One pass over a row of float32 logits: its argmax, log-sum-exp and k largest logits.

At a GPU's token rates and a 150k-260k vocabulary, reading a row in numpy (an argmax, an exp
pass into a scratch row, a float32 sum, the groups' maxima for the top five) cost ~150 us a
token, 10-20 % of a token beside llama.cpp. Here the row is read once, block by block: each
block's maximum, then its exps summed against the running maximum (rescaling the total in the
rare block that raises it), then, only in a block whose maximum beats the k-th largest so far,
its logits inserted into the top k. ~35-45 us at 152k tokens with AVX-512, ~80 with AVX2. Where
llama.cpp decodes on the CPU with several threads, the row is read in as many slices at once by
the OpenMP team its CPU backend just used on this thread, still spinning (set_threads): ~60 us
with AVX2 on two cores, where those cores would otherwise wait for the Python between decodes.
Where a second core is spare instead (a GPU decodes), the decoding thread takes only the argmax
(~10 us) and the rest is read on a thread of this module's own while it goes on (`begin`).

Plain C whose loops GCC and Clang vectorize (`#pragma omp simd`) on any target; on x86-64 with
GCC, `target_clones` adds x86-64-v3 (AVX2 with FMA) and v4 (AVX-512) copies chosen when the
module loads, so the same build holds on every x86-64 CPU. Built without OpenMP (setup.py falls
back where the compiler has none), the slices are read one after another. No -ffast-math: NaN
and infinities propagate, and a row holding one is handed back (None) for numpy's path. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>

#include "_row_argmax.h"

#define MAX_K 64

/* e^d in float32 (Cephes' expf: d = n ln2 + r, |r| <= ln2 / 2, e^r by a degree-6 polynomial,
   2^n written into the exponent bits), ~1 ulp; 0 below -87 (where e^d goes subnormal, 1e-38 of
   the largest logit's weight) and for -inf; NaN stays NaN. No branch, so it vectorizes. */
static inline __attribute__((always_inline)) float exp_nonpositive(float d) {
    const float shifter = 12583039.0f; /* 1.5 * 2^23 + 127: n + 127 lands in the low bits */
    float t = d * 1.44269504088896341f + shifter;
    union { float f; uint32_t u; } biased = {.f = t};
    float n = t - shifter;
    float r = d - n * 0.693359375f;
    r = r - n * -2.12194440e-4f;
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    p = p * r * r + r + 1.0f;
    union { uint32_t u; float f; } scale = {.u = biased.u << 23};
    union { float f; uint32_t u; } e = {.f = p * scale.f};
    e.u &= (uint32_t)(d < -87.0f) - 1u;
    return e.f;
}

static inline __attribute__((always_inline)) float block_max(const float *x, long n) {
    float m = -INFINITY;
#pragma omp simd reduction(max : m)
    for (long i = 0; i < n; i++) m = x[i] > m ? x[i] : m;
    return m;
}

static inline __attribute__((always_inline)) float block_expsum(const float *x, long n, float m) {
    float s = 0.0f;
#pragma omp simd reduction(+ : s)
    for (long i = 0; i < n; i++) s += exp_nonpositive(x[i] - m);
    return s;
}

/* Insert logit v of token id into the top list (largest first; among equals, the lower id,
   which comes first since ids arrive ascending), keeping at most k. */
static inline void insert_top(float *vals, long *ids, int *len, int k, float v, long id) {
    int i = *len < k ? (*len)++ : k - 1;
    while (i > 0 && vals[i - 1] < v) {
        vals[i] = vals[i - 1];
        ids[i] = ids[i - 1];
        i--;
    }
    vals[i] = v;
    ids[i] = id;
}

/* The sum of e^(x - *max) over x[begin, end), or NaN where a logit is NaN or +inf or the first
   block is all -inf; its k largest logits and their ids. */
CLONES
static double scan(const float *x, long begin, long end, int k, float *max, float *vals,
                   long *ids, int *len) {
    double total = 0.0;
    float m = -INFINITY;
    *len = 0;
    for (long start = begin; start < end; start += BLOCK) {
        long size = end - start < BLOCK ? end - start : BLOCK;
        const float *b = x + start;
        float bm = block_max(b, size);
        if (bm > m) {
            total *= exp((double)m - (double)bm); /* 0 for the first block (m = -inf) */
            m = bm;
        }
        total += block_expsum(b, size, m);
        if (*len < k || bm > vals[k - 1]) {
            for (long i = 0; i < size; i++)
                if (*len < k || b[i] > vals[k - 1]) insert_top(vals, ids, len, k, b[i], start + i);
        }
    }
    *max = m;
    return total;
}

#define MAX_PARTS 16
static int n_parts = 1; /* set_threads: llama.cpp's own thread count, its OpenMP team */

typedef struct {
    double total;
    float max;
    float vals[MAX_K];
    long ids[MAX_K];
    int len;
} Part;

/* The row in n_parts slices of whole blocks, one a thread of the OpenMP team llama.cpp's CPU
   backend left spinning on this thread after its decode (libgomp keeps a team per calling
   thread), merged: the largest maximum, the totals rescaled to it, the slices' top k in order
   of id (so among equal logits the lower id stays first). Returns as scan; a slice that begins
   with a block of -inf sums to NaN, as a row that does, and the row goes back to numpy. */
static double scan_row(const float *x, long n, int k, float *max, float *vals, long *ids,
                       int *len) {
    long blocks = (n + BLOCK - 1) / BLOCK;
    int parts = n_parts < blocks ? n_parts : (int)blocks;
    if (parts <= 1) return scan(x, 0, n, k, max, vals, ids, len);
    Part part[MAX_PARTS];
    long per = (blocks + parts - 1) / parts * BLOCK;
#ifdef _OPENMP
#pragma omp parallel for num_threads(parts) schedule(static, 1)
#endif
    for (int p = 0; p < parts; p++) {
        long begin = p * per, end = begin + per < n ? begin + per : n;
        /* an empty last slice (fewer blocks than slices times their size) finds nothing */
        part[p].total = scan(x, begin, end, k, &part[p].max, part[p].vals, part[p].ids,
                             &part[p].len);
    }
    float m = -INFINITY;
    for (int p = 0; p < parts; p++) if (part[p].max > m) m = part[p].max;
    double total = 0.0;
    *len = 0;
    for (int p = 0; p < parts; p++) {
        /* an empty slice: max -inf, total 0; a NaN total stays NaN */
        total += part[p].max > -INFINITY ? part[p].total * exp((double)part[p].max - (double)m)
                                         : part[p].total;
        for (int i = 0; i < part[p].len; i++)
            if (*len < k || part[p].vals[i] > vals[k - 1])
                insert_top(vals, ids, len, k, part[p].vals[i], part[p].ids[i]);
    }
    *max = m;
    return total;
}

/* The background reader: where a core is spare beside llama.cpp's (a GPU decodes, or fewer CPU
   threads than cores), the log-sum-exp and the top k of a row are read on a thread of this
   module's own, without the GIL, while the decoding thread takes the argmax (the decision) and
   goes on with its Python; the engine collects the results before that context decodes again
   (row_stats.settle), and the row's buffer is left untouched until then. A POSIX thread; where
   there is none (Windows), `begin` says no and rows are read on the decoding thread. */
#if defined(__unix__) || defined(__APPLE__)
#define BACKGROUND 1
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define RELAX() _mm_pause()
#elif defined(__aarch64__)
#define RELAX() __asm__ __volatile__("yield")
#else
#define RELAX() ((void)0)
#endif

#define SLOTS 64

enum { FREE, QUEUED, DONE };

typedef struct {
    Py_buffer view; /* held from begin to finish: the row's memory stays */
    long ticket;
    long n;
    int k;
    double total;
    float max;
    float vals[MAX_K];
    long ids[MAX_K];
    int len;
    atomic_int state;
} Slot;

static Slot slots[SLOTS];
static atomic_long posted; /* tickets handed to the thread; ticket t lives in slot t % SLOTS */
static atomic_long served; /* tickets it has read */
static atomic_int sleeping;
/* While an answer runs (keep_awake), the thread waits for the next row awake, yielding its core
   to any thread that wants it: woken from sleep for each row it came 100-200 us late on a
   virtual machine, longer than the decoding thread's Python it is to overlap. */
static atomic_int awake;
static int started; /* 1: the thread runs; -1: it could not be started */
static int fork_handled;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER;

static void *read_rows(void *arg) {
    (void)arg;
    for (;;) {
        long t = atomic_load(&served);
        for (int spins = 1; atomic_load(&posted) <= t; spins++) {
            if (spins % 64 != 0) {
                RELAX();
                continue;
            }
            if (atomic_load(&awake)) {
                sched_yield();
                continue;
            }
            pthread_mutex_lock(&mu);
            atomic_store(&sleeping, 1); /* then posted and awake read again: a change between
                                           is seen, or its signal comes after the wait begins */
            while (atomic_load(&posted) <= t && !atomic_load(&awake))
                pthread_cond_wait(&wake, &mu);
            atomic_store(&sleeping, 0);
            pthread_mutex_unlock(&mu);
        }
        Slot *s = &slots[t % SLOTS];
        s->total = scan((const float *)s->view.buf, 0, s->n, s->k, &s->max, s->vals, s->ids,
                        &s->len);
        atomic_store_explicit(&s->state, DONE, memory_order_release);
        atomic_store(&served, t + 1);
    }
    return NULL;
}

/* A forked child has no reader thread: it starts its own, with every slot forgotten (their
   buffers belong to the parent's objects). */
static void forget_after_fork(void) {
    started = 0;
    atomic_store(&posted, 0);
    atomic_store(&served, 0);
    atomic_store(&sleeping, 0);
    atomic_store(&awake, 0);
    for (int i = 0; i < SLOTS; i++) atomic_store(&slots[i].state, FREE);
    pthread_mutex_init(&mu, NULL);
    pthread_cond_init(&wake, NULL);
}

static int start_reader(void) {
    if (started) return started > 0;
    pthread_t thread;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int failed = pthread_create(&thread, &attr, read_rows, NULL);
    pthread_attr_destroy(&attr);
    if (!failed && !fork_handled) fork_handled = !pthread_atfork(NULL, NULL, forget_after_fork);
    started = failed ? -1 : 1;
    return started > 0;
}

static void wake_reader(void) {
    if (atomic_load(&sleeping)) {
        pthread_mutex_lock(&mu);
        pthread_cond_signal(&wake);
        pthread_mutex_unlock(&mu);
    }
}
#endif

/* keep_awake(on): whether the reader waits for rows awake (an answer is running) or asleep. */
static PyObject *keep_awake(PyObject *self, PyObject *arg) {
    (void)self;
    int on = PyObject_IsTrue(arg);
    if (on < 0) return NULL;
#ifdef BACKGROUND
    atomic_store(&awake, on);
    if (on && start_reader()) wake_reader();
#endif
    Py_RETURN_NONE;
}

static PyObject *set_threads(PyObject *self, PyObject *arg) {
    (void)self;
    long n = PyLong_AsLong(arg);
    if (n == -1 && PyErr_Occurred()) return NULL;
    n_parts = n < 1 ? 1 : n > MAX_PARTS ? MAX_PARTS : (int)n;
    Py_RETURN_NONE;
}

/* 'f' in the struct module's terms, with a byte order that is this machine's ('<' from numpy's
   arrays over ctypes memory, as llama.cpp's logits are). */
static int native_float(const char *format) {
    if (format == NULL) return 0;
    if (*format == '@' || *format == '=') format++;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    else if (*format == '<') format++;
#endif
    return format[0] == 'f' && format[1] == '\0';
}

/* The buffer of obj as a contiguous float32 row (`flags` adding PyBUF_WRITABLE where it is
   written); -1 with a TypeError saying `need` where it is not, the buffer released. */
static int float_row(PyObject *obj, Py_buffer *view, int flags, const char *need) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | flags) < 0) return -1;
    if (view->ndim != 1 || view->itemsize != 4 || !native_float(view->format)) {
        PyErr_SetString(PyExc_TypeError, need);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* (argmax, log-sum-exp, ((id, logit), ...)) from a pass's sums, or None for a row that goes
   to numpy (a NaN or +inf, or all -inf). */
static PyObject *stats_tuple(double total, float max, const float *vals, const long *ids,
                             int len) {
    if (!isfinite(total) || !(total > 0.0)) Py_RETURN_NONE;
    PyObject *top = PyTuple_New(len);
    if (top == NULL) return NULL;
    for (int i = 0; i < len; i++) {
        PyObject *pair = Py_BuildValue("(ld)", ids[i], (double)vals[i]);
        if (pair == NULL) {
            Py_DECREF(top);
            return NULL;
        }
        PyTuple_SET_ITEM(top, i, pair);
    }
    return Py_BuildValue("(ldN)", ids[0], (double)max + log(total), top);
}

/* The arguments (row, k) of `name`: the row's buffer, not empty, and 1 <= k <= MAX_K; -1 with
   the error set, and no buffer held, where they are not. */
static int row_and_k(PyObject *const *args, Py_ssize_t nargs, const char *name, Py_buffer *view,
                     int *k) {
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "%s(row, k)", name);
        return -1;
    }
    long kk = PyLong_AsLong(args[1]);
    if (kk == -1 && PyErr_Occurred()) return -1;
    if (kk < 1 || kk > MAX_K) {
        PyErr_Format(PyExc_ValueError, "k must be 1 to %d", MAX_K);
        return -1;
    }
    if (float_row(args[0], view, 0, "the row must be a contiguous float32 row") < 0) return -1;
    if (view->shape[0] == 0) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_ValueError, "an empty row");
        return -1;
    }
    *k = (int)kk;
    return 0;
}

static PyObject *row_stats(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Py_buffer view;
    int k;
    if (row_and_k(args, nargs, "row_stats", &view, &k) < 0) return NULL;
    float vals[MAX_K], max;
    long ids[MAX_K];
    int len;
    /* 35-80 us: the GIL is kept, for a hand-over to another thread and back costs more (the
       slices' threads touch no Python object) */
    double total = scan_row((const float *)view.buf, (long)view.shape[0], k, &max, vals, ids,
                            &len);
    PyObject *out = stats_tuple(total, max, vals, ids, len);
    PyBuffer_Release(&view);
    return out;
}

/* begin(row, k): the row's argmax now, and a ticket for the rest, read in the background; None
   where the row goes to row_stats instead (no reader thread here, every slot taken, or a row
   holding a NaN or +inf or all -inf). The row must not change until `finish`. */
static PyObject *begin(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Py_buffer view;
    int k;
    if (row_and_k(args, nargs, "begin", &view, &k) < 0) return NULL;
    long n = (long)view.shape[0];
#ifdef BACKGROUND
    long t = atomic_load(&posted);
    Slot *s = &slots[t % SLOTS];
    if (atomic_load_explicit(&s->state, memory_order_acquire) == FREE && start_reader()) {
        long best = argmax_checked((const float *)view.buf, n);
        if (best >= 0) {
            s->view = view;
            s->ticket = t;
            s->n = n;
            s->k = k;
            atomic_store(&s->state, QUEUED);
            atomic_store(&posted, t + 1);
            wake_reader();
            return Py_BuildValue("(ll)", best, t);
        }
    }
#endif
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

/* finish(ticket): what row_stats would have given for the row begun with it, waited for (the
   GIL kept: the read takes at most a row's pass and is mostly done), its slot freed. */
static PyObject *finish(PyObject *self, PyObject *arg) {
    (void)self;
    long t = PyLong_AsLong(arg);
    if (t == -1 && PyErr_Occurred()) return NULL;
#ifdef BACKGROUND
    Slot *s = t >= 0 ? &slots[t % SLOTS] : NULL;
    if (s != NULL && s->ticket == t && atomic_load(&s->state) != FREE) {
        for (long spins = 1; atomic_load_explicit(&s->state, memory_order_acquire) != DONE;
             spins++) {
            if (spins % 4096 == 0) sched_yield(); /* the reader's core taken by another */
            else RELAX();
        }
        PyObject *out = stats_tuple(s->total, s->max, s->vals, s->ids, s->len);
        PyBuffer_Release(&s->view);
        atomic_store_explicit(&s->state, FREE, memory_order_release);
        return out;
    }
#endif
    PyErr_Format(PyExc_RuntimeError, "no row begun with ticket %ld is waiting", t);
    return NULL;
}

/* The repeat penalty in place, as sampling.penalized writes it in float32: each of `ids` (an
   iterable of distinct tokens) has its logit divided by the penalty where positive, else
   multiplied by it. */
static PyObject *penalize(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "penalize(row, ids, penalty)");
        return NULL;
    }
    double penalty = PyFloat_AsDouble(args[2]);
    if (penalty == -1.0 && PyErr_Occurred()) return NULL;
    Py_buffer view;
    if (float_row(args[0], &view, PyBUF_WRITABLE, "penalize writes a contiguous float32 row") < 0)
        return NULL;
    PyObject *item, *out = NULL, *it = PyObject_GetIter(args[1]);
    if (it == NULL) goto done;
    float *x = (float *)view.buf, pf = (float)penalty;
    while ((item = PyIter_Next(it)) != NULL) {
        Py_ssize_t id = PyNumber_AsSsize_t(item, PyExc_IndexError);
        Py_DECREF(item);
        if (id == -1 && PyErr_Occurred()) goto done;
        if (id < 0 || id >= view.shape[0]) {
            PyErr_Format(PyExc_IndexError, "token %zd outside a row of %zd", id, view.shape[0]);
            goto done;
        }
        x[id] = penalized(x[id], pf);
    }
    if (!PyErr_Occurred()) out = Py_NewRef(Py_None);
done:
    Py_XDECREF(it);
    PyBuffer_Release(&view);
    return out;
}

static PyMethodDef methods[] = {
    {"row_stats", (PyCFunction)(void (*)(void))row_stats, METH_FASTCALL,
     "row_stats(row, k) -> (argmax, log-sum-exp, ((id, logit), ...) k largest, largest first,\n"
     "ties by the lower id), or None where the row holds a NaN or +inf or is all -inf."},
    {"penalize", (PyCFunction)(void (*)(void))penalize, METH_FASTCALL,
     "penalize(row, ids, penalty): the repeat penalty on the distinct tokens ids, in place."},
    {"begin", (PyCFunction)(void (*)(void))begin, METH_FASTCALL,
     "begin(row, k) -> (argmax, ticket): the rest of row_stats read on a thread of its own;\n"
     "None where it cannot be (row_stats reads the row). The row must not change until finish."},
    {"finish", finish, METH_O,
     "finish(ticket) -> row_stats's result for the row begun with ticket, waited for."},
    {"keep_awake", keep_awake, METH_O,
     "keep_awake(on): the reader waits for the next row awake (yielding its core) or asleep."},
    {"set_threads", set_threads, METH_O,
     "set_threads(n): read each row in n slices at once (llama.cpp's CPU threads); 1: in one."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, .m_name = "_rowstats", .m_size = 0, .m_methods = methods};

PyMODINIT_FUNC PyInit__rowstats(void) { return PyModule_Create(&module); }
