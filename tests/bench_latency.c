/*
 * bench_latency.c - the time per iteration of cubature on small rows of
 * the anchors.md suite, where an iteration's launches and waits, not its
 * work, set the time (issue 35): each row at one tolerance, the median
 * and the least of RUNS runs in one context after a warm-up, its
 * iterations and the median over them in microseconds. The estimate and
 * error are printed in hexadecimal, so that two builds' runs can be
 * compared bit for bit.
 *
 *   bench_latency [-b cuda|cpu] [-e EPSREL] [-r RUNS] [ROW...]
 *
 * Defaults: cuda, 1e-3, 21 runs, the rows f4_5 f2_6 f7_8. It uses the
 * public API only, so the same file builds against an older library to
 * compare the two in one session. Not a test: it prints a table for the
 * GPU machine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "suite.h"
#include "suite_run.h"

#define MAX_RUNS 201

static void bench_row(pagani_context *ctx, const suite_row *row, double epsrel, int runs)
{
    pagani_integrand *f = NULL;
    pagani_result r;
    double ms[MAX_RUNS];
    int rc = pagani_integrand_create(ctx, &f, row->n, suite_integrand(row->which));

    if (rc == PAGANI_OK) /* warm-up */
        rc = suite_integrate(ctx, f, row->n, epsrel, row->flags, NULL, &r, &ms[0]);
    for (int i = 0; rc == PAGANI_OK && i < runs; i++)
        rc = suite_integrate(ctx, f, row->n, epsrel, row->flags, NULL, &r, &ms[i]);
    if (rc != PAGANI_OK) {
        printf("%-5s %6.0e  error: %s: %s\n", row->name, epsrel, pagani_strerror(rc),
               pagani_context_message(ctx));
    } else {
        qsort(ms, (size_t)runs, sizeof ms[0], suite_cmp_double);
        printf("%-5s %6.0e %10.3f %10.3f %4d %9.1f %11lld %-24a %-24a %s\n", row->name,
               epsrel, ms[runs / 2], ms[0], r.iterations, 1e3 * ms[runs / 2] / r.iterations,
               r.regions, r.value, r.error, pagani_status_name(r.status));
    }
    fflush(stdout);
    pagani_integrand_destroy(f);
}

int main(int argc, char **argv)
{
    static const char *const default_rows[] = {"f4_5", "f2_6", "f7_8"};
    const char *only[32];
    pagani_backend backend = PAGANI_BACKEND_CUDA;
    pagani_context *ctx = NULL;
    double epsrel = 1e-3;
    int runs = 21, nrows = 0, count, rc;
    const suite_row *rows = suite_rows(&count);

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-b") && i + 1 < argc)
            backend = strcmp(argv[++i], "cpu") ? PAGANI_BACKEND_CUDA : PAGANI_BACKEND_CPU;
        else if (!strcmp(argv[i], "-e") && i + 1 < argc) epsrel = atof(argv[++i]);
        else if (!strcmp(argv[i], "-r") && i + 1 < argc) runs = atoi(argv[++i]);
        else if (nrows < 32) only[nrows++] = argv[i];
    }
    if (runs < 1 || runs > MAX_RUNS) runs = 21;
    rc = pagani_context_create(&ctx, backend);
    if (rc != PAGANI_OK) {
        printf("no usable %s backend: %s\n", backend == PAGANI_BACKEND_CPU ? "CPU" : "CUDA",
               pagani_context_message(ctx));
        pagani_context_destroy(ctx);
        return 1;
    }
    printf("%-5s %6s %10s %10s %4s %9s %11s %-24s %-24s %s\n", "row", "epsrel", "median_ms",
           "least_ms", "it", "us_per_it", "regions", "estimate", "error", "status");
    for (int i = 0; i < count; i++) {
        int want = 0;
        for (int j = 0; j < (nrows ? nrows : 3); j++)
            want |= !strcmp(nrows ? only[j] : default_rows[j], rows[i].name);
        if (want) bench_row(ctx, &rows[i], epsrel, runs);
    }
    pagani_context_destroy(ctx);
    return 0;
}
