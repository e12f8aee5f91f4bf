/*
 * parameter_scan.c - many integrals with changing parameters, the usual
 * pipeline: compile the integrand once and integrate it for a whole scan
 * of parameters in one pagani_integrate_batch call (on a GPU, one launch
 * per iteration serves the whole scan); pick Monte Carlo for the
 * high-dimensional one.
 *
 * Integrates exp(-a * sum x_i^2) over [0,1]^n for a = 0.5, 1, ..., 4 (and,
 * in 4 dimensions, a = 0.5 ... 64: 250 values): with cubature in 4
 * dimensions and with Vegas in 30.
 * Build: cc parameter_scan.c $(pkg-config --cflags --libs pagani)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

/* Integrates the scan a[0..count-1] in n dimensions in one call and
 * prints every `show`-th result and the worst true relative error. */
static int scan(pagani_context *ctx, int n, pagani_method method, double epsrel,
                const double *a, int count, int show)
{
    pagani_integrand *f = NULL;
    pagani_options opt = pagani_options_default(method);
    pagani_result *r = malloc((size_t)count * sizeof *r);
    double lo[30] = {0}, hi[30], worst = 0.0;
    int rc = r ? pagani_integrand_from_source(ctx, &f, n, source, &a[0], sizeof a[0])
               : PAGANI_ERR_NO_MEMORY;

    for (int i = 0; i < n; i++) hi[i] = 1.0;
    opt.epsrel = epsrel;
    opt.epsabs = 0.0; /* the values get tiny: ask for relative accuracy only */
    /* one box for all (box_stride 0), parameter block k = a[k] */
    if (rc == PAGANI_OK)
        rc = pagani_integrate_batch(ctx, f, count, a, sizeof a[0], lo, hi, 0, &opt, r);
    for (int k = 0; rc == PAGANI_OK && k < count; k++) {
        double t = truth(a[k], n);
        worst = fmax(worst, fabs(r[k].value - t) / t);
        if (k % show == 0)
            printf("%-8s n=%2d a=%-7.4g %.10g +- %.2g  true %.10g  %s\n",
                   pagani_method_name(r[k].method), n, a[k], r[k].value,
                   r[k].error, t, pagani_status_name(r[k].status));
    }
    if (rc == PAGANI_OK)
        printf("%d integrals in %.3f s, worst true relative error %.2g\n", count,
               r[0].seconds, worst);
    else
        fprintf(stderr, "%s: %s\n", pagani_strerror(rc), pagani_context_message(ctx));
    pagani_integrand_destroy(f);
    free(r);
    return rc;
}

int main(void)
{
    enum { FINE = 250 };
    static double fine[FINE];
    const double coarse[4] = {0.5, 1.0, 2.0, 4.0};
    pagani_context *ctx;
    int rc;

    for (int k = 0; k < FINE; k++) fine[k] = 0.5 * pow(128.0, k / (FINE - 1.0));
    if (pagani_context_create(&ctx, PAGANI_BACKEND_AUTO) != PAGANI_OK) return 1;
    rc = scan(ctx, 4, PAGANI_CUBATURE, 1e-8, fine, FINE, 31);
    if (rc == PAGANI_OK) rc = scan(ctx, 30, PAGANI_VEGAS, 1e-3, coarse, 4, 1);
    pagani_context_destroy(ctx);
    return rc != PAGANI_OK;
}
