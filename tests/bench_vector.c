/*
 * bench_vector.c - one vector integral against its components as scalar
 * integrals (a benchmark program, not a test: run it on the GPU machine).
 *
 * The integrand: 16 moments of a 6-D Gaussian with a dense quadratic form,
 *   w(x) = exp(-sum_ij A_ij (x_i - 1/2)(x_j - 1/2)),
 *   A_ii = 30, A_ij = 6 (i != j), positive definite,
 * and the 16 components w, w x_i (6), w x_i x_{i+1} (5), w x_i^2 (i < 4):
 * the exponential of the quadratic form (36 products) is the shared work
 * that the vector form pays once per point and the scalar forms 16 times.
 *
 *   bench_vector [cpu|cuda] [cubature|qmc|vegas] [epsrel]
 *
 * Prints, for the vector form (one call) and the 16 scalar calls: the
 * wall time, the evaluations, the status, and the largest difference
 * between the two forms' components relative to their errors.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pagani.h"

#define NCOMP 16
#define DIM 6

/* The shared factor w and the 16 moments, as the body of both forms:
 * the vector form writes every f[k]; the scalar form k = p[0] returns
 * its one. */
#define WEIGHT                                                              \
    "double d[6], q = 0.0;\n"                                               \
    "for (int i = 0; i < 6; i++) d[i] = x[i] - 0.5;\n"                      \
    "for (int i = 0; i < 6; i++)\n"                                         \
    "    for (int j = 0; j < 6; j++) q += (i == j ? 30.0 : 6.0) * d[i] * d[j];\n" \
    "double w = exp(-q), m[16];\n"                                          \
    "m[0] = 1.0;\n"                                                         \
    "for (int i = 0; i < 6; i++) m[1 + i] = x[i];\n"                        \
    "for (int i = 0; i < 5; i++) m[7 + i] = x[i] * x[i + 1];\n"             \
    "for (int i = 0; i < 4; i++) m[12 + i] = x[i] * x[i];\n"

static const char vector_body[] =
    WEIGHT "for (int k = 0; k < 16; k++) f[k] = w * m[k];\n";
static const char scalar_body[] = WEIGHT "return w * m[(int)p[0]];\n";

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

static pagani_method method_of(const char *name)
{
    if (strcmp(name, "qmc") == 0) return PAGANI_QMC;
    if (strcmp(name, "vegas") == 0) return PAGANI_VEGAS;
    return PAGANI_CUBATURE;
}

int main(int argc, char **argv)
{
    const char *backend_name = argc > 1 ? argv[1] : "cpu";
    pagani_method method = method_of(argc > 2 ? argv[2] : "cubature");
    double epsrel = argc > 3 ? atof(argv[3]) : 1e-6;
    pagani_backend backend =
        strcmp(backend_name, "cuda") == 0 ? PAGANI_BACKEND_CUDA : PAGANI_BACKEND_CPU;
    double lo[DIM] = {0}, hi[DIM], vv[NCOMP], ve[NCOMP], sv[NCOMP], se[NCOMP];
    double t0, t_vector, t_scalar = 0.0, worst = 0.0, k_param;
    long long scalar_evaluations = 0;
    int converged = 1, rc;
    pagani_context *ctx;
    pagani_integrand *vf = NULL, *sf = NULL;
    pagani_options o = pagani_options_default(method), warm;
    pagani_result r;

    for (int i = 0; i < DIM; i++) hi[i] = 1.0;
    o.epsrel = epsrel;
    o.epsabs = 0.0;
    o.vegas_calls = 1e7;
    if ((rc = pagani_context_create(&ctx, backend)) != PAGANI_OK) {
        fprintf(stderr, "context: %s: %s\n", pagani_strerror(rc),
                pagani_context_message(ctx));
        return 1;
    }
    k_param = 0.0;
    rc = pagani_integrand_from_vector_source(ctx, &vf, DIM, NCOMP, vector_body,
                                             NULL, 0);
    if (rc == PAGANI_OK)
        rc = pagani_integrand_from_source(ctx, &sf, DIM, scalar_body, &k_param,
                                          sizeof k_param);
    if (rc != PAGANI_OK) {
        fprintf(stderr, "integrands: %s: %s\n", pagani_strerror(rc),
                pagani_context_message(ctx));
        return 1;
    }
    /* warm-up of both forms, two short iterations: run-time compilation
     * of each method's kernels, first launches, caches */
    warm = o;
    warm.max_iterations = 2;
    pagani_integrate_vector(ctx, vf, lo, hi, &warm, &r, vv, ve);
    pagani_integrate(ctx, sf, lo, hi, &warm, &r);

    t0 = now();
    rc = pagani_integrate_vector(ctx, vf, lo, hi, &o, &r, vv, ve);
    t_vector = now() - t0;
    if (rc != PAGANI_OK) {
        fprintf(stderr, "vector: %s: %s\n", pagani_strerror(rc),
                pagani_context_message(ctx));
        return 1;
    }
    printf("# %s on %s, 6-D, 16 components, epsrel %g\n",
           pagani_method_name(method), pagani_backend_name(backend), epsrel);
    printf("%-16s %10s %14s %-12s\n", "form", "time(s)", "evaluations", "status");
    printf("%-16s %10.4f %14lld %-12s\n", "vector 1x16", t_vector, r.evaluations,
           pagani_status_name(r.status));
    for (int k = 0; k < NCOMP; k++) {
        pagani_result s;
        k_param = (double)k;
        pagani_integrand_set_params(sf, &k_param, sizeof k_param);
        t0 = now();
        rc = pagani_integrate(ctx, sf, lo, hi, &o, &s);
        t_scalar += now() - t0;
        if (rc != PAGANI_OK) {
            fprintf(stderr, "scalar %d: %s: %s\n", k, pagani_strerror(rc),
                    pagani_context_message(ctx));
            return 1;
        }
        sv[k] = s.value;
        se[k] = s.error;
        scalar_evaluations += s.evaluations;
        converged &= s.status == PAGANI_CONVERGED;
    }
    printf("%-16s %10.4f %14lld %-12s\n", "scalar 16x1", t_scalar,
           scalar_evaluations, converged ? "converged" : "not all");
    for (int k = 0; k < NCOMP; k++) {
        double d = fabs(vv[k] - sv[k]) / fmax(ve[k] + se[k], 1e-300);
        if (d > worst) worst = d;
    }
    printf("# speed-up %.2fx, evaluations %.2fx; largest |vector - scalar| "
           "/ (error sum) over the components: %.3g\n",
           t_scalar / t_vector, (double)scalar_evaluations / r.evaluations,
           worst);
    pagani_integrand_destroy(vf);
    pagani_integrand_destroy(sf);
    pagani_context_destroy(ctx);
    return 0;
}
