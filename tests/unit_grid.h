/*
 * unit_grid.h - for the tests and benchmarks that drive backend.h's
 * cubature operations themselves: the unit cube split into equal
 * regions, and the job of a scalar integrand on one list of them.
 */
#ifndef PAGANI_TEST_UNIT_GRID_H
#define PAGANI_TEST_UNIT_GRID_H

#include "internal.h"

/* The unit cube in n dimensions split into parts^n = count regions,
 * x_0 varying fastest, into SoA arrays of `stride` entries an axis from
 * entry `first` on, as load takes them. */
static inline void unit_grid(int n, int parts, long long count, long long stride,
                             long long first, double *lo, double *w)
{
    for (long long i = 0; i < count; i++) {
        long long rest = i;
        for (int d = 0; d < n; d++) {
            w[(size_t)d * stride + first + i] = 1.0 / parts;
            lo[(size_t)d * stride + first + i] = (double)(rest % parts) / parts;
            rest /= parts;
        }
    }
}

/* The job of one scalar integral of f by `rule` in n dimensions, no
 * parameters, no probes, `capacity` regions. */
static inline cubature_job unit_job(pagani_integrand *f, const pagani_rule *rule, int n,
                                    long long capacity)
{
    cubature_job job = {0};
    job.integrand = f;
    job.rule = rule;
    job.n = n;
    job.ncomp = 1;
    job.capacity = capacity;
    job.integrals = 1;
    return job;
}

#endif /* PAGANI_TEST_UNIT_GRID_H */
