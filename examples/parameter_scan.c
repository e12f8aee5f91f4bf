/*
 * parameter_scan.c - many integrals with changing parameters, the usual
 * pipeline: compile the integrand once, change its parameter block between
 * calls, and pick Monte Carlo for the high-dimensional one.
 *
 * Integrates exp(-a * sum x_i^2) over [0,1]^n for several a: with
 * cubature in 4 dimensions and with Vegas in 30.
 * Build: cc parameter_scan.c $(pkg-config --cflags --libs pagani)
 */
#include <math.h>
#include <stdio.h>
#include <pagani.h>

static const char *source =
    "double s = 0.0;\n"
    "for (int i = 0; i < n; i++) s += x[i] * x[i];\n"
    "return exp(-p[0] * s);\n";

/* The exact value: (sqrt(pi / a) / 2 * erf(sqrt(a)))^n. */
static double truth(double a, int n)
{
    return pow(sqrt(M_PI / a) / 2.0 * erf(sqrt(a)), n);
}

static int scan(pagani_context *ctx, int n, pagani_method method, double epsrel)
{
    pagani_integrand *f;
    pagani_options opt = pagani_options_default(method);
    double lo[30] = {0}, hi[30], a = 0.5;
    int rc = pagani_integrand_from_source(ctx, &f, n, source, &a, sizeof a);

    for (int i = 0; i < n; i++) hi[i] = 1.0;
    opt.epsrel = epsrel;
    opt.epsabs = 0.0; /* the values get tiny: ask for relative accuracy only */
    for (; rc == PAGANI_OK && a <= 4.0; a *= 2) {
        pagani_result r;
        rc = pagani_integrand_set_params(f, &a, sizeof a);
        if (rc == PAGANI_OK) rc = pagani_integrate(ctx, f, lo, hi, &opt, &r);
        if (rc == PAGANI_OK)
            printf("%-8s n=%2d a=%.1f  %.10g +- %.2g  true %.10g  %s\n",
                   pagani_method_name(r.method), n, a, r.value, r.error,
                   truth(a, n), pagani_status_name(r.status));
    }
    if (rc != PAGANI_OK)
        fprintf(stderr, "%s: %s\n", pagani_strerror(rc),
                pagani_context_message(ctx));
    pagani_integrand_destroy(f);
    return rc;
}

int main(void)
{
    pagani_context *ctx;
    int rc;

    if (pagani_context_create(&ctx, PAGANI_BACKEND_AUTO) != PAGANI_OK) return 1;
    rc = scan(ctx, 4, PAGANI_CUBATURE, 1e-8);
    if (rc == PAGANI_OK) rc = scan(ctx, 30, PAGANI_VEGAS, 1e-3);
    pagani_context_destroy(ctx);
    return rc != PAGANI_OK;
}
