/*
 * test_errors.c - bad input gets its own error code and a message, nothing
 * crashes, and the context stays usable afterwards.
 */
#include <math.h>
#include <string.h>
#include "pagani.h"
#include "tap.h"

PAGANI_INTEGRAND(plane, { return x[0] + 2.0 * x[1]; })

static double nan_at_corner(const double *x, int n, const void *params)
{
    (void)n; (void)params;
    return x[0] > 0.9 && x[1] > 0.9 ? NAN : 1.0;
}

static double inf_everywhere(const double *x, int n, const void *params)
{
    (void)x; (void)n; (void)params;
    return INFINITY;
}

static int has(const pagani_context *ctx, const char *text)
{
    return strstr(pagani_context_message(ctx), text) != NULL;
}

int main(void)
{
    pagani_context *ctx;
    pagani_integrand *f, *g = NULL;
    pagani_options opt = pagani_options_default(PAGANI_CUBATURE);
    pagani_result r;
    double lo[2] = {0, 0}, hi[2] = {1, 1};
    int rc;

    tap_ok(pagani_context_create(NULL, PAGANI_BACKEND_CPU) == PAGANI_ERR_NULL_POINTER,
           "context_create(NULL) is PAGANI_ERR_NULL_POINTER");
    tap_ok(pagani_context_create(&ctx, (pagani_backend)7) == PAGANI_ERR_OPTION && !ctx,
           "an unknown backend is PAGANI_ERR_OPTION");
    if (pagani_context_create(&ctx, PAGANI_BACKEND_CPU) != PAGANI_OK) return 1;
    pagani_integrand_create(ctx, &f, 2, &plane);

    tap_ok(pagani_integrand_create(ctx, &g, 0, &plane) == PAGANI_ERR_DIMENSION && !g,
           "n = 0 is PAGANI_ERR_DIMENSION");
    tap_ok(pagani_integrand_create(ctx, &g, PAGANI_MAX_DIM + 1, &plane) == PAGANI_ERR_DIMENSION,
           "n = PAGANI_MAX_DIM + 1 is PAGANI_ERR_DIMENSION");
    pagani_integrand_create(ctx, &g, 21, &plane);
    {
        double l21[21] = {0}, h21[21];
        for (int i = 0; i < 21; i++) h21[i] = 1;
        rc = pagani_integrate(ctx, g, l21, h21, &opt, &r);
        tap_ok(rc == PAGANI_ERR_DIMENSION && has(ctx, "n = 21"),
               "cubature in 21 dimensions is PAGANI_ERR_DIMENSION: %s",
               pagani_context_message(ctx));
    }
    pagani_integrand_destroy(g);

    hi[1] = NAN;
    rc = pagani_integrate(ctx, f, lo, hi, &opt, &r);
    tap_ok(rc == PAGANI_ERR_BOUNDS && has(ctx, "axis 1"), "a NaN bound: %s",
           pagani_context_message(ctx));
    hi[1] = -INFINITY; /* +INFINITY is an unbounded axis (test_domains) */
    tap_ok(pagani_integrate(ctx, f, lo, hi, &opt, &r) == PAGANI_ERR_BOUNDS,
           "an upper bound of -inf is PAGANI_ERR_BOUNDS");
    hi[1] = 0.0;
    rc = pagani_integrate(ctx, f, lo, hi, &opt, &r);
    tap_ok(rc == PAGANI_ERR_BOUNDS && has(ctx, "not below"), "lower == upper: %s",
           pagani_context_message(ctx));
    hi[1] = -1.0;
    tap_ok(pagani_integrate(ctx, f, lo, hi, &opt, &r) == PAGANI_ERR_BOUNDS,
           "lower > upper is PAGANI_ERR_BOUNDS");
    hi[1] = 1.0;

    opt.epsrel = -1e-3;
    tap_ok(pagani_integrate(ctx, f, lo, hi, &opt, &r) == PAGANI_ERR_TOLERANCE,
           "a negative epsrel is PAGANI_ERR_TOLERANCE");
    opt.epsrel = NAN;
    tap_ok(pagani_integrate(ctx, f, lo, hi, &opt, &r) == PAGANI_ERR_TOLERANCE,
           "a NaN epsrel is PAGANI_ERR_TOLERANCE");
    opt.epsrel = 1e-3;
    opt.epsabs = NAN;
    tap_ok(pagani_integrate(ctx, f, lo, hi, &opt, &r) == PAGANI_ERR_TOLERANCE,
           "a NaN epsabs is PAGANI_ERR_TOLERANCE");
    opt.epsrel = opt.epsabs = 0;
    tap_ok(pagani_integrate(ctx, f, lo, hi, &opt, &r) == PAGANI_ERR_TOLERANCE,
           "both tolerances 0 is PAGANI_ERR_TOLERANCE");
    opt = pagani_options_default(PAGANI_CUBATURE);
    opt.rule_degree = 8;
    tap_ok(pagani_integrate(ctx, f, lo, hi, &opt, &r) == PAGANI_ERR_OPTION,
           "rule degree 8 is PAGANI_ERR_OPTION");
    opt.rule_degree = 11;
    rc = pagani_integrate(ctx, f, lo, hi, &opt, &r);
    tap_ok(rc == PAGANI_ERR_OPTION, "rule degree 11 in 2D is PAGANI_ERR_OPTION: %s",
           pagani_context_message(ctx));
    opt = pagani_options_default(PAGANI_CUBATURE);
    opt.max_iterations = -1;
    tap_ok(pagani_integrate(ctx, f, lo, hi, &opt, &r) == PAGANI_ERR_OPTION,
           "negative max_iterations is PAGANI_ERR_OPTION");
    opt = pagani_options_default(PAGANI_CUBATURE);

    tap_ok(pagani_integrate(ctx, NULL, lo, hi, &opt, &r) == PAGANI_ERR_NULL_POINTER,
           "a NULL integrand is PAGANI_ERR_NULL_POINTER");
    tap_ok(pagani_integrate(ctx, f, NULL, hi, &opt, &r) == PAGANI_ERR_NULL_POINTER,
           "NULL bounds are PAGANI_ERR_NULL_POINTER");
    tap_ok(pagani_integrate(ctx, f, lo, hi, &opt, NULL) == PAGANI_ERR_NULL_POINTER,
           "a NULL result is PAGANI_ERR_NULL_POINTER");
    tap_ok(pagani_integrate(NULL, f, lo, hi, &opt, &r) == PAGANI_ERR_NULL_POINTER,
           "a NULL context is PAGANI_ERR_NULL_POINTER");
    {
        pagani_context *other;
        pagani_context_create(&other, PAGANI_BACKEND_CPU);
        tap_ok(pagani_integrate(other, f, lo, hi, &opt, &r) == PAGANI_ERR_CONTEXT_MISMATCH,
               "an integrand of another context is PAGANI_ERR_CONTEXT_MISMATCH");
        pagani_context_destroy(other);
    }

    rc = pagani_integrand_from_source(ctx, &g, 2, "double y = x[0];\nreturn y +* ;", NULL, 0);
    tap_ok(rc == PAGANI_ERR_COMPILE && has(ctx, "integrand:2") && !g,
           "source that does not compile is PAGANI_ERR_COMPILE with the log");

    pagani_integrand_from_function(ctx, &g, 2, nan_at_corner, NULL, 0);
    rc = pagani_integrate(ctx, g, lo, hi, &opt, &r);
    tap_ok(rc == PAGANI_ERR_NONFINITE && has(ctx, "x = (0.9"),
           "NaN from the integrand is PAGANI_ERR_NONFINITE with the point: %s",
           pagani_context_message(ctx));
    pagani_integrand_destroy(g);
    pagani_integrand_from_function(ctx, &g, 2, inf_everywhere, NULL, 0);
    tap_ok(pagani_integrate(ctx, g, lo, hi, &opt, &r) == PAGANI_ERR_NONFINITE,
           "infinity from the integrand is PAGANI_ERR_NONFINITE");
    pagani_integrand_destroy(g);

    rc = pagani_integrate(ctx, f, lo, hi, &opt, &r);
    tap_ok(rc == PAGANI_OK && r.status == PAGANI_CONVERGED && fabs(r.value - 1.5) < 1e-12,
           "the context still integrates after the errors: %.15g", r.value);
    tap_ok(strcmp(pagani_strerror(PAGANI_ERR_BOUNDS), pagani_strerror(PAGANI_ERR_DIMENSION)) != 0 &&
           strcmp(pagani_strerror(12345), "unknown error code") == 0,
           "pagani_strerror names each code");
    {
        /* every status up to the last, PAGANI_HEAVY_TAIL, has its own name */
        int distinct = 1;
        for (int a = PAGANI_CONVERGED; a <= PAGANI_HEAVY_TAIL; a++)
            for (int b = PAGANI_CONVERGED; b <= PAGANI_HEAVY_TAIL; b++)
                if (strcmp(pagani_status_name((pagani_status)a), "unknown status") == 0 ||
                    (a != b && strcmp(pagani_status_name((pagani_status)a),
                                      pagani_status_name((pagani_status)b)) == 0))
                    distinct = 0;
        tap_ok(distinct && strcmp(pagani_status_name((pagani_status)(PAGANI_HEAVY_TAIL + 1)),
                                  "unknown status") == 0,
               "pagani_status_name names each status: '%s' for PAGANI_HEAVY_TAIL",
               pagani_status_name(PAGANI_HEAVY_TAIL));
    }

    pagani_integrand_destroy(f);
    pagani_context_destroy(ctx);
    pagani_integrand_destroy(NULL);
    pagani_context_destroy(NULL);
    tap_done();
    return tap_exit_code();
}
