/*
 * cubature_math.h - what the GPU evaluation kernel computes per region
 * besides the integrand, written once for three compilers: NVRTC (the
 * evaluate kernel, cubature_evaluate.cuh, where this text is pasted in
 * front of it), nvcc (the host code of cuda_cubature.cu) and the host C
 * compiler (rule_pack.c and the tests, which check these functions against
 * rules/estimate.c without a GPU).
 *
 * - The packed rule layout: the explicit points of a pagani_rule as rows
 *   (a point's offsets, then its weights), each point's weight tuple, and
 *   one table of constants.
 * - How a region's box follows from its list entry: a lower corner and,
 *   per axis, how often the initial width was halved (widths are the
 *   initial ones of its integral over powers of two), and, when the list
 *   holds parents, which half of the parent it is; and which integral of
 *   a batch a region belongs to.
 * - pagani_gpu_estimate and pagani_gpu_split_axis: the same arithmetic as
 *   pagani_rule_estimate and pagani_rule_split_axis (rules/estimate.c),
 *   reading the constants table instead of a pagani_rule.
 *
 * NVRTC compiles this without headers: its #includes (src/hostdevice.h,
 * rules/fourth_difference.h, rules/probe.h, rules/graded.h,
 * rules/null_error.h) are
 * pasted in front of it instead (build-aux/kernel-src). C callers include
 * <math.h> first.
 */
#ifndef PAGANI_GPU_CUBATURE_MATH_H
#define PAGANI_GPU_CUBATURE_MATH_H

#include "hostdevice.h" /* PAGANI_HD */
#include "rules/fourth_difference.h"
#include "rules/probe.h"
#include "rules/graded.h"
#include "rules/null_error.h"

#ifdef __CUDA_ARCH__
#define PAGANI_NO_UNROLL _Pragma("unroll 1") /* spares ~20 registers */
#else
#define PAGANI_NO_UNROLL
#endif

/* Most distinct weight tuples and error sets a packed rule may have
 * (DCUHRE rules: 9 to 14 of each). */
#define PAGANI_PACK_MAX_WEIGHTS 64
#define PAGANI_PACK_MAX_SETS 16

/* The explicit points' rows (pagani_packed_rule.rows): point q's offsets
 * o_0 .. o_{n-1} (padded to a pair), then its weights w_0 .. w_4 and a
 * pad, PAGANI_ROW_PAIRS(n) pairs of doubles. The rows of PAGANI_ROW_TILE
 * consecutive points form a tile that holds pair j of all its rows
 * together, so a thread reads its point in 16-byte loads a fixed
 * distance apart, and the lanes of a warp, taking consecutive points,
 * read contiguous bytes. PAGANI_ROW_DOUBLE(n, q, i): where double i of
 * point q's row is; PAGANI_ROW_TABLE(n, ne): the table's doubles. */
#define PAGANI_ROW_COORDS(n) (((n) + 1) & ~1)
#define PAGANI_ROW_PAIRS(n) (PAGANI_ROW_COORDS(n) / 2 + 3)
#define PAGANI_ROW_TILE 32
#define PAGANI_ROW_DOUBLE(n, q, i)                                                   \
    ((((size_t)(q) / PAGANI_ROW_TILE * PAGANI_ROW_PAIRS(n) + (size_t)(i) / 2) *      \
          PAGANI_ROW_TILE +                                                          \
      (size_t)(q) % PAGANI_ROW_TILE) * 2 +                                           \
     (size_t)(i) % 2)
#define PAGANI_ROW_TABLE(n, ne)                                                      \
    (((size_t)(ne) + PAGANI_ROW_TILE - 1) / PAGANI_ROW_TILE * PAGANI_ROW_TILE *       \
     PAGANI_ROW_PAIRS(n) * 2)

/* The constants table (doubles): error-model constants, then the weight
 * tuples w_0..w_4 of the packed rule, tuple t at PAGANI_EVC_WEIGHTS + 5t. */
#define PAGANI_EVC_SCALE 0      /* scale[k-1][s] at 16*(k-1) + s, k = 1..3 */
#define PAGANI_EVC_NORM 48      /* norm[k-1][s] likewise */
#define PAGANI_EVC_C0 96
#define PAGANI_EVC_C1 97
#define PAGANI_EVC_C2 98
#define PAGANI_EVC_RATIO 99     /* (split_b / split_a)^2; 0: no split axis */
#define PAGANI_EVC_CORNER_GEN 100
#define PAGANI_EVC_WEIGHTS 104
/* then the axial test's pagani_axial_fit (rules/probe.h) */
#define PAGANI_EVC_AXIAL_FIT (PAGANI_EVC_WEIGHTS + 5 * PAGANI_PACK_MAX_WEIGHTS)
#define PAGANI_EVC_SIZE (PAGANI_EVC_AXIAL_FIT + PAGANI_AXIAL_FIT_DOUBLES)

/* The error models, as rules.h numbers them. */
#define PAGANI_GPU_ERROR_DCUHRE 0
#define PAGANI_GPU_ERROR_KRONROD 1

/* Most axes of a cubature region (PAGANI_MAX_CUBATURE_DIM). */
#define PAGANI_GPU_MAX_DIM 20

/* Halvings beyond this leave every finite width 0 (2^1024 / 2^2100 is
 * below the smallest double), so a level saturates here. */
#define PAGANI_GPU_MAX_LEVEL 2100

/* What a group of the evaluate kernel's graded pass
 * (gpu/cubature/cubature_graded.cuh) shares, in shared memory after the
 * plain pass's rows (the launch sizes it): the region's grading, and
 * whether f was not finite at one of its points (any thread's). */
typedef struct pagani_graded_slot {
    pagani_grading grading;
    int bad;
} pagani_graded_slot;

/* A flagged region's entry in the graded list: region << this | vertex
 * (n <= PAGANI_PROBE_MAX_DIM: the vertex fits). */
#define PAGANI_GRADED_VERTEX_BITS 10

/* The integer shape of a packed rule and of one launch, passed by value to
 * the evaluate kernel (same layout for nvcc, NVRTC and the C compiler). */
typedef struct pagani_eval_shape {
    int nexplicit;      /* explicit points (rows of the packed rule) */
    int npoints;        /* nexplicit + 2^n corners (or + 0) */
    int nprobes;        /* probes after them (rules/probe.h) */
    int nweights;       /* weight tuples in the constants table */
    int corner_weights; /* tuple of the corner points */
    int nsets;          /* error sets (pagani_rule.nsets) */
    int error_model;    /* PAGANI_GPU_ERROR_* */
    int tpr;            /* threads per region: 32, 64, 128 or 256 */
    int implicit;       /* regions are the halves of the listed parents */
} pagani_eval_shape;

/* The integral of item i of a list holding the items of K integrals one
 * after the other, integral k's at offsets[k] .. offsets[k+1] - 1
 * (0 <= i < offsets[K]): the last k with offsets[k] <= i, found by binary
 * search (integrals without items are passed over). A region's initial
 * widths (initial[k * n + d]: its width along d is that over
 * 2^level[d], exact in doubles) and parameter block are its integral's. */
PAGANI_HD int pagani_gpu_integral_of(const int *offsets, int integrals, long long i)
{
    int lo = 0, hi = integrals - 1;
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (offsets[mid] <= i) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

/* The same search by the 32 lanes of a warp, 32 candidates a step (log32
 * K steps, 4 for K = 100,000): while the answer lies in lo .. hi, lane j
 * tests candidate pagani_gpu_probe(lo, hi, j) (increasing in j, the last
 * being hi); the m lanes whose candidate starts at or before i are the
 * first m, and pagani_gpu_narrow(&lo, &hi, m) keeps the candidates
 * between the last of them and the next. */
PAGANI_HD int pagani_gpu_probe(int lo, int hi, int j)
{
    return lo + (int)(((long long)(j + 1) * (hi - lo) + 31) / 32);
}

PAGANI_HD void pagani_gpu_narrow(int *lo, int *hi, int m)
{
    const int l = *lo, h = *hi;
    if (m > 0) *lo = pagani_gpu_probe(l, h, m - 1);
    if (m < 32) *hi = pagani_gpu_probe(l, h, m) - 1;
}

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
/* pagani_gpu_integral_of for the calling warp: every lane must call it,
 * with the same i. */
__device__ __forceinline__ int pagani_gpu_warp_integral_of(const int *offsets,
                                                           int integrals, long long i)
{
    int lo = 0, hi = integrals - 1;
    while (lo < hi) {
        const int p = pagani_gpu_probe(lo, hi, (int)(threadIdx.x & 31));
        pagani_gpu_narrow(&lo, &hi, __popc(__ballot_sync(0xffffffffu, offsets[p] <= i)));
    }
    return lo;
}
#endif

/* The halving level of a child along axis d: one more on the split axis. */
PAGANI_HD int pagani_gpu_child_level(int d, int split, int level)
{
    return d == split && level < PAGANI_GPU_MAX_LEVEL ? level + 1 : level;
}

/* Coordinate d of a region's box from a list entry (lower corner *l,
 * halving level `level` of the initial width w0): the entry itself, or,
 * when the list holds parents (split >= 0), its half `side` (0 lower, 1
 * upper) along axis `split`. The width w0 / 2^level is exact (ldexp), so
 * this is the arithmetic of halving the parent's width, l + w/2 and w/2. */
PAGANI_HD void pagani_gpu_child_box(int d, int split, int side, double w0, int level,
                                    double *l, double *w)
{
    *w = ldexp(w0, -pagani_gpu_child_level(d, split, level));
    if (d == split && side) *l = *l + *w;
}

/* One term of the null-rule error E_k (k = 1..3) for set s:
 * |r_{k+1} + scale(s,k) r_k| norm(s,k), given rk = r_k, rk1 = r_{k+1}. */
PAGANI_HD double pagani_gpu_null_term(const double *consts, int k, int s,
                                      double rk, double rk1)
{
    return fabs(rk1 + consts[PAGANI_EVC_SCALE + 16 * (k - 1) + s] * rk) *
           consts[PAGANI_EVC_NORM + 16 * (k - 1) + s];
}

/* E_k = max over sets s of the null terms. */
PAGANI_HD double pagani_gpu_null_error(const double *consts, int nsets,
                                       const double *r, int k)
{
    double e = 0.0;
    PAGANI_NO_UNROLL
    for (int s = 0; s < nsets; s++) {
        double v = pagani_gpu_null_term(consts, k, s, r[k], r[k + 1]);
        if (v > e) e = v;
    }
    return e;
}

/* Whether the null rules decay (DCUHRE's test for trusting E_1): the
 * rule is in its asymptotic regime (rules/error_sign.h). */
PAGANI_HD int pagani_gpu_asymptotic(const double *consts, double e1, double e2, double e3)
{
    return pagani_null_rules_decay(consts[PAGANI_EVC_C0], e1, e2, e3);
}

/* The raw error from E_1, E_2, E_3 (rules/null_error.h). */
PAGANI_HD double pagani_gpu_combine(const double *consts, double volume,
                                    double e1, double e2, double e3)
{
    return pagani_null_rule_error(consts[PAGANI_EVC_C0], consts[PAGANI_EVC_C1],
                                  consts[PAGANI_EVC_C2], volume, e1, e2, e3);
}

/* Value and raw error of a region from its five rule sums r[0..4]: the
 * arithmetic of pagani_rule_estimate. */
PAGANI_HD void pagani_gpu_estimate(const double *consts, int nsets, int model,
                                   const double *r, double volume,
                                   double *value, double *error)
{
    *value = volume * r[0];
    if (model == PAGANI_GPU_ERROR_KRONROD) {
        *error = volume * fabs(r[1]);
        return;
    }
    *error = pagani_gpu_combine(consts, volume, pagani_gpu_null_error(consts, nsets, r, 1),
                                pagani_gpu_null_error(consts, nsets, r, 2),
                                pagani_gpu_null_error(consts, nsets, r, 3));
}

/* Split axis from f at the explicit points 0 .. 4n and the widths: the
 * arithmetic of pagani_rule_split_axis (the first axis of the largest
 * fourth difference; the first widest axis when all are zero). */
PAGANI_HD int pagani_gpu_split_axis(int n, double ratio, const double *f,
                                    const double *width)
{
    int axis = 0, widest = 0;
    double dmax = 0.0, wmax = width[0];

    if (n < 2) return 0;
    for (int d = 0; d < n; d++) {
        double diff = pagani_fourth_difference(n, ratio, f, d);
        if (diff > dmax) {
            dmax = diff;
            axis = d;
        }
        if (width[d] > wmax) {
            wmax = width[d];
            widest = d;
        }
    }
    return dmax > 0.0 ? axis : widest;
}

#endif /* PAGANI_GPU_CUBATURE_MATH_H */
