/*
 * code_runs.c - one libpagani run of a bench_problem (code_runs.h).
 */
#include <math.h>
#include <stdio.h>
#include <time.h>
#include "code_runs.h"

double bench_wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double bench_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void bench_run_pagani(pagani_context *ctx, pagani_integrand *f,
                      const bench_problem *pb, pagani_options o,
                      bench_run *out)
{
    pagani_result r;
    double cpu = bench_cpu_seconds();
    int rc;

    o.epsrel = pb->epsrel;
    o.epsabs = 0.0;
    o.max_evaluations = pb->cap;
    rc = pagani_integrate(ctx, f, pb->lower, pb->upper, &o, &r);
    out->cpu_seconds = bench_cpu_seconds() - cpu;
    out->failed = rc != PAGANI_OK;
    if (out->failed) {
        printf("  %s n=%d epsrel=%.0e: %s: %s\n", pagani_method_name(o.method),
               pb->n, pb->epsrel, pagani_strerror(rc), pagani_context_message(ctx));
        return;
    }
    out->value = r.value;
    out->error = r.error;
    out->true_rel = fabs(r.value - pb->truth) / fabs(pb->truth);
    out->seconds = r.seconds;
    out->evaluations = r.evaluations;
    out->converged = r.status == PAGANI_CONVERGED;
}
