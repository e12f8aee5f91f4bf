/*
 * warm_scan.h - a scan of nearby parameter points for Vegas warm starts
 * (options vegas_grid_in, vegas_grid_out; test_vegas_warm.c and
 * bench_warm.c): batch_gaussian (batch_cases.h) over the unit cube in n
 * dimensions, its centre c and width w moving along a line, integrated
 * point by point either cold (a uniform grid, vegas_adjust_iterations as
 * the options say) or warm (every point after the first from the grid
 * the one before left, with 1 adjusting iteration), point k with seed
 * opt.seed + k (independent draws, so that the scan's deviations from
 * the truth say something of the errors' honesty), or as one batch
 * (one seed) cold or with options.batch_warm_stride, and judged against
 * the closed form: how many converged, how many within 2 and 4 reported
 * sigma of the truth, and the work.
 */
#ifndef PAGANI_TESTS_WARM_SCAN_H
#define PAGANI_TESTS_WARM_SCAN_H

#include <math.h>
#include <stdlib.h>
#include "pagani.h"
#include "batch_cases.h"

/* What a scan did. */
typedef struct warm_scan {
    int rc;                /* the first failure's code, or PAGANI_OK */
    int points, converged; /* points run, and converged */
    int within2, within4;  /* |value - truth| within 2 and 4 errors */
    double worst;          /* the largest |value - truth| / error */
    long long evaluations; /* all points' */
    double seconds;        /* all points' (pagani_result.seconds) */
    int rounds;            /* iterations one after another: every
                              point's one by one; a batch's most (cold),
                              or its pilots' most and then the others'
                              (the waves of batch_warm_stride) */
} warm_scan;

/* The tests' options (test_vegas_warm.c, test_vegas_batch_warm.c):
 * Vegas at epsrel 1e-3, seed 7, 1e4 calls per iteration, 100 bins. */
static inline pagani_options warm_scan_test_options(void)
{
    pagani_options o = pagani_options_default(PAGANI_VEGAS);
    o.epsrel = 1e-3;
    o.seed = 7;
    o.vegas_calls = 1e4;
    o.vegas_bins = 100;
    return o;
}

/* Point k of `count`: c from 0.45 to 0.55, w from 0.2 to 0.25. */
static inline void warm_scan_point(int k, int count, double *p)
{
    double t = count > 1 ? (double)k / (count - 1) : 0.0;
    p[0] = 0.45 + 0.1 * t;
    p[1] = 0.2 + 0.05 * t;
}

/* Counts result r of the point whose integral is `truth` into s. */
static inline void warm_scan_judge(warm_scan *s, const pagani_result *r,
                                   double truth)
{
    const double sigmas = fabs(r->value - truth) / r->error;

    s->points++;
    s->converged += r->status == PAGANI_CONVERGED;
    s->within2 += sigmas <= 2.0;
    s->within4 += sigmas <= 4.0;
    if (!(sigmas <= s->worst)) s->worst = sigmas;
    s->evaluations += r->evaluations;
}

/* Runs the scan of `count` points of f (made from batch_gaussian in n
 * dimensions) with options opt, warm or cold. */
static inline warm_scan warm_scan_run(pagani_context *ctx, pagani_integrand *f,
                                      int n, int count, int warm,
                                      pagani_options opt)
{
    double lower[PAGANI_MAX_DIM], upper[PAGANI_MAX_DIM];
    pagani_vegas_grid *grid = NULL;
    warm_scan s = {0};

    batch_unit_cube(lower, upper, n);
    if (warm && (s.rc = pagani_vegas_grid_create(&grid)) != PAGANI_OK)
        return s;
    const unsigned long long seed = opt.seed;

    opt.vegas_grid_out = grid;
    for (int k = 0; k < count && s.rc == PAGANI_OK; k++) {
        double p[BATCH_PARAMS];
        pagani_result r;

        warm_scan_point(k, count, p);
        if (warm && k == 1) {
            opt.vegas_grid_in = grid;
            opt.vegas_adjust_iterations = 1;
        }
        opt.seed = seed + (unsigned long long)k;
        s.rc = pagani_integrand_set_params(f, p, sizeof p);
        if (s.rc == PAGANI_OK)
            s.rc = pagani_integrate(ctx, f, lower, upper, &opt, &r);
        if (s.rc != PAGANI_OK) break;
        warm_scan_judge(&s, &r, batch_gaussian_truth(p, n, lower, upper));
        s.seconds += r.seconds;
        s.rounds += r.iterations;
    }
    pagani_vegas_grid_destroy(grid);
    return s;
}

/* The scan of `count` points as one batch (pagani_integrate_batch, every
 * point with opt.seed) with options.batch_warm_stride `stride` (0: cold);
 * results, when not NULL, gets the count results. */
static inline warm_scan warm_scan_batch(pagani_context *ctx,
                                        pagani_integrand *f, int n, int count,
                                        int stride, pagani_options opt,
                                        pagani_result *results)
{
    double lower[PAGANI_MAX_DIM], upper[PAGANI_MAX_DIM];
    double *p = malloc(sizeof(double) * BATCH_PARAMS * (size_t)count);
    pagani_result *r = results ? results : malloc(sizeof *r * (size_t)count);
    warm_scan s = {0};
    int most[2] = {0, 0}; /* iterations: the pilots' (or all), the rest's */

    batch_unit_cube(lower, upper, n);
    if (!p || !r) s.rc = PAGANI_ERR_NO_MEMORY;
    for (int k = 0; k < count && s.rc == PAGANI_OK; k++)
        warm_scan_point(k, count, p + (size_t)k * BATCH_PARAMS);
    opt.batch_warm_stride = stride;
    if (s.rc == PAGANI_OK)
        s.rc = pagani_integrate_batch(ctx, f, count, p, BATCH_BLOCK, lower,
                                      upper, 0, &opt, r);
    for (int k = 0; k < count && s.rc == PAGANI_OK; k++) {
        const int wave = stride > 0 && k % stride != 0;
        warm_scan_judge(&s, &r[k],
                        batch_gaussian_truth(p + (size_t)k * BATCH_PARAMS, n,
                                             lower, upper));
        if (r[k].iterations > most[wave]) most[wave] = r[k].iterations;
    }
    s.rounds = most[0] + most[1];
    if (s.rc == PAGANI_OK) s.seconds = r[0].seconds;
    free(p);
    if (!results) free(r);
    return s;
}

#endif /* PAGANI_TESTS_WARM_SCAN_H */
