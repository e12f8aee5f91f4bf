/*
 * vegas_piece.h - the work unit of PAGANI_VEGAS on every backend: the
 * samples of one piece of one cube (vegas_backend.h), for the host and the
 * device (static inline, no headers). The CPU backend (cpu_vegas.c) and
 * the CUDA kernels (gpu/vegas_kernels.cuh) both run this loop, so they draw
 * the same points and form the same per-piece sums.
 *
 * On the device the integrand is pagani_integrand_device (the wrapped user
 * source, inlined by NVRTC) and PAGANI_N is the dimension, a compile-time
 * constant, so x, the bins and the random words stay in registers; bin
 * contributions go to shared memory with integer atomics (exact, so their
 * order does not matter). On the host the integrand is a function pointer
 * and the bins a thread's private array.
 */
#ifndef PAGANI_VEGAS_PIECE_H
#define PAGANI_VEGAS_PIECE_H

#include "vegas_point.h"

#ifdef PAGANI_N
#define PAGANI_VEGAS_DIM PAGANI_N
#define PAGANI_VEGAS_NDIM(kp) PAGANI_N
#else
#define PAGANI_VEGAS_DIM PAGANI_MAX_DIM
#define PAGANI_VEGAS_NDIM(kp) ((kp)->n)
typedef double (*pagani_vegas_fn)(const double *x, int n, const void *params);
#endif

/* What every piece of a pass shares. */
typedef struct pagani_vegas_kparams {
    pagani_u64 seed;
    pagani_u32 iteration;
    int n;
    int nb;                      /* bins per axis */
    int row_stride;              /* nb + 1, or 0 when all axes share row 0 */
    int accumulate;
    double nb_per_g;             /* nb / g */
    double bin_scale;
    const double *grid;          /* rows of nb + 1 edges */
    unsigned long long *bins_hi; /* device, bins in global memory: the high
                                    words (carries); NULL: no carries */
    const double *lower;
    const double *width;
    const void *params;          /* the integrand's parameter block */
} pagani_vegas_kparams;

/* A piece's results. */
typedef struct pagani_vegas_piece_out {
    double mean;                 /* mean of v = f J over the piece */
    double var;                  /* variance of that mean */
    long long nonzero;           /* samples with f != 0 */
    double vmax;                 /* largest v^2 */
    int overflow;                /* some v^2 * bin_scale > VEGAS_Q_LIMIT */
    long long fault_sample;      /* first sample with f or v not finite, -1 */
    double fault_value;
} pagani_vegas_piece_out;

#define PAGANI_VEGAS_Q_LIMIT 274877906944.0 /* 2^38, as VEGAS_Q_LIMIT */

/* Adds an integer contribution to a bin: on the device with an atomic,
 * carrying into hi[index] when the bins are 128-bit totals in global
 * memory (hi not NULL); on the host into a thread's private cell. */
PAGANI_HD void pagani_vegas_bin_add(unsigned long long *bins,
                                    unsigned long long *hi, int index,
                                    unsigned long long q)
{
#if defined(__CUDA_ARCH__)
    if (hi) {
        unsigned long long old = atomicAdd(bins + index, q);
        if (old + q < old) atomicAdd(hi + index, 1ULL);
    } else {
        atomicAdd(bins + index, q);
    }
#else
    (void)hi;
    bins[index] += q;
#endif
}

/*
 * Samples first .. first + count - 1 (count >= 2) of cube `cube`, whose
 * intervals are k[0..n-1]. Contributions go to bins (rows of nb cells)
 * when kp->accumulate. fn is the host integrand (unused on the device).
 */
PAGANI_HD pagani_vegas_piece_out
pagani_vegas_piece(const pagani_vegas_kparams *kp, const void *fn,
                   pagani_u64 cube, const double *k, pagani_u64 first,
                   long long count, unsigned long long *bins)
{
    pagani_vegas_piece_out o;
    double shift = 0.0, s1 = 0.0, s2 = 0.0;
    const int n = PAGANI_VEGAS_NDIM(kp);  /* a constant on the device */

    o.nonzero = 0;
    o.vmax = 0.0;
    o.overflow = 0;
    o.fault_sample = -1;
    o.fault_value = 0.0;
    for (long long j = 0; j < count; j++) {
        double x[PAGANI_VEGAS_DIM];
        int bin[PAGANI_VEGAS_DIM];
        double jac = 1.0, fx, v, d;

#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
        for (int blk = 0; blk < (n + 3) / 4; blk++) {
            pagani_philox4 r = pagani_vegas_random(kp->seed, kp->iteration, cube,
                                    first + (pagani_u64)j, blk);
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
            for (int q = 0; q < 4; q++) {
                const int i = 4 * blk + q;
                if (i < n) {
                    double c = pagani_vegas_axis(k[i], r.v[q], kp->nb_per_g,
                                                 kp->nb,
                                                 kp->grid + i * kp->row_stride,
                                                 &jac, &bin[i]);
                    x[i] = pagani_vegas_coord(kp->lower[i], kp->width[i], c);
                }
            }
        }
#if defined(__CUDA_ARCH__)
        (void)fn;
        fx = pagani_integrand_device(x, kp->params);
#else
        fx = ((pagani_vegas_fn)fn)(x, n, kp->params);
#endif
        v = fx * jac;
        if (!(v - v == 0.0)) {           /* NaN or infinity */
            if (o.fault_sample < 0) {
                o.fault_sample = (long long)(first + (pagani_u64)j);
                o.fault_value = fx;
            }
            v = 0.0;
        }
        if (fx != 0.0) o.nonzero++;
        if (j == 0) shift = v;
        d = v - shift;
        s1 += d;
        s2 += d * d;
        v = v * v;
        if (v > o.vmax) o.vmax = v;
        if (kp->accumulate) {
            double q = v * kp->bin_scale;
            if (q > PAGANI_VEGAS_Q_LIMIT) {
                o.overflow = 1;
            } else if (q >= 0.5) {
                unsigned long long iq = (unsigned long long)(q + 0.5);
                const int rows = kp->row_stride ? kp->nb : 0;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
                for (int i = 0; i < n; i++)
                    pagani_vegas_bin_add(bins, kp->bins_hi, i * rows + bin[i], iq);
            }
        }
    }
    o.mean = shift + s1 / (double)count;
    o.var = (s2 - s1 * s1 / (double)count) / ((double)count * (count - 1));
    if (!(o.var > 0.0)) o.var = 0.0;
    return o;
}

#endif /* PAGANI_VEGAS_PIECE_H */
