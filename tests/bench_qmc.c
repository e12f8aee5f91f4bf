/*
 * bench_qmc.c - PAGANI_QMC against PAGANI_VEGAS: time to epsrel 1e-4 and
 * 1e-6 (epsabs for the integral whose value is 0) and points per second on
 * the Hofbauer-Uhl-Zinterhof integrands, two Genz integrands and f1 (8D)
 * of m-Cubes. Prints one table row per run.
 *
 *   bench_qmc [auto|cpu|cuda] [seconds per run, default 3]
 *
 * A run stops at the time limit (through the progress callback: status
 * "stopped (progress callback or stop request)") or at 2^36 evaluations.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "qmc_suite.h"
#include "suite.h"
#include "internal.h"

static double time_limit = 3.0;
static double started;

static int stop_at_limit(int it, long long active, double est, double err, void *d)
{
    (void)it; (void)active; (void)est; (void)err; (void)d;
    return pagani_now() - started > time_limit;
}

typedef struct bench_case {
    const char *name;
    const pagani_integrand_def *def;
    int n;
    double exact;
    int absolute;   /* tolerance as epsabs (exact value 0) */
} bench_case;

static void run(pagani_context *ctx, const bench_case *c, double tol,
                pagani_method method, int transform)
{
    double lower[PAGANI_MAX_DIM], upper[PAGANI_MAX_DIM];
    pagani_options opt = pagani_options_default(method);
    pagani_integrand *f = NULL;
    pagani_result r;
    char label[32];
    int rc;

    for (int i = 0; i < c->n; i++) {
        lower[i] = 0.0;
        upper[i] = 1.0;
    }
    opt.epsrel = c->absolute ? 0.0 : tol;
    opt.epsabs = c->absolute ? tol : 0.0;
    opt.qmc_transform = transform;
    opt.max_evaluations = 1LL << 36;
    opt.progress = stop_at_limit;
    if (method == PAGANI_VEGAS) {
        opt.flags |= PAGANI_FLAG_NO_RELERR_FILTER;
        opt.max_iterations = 1000;
    }
    snprintf(label, sizeof label, "%s%s", pagani_method_name(method),
             method == PAGANI_QMC ? (transform == 1 ? "/tent" : transform == 2
                                     ? "/korobov" : "/none") : "");
    rc = pagani_integrand_create(ctx, &f, c->n, c->def);
    if (rc == PAGANI_OK) {
        pagani_options warm = opt;   /* a short run first: compiles */
        warm.max_iterations = 1;
        warm.max_evaluations = 1 << 16;
        warm.vegas_calls = 1 << 14;
        pagani_integrate(ctx, f, lower, upper, &warm, &r);
        started = pagani_now();
        rc = pagani_integrate(ctx, f, lower, upper, &opt, &r);
    }
    if (rc != PAGANI_OK)
        printf("%-24s %2d %7.0e %-12s %-4s  %s: %s\n", c->name, c->n, tol, label,
               pagani_backend_name(pagani_context_backend(ctx)), pagani_strerror(rc),
               pagani_context_message(ctx));
    else
        printf("%-24s %2d %7.0e %-12s %-4s %8.3f %22.15g %9.2e %9.2e %-32s %12lld %9.3g\n",
               c->name, c->n, tol, label, pagani_backend_name(r.backend), r.seconds,
               r.value, r.error, fabs(r.value - c->exact), pagani_status_name(r.status),
               r.evaluations, r.evaluations / r.seconds);
    fflush(stdout);
    pagani_integrand_destroy(f);
}

int main(int argc, char **argv)
{
    pagani_backend backend = PAGANI_BACKEND_AUTO;
    pagani_context *ctx = NULL;
    const bench_case cases[] = {
        {"prod x^-1/2", &qmc_inv_sqrt, 10, 1024.0, 0},
        {"sqrt(45/4s)(sum x^2-s/3)", &qmc_sum_sq, 10, 0.0, 1},
        {"prod(x^3+3/4)", &qmc_cubic, 10, 1.0, 0},
        {"Genz oscillatory", &qmc_genz_osc, 10, qmc_genz_osc_exact(10, 0.0, 1.0), 0},
        {"Genz product peak", &qmc_genz_peak, 10, qmc_genz_peak_exact(10), 0},
        {"f1 cos(sum i x_i)", &suite_f1, 8, 3.439557952183252e-05, 0},
    };
    const double tols[2] = {1e-4, 1e-6};

    if (argc > 1 && !strcmp(argv[1], "cpu")) backend = PAGANI_BACKEND_CPU;
    if (argc > 1 && !strcmp(argv[1], "cuda")) backend = PAGANI_BACKEND_CUDA;
    if (argc > 2) time_limit = atof(argv[2]);
    if (pagani_context_create(&ctx, backend) != PAGANI_OK) {
        fprintf(stderr, "bench_qmc: %s\n", pagani_context_message(ctx));
        pagani_context_destroy(ctx);
        return 1;
    }
    printf("# %.1f s per run at most; tolerance relative except for the "
           "integral 0 (absolute)\n", time_limit);
    printf("%-24s %2s %7s %-12s %-4s %8s %22s %9s %9s %-32s %12s %9s\n", "integrand",
           "n", "tol", "method", "back", "seconds", "estimate", "error", "true err",
           "status", "evaluations", "points/s");
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (int t = 0; t < 2; t++) {
            run(ctx, &cases[c], tols[t], PAGANI_QMC, 2);
            run(ctx, &cases[c], tols[t], PAGANI_QMC, 1);
            run(ctx, &cases[c], tols[t], PAGANI_VEGAS, 0);
        }
    pagani_context_destroy(ctx);
    return 0;
}
