/*
 * bench_warm_cubature.c - what cubature warm starts would save on a scan
 * (issue 34), measured before any API for them: the scan of bench_warm
 * (warm_scan_point: POINTS Gaussians in N dimensions, centre 0.45 to
 * 0.55, width 0.2 to 0.25) at EPSREL, integrated point by point cold
 * (the uniform split) and warm (from the final partition of the point
 * before, coarsened 1, 2 or 3 splits: warm_partition.h wraps the
 * backend's operations, the library is as it is). Each point runs in
 * every mode in turn, so that the machine's load falls on all alike.
 * Prints per mode: points converged, within their reported error of the
 * truth, the worst |value - truth| / error, the evaluations and seconds
 * of all points (the calls' own seconds, less the wrappers'), and per
 * point the iterations and the regions a warm run loaded.
 *
 *   bench_warm_cubature [cpu|cuda [POINTS [N [EPSREL [STRATEGY]]]]]
 *   (defaults: cpu 1000 5 1e-3 0; STRATEGY: pagani_strategy, 0 auto,
 *   1 breadth-first, the GPU's)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pagani.h"
#include "warm_scan.h"
#include "warm_partition.h"
#include "rules/rules.h"

/* What one mode's scan did. */
typedef struct warm_row {
    int converged, honest;
    double worst, seconds, iterations, loaded;
    long long evaluations;
} warm_row;

/* Whether the boxes' volumes add up to the unit cube's (dyadic boxes:
 * exactly, up to the sum's rounding), as a partition's must. */
static int tiles_unit_cube(const warm_boxes *b)
{
    double sum = 0.0;
    for (long long i = 0; i < b->count; i++) sum += warm_volume(warm_box(b, i), b->n);
    return fabs(sum - 1.0) <= 1e-12;
}

#define MODES 4
/* Cold, then warm from partitions coarsened 1, 2 and 3 splits. */
static const int mode_up[MODES] = {-1, 1, 2, 3};

/* Point k of the scan in mode m: its run, into row; the partition the
 * next point of a warm mode starts from. points_per_region: f's calls
 * the driver counts per region of its first list. */
static int run_point(pagani_context *ctx, pagani_integrand *f, int n, int k,
                     int points, int m, const pagani_options *o,
                     long long points_per_region, warm_boxes *partition,
                     int *warm, warm_row *row)
{
    double lower[PAGANI_MAX_DIM], upper[PAGANI_MAX_DIM];
    double p[BATCH_PARAMS], truth, deviation;
    pagani_result r;
    int rc;

    batch_unit_cube(lower, upper, n);
    warm_scan_point(k, points, p);
    truth = batch_gaussian_truth(p, n, lower, upper);
    warm_start = *warm ? partition : NULL;
    warm_overhead = 0.0;
    rc = pagani_integrand_set_params(f, p, sizeof p);
    if (rc == PAGANI_OK) rc = pagani_integrate(ctx, f, lower, upper, o, &r);
    if (rc != PAGANI_OK) return rc;
    if (warm_start) {
        r.evaluations += (warm_start->count - warm_uniform) * points_per_region;
        row->loaded += (double)warm_start->count / points;
    }
    deviation = fabs(r.value - truth) / r.error;
    row->converged += r.status == PAGANI_CONVERGED;
    row->honest += deviation <= 1.0;
    if (!(deviation <= row->worst)) row->worst = deviation;
    row->evaluations += r.evaluations;
    row->iterations += (double)r.iterations / points;
    row->seconds += r.seconds - warm_overhead;
    /* a run that did not converge left its last list undropped */
    *warm = mode_up[m] >= 0 && r.status == PAGANI_CONVERGED;
    if (!*warm) return PAGANI_OK;
    rc = warm_partition(mode_up[m], lower, partition);
    if (rc == PAGANI_OK && !tiles_unit_cube(partition)) {
        fprintf(stderr, "bench_warm_cubature: point %d: the partition does "
                "not tile the cube\n", k);
        rc = PAGANI_ERR_SYSTEM;
    }
    return rc;
}

int main(int argc, char **argv)
{
    const int cuda = argc > 1 && !strcmp(argv[1], "cuda");
    const int points = argc > 2 ? atoi(argv[2]) : 1000;
    const int n = argc > 3 ? atoi(argv[3]) : 5;
    const double epsrel = argc > 4 ? atof(argv[4]) : 1e-3;
    const int strategy = argc > 5 ? atoi(argv[5]) : 0;
    pagani_context *ctx = NULL;
    pagani_integrand *f = NULL;
    pagani_options o = pagani_options_default(PAGANI_CUBATURE);
    pagani_rule *rule = NULL;
    warm_boxes partitions[MODES] = {{0}};
    warm_row rows[MODES] = {{0}};
    int warm[MODES] = {0};
    long long per_region;
    int rc;

    o.epsrel = epsrel;
    o.strategy = (pagani_strategy)strategy;
    rc = pagani_context_create(&ctx, cuda ? PAGANI_BACKEND_CUDA : PAGANI_BACKEND_CPU);
    if (rc == PAGANI_OK) rc = pagani_integrand_create(ctx, &f, n, &batch_gaussian);
    if (rc == PAGANI_OK && pagani_rule_create(n, o.rule_degree, &rule) != 0)
        rc = PAGANI_ERR_OPTION;
    if (rc != PAGANI_OK) {
        fprintf(stderr, "bench_warm_cubature: %s: %s\n", pagani_strerror(rc),
                pagani_context_message(ctx));
        pagani_context_destroy(ctx);
        return 1;
    }
    per_region = rule->npoints + rule->nprobes;
    pagani_rule_destroy(rule);
    warm_on(ctx, n);
    printf("# cubature scan of %d Gaussians, %d-D, epsrel %g, strategy %d, %s\n",
           points, n, epsrel, strategy, cuda ? "cuda" : "cpu");
    printf("%-7s %9s %7s %7s %14s %10s %10s %8s\n", "mode", "converged", "honest",
           "worst", "evaluations", "iter/pt", "seconds", "loaded");
    for (int k = 0; k < points && rc == PAGANI_OK; k++)
        for (int m = 0; m < MODES && rc == PAGANI_OK; m++)
            rc = run_point(ctx, f, n, k, points, m, &o, per_region, &partitions[m],
                           &warm[m], &rows[m]);
    if (rc != PAGANI_OK)
        fprintf(stderr, "bench_warm_cubature: %s: %s\n", pagani_strerror(rc),
                pagani_context_message(ctx));
    for (int m = 0; m < MODES; m++) {
        char name[16];
        if (mode_up[m] < 0)
            snprintf(name, sizeof name, "cold");
        else
            snprintf(name, sizeof name, "warm-%d", mode_up[m]);
        printf("%-7s %9d %7d %7.3f %14lld %10.2f %10.3f %8.0f\n", name,
               rows[m].converged, rows[m].honest, rows[m].worst, rows[m].evaluations,
               rows[m].iterations, rows[m].seconds, rows[m].loaded);
        warm_boxes_free(&partitions[m]);
    }
    warm_off(ctx);
    pagani_integrand_destroy(f);
    pagani_context_destroy(ctx);
    return 0;
}
