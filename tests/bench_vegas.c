/*
 * bench_vegas.c - PAGANI_VEGAS (m-Cubes) on the GPU, against the original
 * m-Cubes on an H100 (shared/reference/anchors.md):
 *
 *  1. throughput: 1e9 calls per iteration for 10 iterations, 5 of them
 *     adjusting the grid (f4 5D, f5 8D, f2 6D), and sin(sum x) 6D on
 *     (0,10)^6 with 2e9 calls and no adjustment;
 *  2. time to tolerance: epsrel 1e-3 and 1e-4 on f2 6D, f3 3D, f4 5D, f5 8D
 *     with 1e7 and 1e8 calls per iteration.
 *
 * Each row is the second of two identical runs (the first compiles and
 * warms up). Prints ms, calls/s, estimate, error, true relative error,
 * chi2/dof, iterations and status. Usage: bench_vegas [cpu] [ROW...]
 * (the CPU backend runs the same table with calls divided by 1000; ROWs,
 * integrand names such as f4 or sin, restrict the table to theirs).
 */
#include <stdio.h>
#include <string.h>
#include "pagani.h"
#include "suite.h"
#include "vegas_sinsum.h"

typedef struct bench_row {
    const char *name;
    const pagani_integrand_def *def;
    int which, n;
    double hi, calls, epsrel;
    int max_iterations, ita;
} bench_row;

static void run_row(pagani_context *ctx, const bench_row *b, double scale)
{
    double lo[PAGANI_MAX_DIM], hi[PAGANI_MAX_DIM];
    double truth = b->which ? suite_truth(b->which, b->n) : vegas_sinsum_truth(b->n);
    pagani_integrand *f;
    pagani_options o = pagani_options_default(PAGANI_VEGAS);
    pagani_result r;
    int rc;

    for (int i = 0; i < b->n; i++) {
        lo[i] = 0.0;
        hi[i] = b->hi;
    }
    if ((rc = pagani_integrand_create(ctx, &f, b->n, b->def)) != PAGANI_OK) {
        printf("%-10s integrand: %s: %s\n", b->name, pagani_strerror(rc),
               pagani_context_message(ctx));
        return;
    }
    o.epsrel = b->epsrel;
    o.epsabs = 0.0;
    o.vegas_calls = b->calls * scale;
    o.max_iterations = b->max_iterations;
    o.vegas_adjust_iterations = b->ita;
    o.seed = 1;
    for (int pass = 0; pass < 2; pass++)
        rc = pagani_integrate(ctx, f, lo, hi, &o, &r);
    if (rc != PAGANI_OK)
        printf("%-10s %s: %s\n", b->name, pagani_strerror(rc), pagani_context_message(ctx));
    else
        printf("%-10s %3d %8.0e %7.0e %10.2f %10.3e %22.15g %10.3e %10.3e %8.3f %4d %s\n",
               b->name, b->n, o.vegas_calls, b->epsrel, 1e3 * r.seconds,
               (double)r.evaluations / r.seconds, r.value, r.error,
               fabs(r.value - truth) / fabs(truth), r.chi2_dof, r.iterations,
               pagani_status_name(r.status));
    fflush(stdout);
    pagani_integrand_destroy(f);
}

int main(int argc, char **argv)
{
    static const bench_row rows[] = {
        /* throughput: 10 iterations, 5 adjusting, never converging */
        {"f4", &suite_f4, 4, 5, 1, 1e9, 1e-12, 10, 5},
        {"f5", &suite_f5, 5, 8, 1, 1e9, 1e-12, 10, 5},
        {"f2", &suite_f2, 2, 6, 1, 1e9, 1e-12, 10, 5},
        {"sin", &vegas_sinsum, 0, 6, 10, 2e9, 1e-12, 10, 0},
        /* time to tolerance */
        {"f2", &suite_f2, 2, 6, 1, 1e7, 1e-3, 0, 5},
        {"f2", &suite_f2, 2, 6, 1, 1e8, 1e-3, 0, 5},
        {"f2", &suite_f2, 2, 6, 1, 1e7, 1e-4, 0, 5},
        {"f2", &suite_f2, 2, 6, 1, 1e8, 1e-4, 0, 5},
        {"f3", &suite_f3, 3, 3, 1, 1e7, 1e-3, 0, 5},
        {"f3", &suite_f3, 3, 3, 1, 1e8, 1e-3, 0, 5},
        {"f3", &suite_f3, 3, 3, 1, 1e7, 1e-4, 0, 5},
        {"f3", &suite_f3, 3, 3, 1, 1e8, 1e-4, 0, 5},
        {"f4", &suite_f4, 4, 5, 1, 1e7, 1e-3, 0, 5},
        {"f4", &suite_f4, 4, 5, 1, 1e8, 1e-3, 0, 5},
        {"f4", &suite_f4, 4, 5, 1, 1e7, 1e-4, 0, 5},
        {"f4", &suite_f4, 4, 5, 1, 1e8, 1e-4, 0, 5},
        {"f5", &suite_f5, 5, 8, 1, 1e7, 1e-3, 0, 5},
        {"f5", &suite_f5, 5, 8, 1, 1e8, 1e-3, 0, 5},
        {"f5", &suite_f5, 5, 8, 1, 1e7, 1e-4, 0, 5},
        {"f5", &suite_f5, 5, 8, 1, 1e8, 1e-4, 0, 5},
    };
    int cpu = argc > 1 && strcmp(argv[1], "cpu") == 0;
    int first_row_arg = 1 + cpu;
    pagani_context *ctx;

    if (pagani_context_create(&ctx, cpu ? PAGANI_BACKEND_CPU : PAGANI_BACKEND_CUDA) !=
        PAGANI_OK) {
        printf("bench_vegas: no usable GPU (%s); run `bench_vegas cpu` for the CPU\n",
               pagani_context_message(ctx));
        pagani_context_destroy(ctx);
        return 0;
    }
    printf("PAGANI_VEGAS on %s%s\n", pagani_backend_name(pagani_context_backend(ctx)),
           cpu ? " (calls / 1000)" : "");
    printf("%-10s %3s %8s %7s %10s %10s %22s %10s %10s %8s %4s %s\n", "integrand", "n",
           "calls", "epsrel", "ms", "calls/s", "estimate", "error", "true err",
           "chi2/dof", "it", "status");
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        int want = argc == first_row_arg;
        for (int j = first_row_arg; j < argc; j++) want |= !strcmp(argv[j], rows[i].name);
        if (want) run_row(ctx, &rows[i], cpu ? 1e-3 : 1.0);
    }
    pagani_context_destroy(ctx);
    return 0;
}
