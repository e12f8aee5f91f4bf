/*
 * test_gpu_vector.c - vector integrands on the CUDA backend (issue 14): each
 * method against analytic components (one identically zero, one 10^8
 * times another), a vector of one component against the scalar integrand
 * (the same bits), QMC on the GPU against the CPU (the same points and
 * exact sums: the same bits per component), a batch against single calls,
 * 40 components, and a component left unset reported as not finite.
 * Without a usable GPU the whole program is skipped, never passed.
 */
#include <math.h>
#include <string.h>
#include "pagani.h"
#include "gpu_pair.h"
#include "tap.h"

#define N 3

/* exp(-x0 - x1 - x2) and its moments over [0, 1]^3. */
static const char moments_source[] =
    "double e = exp(-x[0] - x[1] - x[2]);\n"
    "f[0] = e;\n"
    "f[1] = x[0] * e;\n"
    "f[2] = 0.0;\n"
    "f[3] = 1e8 * e;\n";

/* Products and sums only (no contraction into FMA on either side), so
 * that CPU and GPU values are the same bits. */
static const char exact_source[] =
    "f[0] = x[0] * x[1];\n"
    "f[1] = x[0] + x[2];\n"
    "f[2] = x[0] * x[1] * x[2];\n"
    "f[3] = x[1];\n";

/* 40 components: f_c = (c + 1) x0 x1, whose integral is (c + 1) / 4. */
static const char many_source[] =
    "for (int c = 0; c < ncomp; c++) f[c] = (c + 1) * (x[0] * x[1]);\n";

/* Component 1 is never written: the library's NaN. */
static const char unset_source[] = "f[0] = x[0];\n";

static void unit_box(double *lower, double *upper)
{
    for (int i = 0; i < N; i++) {
        lower[i] = 0.0;
        upper[i] = 1.0;
    }
}

/* The moments' exact values. */
static void moments_exact(double *exact)
{
    const double a = 1.0 - exp(-1.0), b = 1.0 - 2.0 * exp(-1.0);
    exact[0] = a * a * a;
    exact[1] = b * a * a;
    exact[2] = 0.0;
    exact[3] = 1e8 * exact[0];
}

/* pagani_integrate_vector of a source with ncomp components over the unit
 * cube; returns its code. */
static int integrate_source(pagani_context *ctx, const char *source, int ncomp,
                            const pagani_options *opt, pagani_result *r,
                            double *values, double *errors)
{
    pagani_integrand *f = NULL;
    double lower[N], upper[N];
    int rc =
        pagani_integrand_from_vector_source(ctx, &f, N, ncomp, source, NULL, 0);

    unit_box(lower, upper);
    if (rc == PAGANI_OK)
        rc = pagani_integrate_vector(ctx, f, lower, upper, opt, r, values,
                                     errors);
    pagani_integrand_destroy(f);
    return rc;
}

/* Each method's moments: cubature converged with every component within
 * its tolerance, Vegas and QMC within 4 sigma of the exact values. */
static void check_moments(pagani_context *gpu, pagani_method method,
                          double epsrel)
{
    pagani_options opt = pagani_options_default(method);
    pagani_result r;
    double values[4], errors[4], exact[4], worst = 0.0;
    int rc, ok;

    opt.epsrel = epsrel;
    moments_exact(exact);
    rc = integrate_source(gpu, moments_source, 4, &opt, &r, values, errors);
    ok = rc == PAGANI_OK && r.status == PAGANI_CONVERGED &&
         r.backend == PAGANI_BACKEND_CUDA;
    for (int c = 0; ok && c < 4; c++) {
        double miss = fabs(values[c] - exact[c]);
        double allowed = method == PAGANI_CUBATURE
                             ? fmax(opt.epsabs, epsrel * fabs(exact[c]))
                             : 4.0 * errors[c];
        ok = miss <= allowed;
        if (allowed > 0) worst = fmax(worst, miss / allowed);
    }
    tap_ok(ok,
           "%s, 4 components at epsrel %g: each within %s (rc %d, worst "
           "%.2f of it; %.10g %.3g %.3g %.10g)",
           pagani_method_name(method), epsrel,
           method == PAGANI_CUBATURE ? "its tolerance" : "4 sigma", rc, worst,
           values[0], values[1], values[2], values[3]);
}

/* A vector of one component gives the scalar integrand's bits. */
static void check_one_component(pagani_context *gpu, pagani_method method)
{
    pagani_options opt = pagani_options_default(method);
    pagani_integrand *s = NULL, *v = NULL;
    pagani_result a, b;
    double lower[N], upper[N];
    int ok;

    unit_box(lower, upper);
    opt.epsrel = method == PAGANI_CUBATURE ? 1e-8 : 1e-3;
    ok = pagani_integrand_from_source(gpu, &s, N, "exp(-x[0] - x[1] - x[2])",
                                      NULL, 0) == PAGANI_OK &&
         pagani_integrand_from_vector_source(gpu, &v, N, 1,
                                             "f[0] = exp(-x[0] - x[1] - x[2]);",
                                             NULL, 0) == PAGANI_OK &&
         pagani_integrate(gpu, s, lower, upper, &opt, &a) == PAGANI_OK &&
         pagani_integrate(gpu, v, lower, upper, &opt, &b) == PAGANI_OK;
    tap_ok(ok && memcmp(&a.value, &b.value, sizeof a.value) == 0 &&
               memcmp(&a.error, &b.error, sizeof a.error) == 0 &&
               a.evaluations == b.evaluations && a.status == b.status,
           "%s: one component gives the scalar's bits (%.17g +- %.3g, %lld "
           "evaluations; scalar %.17g +- %.3g, %lld)",
           pagani_method_name(method), ok ? b.value : 0.0, ok ? b.error : 0.0,
           ok ? b.evaluations : 0, ok ? a.value : 0.0, ok ? a.error : 0.0,
           ok ? a.evaluations : 0);
    pagani_integrand_destroy(s);
    pagani_integrand_destroy(v);
}

/* QMC on both backends: every component's value and error the same bits
 * (ncomp 4, and 40 in the GPU's per-block accumulators' other shape). */
static void check_qmc_cpu(pagani_context *gpu, pagani_context *cpu,
                          const char *source, int ncomp)
{
    pagani_options opt = pagani_options_default(PAGANI_QMC);
    pagani_result a, b;
    double vg[40], eg[40], vc[40], ec[40];
    int ok, same = 1;

    opt.epsrel = 1e-5;
    opt.seed = 7;
    ok = integrate_source(gpu, source, ncomp, &opt, &a, vg, eg) == PAGANI_OK &&
         integrate_source(cpu, source, ncomp, &opt, &b, vc, ec) == PAGANI_OK;
    for (int c = 0; ok && c < ncomp; c++)
        same &= memcmp(&vg[c], &vc[c], sizeof vg[c]) == 0 &&
                memcmp(&eg[c], &ec[c], sizeof eg[c]) == 0;
    tap_ok(
        ok && same && a.evaluations == b.evaluations,
        "QMC, %d components: GPU and CPU give the same bits for each (%.17g, "
        "%.17g for component 0)",
        ncomp, ok ? vg[0] : 0.0, ok ? vc[0] : 0.0);
}

/* 40 components on cubature: each within its tolerance of (c + 1) / 4. */
static void check_many(pagani_context *gpu)
{
    pagani_options opt = pagani_options_default(PAGANI_CUBATURE);
    pagani_result r;
    double values[40], errors[40];
    int rc, ok;

    opt.epsrel = 1e-6;
    rc = integrate_source(gpu, many_source, 40, &opt, &r, values, errors);
    ok = rc == PAGANI_OK && r.status == PAGANI_CONVERGED;
    for (int c = 0; ok && c < 40; c++)
        ok = fabs(values[c] - (c + 1) / 4.0) <= 1e-6 * (c + 1) / 4.0;
    tap_ok(ok,
           "cubature, 40 components: each within epsrel 1e-6 of (c + 1) / 4 "
           "(rc %d; %.17g, %.17g)",
           rc, values[0], values[39]);
}

/* A batch of two vector integrals (two boxes) equals the single calls. */
static void check_batch(pagani_context *gpu)
{
    pagani_options opt = pagani_options_default(PAGANI_CUBATURE);
    pagani_integrand *f = NULL;
    pagani_result single[2], batch[2];
    double lower[2 * N], upper[2 * N], v1[8], e1[8], vb[8], eb[8];
    int ok;

    opt.epsrel = 1e-7;
    for (int i = 0; i < N; i++) {
        lower[i] = 0.0;
        upper[i] = 1.0;
        lower[N + i] = -0.5;
        upper[N + i] = 0.25 * (i + 1);
    }
    ok = pagani_integrand_from_vector_source(gpu, &f, N, 4, moments_source,
                                             NULL, 0) == PAGANI_OK;
    for (int k = 0; ok && k < 2; k++)
        ok = pagani_integrate_vector(gpu, f, lower + k * N, upper + k * N, &opt,
                                     &single[k], v1 + 4 * k,
                                     e1 + 4 * k) == PAGANI_OK;
    ok =
        ok && pagani_integrate_batch_vector(gpu, f, 2, NULL, 0, lower, upper, N,
                                            &opt, batch, vb, eb) == PAGANI_OK;
    tap_ok(ok && memcmp(v1, vb, sizeof v1) == 0 &&
               memcmp(e1, eb, sizeof e1) == 0 &&
               single[1].evaluations == batch[1].evaluations,
           "cubature: a batch of two vector integrals gives each single call's "
           "bits (%.17g, %.17g)",
           v1[4], vb[4]);
    pagani_integrand_destroy(f);
}

/* A component the source leaves unset is a NaN of the integrand. */
static void check_unset(pagani_context *gpu, pagani_method method)
{
    pagani_options opt = pagani_options_default(method);
    pagani_result r;
    double values[2], errors[2];
    int rc = integrate_source(gpu, unset_source, 2, &opt, &r, values, errors);

    tap_ok(rc == PAGANI_ERR_NONFINITE, "%s: an unset component is "
           "PAGANI_ERR_NONFINITE (rc %d: %s)", pagani_method_name(method), rc,
           pagani_context_message(gpu));
}

int main(void)
{
    static const pagani_method methods[3] = { PAGANI_CUBATURE, PAGANI_VEGAS,
                                              PAGANI_QMC };
    pagani_context *gpu, *cpu;
    int exit_code;

    if (!gpu_pair_open(&gpu, &cpu, &exit_code)) return exit_code;
    tap_plan(13);
    check_moments(gpu, PAGANI_CUBATURE, 1e-6);
    check_moments(gpu, PAGANI_VEGAS, 1e-3);
    check_moments(gpu, PAGANI_QMC, 1e-3);
    for (int m = 0; m < 3; m++) check_one_component(gpu, methods[m]);
    check_qmc_cpu(gpu, cpu, exact_source, 4);
    check_qmc_cpu(gpu, cpu, many_source, 40);
    check_many(gpu);
    check_batch(gpu);
    for (int m = 0; m < 3; m++) check_unset(gpu, methods[m]);
    pagani_context_destroy(cpu);
    pagani_context_destroy(gpu);
    return tap_exit_code();
}
