/*
 * bench_gradient.c - the gradient of an integral by 4 parameters against
 * the integral alone and against central finite differences of it (a
 * benchmark program, not a test: run it on the GPU machine).
 *
 * The integrand, in n = 5 and 8 dimensions over the unit cube:
 *   f(x; p) = exp(-p0 sum_i (x_i - p1)^2) (1 + p2 x_0) cos(p3 x_1),
 *   p = (6, 0.45, 0.3, 2).
 *
 *   bench_gradient [cpu|cuda] [cubature|vegas] [epsrel]
 *
 * (default: cuda; both methods, cubature to 1e-6 and Vegas to 1e-3).
 * For each n it prints the wall time of the integral alone, of the
 * gradient (pagani_integrate_gradient: the value and 4 derivatives in one
 * run, each to epsrel, epsabs = epsrel |I|) and of central differences
 * (I(p + h e_k) - I(p - h e_k)) / 2h, h = 1e-3 p_k, whose 8 integrals run
 * to epsrel h (the accuracy a difference needs to match the gradient's),
 * with the status of each, and the largest difference between the
 * gradient and the differences in units of the gradient's reported error.
 * Compilation is outside the times (a first call warms each up).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pagani.h"

#define NPARAMS 4

static const char source[] =
    "double s = 0.0;\n"
    "for (int i = 0; i < n; i++) s += (x[i] - p[1]) * (x[i] - p[1]);\n"
    "return exp(-p[0] * s) * (1.0 + p[2] * x[0]) * cos(p[3] * x[1]);\n";

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* One method in n dimensions; 0, or 1 after printing a library error. */
static int bench(pagani_context *ctx, int n, pagani_method method,
                 double epsrel)
{
    const double p0[NPARAMS] = {6.0, 0.45, 0.3, 2.0};
    double lo[8] = {0}, hi[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    double v, e, g[NPARAMS], ge[NPARAMS], diff[NPARAMS], worst = 0.0;
    double t_integral, t_gradient, t_differences;
    pagani_integrand *f = NULL, *fg = NULL;
    pagani_options o = pagani_options_default(method), od;
    pagani_result r, rg;
    int converged = 1, rc;

    o.epsrel = epsrel;
    o.max_evaluations = 20000000000LL;
    rc = pagani_integrand_from_source(ctx, &f, n, source, p0, sizeof p0);
    if (rc == PAGANI_OK)
        rc = pagani_integrand_gradient_from_source(ctx, &fg, n, 0, source,
                                                   p0, sizeof p0, NULL, 0);
    /* warm-ups: the first call of a method compiles its kernels */
    if (rc == PAGANI_OK) rc = pagani_integrate(ctx, f, lo, hi, &o, &r);
    o.epsabs = epsrel * fabs(r.value);
    if (rc == PAGANI_OK)
        rc = pagani_integrate_gradient(ctx, fg, lo, hi, &o, &rg, &v, &e, g,
                                       ge);
    if (rc != PAGANI_OK) {
        fprintf(stderr, "%s\n%s\n", pagani_strerror(rc),
                pagani_context_message(ctx));
        return 1;
    }
    t_integral = now();
    pagani_integrate(ctx, f, lo, hi, &o, &r);
    t_integral = now() - t_integral;
    t_gradient = now();
    pagani_integrate_gradient(ctx, fg, lo, hi, &o, &rg, &v, &e, g, ge);
    t_gradient = now() - t_gradient;

    t_differences = now();
    for (int k = 0; k < NPARAMS; k++) {
        double q[NPARAMS], h = 1e-3 * p0[k], side[2];
        od = o;
        od.epsrel = epsrel * 1e-3;
        od.epsabs = o.epsabs * 1e-3;
        for (int s = 0; s < 2; s++) {
            pagani_result rd;
            memcpy(q, p0, sizeof q);
            q[k] += s ? -h : h;
            pagani_integrand_set_params(f, q, sizeof q);
            pagani_integrate(ctx, f, lo, hi, &od, &rd);
            side[s] = rd.value;
            converged &= rd.status == PAGANI_CONVERGED;
        }
        diff[k] = (side[0] - side[1]) / (2 * h);
    }
    t_differences = now() - t_differences;
    pagani_integrand_set_params(f, p0, sizeof p0);
    for (int k = 0; k < NPARAMS; k++)
        if (ge[k] > 0) worst = fmax(worst, fabs(g[k] - diff[k]) / ge[k]);

    printf("%d-D %-8s %-4s eps %-6.0e integral %9.4f s (%s) | gradient "
           "%9.4f s = %5.2fx (%s, %lld evals) | central differences "
           "%9.4f s = %6.2fx (%s) | |gradient - differences| <= %.2g "
           "reported errors\n", n, pagani_method_name(method),
           pagani_backend_name(r.backend), epsrel, t_integral,
           pagani_status_name(r.status), t_gradient,
           t_gradient / t_integral, pagani_status_name(rg.status),
           rg.evaluations, t_differences, t_differences / t_integral,
           converged ? "all converged" : "NOT all converged", worst);
    fflush(stdout);
    pagani_integrand_destroy(f);
    pagani_integrand_destroy(fg);
    return 0;
}

int main(int argc, char **argv)
{
    pagani_backend backend = argc > 1 && strcmp(argv[1], "cpu") == 0 ?
                             PAGANI_BACKEND_CPU : PAGANI_BACKEND_CUDA;
    const char *only = argc > 2 ? argv[2] : NULL;
    double eps = argc > 3 ? atof(argv[3]) : 0.0;
    static const int dims[] = {5, 8};
    pagani_context *ctx;
    int failed = 0;

    if (pagani_context_create(&ctx, backend) != PAGANI_OK) {
        fprintf(stderr, "%s\n", pagani_context_message(ctx));
        return 1;
    }
    for (int d = 0; d < 2; d++) {
        if (!only || strcmp(only, "cubature") == 0)
            failed |= bench(ctx, dims[d], PAGANI_CUBATURE, eps > 0 ? eps : 1e-6);
        if (!only || strcmp(only, "vegas") == 0)
            failed |= bench(ctx, dims[d], PAGANI_VEGAS, eps > 0 ? eps : 1e-3);
    }
    pagani_context_destroy(ctx);
    return failed;
}
