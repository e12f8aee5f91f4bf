/*
 * op_profile.h - for the benchmarks (bench_cubature -p, bench_batch -p):
 * where a cubature run's time goes, by backend operation. profile_on
 * wraps the context's cubature operations with timers, profile_off puts
 * them back and prints a line. GPU work that a call only queues is
 * counted in the next call that waits for it (classify).
 */
#ifndef PAGANI_OP_PROFILE_H
#define PAGANI_OP_PROFILE_H

#include <stdio.h>
#include <string.h>
#include <time.h>
#include "internal.h"

static double prof_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static const cubature_ops *prof_real;
static const backend_ops *prof_saved;
static cubature_ops prof_ops;
static backend_ops prof_backend;
static struct { long long calls; double seconds; } prof[6];
static const char *const prof_names[6] = {"setup+load", "evaluate", "classify",
                                          "threshold_stats", "filter_split", "other"};

#define PROF(k, call)                                                       \
    do {                                                                    \
        double t0_ = prof_now();                                            \
        int rc_ = (call);                                                   \
        prof[k].calls++;                                                    \
        prof[k].seconds += prof_now() - t0_;                                \
        return rc_;                                                         \
    } while (0)
static int p_setup(void *s, const cubature_job *j) { PROF(0, prof_real->setup(s, j)); }
static int p_load(void *s, const double *l, const double *w, const long long *c)
{
    PROF(0, prof_real->load(s, l, w, c));
}
static int p_evaluate(void *s, const double *below, const double *relative,
                      const double *check_above)
{
    PROF(1, prof_real->evaluate(s, below, relative, check_above));
}
static int p_classify(void *s, const classify_request *q, cubature_sums *sums,
                      double *components)
{
    PROF(2, prof_real->classify(s, q, sums, components));
}
static int p_threshold(void *s, int n, const int *k, const double *t, threshold_stats *st)
{
    PROF(3, prof_real->threshold_stats(s, n, k, t, st));
}
static int p_split(void *s, const double *t, long long *nc, double *dropped)
{
    PROF(4, prof_real->filter_split(s, t, nc, dropped));
}
static int p_point(void *s, long long r, int q, double *x)
{
    PROF(5, prof_real->region_point(s, r, q, x));
}

static void profile_on(pagani_context *ctx)
{
    memset(prof, 0, sizeof prof);
    prof_real = ctx->backend->cubature;
    prof_ops = *prof_real;
    prof_ops.setup = p_setup;
    prof_ops.load = p_load;
    prof_ops.evaluate = p_evaluate;
    prof_ops.classify = p_classify;
    prof_ops.threshold_stats = p_threshold;
    prof_ops.filter_split = p_split;
    prof_ops.region_point = p_point;
    prof_saved = ctx->backend;
    prof_backend = *ctx->backend;
    prof_backend.cubature = &prof_ops;
    ctx->backend = &prof_backend;
}

static void profile_off(pagani_context *ctx, const char *row, double epsrel, double ms)
{
    ctx->backend = prof_saved;
    printf("  profile %s %.0e, %.2f ms:", row, epsrel, ms);
    for (int k = 0; k < 5; k++) {
        printf(" %s %lld x %.3f ms,", prof_names[k], prof[k].calls, 1e3 * prof[k].seconds);
        ms -= 1e3 * prof[k].seconds;
    }
    printf(" the rest (driver) %.3f ms\n", ms);
}

#endif /* PAGANI_OP_PROFILE_H */
