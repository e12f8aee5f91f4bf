/*
 * vegas_backend.h - the bulk operations of PAGANI_VEGAS (m-Cubes, DESIGN.md
 * section 6) that a backend supplies: one sampling pass over all sub-cubes,
 * and for Vegas+ the per-cube sample counts with their scan. Implemented by
 * the CPU (src/cpu/cpu_vegas.c, OpenMP) and CUDA (gpu/vegas/cuda_vegas.c)
 * backends; the driver is src/vegas/vegas_driver.c, the grid adjustment
 * src/sampling/vegas_grid.c.
 *
 * The sampling space. Axis i of the unit cube is cut into g equal
 * intervals, giving m = g^n sub-cubes; cube c has digits k_i = (c / g^i) % g
 * (axis 0 varies fastest). Sample j of cube c draws u_i (philox.h, one word
 * per axis) and y_i = (k_i + u_i) / g. The importance grid maps y to x:
 * with nb bins per axis and edges e_0 = 0 < e_1 < ... < e_nb = 1 (per axis,
 * or one row for all axes in m-Cubes1D), t = y nb, b = floor(t),
 *   x_i = lower_i + width_i (e_b + (e_{b+1} - e_b)(t - b)),
 *   J   = prod_i nb (e_{b+1} - e_b)          (the grid's Jacobian),
 * and the sample's value is v = f(x) J. Over its n_c samples cube c gives
 *   mean_c = (1/n_c) sum v,   var_c = (sum v^2 - n_c mean_c^2) / (n_c (n_c - 1))
 * and the pass returns value = sum_c mean_c and variance = sum_c var_c; the
 * iteration's estimate is volume/m * value with variance (volume/m)^2 *
 * variance (the driver scales).
 *
 * Pieces. In uniform mode every cube has pieces * samples samples, sample
 * j of the stream being sample j' = j % samples of piece j / samples. Each
 * piece is estimated alone and mean_c, var_c are the average of its
 * pieces' means and (1/pieces^2) times the sum of their variances: still
 * unbiased, and a cube of many samples (high dimensions, where g is 1 or 2)
 * is spread over many threads. The work unit of both backends is a piece;
 * in Vegas+ mode pieces is 1 and cube c has counts[c] samples.
 *
 * Bin contributions. With accumulation on, each sample adds v^2 to its bin
 * on every axis (all into row 0 in m-Cubes1D). To be exact and independent
 * of the order of additions, contributions are added as integers: q =
 * v^2 * bin_scale rounded (pagani_vegas_quantize) into private
 * accumulators (per block on the GPU, per thread on the CPU), merged into
 * 128-bit totals. A block or thread adds at most VEGAS_BLOCK_SAMPLES samples
 * before it merges, so every q < VEGAS_Q_LIMIT fits. A q at or above the
 * limit sets `overflow` (the pass's bins are then wrong and the driver
 * repeats the pass with a smaller scale from vmax). The bins returned are
 * the totals divided by bin_scale.
 *
 * Batches. A job holds K integrals of one integrand (pagani_integrate_batch;
 * K = 1 for pagani_integrate), all of the same sizes (cubes, pieces,
 * samples, bins), each with its own box, parameter block, grid, bins and
 * (Vegas+) per-cube counts. A pass samples a list of them, its members, at
 * once (one parallel loop, one launch); integral k draws exactly the
 * points it would draw alone, the integral's index never enters the random
 * stream.
 *
 * Vector integrands (ncomp > 1). Component 0 shapes everything the scalar
 * sums describe: value, variance, vmax, the bin contributions and the
 * Vegas+ sigmas are component 0's, so the grid adapts to component 0
 * (README: put the component that shapes the integrand first). `nonzero`
 * counts samples where some component is non-zero, and a fault is a NaN or
 * infinity in any component. Every component's sum_c mean_c and sum_c
 * var_c, component 0's included, go to the pass's components array.
 *
 * Every sum is made in an order fixed by the job alone (not by threads,
 * devices or the other integrals of a pass), so a pass is bit-reproducible
 * and an integral's sums in a batch are those it has alone.
 *
 * Parts (vegas_pass.part, parts; backends with vegas_ops.parts): the MPI
 * layer spreads a pass over its ranks, each sampling a part of the work
 * cut at the backend's own partial sums (the CPU's chunks, the GPU's
 * blocks), with the value and variance as exact sums of those and the
 * bins as integers, so that the ranks' parts add up to the bits of the
 * whole pass.
 */
#ifndef PAGANI_VEGAS_BACKEND_H
#define PAGANI_VEGAS_BACKEND_H

#include "internal.h"
#include "sampling/exact_sum.h"

/* Most samples one accumulator (GPU block, CPU thread) adds between merges,
 * and the bound on an integer contribution: 2^16 of them, each below 2^48,
 * fit 64 bits (and, as 16-bit digits, 32-bit counters: vegas_piece.h). */
#define VEGAS_BLOCK_SAMPLES (1LL << 16)
#define VEGAS_Q_LIMIT 281474976710656.0 /* 2^48 */

/* Everything that fixes the points and the sizes of one run. */
typedef struct vegas_job {
    struct pagani_integrand *integrand;
    int n;
    int bins;                    /* nb, importance bins per axis */
    int grid_axes;               /* rows of the grid: n, or 1 (m-Cubes1D) */
    int plus;                    /* Vegas+: per-cube sample counts */
    long long g;                 /* intervals per axis */
    long long cubes;             /* m = g^n */
    long long pieces;            /* uniform mode: pieces per cube */
    long long samples;           /* uniform mode: samples per piece (>= 2);
                                    Vegas+: the starting count per cube */
    long long max_per_cube;      /* Vegas+: cap on a cube's samples */
    unsigned long long seed;
    double beta;                 /* Vegas+: counts ~ sigma^beta */
    int integrals;               /* K >= 1 */
    const double *lower;         /* integral k's box: lower[k*n + i] and */
    const double *width;         /* width[k*n + i] (the driver owns both) */
    int ncomp;                   /* components of f, 1..64 */
} vegas_job;

/* One sampling pass over some integrals of the job. */
typedef struct vegas_pass {
    unsigned iteration;          /* the stream's iteration field */
    int accumulate;              /* add bin contributions */
    int stratify;                /* Vegas+: record sigma_c^beta per cube */
    long long stride;            /* 1: every piece; s > 1: pieces 0, s, 2s,
                                    ... only, counting pieces cube by cube
                                    (a cheap pilot; no bins, no sigmas) */
    int count;                   /* the members: how many, */
    const int *members;          /* which integrals (increasing), */
    const double *bin_scale;     /* and each one's integer contribution per
                                    unit of v^2 */
    const void *params;          /* integral k's parameter block is params
                                    + k * params_stride (0: all share one,
                                    of integrand->params_size bytes); NULL
                                    when the integrand has none. Given per
                                    pass: a single call's block may be
                                    replaced between passes (by the
                                    progress callback) */
    size_t params_stride;
    /* Spreading a pass over processes (the MPI layer), where the backend
     * can (vegas_ops.parts); all zero otherwise. */
    int part, parts;             /* sample only part `part` of `parts` of
                                    the work (parts <= 1: all), cut where
                                    the backend forms its partial sums */
    pagani_xsum *exact;          /* not NULL: member i's value and variance
                                    as exact sums in exact[2i], exact[2i +
                                    1] (the parts' merge to the whole's) */
    unsigned long long *totals;  /* not NULL, with accumulate: the members'
                                    bin totals as 128-bit integers (low and
                                    high word per cell, laid out as bins),
                                    in place of bins */
} vegas_pass;

/* What a pass returns for one member. */
typedef struct vegas_sums {
    double value;                /* sum_c mean_c */
    double variance;             /* sum_c var_c */
    long long evaluations;       /* integrand calls made */
    long long nonzero;           /* samples with f(x) != 0 */
    double vmax;                 /* largest v^2 */
    double term_max;             /* the largest term one sample adds to
                                    variance, (v - mean)^2 / (n (n - 1)
                                    pieces^2) with the mean and the n
                                    samples of its piece (the driver's
                                    heavy-tail check) */
    int overflow;                /* some v^2 * bin_scale >= VEGAS_Q_LIMIT */
    double beta_sum;             /* Vegas+ with stratify: sum_c sigma_c^beta */
    long long fault_cube;        /* first (cube, sample) where f was NaN or */
    long long fault_sample;      /* infinite, in (cube, sample) order; -1 if none */
    double fault_value;          /* what f returned there */
    int fault_component;         /* in which component (the first) */
} vegas_sums;

/* The operations. Per-integral host arrays (grids, bins) hold the
 * integrals one after the other: integral k's grid at k * grid_axes *
 * (nb + 1), its bins at k * grid_axes * nb. */
typedef struct vegas_ops {
    /* Makes the operation's state for a job: K grids (uniform), bin
     * totals, and for Vegas+ the per-cube arrays (counts start at
     * job->samples). backend_state is the backend's own (backend_ops.open).
     * PAGANI_ERR_NO_MEMORY, with the size, when they cannot be had. */
    int (*setup)(void *backend_state, const vegas_job *job, void **vegas_state);
    /* Replaces the grids of integrals first .. first + count - 1 with
     * those in grids (host, all K grids as above). */
    int (*set_grids)(void *vegas_state, int first, int count,
                     const double *grids);
    /* One pass over pass->members; sums[i] is member i's. With
     * pass->accumulate, bins (host, all K integrals' as above) receives the
     * members' bin contributions; otherwise bins may be NULL. A NaN or
     * infinite f is not an error here: it is reported in sums->fault_*.
     * components (NULL when ncomp is 1) receives member i's component c:
     * components[2 * (i * ncomp + c)] = sum_c mean_c and [... + 1] =
     * sum_c var_c, made as value and variance are. */
    int (*sample)(void *vegas_state, const vegas_pass *pass, vegas_sums *sums,
                  double *bins, double *components);
    /* Vegas+, for each of the `count` integrals members[i]: from the
     * sigma_c^beta of its last stratify pass, whose sum is beta_sums[i],
     * sets each cube's count to
     *   n_c = clamp(floor(target * sigma_c^beta / beta_sum), 2, max_per_cube)
     * (job->samples everywhere when beta_sum is 0) and scans them into
     * sample offsets; totals[i] is the sum of the counts. */
    int (*stratify)(void *vegas_state, const int *members, int count,
                    const double *beta_sums, long long target,
                    long long *totals);
    void (*release)(void *vegas_state);
    /* Whether sample takes a pass's part, parts, exact and totals. */
    int parts;
    /* Vegas+ checkpoints (NULL in a backend that has none: a Vegas+ run
     * there takes no state_path). The per-cube sample counts are all the
     * state Vegas+ keeps in the backend between iterations (each
     * stratify pass's sigma_c^beta is used up by the stratify after it).
     * counts_out copies cubes first .. first + count - 1 of integral k's
     * counts to the host array counts; counts_in sets them from it, and
     * when that slice ends at the last cube (first + count == cubes) the
     * integral's counts take effect: the next pass samples total =
     * sum_c n_c with their offsets (the CUDA backend scans them then).
     * The driver moves slices of at most VEGAS_COUNTS_SLICE cubes, in
     * order, so that a backend on a device needs no host copy of them
     * all (the checkpoint's payload holds them once). */
    int (*counts_out)(void *vegas_state, int k, long long first,
                      long long count, long long *counts);
    int (*counts_in)(void *vegas_state, int k, long long first,
                     long long count, const long long *counts);
} vegas_ops;

/* The most cubes one counts_out or counts_in call moves (8 MB). */
#define VEGAS_COUNTS_SLICE (1LL << 20)

/* A bin's value from its 128-bit integer total (low and high words) and
 * the pass's bin scale, as every backend forms it. */
static inline double pagani_vegas_bin_value(unsigned long long lo,
                                            unsigned long long hi,
                                            double scale)
{
    return ((double)hi * 18446744073709551616.0 + (double)lo) / scale;
}

extern const vegas_ops pagani_cpu_vegas_ops;
/* In gpu/vegas/cuda_vegas.c when built with CUDA. */
extern const vegas_ops pagani_cuda_vegas_ops;

#endif /* PAGANI_VEGAS_BACKEND_H */
