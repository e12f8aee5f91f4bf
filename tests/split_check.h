/*
 * split_check.h - for test_gpu_cubature (and any backend): FILTER_SPLIT
 * writes the children of exactly the regions it keeps, in their order.
 * The unit cube in n dimensions split into parts^n regions (parts even),
 * f = 1 where x_0 < 1/2 (the rule's relative error is round-off there:
 * finished) and exp(40 x_1) elsewhere (active): the kept regions are
 * those whose index i has i % parts >= parts / 2 (x_0 varies fastest):
 * the upper half of every row, so the scan of the kept flags is not the
 * identity. After one split the list must hold, at 2j and 2j + 1,
 * the two halves of the j-th kept region: equal to it on every axis but
 * one, along which they are its lower and upper half, to the bit.
 */
#ifndef PAGANI_TEST_SPLIT_CHECK_H
#define PAGANI_TEST_SPLIT_CHECK_H

#include <math.h>
#include <stdlib.h>
#include "internal.h"
#include "unit_grid.h"

PAGANI_INTEGRAND(split_check_f, { return x[0] < 0.5 ? 1.0 : exp(40.0 * x[1]); })

/* Whether children a and b (boxes of n axes, `m` entries apart in SoA
 * arrays) are the halves of the box (L, W). */
static int split_check_halves(int n, const double *lo, const double *w, long long a,
                              long long b, long long m, const double *L, const double *W)
{
    int axes = 0;
    for (int d = 0; d < n; d++) {
        const double la = lo[d * m + a], lb = lo[d * m + b];
        const double wa = w[d * m + a], wb = w[d * m + b];
        if (la == L[d] && lb == L[d] && wa == W[d] && wb == W[d]) continue;
        if (la != L[d] || lb != L[d] + W[d] / 2 || wa != W[d] / 2 || wb != W[d] / 2)
            return 0;
        axes++;
    }
    return axes == 1;
}

/*
 * One evaluate, classify (relative error 1e-6, no probes, no check) and
 * split keeping every active region, on parts^n regions; then the list
 * exported and compared with the kept regions' halves. Sets *active
 * (classify's count), *children (the split's) and *wrong (pairs that
 * are not the halves of the kept region of their rank); returns the
 * pagani code.
 */
static int split_check_run(pagani_context *ctx, int n, int parts, long long *active,
                           long long *children, long long *wrong)
{
    const cubature_ops *ops = ctx->backend->cubature;
    void *st = ctx->backend_state;
    pagani_integrand *f = NULL;
    pagani_rule *rule = NULL;
    cubature_job job;
    cubature_sums sums;
    const classify_request relerr = {1, 0, 1, 1e-6, 0.0, 0.0};
    const double below = -1.0, relative = 0.0, no_checks = INFINITY, keep_active = -1.0;
    long long count = 1, j = 0;
    double *lo, *w, *lo2, *w2, *parents, L[PAGANI_MAX_DIM], W[PAGANI_MAX_DIM];
    int rc;

    for (int d = 0; d < n; d++) count *= parts;
    *active = *children = *wrong = 0;
    lo = malloc((size_t)count * n * sizeof *lo);
    w = malloc((size_t)count * n * sizeof *w);
    lo2 = malloc((size_t)count * n * sizeof *lo2);
    w2 = malloc((size_t)count * n * sizeof *w2);
    parents = malloc((size_t)count * sizeof *parents);
    rc = pagani_integrand_create(ctx, &f, n, &split_check_f);
    if (rc == PAGANI_OK && pagani_rule_create(n, 7, &rule) != 0) rc = PAGANI_ERR_OPTION;
    if (!lo || !w || !lo2 || !w2 || !parents) rc = PAGANI_ERR_NO_MEMORY;
    if (rc == PAGANI_OK) unit_grid(n, parts, count, count, 0, lo, w);
    job = unit_job(f, rule, n, 2 * count);
    if (rc == PAGANI_OK) rc = ops->setup(st, &job);
    if (rc == PAGANI_OK) rc = ops->load(st, lo, w, &count);
    if (rc == PAGANI_OK) rc = ops->evaluate(st, &below, &relative, &no_checks);
    if (rc == PAGANI_OK) rc = ops->classify(st, &relerr, &sums, NULL);
    if (rc == PAGANI_OK) rc = ops->filter_split(st, &keep_active, children, NULL);
    if (rc == PAGANI_OK && *children > count) rc = PAGANI_ERR_NO_MEMORY;
    if (rc == PAGANI_OK) rc = ops->export_regions(st, 0, *children, lo2, w2, parents);
    if (rc == PAGANI_OK) *active = sums.active;
    for (long long i = 0; rc == PAGANI_OK && i < count; i++) {
        if (i % parts < parts / 2) continue; /* x_0 < 1/2: finished */
        for (int d = 0; d < n; d++) {
            L[d] = lo[d * count + i];
            W[d] = w[d * count + i];
        }
        if (2 * j + 1 >= *children ||
            !split_check_halves(n, lo2, w2, 2 * j, 2 * j + 1, *children, L, W))
            (*wrong)++;
        j++;
    }
    pagani_rule_destroy(rule);
    pagani_integrand_destroy(f);
    free(lo);
    free(w);
    free(lo2);
    free(w2);
    free(parents);
    return rc;
}

#endif /* PAGANI_TEST_SPLIT_CHECK_H */
