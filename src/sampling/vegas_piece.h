/*
 * vegas_piece.h - the work unit of PAGANI_VEGAS on every backend: the samples
 * of one piece of one cube (vegas_backend.h), for the host and the device
 * (static inline, no headers). The CPU backend (cpu_vegas.c) and the CUDA
 * kernels (gpu/vegas/vegas_kernel.cuh) both run this loop, so they draw the
 * same points and form the same per-piece sums.
 *
 * On the device the integrand is pagani_integrand_device (the wrapped user
 * source, inlined by NVRTC) and PAGANI_N is the dimension, a compile-time
 * constant, so x, the bins and the random words stay in registers; bin
 * contributions go to shared memory with 32-bit integer atomics (exact, so
 * their order does not matter). On the host the integrand is a function
 * pointer and the bins a thread's private array. Both add the same
 * integers (pagani_vegas_quantize).
 */
#ifndef PAGANI_VEGAS_PIECE_H
#define PAGANI_VEGAS_PIECE_H

#include "sampling/vegas_point.h"
#if !defined(__CUDA_ARCH__)
#include <signal.h> /* sig_atomic_t: the host's stop flag */
#endif

#ifdef PAGANI_N
#define PAGANI_VEGAS_DIM PAGANI_N
#define PAGANI_VEGAS_NDIM(kp) PAGANI_N
#else
#define PAGANI_VEGAS_DIM PAGANI_MAX_DIM
#define PAGANI_VEGAS_NDIM(kp) ((kp)->n)
typedef double (*pagani_vegas_fn)(const double *x, int n, const void *params);
typedef void (*pagani_vegas_vector_fn)(const double *x, int n,
                                       const void *params, double *f);
#endif

/* Components of the integrand: on the device PAGANI_NCOMP, a constant of
 * the wrapped vector source (1 for scalar source); on the host kp->ncomp,
 * up to 64 (PAGANI_MAX_COMPONENTS). */
#if defined(__CUDA_ARCH__) && defined(PAGANI_NCOMP)
#define PAGANI_VEGAS_MAX_NCOMP PAGANI_NCOMP
#define PAGANI_VEGAS_NCOMP(kp) PAGANI_NCOMP
#elif defined(__CUDA_ARCH__)
#define PAGANI_VEGAS_MAX_NCOMP 1
#define PAGANI_VEGAS_NCOMP(kp) 1
#else
#define PAGANI_VEGAS_MAX_NCOMP 64
#define PAGANI_VEGAS_NCOMP(kp) ((kp)->ncomp)
#endif

/* What every piece of a pass shares. */
typedef struct pagani_vegas_kparams {
    pagani_philox_keys keys;     /* the seed's round keys (pagani_vegas_keys) */
    pagani_u32 iteration;
    int n;
    int nb;                      /* bins per axis */
    int row_stride;              /* nb + 1, or 0 when all axes share row 0 */
    int accumulate;
    int cells;                   /* bin cells: rows * nb */
    int ncomp;                   /* host: components of f (1..64) */
    int vector;                  /* host: fn is a pagani_vegas_vector_fn */
    long long fixed_count;       /* the usual samples per piece, with: */
    double inv_count;            /*   1 / fixed_count */
    double var_weight;           /*   1 / (c (c - 1) pieces^2), c = fixed_count */
    double inv_pieces;           /* 1 / pieces per cube */
    double nb_per_g;             /* nb / g */
    double bin_scale;
    const double *grid;          /* rows of nb + 1 edges */
    unsigned long long *bins_hi; /* device, bins in global memory: the high
                                    words (carries); NULL: no carries */
    const double *lower;
    const double *width;
    const void *params;          /* the integrand's parameter block */
#if !defined(__CUDA_ARCH__)
    const volatile sig_atomic_t *stop; /* host: the context's stop flag
                                    (pagani_context_request_stop), read
                                    before every sample, so that a stop
                                    ends a piece whatever f costs; NULL:
                                    none (the device has no such field: a
                                    stop waits for the kernel to end) */
#endif
} pagani_vegas_kparams;

/* A piece's results. */
typedef struct pagani_vegas_piece_out {
    double mean;                 /* mean of v = f J over the piece / pieces */
    double var;                  /* variance of that mean / pieces^2 */
    long long nonzero;           /* samples with f != 0 */
    double vmax;                 /* largest v^2 */
    double term_max;             /* the largest one sample's term of var:
                                    (v - piece mean)^2 var's weight */
    int overflow;                /* some v^2 * bin_scale >= VEGAS_Q_LIMIT */
    long long fault_sample;      /* first sample with f not finite, -1 */
    double fault_value;
    int fault_component;         /* its first component not finite */
} pagani_vegas_piece_out;

/* The reciprocals for pieces of `count` samples, `pieces` a cube. */
PAGANI_HD void pagani_vegas_weights(pagani_vegas_kparams *kp, long long count,
                                    long long pieces)
{
    kp->fixed_count = count;
    kp->inv_count = 1.0 / (double)count;
    kp->inv_pieces = 1.0 / (double)pieces;
    kp->var_weight = kp->inv_count / (double)(count - 1) * kp->inv_pieces * kp->inv_pieces;
}

#define PAGANI_VEGAS_Q_LIMIT 281474976710656.0 /* 2^48, as VEGAS_Q_LIMIT */

/*
 * A contribution q = v^2 * bin_scale (0.5 <= q < PAGANI_VEGAS_Q_LIMIT) as
 * an integer, in three digits of 16-bit weight, d[0] + 2^16 d[1] + 2^32
 * d[2], each below 2^16, so that 2^16 of them sum below 2^32 in a 32-bit
 * counter. Rounded to nearest: exactly below 2^32, to a multiple of 2^16
 * above (relative error < 2^-17).
 */
PAGANI_HD void pagani_vegas_quantize(double q, pagani_u32 *d)
{
    if (q < 4294967296.0) {
        pagani_u64 t = (pagani_u64)(q + 0.5);
        d[0] = (pagani_u32)(t & 0xffffu);
        d[1] = (pagani_u32)(t >> 16);
        d[2] = 0;
    } else {
        pagani_u64 t = (pagani_u64)(q * (1.0 / 65536.0) + 0.5);
        d[0] = 0;
        d[1] = (pagani_u32)(t & 0xffffu);
        d[2] = (pagani_u32)(t >> 16);
    }
}

/* The digits as one integer (< 2^48). */
PAGANI_HD pagani_u64 pagani_vegas_digits_value(const pagani_u32 *d)
{
    return ((pagani_u64)d[2] << 32) + ((pagani_u64)d[1] << 16) + d[0];
}

/*
 * Adds a contribution to bin cell `index`:
 *  host             bins is a thread's private 64-bit cells;
 *  device, hi NULL  bins is the block's shared counters, three arrays of
 *                   `cells` 32-bit digits (native 32-bit atomics);
 *  device, hi set   bins (low words) and hi are 128-bit totals in global
 *                   memory, with a carry.
 */
PAGANI_HD void pagani_vegas_bin_add(void *bins, unsigned long long *hi, int cells,
                                    int index, const pagani_u32 *d)
{
#if defined(__CUDA_ARCH__)
    /* explicit address spaces: a generic atomic would test for shared
     * memory and fall back to a compare-and-swap loop */
    if (hi) {
        const unsigned long long q = pagani_vegas_digits_value(d);
        unsigned long long old;
        asm volatile("atom.global.add.u64 %0, [%1], %2;"
                     : "=l"(old)
                     : "l"(__cvta_generic_to_global((unsigned long long *)bins + index)),
                       "l"(q)
                     : "memory");
        if (old + q < old)
            asm volatile("red.global.add.u64 [%0], 1;"
                         :: "l"(__cvta_generic_to_global(hi + index)) : "memory");
    } else {
        const unsigned c = (unsigned)__cvta_generic_to_shared((unsigned *)bins + index);
#pragma unroll
        for (int j = 0; j < 3; j++)
            if (d[j])
                asm volatile("red.shared.add.u32 [%0], %1;"
                             :: "r"(c + 4u * (unsigned)(j * cells)), "r"(d[j]) : "memory");
    }
#else
    (void)hi;
    (void)cells;
    ((unsigned long long *)bins)[index] += pagani_vegas_digits_value(d);
#endif
}

/* f at x, its components into fv (the wrapped source on the device, fn
 * on the host). A vector integrand finds fv filled with NaN, so that a
 * component it leaves unset reads as not finite. */
PAGANI_HD void pagani_vegas_eval(const pagani_vegas_kparams *kp, const void *fn,
                                 const double *x, double *fv)
{
#if defined(__CUDA_ARCH__) && defined(PAGANI_NCOMP)
    (void)fn;
#pragma unroll
    for (int c = 0; c < PAGANI_NCOMP; c++) fv[c] = 0.0 / 0.0;
    pagani_integrand_device_vector(x, kp->params, fv);
#elif defined(__CUDA_ARCH__)
    (void)fn;
    fv[0] = pagani_integrand_device(x, kp->params);
#else
    if (kp->vector) {
        for (int c = 0; c < kp->ncomp; c++) fv[c] = 0.0 / 0.0;
        ((pagani_vegas_vector_fn)fn)(x, kp->n, kp->params, fv);
    } else {
        fv[0] = ((pagani_vegas_fn)fn)(x, kp->n, kp->params);
    }
#endif
}

/* The first component of fv that is NaN or infinite, or -1. */
PAGANI_HD int pagani_vegas_first_fault(const pagani_vegas_kparams *kp,
                                       const double *fv)
{
    (void)kp;
    for (int c = 0; c < PAGANI_VEGAS_NCOMP(kp); c++)
        if (!(fv[c] - fv[c] == 0.0)) return c;
    return -1;
}

/* The reciprocals of a piece of `count` samples: 1 / count into *ic and
 * var's weight, 1 / (count (count - 1) pieces^2), into *vw (the host's
 * when the count is the usual one). */
PAGANI_HD void pagani_vegas_reciprocals(const pagani_vegas_kparams *kp,
                                        long long count, double *ic, double *vw)
{
    *ic = kp->inv_count;
    *vw = kp->var_weight;
    if (count != kp->fixed_count) {
        *ic = 1.0 / (double)count;
        *vw = *ic / (double)(count - 1) * kp->inv_pieces * kp->inv_pieces;
    }
}

/* A piece's mean (/ pieces) and variance (/ pieces^2) of samples whose
 * deviations from the first, `shift`, sum to s1 with squares s2; ic and
 * vw: the piece's reciprocals (pagani_vegas_reciprocals). */
PAGANI_HD void pagani_vegas_moments(const pagani_vegas_kparams *kp, double ic,
                                    double vw, double shift, double s1,
                                    double s2, double *mean, double *var)
{
    *mean = (shift + s1 * ic) * kp->inv_pieces;
    *var = (s2 - s1 * s1 * ic) * vw;
    /* below 0 only by rounding; a v or a squared deviation beyond the
     * range of a double leaves mean or var infinite or NaN, which the
     * driver stops on */
    if (*var < 0.0 && *var - *var == 0.0) *var = 0.0;
}

/* The largest term one sample adds to a piece's variance (as
 * pagani_vegas_moments weighs it): (v - mean)^2 vw for the sample farthest
 * from the piece's mean, which is its smallest v, lo, or its largest, hi. */
PAGANI_HD double pagani_vegas_largest_term(double ic, double vw, double shift,
                                           double s1, double lo, double hi)
{
    const double mean = shift + s1 * ic;
    const double d = hi - mean > mean - lo ? hi - mean : mean - lo;
    return d * d * vw;
}

/*
 * Samples first .. first + count - 1 (2 <= count < 2^31) of cube `cube`, whose
 * intervals are k[0..n-1] less PAGANI_VEGAS_K_BIAS (vegas_point.h).
 * Contributions go to bins (rows of nb cells) when kp->accumulate. fn is
 * the host integrand (unused on the device). Component 0 is the
 * integrand the piece's sums and bins describe; with several components,
 * each one's mean and variance (component 0's too) go to components[2 c]
 * and components[2 c + 1] when it is not NULL. On the host a stop
 * (*kp->stop set) ends the loop before the next sample; the piece's
 * results are then meaningless, and its pass is discarded.
 */
PAGANI_HD pagani_vegas_piece_out
pagani_vegas_piece(const pagani_vegas_kparams *kp, const void *fn,
                   pagani_u64 cube, const double *k, pagani_u64 first,
                   long long count, void *bins, double *components)
{
    pagani_vegas_piece_out o;
    double shift[PAGANI_VEGAS_MAX_NCOMP], s1[PAGANI_VEGAS_MAX_NCOMP];
    double s2[PAGANI_VEGAS_MAX_NCOMP], largest, ic, vw;
    double lo = 1.0 / 0.0, hi = -1.0 / 0.0; /* the smallest and largest v */
    const int n = PAGANI_VEGAS_NDIM(kp);  /* a constant on the device */
    const int group = PAGANI_VEGAS_GROUP(n); /* a constant on the device */
    const int nc = components ? PAGANI_VEGAS_NCOMP(kp) : 1;
    pagani_u32 total = (pagani_u32)count, nonzero_piece = 0;
    /* the group of sample `first`, and the place in the piece of that
     * group's sample 0 (0, or minus first's place in its group) */
    pagani_u64 g = first / (pagani_u64)group;
    pagani_u32 at = 0u - (pagani_u32)(first % (pagani_u64)group);

    o.overflow = 0;
    o.fault_sample = -1;
    o.fault_value = 0.0;
    o.fault_component = 0;
    for (int c = 0; c < nc; c++) shift[c] = s1[c] = s2[c] = 0.0;
    /* The samples group by group (a group's samples share Philox blocks,
     * philox.h); place: a sample's index in the piece (32 bits: count <
     * 2^31). The first and the last group may hold a sample of another
     * piece: its words are drawn (the next sample may need them), the
     * sample skipped. */
    do {
        pagani_philox4 r = {{0, 0, 0, 0}};

#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
        for (int s = 0; s < group; s++) {
            const pagani_u32 place = at + (pagani_u32)s;
            double x[PAGANI_VEGAS_DIM], fv[PAGANI_VEGAS_MAX_NCOMP];
            pagani_u32 word[PAGANI_VEGAS_DIM];
            int bin[PAGANI_VEGAS_DIM];
            double jac = 0.0, v;
            int nonzero = 0;

#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
            for (int i = 0; i < n; i++) {
                const int w = s * n + i;
                if (w % 4 == 0)
                    r = pagani_vegas_random_keyed(&kp->keys, kp->iteration, cube, g,
                                                  w / 4);
                word[i] = r.v[w % 4];
            }
            if (group > 1 && place >= total) continue; /* another piece's */
#if !defined(__CUDA_ARCH__)
            if (kp->stop && *kp->stop) { /* the pass is discarded */
                total = 0;
                break;
            }
#endif
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
            for (int i = 0; i < n; i++) {
                double factor;
                double c = pagani_vegas_axis(k[i], word[i], kp->nb_per_g, kp->nb,
                                             kp->grid, (unsigned)(i * kp->row_stride),
                                             &factor, &bin[i]);
                x[i] = pagani_vegas_coord(kp->lower[i], kp->width[i], c);
                jac = i ? PAGANI_DMUL(jac, factor) : factor;
            }
            pagani_vegas_eval(kp, fn, x, fv);
            for (int c = 0; c < PAGANI_VEGAS_NCOMP(kp); c++) nonzero |= fv[c] != 0.0;
            nonzero_piece += (pagani_u32)nonzero;
            if (PAGANI_VEGAS_NCOMP(kp) > 1 || !(fv[0] - fv[0] == 0.0)) {
                /* a fault (f not finite; any component's): the first is
                 * kept, and the sample counts as v = 0 */
                const int bad = pagani_vegas_first_fault(kp, fv);
                if (bad >= 0 && o.fault_sample < 0) {
                    o.fault_sample = (long long)(first + place);
                    o.fault_value = fv[bad];
                    o.fault_component = bad;
                }
                if (bad >= 0) {
                    for (int c = 0; c < nc; c++) fv[c] = 0.0;
                    jac = 0.0;
                }
            }
            for (int c = 0; c < nc; c++) {
                /* v may overflow though f is finite: see o.var */
                double vc = fv[c] * jac, d;
                if (place == 0) shift[c] = vc;
                d = vc - shift[c];
                s1[c] += d;
                s2[c] += d * d;
            }
            v = fv[0] * jac;
            if (v < lo) lo = v;
            if (v > hi) hi = v;
            if (kp->accumulate) {
                double q = v * v * kp->bin_scale;
                if (q >= PAGANI_VEGAS_Q_LIMIT) {
                    o.overflow = 1;
                } else if (q >= 0.5) {
                    const int rows = kp->row_stride ? kp->nb : 0;
                    pagani_u32 dig[3];
                    pagani_vegas_quantize(q, dig);
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
                    for (int i = 0; i < n; i++)
                        pagani_vegas_bin_add(bins, kp->bins_hi, kp->cells,
                                             i * rows + bin[i], dig);
                }
            }
        }
        at += (pagani_u32)group;
        g++;
    } while (at < total);
    o.nonzero = nonzero_piece;
    /* the largest v^2: v^2 grows with |v| (rounding too), so it is hi's
     * when hi > -lo, else lo's, bit for bit the largest of the samples' */
    largest = hi > -lo ? hi : lo;
    o.vmax = largest * largest;
    pagani_vegas_reciprocals(kp, count, &ic, &vw);
    pagani_vegas_moments(kp, ic, vw, shift[0], s1[0], s2[0], &o.mean, &o.var);
    o.term_max = pagani_vegas_largest_term(ic, vw, shift[0], s1[0], lo, hi);
    for (int c = 0; components && c < nc; c++)
        pagani_vegas_moments(kp, ic, vw, shift[c], s1[c], s2[c],
                             &components[2 * c], &components[2 * c + 1]);
    return o;
}

#endif /* PAGANI_VEGAS_PIECE_H */
