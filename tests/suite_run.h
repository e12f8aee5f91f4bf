/*
 * suite_run.h - for the suite's benchmark programs (bench_cubature,
 * bench_latency): a wall clock, the comparison qsort takes for times,
 * and one cubature run of a suite row over the unit cube. Public API
 * only.
 */
#ifndef PAGANI_TEST_SUITE_RUN_H
#define PAGANI_TEST_SUITE_RUN_H

#include <time.h>
#include "pagani.h"

/* Seconds on a monotonic clock. */
static inline double suite_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Ascending doubles, for qsort. */
static inline int suite_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* f in n dimensions over the unit cube by cubature at epsrel (epsabs
 * 1e-40, as the suite's tables) with `flags` and `progress` (may be
 * NULL); *ms is the call's wall time. Returns the pagani code. */
static inline int suite_integrate(pagani_context *ctx, pagani_integrand *f, int n,
                                  double epsrel, unsigned flags,
                                  pagani_progress_fn progress, pagani_result *r, double *ms)
{
    double lo[PAGANI_MAX_DIM], hi[PAGANI_MAX_DIM], t0;
    pagani_options opt = pagani_options_default(PAGANI_CUBATURE);
    int rc;

    for (int d = 0; d < n; d++) {
        lo[d] = 0.0;
        hi[d] = 1.0;
    }
    opt.epsrel = epsrel;
    opt.epsabs = 1e-40;
    opt.flags = flags;
    opt.progress = progress;
    t0 = suite_now();
    rc = pagani_integrate(ctx, f, lo, hi, &opt, r);
    *ms = 1e3 * (suite_now() - t0);
    return rc;
}

#endif /* PAGANI_TEST_SUITE_RUN_H */
