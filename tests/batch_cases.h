/*
 * batch_cases.h - the integrand of the batch tests (test_batch.c) and of
 * the batch benchmark (bench_batch.c): a Gaussian bump
 *
 *   f(x) = exp(-sum_i ((x_i - c) / w)^2),   c = p[0], w = p[1],
 *
 * in any dimension, its value over any box in closed form (a product of
 * differences of erf), parameter blocks drawn from a seed (c in 0.3..0.7,
 * w in a range: 0.05..0.3 in issue 13's measurements) and the loop users
 * write without a batch, which the batch is compared with.
 */
#ifndef PAGANI_TESTS_BATCH_CASES_H
#define PAGANI_TESTS_BATCH_CASES_H

#include <math.h>
#include "pagani.h"
#include "genz.h" /* genz_uniform: uniforms from a seed */

/* Doubles in one parameter block (centre, width), and its bytes. */
#define BATCH_PARAMS 2
#define BATCH_BLOCK (sizeof(double) * BATCH_PARAMS)

PAGANI_INTEGRAND(batch_gaussian, {
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        double t = (x[i] - p[0]) / p[1];
        s += t * t;
    }
    return exp(-s);
})

/* The integral of exp(-((t - c) / w)^2) over [a, b]: sqrt(pi) / 2 * w
 * times a difference of erf, taken as a difference of erfc where both
 * ends lie on one side of c, so that a tail keeps its relative accuracy. */
static inline double batch_gaussian_axis(double a, double b, double c, double w)
{
    double lo = (a - c) / w, hi = (b - c) / w, d;

    if (lo >= 0.0)
        d = erfc(lo) - erfc(hi);
    else if (hi <= 0.0)
        d = erfc(-hi) - erfc(-lo);
    else
        d = erf(hi) - erf(lo);
    return 0.5 * sqrt(GENZ_PI) * w * d;
}

/* The integral of batch_gaussian with block p over the box [lower, upper]
 * of dimension n. */
static inline double batch_gaussian_truth(const double *p, int n,
                                          const double *lower,
                                          const double *upper)
{
    double v = 1.0;
    for (int i = 0; i < n; i++)
        v *= batch_gaussian_axis(lower[i], upper[i], p[0], p[1]);
    return v;
}

/* The unit cube in n dimensions. */
static inline void batch_unit_cube(double *lower, double *upper, int n)
{
    for (int i = 0; i < n; i++) {
        lower[i] = 0.0;
        upper[i] = 1.0;
    }
}

/* The range of widths issue 13 measures with. */
#define BATCH_WIDTH_MIN 0.05
#define BATCH_WIDTH_MAX 0.3

/* Fills params with count blocks (c, w) from seed: c uniform in 0.3..0.7,
 * w uniform in w_min..w_max. */
static inline void batch_gaussian_draw(double *params, int count, uint64_t seed,
                                       double w_min, double w_max)
{
    uint64_t state = seed;
    for (int k = 0; k < count; k++) {
        params[BATCH_PARAMS * k] = 0.3 + 0.4 * genz_uniform(&state);
        params[BATCH_PARAMS * k + 1] =
            w_min + (w_max - w_min) * genz_uniform(&state);
    }
}

/* The loop a batch replaces: integral k of the batch's arguments as one
 * pagani_integrate call after pagani_integrand_set_params (params_size 0:
 * the integrand's own block for all). Every integral runs; returns
 * PAGANI_OK, or the first failure's code. */
static inline int batch_loop(pagani_context *ctx, pagani_integrand *f,
                             int count, const void *params, size_t params_size,
                             const double *lower, const double *upper,
                             size_t box_stride, const pagani_options *opt,
                             pagani_result *results)
{
    int first = PAGANI_OK;
    for (int k = 0; k < count; k++) {
        int rc = PAGANI_OK;
        if (params_size > 0)
            rc = pagani_integrand_set_params(
                f, (const char *)params + k * params_size, params_size);
        if (rc == PAGANI_OK)
            rc = pagani_integrate(ctx, f, lower + k * box_stride,
                                  upper + k * box_stride, opt, &results[k]);
        if (first == PAGANI_OK) first = rc;
    }
    return first;
}

#endif
