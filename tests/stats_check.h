/*
 * stats_check.h - for test_gpu_cubature (and any backend): threshold
 * statistics in the iteration after one that asked for them (the CUDA
 * backend then makes its sorted copy in classify's wait) describe the
 * regions the split then finishes. Two rounds of evaluate, classify,
 * statistics at the mean active error t and a split at t, on exp(2 sum
 * x) in 5D over parts^5 regions (errors of a few sizes: t finishes
 * from half to three quarters; degree-7 rule, no probes, no check).
 * After the second split the exported list's parents are the V of the
 * regions it kept: their sum must be classify's active V less the
 * statistics' V (round-off apart), and their number active less the
 * statistics' count.
 */
#ifndef PAGANI_TEST_STATS_CHECK_H
#define PAGANI_TEST_STATS_CHECK_H

#include <math.h>
#include <stdlib.h>
#include "internal.h"
#include "unit_grid.h"

PAGANI_INTEGRAND(stats_check_f, {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += x[i];
    return exp(2.0 * s);
})

/* What the second round gave: classify's sums, the statistics, the
 * regions the split made and the sum of their parents' V. */
typedef struct stats_round {
    cubature_sums sums;
    threshold_stats below;
    long long children;
    double kept_value;
} stats_round;

/* One round on the list as it stands; `has_parents`: the list holds
 * split regions' children. */
static int stats_check_round(const cubature_ops *ops, void *st, int has_parents,
                             stats_round *out)
{
    const double below = -1.0, relative = 0.0, no_checks = INFINITY;
    const classify_request relerr = {1, has_parents, 1, 1e-12, 0.0, 0.0};
    double t;
    int rc = ops->evaluate(st, &below, &relative, &no_checks);

    if (rc == PAGANI_OK) rc = ops->classify(st, &relerr, &out->sums, NULL);
    if (rc != PAGANI_OK) return rc;
    if (out->sums.active < 2) return PAGANI_ERR_OPTION; /* nothing to test */
    t = out->sums.active_error / (double)out->sums.active;
    rc = ops->threshold_stats(st, 1, &(const int){0}, &t, &out->below);
    if (rc == PAGANI_OK) rc = ops->filter_split(st, &t, &out->children, NULL);
    return rc;
}

/* The two rounds on parts^5 regions; *second is the second round's. */
static int stats_check_run(pagani_context *ctx, int parts, stats_round *second)
{
    const int n = 5;
    const cubature_ops *ops = ctx->backend->cubature;
    void *st = ctx->backend_state;
    pagani_integrand *f = NULL;
    pagani_rule *rule = NULL;
    cubature_job job;
    stats_round first;
    long long count = 1;
    double *lo, *w, *parents;
    int rc;

    for (int d = 0; d < n; d++) count *= parts;
    lo = malloc(4 * (size_t)count * n * sizeof *lo);
    w = malloc(4 * (size_t)count * n * sizeof *w);
    parents = malloc(2 * (size_t)count * sizeof *parents);
    rc = pagani_integrand_create(ctx, &f, n, &stats_check_f);
    if (rc == PAGANI_OK && pagani_rule_create(n, 7, &rule) != 0) rc = PAGANI_ERR_OPTION;
    if (!lo || !w || !parents) rc = PAGANI_ERR_NO_MEMORY;
    if (rc == PAGANI_OK) unit_grid(n, parts, count, count, 0, lo, w);
    job = unit_job(f, rule, n, 8 * count);
    if (rc == PAGANI_OK) rc = ops->setup(st, &job);
    if (rc == PAGANI_OK) rc = ops->load(st, lo, w, &count);
    if (rc == PAGANI_OK) rc = stats_check_round(ops, st, 0, &first);
    if (rc == PAGANI_OK) rc = stats_check_round(ops, st, 1, second);
    if (rc == PAGANI_OK && second->children > 4 * count) rc = PAGANI_ERR_NO_MEMORY;
    if (rc == PAGANI_OK) rc = ops->export_regions(st, 0, second->children, lo, w, parents);
    second->kept_value = 0.0;
    for (long long j = 0; rc == PAGANI_OK && j < second->children / 2; j++)
        second->kept_value += parents[j];
    pagani_rule_destroy(rule);
    pagani_integrand_destroy(f);
    free(lo);
    free(w);
    free(parents);
    return rc;
}

#endif /* PAGANI_TEST_STATS_CHECK_H */
