/*
 * code_runs.h - one run of an integral by libpagani or by hcubature,
 * judged against its true value, for tests/bench_families (both of its
 * modes). hcubature (Steven G. Johnson's cubature, Debian's
 * libcubature-dev) is linked where configure found it
 * (tests/hcubature_run.c); elsewhere tests/hcubature_absent.c says so.
 */
#ifndef PAGANI_TESTS_CODE_RUNS_H
#define PAGANI_TESTS_CODE_RUNS_H

#include "pagani.h"

/* What the tables need of one run. */
typedef struct bench_run {
    double value, error;   /* estimate and reported absolute error */
    double true_rel;       /* |value - truth| / |truth| */
    double seconds;        /* wall time of the call */
    double cpu_seconds;    /* the process's CPU time in the call: on one
                              thread the run's own time, whatever else
                              loads the machine */
    long long evaluations; /* integrand evaluations */
    int converged;         /* the code said its tolerance was met */
    int failed;            /* an error code, not a result (message printed) */
} bench_run;

/* One integral: f (its host form) with parameter block params over
 * [lower, upper] (either may be infinite) in n dimensions, to epsrel with
 * epsabs 0, at most cap evaluations. */
typedef struct bench_problem {
    const pagani_integrand_def *def;
    const void *params;
    size_t params_size;
    int n;
    const double *lower, *upper;
    double truth, epsrel;
    long long cap;
} bench_problem;

/* Runs *pb through libpagani: the integrand f made from pb->def in ctx,
 * with the options o (method, flags, seed; epsrel, epsabs and the cap are
 * set from pb). An error code is printed with the context's message. */
void bench_run_pagani(pagani_context *ctx, pagani_integrand *f,
                      const bench_problem *pb, pagani_options o,
                      bench_run *out);

/* The time of a monotonic clock and the process's CPU time, seconds. */
double bench_wall_seconds(void);
double bench_cpu_seconds(void);

/* Whether hcubature was found by configure. */
int bench_hcubature_available(void);

/* Runs *pb through hcubature (degree-7 Genz-Malik rule; 15-point
 * Gauss-Kronrod in one dimension) with one integrand value per call.
 * An infinite bound is mapped by hand as cubature's README says: the
 * whole line by x = t/(1 - t^2), a half-line [a, inf) by x = a + t/(1 - t)
 * ((-inf, b] by x = b - t/(1 - t)), times the Jacobian. Converged: the
 * returned error within epsrel |value|; its evaluations may pass the cap
 * by the last iteration's. Without hcubature, out->failed is set. */
void bench_run_hcubature(const bench_problem *pb, bench_run *out);

#endif /* PAGANI_TESTS_CODE_RUNS_H */
