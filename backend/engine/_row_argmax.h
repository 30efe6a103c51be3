/* What both C modules read a row with (_rowstats.c, _greedy_loop.c): the clones' targets, the
   row's checked argmax, and the repeat penalty on one logit. */

#ifndef DRAFTLIGHT_ROW_ARGMAX_H
#define DRAFTLIGHT_ROW_ARGMAX_H

#include <math.h>

#define BLOCK 256

/* Whole levels, not features: in target_clones a comma parts clones, so "avx2,fma" would be an
   AVX2 copy without FMA and an FMA copy without AVX2 (the exp's polynomial in separate multiplies
   and adds, ~40 % slower). GCC takes the level names from 12 on; before it, AVX2 without FMA. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__)
#if __GNUC__ >= 12
#define CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#endif
#else
#define CLONES
#endif

/* The row's argmax (the lowest id among equal largest logits, as numpy's), or -1 where it
   holds a NaN or +inf or is all -inf: such a row is handed back to numpy's path. ~10 us at 152k
   tokens: a maximum, no exp. */
CLONES
static long argmax_checked(const float *x, long n) {
    float m = -INFINITY;
    long at = -1;
    int bad = 0;
    for (long start = 0; start < n; start += BLOCK) {
        long size = n - start < BLOCK ? n - start : BLOCK;
        const float *b = x + start;
        float bm = -INFINITY;
        int bb = 0;
#pragma omp simd reduction(max : bm) reduction(| : bb)
        for (long i = 0; i < size; i++) {
            float v = b[i];
            bm = v > bm ? v : bm;
            bb |= (v != v) | (v == INFINITY);
        }
        bad |= bb;
        if (bm > m) { /* the first block holding the maximum: the lower id among equals */
            m = bm;
            at = start;
        }
    }
    if (bad || at < 0) return -1;
    while (x[at] != m) at++;
    return at;
}

/* A logit after the repeat penalty, as sampling.penalized writes it in float32: divided by the
   penalty where positive, else multiplied by it. */
static inline float penalized(float x, float penalty) {
    return x > 0.0f ? x / penalty : x * penalty;
}

#endif
