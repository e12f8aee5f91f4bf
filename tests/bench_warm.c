/*
 * bench_warm.c - what Vegas warm starts save on a scan (warm_scan.h):
 * POINTS nearby Gaussians in N dimensions at EPSREL, integrated one by
 * one cold (a uniform grid, 5 adjusting iterations) and warm (each from
 * the grid the point before left, 1 adjusting iteration), on BACKEND.
 * Prints one line per mode: points converged, within 2 and 4 reported
 * sigma of the truth, the worst deviation, evaluations and seconds (the
 * calls' own, pagani_result.seconds).
 *
 *   bench_warm [cpu|cuda [POINTS [N [EPSREL [CALLS]]]]]
 *   (defaults: cpu 1000 4 1e-3 1e5)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pagani.h"
#include "warm_scan.h"

int main(int argc, char **argv)
{
    const int cuda = argc > 1 && !strcmp(argv[1], "cuda");
    const int points = argc > 2 ? atoi(argv[2]) : 1000;
    const int n = argc > 3 ? atoi(argv[3]) : 4;
    const double epsrel = argc > 4 ? atof(argv[4]) : 1e-3;
    const double calls = argc > 5 ? atof(argv[5]) : 1e5;
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
    printf("%-5s %9s %9s %9s %7s %14s %10s\n", "mode", "converged",
           "within2", "within4", "worst", "evaluations", "seconds");
    for (int warm = 0; warm < 2; warm++) {
        warm_scan s = warm_scan_run(ctx, f, n, points, warm, o);
        if (s.rc != PAGANI_OK)
            fprintf(stderr, "bench_warm: %s: %s\n", pagani_strerror(s.rc),
                    pagani_context_message(ctx));
        printf("%-5s %9d %9d %9d %7.2f %14lld %10.3f\n", warm ? "warm" : "cold",
               s.converged, s.within2, s.within4, s.worst, s.evaluations,
               s.seconds);
    }
    pagani_integrand_destroy(f);
    pagani_context_destroy(ctx);
    return 0;
}
