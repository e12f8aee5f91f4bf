/*
 * test_vector.c - vector integrands on the CPU backend (and, where a GPU
 * is usable, the same checks on CUDA): argument errors; the moments and
 * the complex exponential of vector_cases.h under every norm and method,
 * every component within its tolerance of the analytic value when the
 * status says converged (cubature exactly; Monte Carlo within 5 reported
 * sigma); components 10^8 apart each held to its own relative tolerance;
 * an identically zero component ended by epsabs; a vector of copies of one
 * function equal, bit for bit, to the scalar integral of that function
 * (the decisions coincide: equal weights, the same pair (V, E)); QMC
 * components equal to separate scalar runs bit for bit (same points, exact
 * sums); fewer evaluations than the scalar runs; source and batch forms.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pagani.h"
#include "vector_cases.h"
#include "tap.h"

/* The scalar twins of the moments' components. */
PAGANI_INTEGRAND(moment0, {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += x[i];
    return exp(-s);
})

PAGANI_INTEGRAND(moment1, {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += x[i];
    return x[0] * exp(-s);
})

PAGANI_INTEGRAND(moment3, {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += x[i];
    return 1e8 * exp(-s);
})

/* Two copies of moment0. */
PAGANI_VECTOR_INTEGRAND(twins, 2, {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += x[i];
    f[0] = f[1] = exp(-s);
})

/* Component 1 NaN where x_0 > 0.5; component 2 never set. */
PAGANI_VECTOR_INTEGRAND(faulty, 2, {
    f[0] = x[0];
    f[1] = x[0] > 0.5 ? sqrt(-1.0 - x[0]) : 1.0;
})

static void unset_component(const double *x, int n, const void *params,
                            double *f)
{
    (void)n;
    (void)params;
    f[0] = x[0];
}

static const char *norm_name(pagani_norm norm)
{
    static const char *names[] = {"individual", "paired", "L2", "L1", "max"};
    return names[norm];
}

/* The size of v[0..c) by the norm, over all components (group of all). */
static double size_of(pagani_norm norm, const double *v, int c)
{
    double s = 0.0;
    for (int k = 0; k < c; k++) {
        double a = fabs(v[k]);
        s = norm == PAGANI_NORM_L1 ? s + a : norm == PAGANI_NORM_MAX ? fmax(s, a)
                                                                    : s + a * a;
    }
    return norm == PAGANI_NORM_L1 || norm == PAGANI_NORM_MAX ? s : sqrt(s);
}

/* Whether the true errors of values against exact meet the tolerance
 * by the norm, each group within `slack` times its tolerance. */
static int truly_met(pagani_norm norm, int c, const double *values,
                     const double *exact, const pagani_options *o, double slack)
{
    double err[PAGANI_MAX_COMPONENTS];
    int size = norm == PAGANI_NORM_INDIVIDUAL ? 1 : norm == PAGANI_NORM_PAIRED ? 2 : c;
    for (int k = 0; k < c; k++) err[k] = values[k] - exact[k];
    for (int g = 0; g < c; g += size) {
        pagani_norm within = size == 2 ? PAGANI_NORM_L2 : norm;
        double tol = fmax(o->epsabs, o->epsrel * size_of(within, exact + g, size));
        if (!(size_of(within, err + g, size) <= slack * tol)) return 0;
    }
    return 1;
}

/* Whether every component is within `sigmas` reported errors of exact
 * (plus round-off of the value). */
static int within_sigmas(int c, const double *values, const double *errors,
                         const double *exact, double sigmas)
{
    for (int k = 0; k < c; k++)
        if (!(fabs(values[k] - exact[k]) <=
              sigmas * errors[k] + 1e-14 * fabs(exact[k])))
            return 0;
    return 1;
}

static void diag_components(int c, const double *values, const double *errors,
                            const double *exact)
{
    for (int k = 0; k < c; k++)
        tap_diag("  component %d: %.15g +- %.3g (exact %.15g, true error %.3g)",
                 k, values[k], errors[k], exact[k], values[k] - exact[k]);
}

/* Options for `method` at epsrel, Monte Carlo sized for the CPU. */
static pagani_options options_for(pagani_method method, double epsrel,
                                  pagani_norm norm)
{
    pagani_options o = pagani_options_default(method);
    o.epsrel = epsrel;
    o.epsabs = 1e-12;
    o.norm = norm;
    o.seed = 7;
    o.vegas_calls = 2e5;
    o.max_iterations = method == PAGANI_VEGAS ? 40 : 0;
    return o;
}

static void test_errors(pagani_context *ctx)
{
    pagani_integrand *f = NULL, *scalar = NULL;
    double lo[2] = {0, 0}, hi[2] = {1, 1}, v[4], e[4];
    pagani_result r;
    pagani_options o = pagani_options_default(PAGANI_CUBATURE);
    int rc;

    rc = pagani_integrand_from_vector_function(ctx, &f, 2, 0, unset_component,
                                               NULL, 0);
    tap_ok(rc == PAGANI_ERR_COMPONENTS && !f, "ncomp 0 is PAGANI_ERR_COMPONENTS");
    rc = pagani_integrand_from_vector_function(ctx, &f, 2, 65, unset_component,
                                               NULL, 0);
    tap_ok(rc == PAGANI_ERR_COMPONENTS, "ncomp 65 is PAGANI_ERR_COMPONENTS (%s)",
           pagani_context_message(ctx));
    rc = pagani_integrand_from_vector_source(ctx, &f, 2, 3, "f[3] = x[0];",
                                             NULL, 0);
    tap_ok(rc == PAGANI_ERR_COMPILE && strstr(pagani_context_message(ctx), "f[3]"),
           "f[3] of 3 components does not compile (%s)", pagani_context_message(ctx));
    rc = pagani_integrand_from_vector_source(ctx, &f, 2, 2, "return x[0];",
                                             NULL, 0);
    tap_ok(rc == PAGANI_ERR_COMPILE, "a vector body returning a value does not "
           "compile");
    rc = pagani_integrand_create_vector(ctx, &f, 2, &moments);
    tap_ok(rc == PAGANI_OK && pagani_integrand_components(f) == 4,
           "the moments have 4 components");
    rc = pagani_integrate(ctx, f, lo, hi, &o, &r);
    tap_ok(rc == PAGANI_ERR_COMPONENTS, "pagani_integrate refuses a vector "
           "integrand (%s)", pagani_context_message(ctx));
    rc = pagani_integrate_vector(ctx, f, lo, hi, &o, &r, NULL, e);
    tap_ok(rc == PAGANI_ERR_NULL_POINTER, "values NULL is PAGANI_ERR_NULL_POINTER");
    pagani_integrand_destroy(f);
    pagani_integrand_create_vector(ctx, &f, 2, &twins);
    o.norm = PAGANI_NORM_PAIRED;
    rc = pagani_integrate_vector(ctx, f, lo, hi, &o, &r, v, e);
    tap_ok(rc == PAGANI_OK && r.status == PAGANI_CONVERGED,
           "paired norm with 2 components runs");
    pagani_integrand_destroy(f);
    pagani_integrand_from_vector_function(ctx, &f, 2, 3, unset_component, NULL, 0);
    rc = pagani_integrate_vector(ctx, f, lo, hi, &o, &r, v, e);
    tap_ok(rc == PAGANI_ERR_COMPONENTS, "paired norm with 3 components is "
           "PAGANI_ERR_COMPONENTS (%s)", pagani_context_message(ctx));
    o.norm = PAGANI_NORM_INDIVIDUAL;
    rc = pagani_integrate_vector(ctx, f, lo, hi, &o, &r, v, e);
    tap_ok(rc == PAGANI_ERR_NONFINITE, "a component left unset reads as NaN "
           "(%s)", pagani_context_message(ctx));
    o.norm = 9;
    rc = pagani_integrate_vector(ctx, f, lo, hi, &o, &r, v, e);
    tap_ok(rc == PAGANI_ERR_OPTION, "an unknown norm is PAGANI_ERR_OPTION");
    pagani_integrand_destroy(f);
    pagani_integrand_create_vector(ctx, &f, 2, &faulty);
    for (int m = PAGANI_CUBATURE; m <= PAGANI_QMC; m++) {
        o = options_for((pagani_method)m, 1e-3, PAGANI_NORM_INDIVIDUAL);
        rc = pagani_integrate_vector(ctx, f, lo, hi, &o, &r, v, e);
        tap_ok(rc == PAGANI_ERR_NONFINITE && isnan(v[0]) && isinf(e[1]),
               "%s: NaN in component 1 is PAGANI_ERR_NONFINITE (%s)",
               pagani_method_name((pagani_method)m), pagani_context_message(ctx));
    }
    pagani_integrand_destroy(f);
    pagani_integrand_create(ctx, &scalar, 2, &moment0);
    o = pagani_options_default(PAGANI_CUBATURE);
    rc = pagani_integrate_vector(ctx, scalar, lo, hi, &o, &r, v, e);
    tap_ok(rc == PAGANI_OK && v[0] == r.value && e[0] == r.error,
           "a scalar integrand is a vector of one");
    pagani_integrand_destroy(scalar);
}

/* Integrates def (ncomp components) over [0,1]^n by `method` under
 * `norm`: its values and errors into v, e and its result into *r.
 * Returns whether it converged with the true errors against exact within
 * the tolerance (cubature) or 5 sigma (Monte Carlo). */
static int integrate_case(pagani_context *ctx,
                          const pagani_vector_integrand_def *def, int n,
                          const double *exact, pagani_method method,
                          pagani_norm norm, double epsrel, double *v,
                          double *e, pagani_result *r)
{
    const int c = def->ncomp;
    double lo[8] = {0}, hi[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    pagani_options o = options_for(method, epsrel, norm);
    pagani_integrand *f;
    int rc, good;

    pagani_integrand_create_vector(ctx, &f, n, def);
    rc = pagani_integrate_vector(ctx, f, lo, hi, &o, r, v, e);
    pagani_integrand_destroy(f);
    good = method == PAGANI_CUBATURE ? truly_met(norm, c, v, exact, &o, 1.0)
                                     : within_sigmas(c, v, e, exact, 5.0);
    if (!(rc == PAGANI_OK && r->status == PAGANI_CONVERGED && good))
        diag_components(c, v, e, exact);
    return rc == PAGANI_OK && r->status == PAGANI_CONVERGED && good;
}

/* The moments in n dimensions by `method` under `norm`: converged, and
 * the true errors within the tolerance (cubature) or 5 sigma (MC). */
static void test_moments(pagani_context *ctx, pagani_method method,
                         pagani_norm norm, int n, double epsrel)
{
    double v[4], e[4], exact[4];
    pagani_result r;
    int good;

    moments_exact(n, exact);
    good = integrate_case(ctx, &moments, n, exact, method, norm, epsrel, v, e,
                          &r);
    tap_ok(good && v[0] == r.value && e[0] == r.error,
           "%s moments %dD, %s norm, epsrel %g: %s, true errors within the "
           "tolerance (%lld evaluations)", pagani_method_name(method), n,
           norm_name(norm), epsrel, pagani_status_name(r.status),
           r.evaluations);
}

/* The complex exponential in n dimensions, paired norm. */
static void test_phase(pagani_context *ctx, pagani_method method, int n,
                       double epsrel)
{
    double v[2], e[2], exact[2];
    pagani_result r;
    int good;

    phase_exact(n, exact);
    good = integrate_case(ctx, &phase, n, exact, method, PAGANI_NORM_PAIRED,
                          epsrel, v, e, &r);
    tap_ok(good, "%s complex exponential %dD, paired norm, epsrel %g: %s, "
           "modulus of the true error within the tolerance",
           pagani_method_name(method), n, epsrel, pagani_status_name(r.status));
}

/* Two copies of a function against the function: every field and both
 * components bit for bit. */
static void test_twins(pagani_context *ctx, pagani_method method)
{
    pagani_integrand *f, *g;
    double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1}, v[2], e[2];
    pagani_options o = options_for(method, 1e-5, PAGANI_NORM_INDIVIDUAL);
    pagani_result r, s;

    /* a vector integrand refines breadth-first (pagani_strategy): the
     * scalar one too, from the same first split */
    if (method == PAGANI_CUBATURE) o.strategy = PAGANI_STRATEGY_BREADTH;
    pagani_integrand_create_vector(ctx, &f, 3, &twins);
    pagani_integrand_create(ctx, &g, 3, &moment0);
    pagani_integrate_vector(ctx, f, lo, hi, &o, &r, v, e);
    pagani_integrate(ctx, g, lo, hi, &o, &s);
    tap_ok(memcmp(&v[0], &s.value, sizeof v[0]) == 0 &&
           memcmp(&v[1], &s.value, sizeof v[0]) == 0 &&
           memcmp(&e[0], &s.error, sizeof e[0]) == 0 &&
           memcmp(&e[1], &s.error, sizeof e[0]) == 0 && r.status == s.status &&
           r.evaluations == s.evaluations && r.iterations == s.iterations,
           "%s: a vector of two copies equals the scalar integral bit for bit "
           "(%.17g +- %.3g, %lld evaluations)", pagani_method_name(method),
           s.value, s.error, s.evaluations);
    pagani_integrand_destroy(f);
    pagani_integrand_destroy(g);
}

/* The non-zero moments 0, 1 and 3 as scalar integrals in n dimensions:
 * their values and errors into v[0..2], e[0..2]; returns their
 * evaluations in all. */
static long long scalar_moments(pagani_context *ctx, int n,
                                const pagani_options *o, double *v, double *e)
{
    const pagani_integrand_def *scalar[3] = {&moment0, &moment1, &moment3};
    double lo[8] = {0}, hi[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    long long evaluations = 0;

    for (int j = 0; j < 3; j++) {
        pagani_integrand *g;
        pagani_result s;
        pagani_integrand_create(ctx, &g, n, scalar[j]);
        pagani_integrate(ctx, g, lo, hi, o, &s);
        v[j] = s.value;
        e[j] = s.error;
        evaluations += s.evaluations;
        pagani_integrand_destroy(g);
    }
    return evaluations;
}

/* The moments in n dimensions as one vector: values, errors, result. */
static void vector_moments(pagani_context *ctx, int n, const pagani_options *o,
                           double *v, double *e, pagani_result *r)
{
    double lo[8] = {0}, hi[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    pagani_integrand *f;
    pagani_integrand_create_vector(ctx, &f, n, &moments);
    pagani_integrate_vector(ctx, f, lo, hi, o, r, v, e);
    pagani_integrand_destroy(f);
}

/* QMC over a fixed number of blocks: each component of the moments equals
 * its scalar run bit for bit, from a third of the evaluations. */
static void test_qmc_components(pagani_context *ctx)
{
    const int comp[3] = {0, 1, 3};
    double v[4], e[4], sv[3], se[3];
    pagani_options o = options_for(PAGANI_QMC, 1e-15, PAGANI_NORM_INDIVIDUAL);
    pagani_result r;
    long long scalar_evaluations;
    int same = 1;

    o.max_iterations = 3;
    vector_moments(ctx, 4, &o, v, e, &r);
    scalar_evaluations = scalar_moments(ctx, 4, &o, sv, se);
    for (int j = 0; j < 3; j++)
        same &= memcmp(&v[comp[j]], &sv[j], sizeof sv[j]) == 0 &&
                memcmp(&e[comp[j]], &se[j], sizeof se[j]) == 0;
    tap_ok(same && v[2] == 0.0 && e[2] == 0.0,
           "QMC: every component equals its scalar run bit for bit");
    tap_ok(r.evaluations * 3 == scalar_evaluations,
           "QMC: the vector costs %lld evaluations, the scalar runs %lld",
           r.evaluations, scalar_evaluations);
}

/* Cubature: the moments as one vector against the scalar runs of its
 * non-zero components: fewer evaluations in all. */
static void test_cubature_cost(pagani_context *ctx)
{
    double v[4], e[4], sv[3], se[3];
    pagani_options o = options_for(PAGANI_CUBATURE, 1e-7, PAGANI_NORM_INDIVIDUAL);
    pagani_result r;
    long long scalar_evaluations;

    vector_moments(ctx, 5, &o, v, e, &r);
    scalar_evaluations = scalar_moments(ctx, 5, &o, sv, se);
    tap_ok(r.status == PAGANI_CONVERGED && r.evaluations < scalar_evaluations,
           "cubature 5D at 1e-7: the vector of 4 costs %lld evaluations, its 3 "
           "non-zero components alone %lld", r.evaluations, scalar_evaluations);
}

/* The moments as source, and a batch of three boxes [0, b]^3. */
static void test_source_and_batch(pagani_context *ctx, pagani_method method)
{
    const char *body =
        "double s = 0.0;\n"
        "for (int i = 0; i < n; i++) s += x[i];\n"
        "f[0] = exp(-s);\n"
        "f[1] = p[0] * exp(-s);\n";
    const double scale[3] = {1.0, 2.0, -3.0};
    double lo[9] = {0}, hi[9], v[6], e[6];
    pagani_options o = options_for(method, 1e-5, PAGANI_NORM_INDIVIDUAL);
    pagani_result r[3];
    pagani_integrand *f;
    int rc, good = 1;

    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 3; i++) hi[3 * k + i] = 0.5 + 0.25 * k;
    rc = pagani_integrand_from_vector_source(ctx, &f, 3, 2, body, scale,
                                             sizeof scale[0]);
    if (rc == PAGANI_OK)
        rc = pagani_integrate_batch_vector(ctx, f, 3, scale, sizeof scale[0], lo,
                                           hi, 3, &o, r, v, e);
    for (int k = 0; k < 3 && rc == PAGANI_OK; k++) {
        double b = hi[3 * k], exact = pow(1.0 - exp(-b), 3);
        double exact2[2] = {exact, scale[k] * exact};
        good &= r[k].status == PAGANI_CONVERGED &&
                (method == PAGANI_CUBATURE
                     ? truly_met(PAGANI_NORM_INDIVIDUAL, 2, v + 2 * k, exact2, &o, 1.0)
                     : within_sigmas(2, v + 2 * k, e + 2 * k, exact2, 5.0));
    }
    if (!tap_ok(rc == PAGANI_OK && good, "%s: a batch of three vector "
                "integrals from source, each component right %s",
                pagani_method_name(method),
                rc == PAGANI_OK ? "" : pagani_context_message(ctx)))
        for (int k = 0; k < 3; k++)
            tap_diag("integral %d: %s, %.15g +- %.3g, %.15g +- %.3g", k,
                     pagani_status_name(r[k].status), v[2 * k], e[2 * k],
                     v[2 * k + 1], e[2 * k + 1]);
    pagani_integrand_destroy(f);
}

int main(void)
{
    const pagani_norm norms[4] = {PAGANI_NORM_INDIVIDUAL, PAGANI_NORM_L2,
                                  PAGANI_NORM_L1, PAGANI_NORM_MAX};
    pagani_context *ctx;

    if (pagani_context_create(&ctx, PAGANI_BACKEND_CPU) != PAGANI_OK) {
        printf("1..0 # SKIP no CPU context\n");
        return 0;
    }
    test_errors(ctx);
    for (int j = 0; j < 4; j++) {
        test_moments(ctx, PAGANI_CUBATURE, norms[j], 3, 1e-6);
        test_moments(ctx, PAGANI_QMC, norms[j], 3, 1e-4);
        test_moments(ctx, PAGANI_VEGAS, norms[j], 3, 1e-3);
    }
    test_moments(ctx, PAGANI_CUBATURE, PAGANI_NORM_INDIVIDUAL, 2, 1e-8);
    test_moments(ctx, PAGANI_CUBATURE, PAGANI_NORM_INDIVIDUAL, 5, 1e-6);
    test_moments(ctx, PAGANI_CUBATURE, PAGANI_NORM_INDIVIDUAL, 8, 1e-4);
    test_phase(ctx, PAGANI_CUBATURE, 2, 1e-8);
    test_phase(ctx, PAGANI_CUBATURE, 6, 1e-4);
    test_phase(ctx, PAGANI_QMC, 4, 1e-4);
    test_phase(ctx, PAGANI_VEGAS, 3, 1e-3);
    for (int m = PAGANI_CUBATURE; m <= PAGANI_QMC; m++) {
        test_twins(ctx, (pagani_method)m);
        test_source_and_batch(ctx, (pagani_method)m);
    }
    test_qmc_components(ctx);
    test_cubature_cost(ctx);
    pagani_context_destroy(ctx);
    tap_done();
    return tap_exit_code();
}
