/*
 * bench_warm.c - what Vegas warm starts save on a scan (warm_scan.h):
 * POINTS nearby Gaussians in N dimensions at EPSREL, integrated one by
 * one cold (a uniform grid, 5 adjusting iterations) and warm (each from
 * the grid the point before left, 1 adjusting iteration), then as one
 * batch cold and with options.batch_warm_stride m for each m of
 * STRIDES (pilots cold, the others from their nearest pilot's grid), on
 * BACKEND. Prints one line per mode: points converged, within 2 and 4
 * reported sigma of the truth, the worst deviation, evaluations, rounds
 * (iterations run one after another: a GPU pays a round trip for each;
 * a batch's two waves run one after the other) and seconds (the calls'
 * own, pagani_result.seconds).
 *
 *   bench_warm [cpu|cuda [POINTS [N [EPSREL [CALLS [STRIDES]]]]]]
 *   (defaults: cpu 1000 4 1e-3 1e5 2,4,8,16,32,64)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pagani.h"
#include "warm_scan.h"

/* One line of the table: mode and what its scan s did. */
static void print_row(pagani_context *ctx, const char *mode, warm_scan s)
{
    if (s.rc != PAGANI_OK)
        fprintf(stderr, "bench_warm: %s: %s\n", pagani_strerror(s.rc),
                pagani_context_message(ctx));
    printf("%-10s %9d %9d %9d %7.2f %14lld %7d %10.3f\n", mode, s.converged,
           s.within2, s.within4, s.worst, s.evaluations, s.rounds, s.seconds);
}

int main(int argc, char **argv)
{
    const int cuda = argc > 1 && !strcmp(argv[1], "cuda");
    const int points = argc > 2 ? atoi(argv[2]) : 1000;
    const int n = argc > 3 ? atoi(argv[3]) : 4;
    const double epsrel = argc > 4 ? atof(argv[4]) : 1e-3;
    const double calls = argc > 5 ? atof(argv[5]) : 1e5;
    const char *strides = argc > 6 ? argv[6] : "2,4,8,16,32,64";
    pagani_context *ctx = NULL;
    pagani_integrand *f = NULL;
    pagani_options o = pagani_options_default(PAGANI_VEGAS);
    int rc;

    rc = pagani_context_create(&ctx, cuda ? PAGANI_BACKEND_CUDA
                                          : PAGANI_BACKEND_CPU);
    if (rc == PAGANI_OK) rc = pagani_integrand_create(ctx, &f, n, &batch_gaussian);
    if (rc != PAGANI_OK) {
        fprintf(stderr, "bench_warm: %s: %s\n", pagani_strerror(rc),
                pagani_context_message(ctx));
        pagani_context_destroy(ctx);
        return 1;
    }
    o.epsrel = epsrel;
    o.seed = 7;
    o.vegas_calls = calls;
    printf("# Vegas scan of %d Gaussians, %d-D, epsrel %g, %g calls, %s\n",
           points, n, epsrel, calls, cuda ? "cuda" : "cpu");
    printf("%-10s %9s %9s %9s %7s %14s %7s %10s\n", "mode", "converged",
           "within2", "within4", "worst", "evaluations", "rounds", "seconds");
    for (int warm = 0; warm < 2; warm++)
        print_row(ctx, warm ? "warm" : "cold",
                  warm_scan_run(ctx, f, n, points, warm, o));
    print_row(ctx, "batch cold", warm_scan_batch(ctx, f, n, points, 0, o, NULL));
    for (const char *next = strides; *next;) {
        char *end, mode[32];
        const int m = (int)strtol(next, &end, 10);

        if (end == next) break; /* not a number */
        next = *end == ',' ? end + 1 : end;
        snprintf(mode, sizeof mode, "batch m=%d", m);
        print_row(ctx, mode, warm_scan_batch(ctx, f, n, points, m, o, NULL));
    }
    pagani_integrand_destroy(f);
    pagani_context_destroy(ctx);
    return 0;
}
