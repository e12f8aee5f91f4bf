/*
 * test_domains.c - unbounded axes (README, "Domains and singularities")
 * on the CPU backend: the change of variables at known points and its
 * ends (no Jacobian: the point contributes 0); which bounds are accepted
 * and refused; against analytic values, Gaussian moments over R^n (n = 1
 * to 4, widths 0.1 to 10, centres up to 10, domain_scale the default or
 * chosen), exp(-|x|) products over half-lines of either side beside a
 * finite axis, and (1 + r^2)^-2 over R^3 (pi^2): cubature at epsrel 1e-6
 * converges on every one with its true error within the tolerance; QMC
 * and Vegas at 1e-3 (mc_sigmas 3) never call converged a value whose true
 * error exceeds it. Source integrands (the generated wrapper, which NVRTC
 * compiles too) and host functions (the library's wrapper), batches and
 * vector integrands.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "pagani.h"
#include "domain/domain.h"
#include "domain_cases.h"
#include "tap.h"

/* Cubature's evaluation cap: far above what any case here needs. */
#define CUBATURE_CAP 50000000LL

/* x0^2 times the normal density of centre p[0] and width p[1] on every
 * axis: the second moment, p[0]^2 + p[1]^2. */
static const char moment_source[] =
    "double s = 0.0;\n"
    "for (int i = 0; i < n; i++) {\n"
    "    double z = (x[i] - p[0]) / p[1];\n"
    "    s += z * z;\n"
    "}\n"
    "return x[0] * x[0] * exp(-0.5 * s) / pow(p[1] * sqrt(2.0 * M_PI), n);\n";

/* The normal density of centre p[0], width p[1] times (1, x0, x0^2):
 * 1, p[0], p[0]^2 + p[1]^2 over R^n. */
PAGANI_VECTOR_INTEGRAND(moments, 3, {
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        double z = (x[i] - p[0]) / p[1];
        s += z * z;
    }
    f[0] = exp(-0.5 * s) / pow(p[1] * sqrt(2.0 * M_PI), n);
    f[1] = x[0] * f[0];
    f[2] = x[0] * f[1];
})

static double rel_error(double value, double truth)
{
    return fabs(value - truth) / fabs(truth);
}

static pagani_options options_for(pagani_method method, double epsrel,
                                  double scale)
{
    pagani_options o = pagani_options_default(method);
    o.epsrel = epsrel;
    o.domain_scale = scale;
    o.mc_sigmas = 3.0;
    if (method == PAGANI_CUBATURE) o.max_evaluations = CUBATURE_CAP;
    return o;
}

/* One check of a result against truth: cubature must converge within
 * epsrel (smooth: the integrand is smooth in the map's variables) or, on
 * an integrand that is not, say converged only within epsrel and report
 * an error no smaller than the true one; Monte Carlo must be within
 * epsrel whenever it says converged. */
static void judge(int rc, const pagani_result *r, pagani_method method,
                  double epsrel, double truth, int smooth, const char *what)
{
    double err = rel_error(r->value, truth);
    const char *name = pagani_method_name(method);

    if (rc != PAGANI_OK) {
        tap_ok(0, "%s %s: %s", name, what, pagani_strerror(rc));
        return;
    }
    if (method == PAGANI_CUBATURE && !smooth)
        tap_ok((r->status != PAGANI_CONVERGED || err <= epsrel) &&
                   r->error >= fabs(r->value - truth),
               "%s %s: %s, true error %.2g, reported %.2g: honest", name,
               what, pagani_status_name(r->status), err,
               r->error / fabs(truth));
    else if (method == PAGANI_CUBATURE)
        tap_ok(r->status == PAGANI_CONVERGED && err <= epsrel,
               "%s %s: %s, true error %.2g <= %g (%.3g evaluations)", name,
               what, pagani_status_name(r->status), err, epsrel,
               (double)r->evaluations);
    else
        tap_ok(r->status != PAGANI_CONVERGED || err <= epsrel,
               "%s %s: %s, true error %.2g (%.2g reported): no false "
               "convergence at %g", name, what,
               pagani_status_name(r->status), err,
               r->error / fabs(truth), epsrel);
}

/* The map at known points, and 0 where it has no Jacobian. */
static void check_map(void)
{
    double h[PAGANI_DOMAIN_HEADER(3)] = {0}, x[3], jacobian;
    const double t[3] = {0.5, 0.5, 0.5};
    const double end_up[3] = {1.0, 0.5, 0.5}, end_both[3] = {0.5, 0.5, -1.0};

    h[1] = 3;
    h[4] = PAGANI_DOMAIN_UPPER_INFINITE; h[5] = 2.0; h[6] = 3.0;
    h[7] = PAGANI_DOMAIN_LOWER_INFINITE; h[8] = 1.0; h[9] = 2.0;
    h[10] = PAGANI_DOMAIN_BOTH_INFINITE; h[11] = -1.0; h[12] = 2.0;
    jacobian = pagani_domain_map(h, 3, t, x);
    /* 2 + 3 (0.5/0.5); 1 - 2 (0.5/0.5); -1 + 2 (0.5/0.75); Jacobians
     * 3/0.25, 2/0.25, 2 (1.25)/0.75^2 */
    tap_ok(fabs(x[0] - 5.0) < 1e-15 && fabs(x[1] + 1.0) < 1e-15 &&
           fabs(x[2] - 1.0 / 3.0) < 1e-15 &&
           fabs(jacobian - 12.0 * 8.0 * 2.5 / 0.5625) < 1e-12,
           "map at t = 0.5: x = (%g, %g, %g), dx/dt = %g", x[0], x[1], x[2],
           jacobian);
    tap_ok(pagani_domain_map(h, 3, end_up, x) == 0.0 &&
           pagani_domain_map(h, 3, end_both, x) == 0.0,
           "map at t = 1 of a half-line and t = -1 of the line: 0");
}

/* The exponential map at known points, and 0 at t = 0, its infinite
 * end. */
static void check_exponential_map(void)
{
    double h[PAGANI_DOMAIN_HEADER(3)] = {0}, x[3], jacobian;
    const double t[3] = {0.5, 0.25, -0.25};
    const double end_up[3] = {0.0, 0.5, 0.5}, end_both[3] = {0.5, 0.5, -0.0};

    h[1] = 3;
    h[4] = PAGANI_DOMAIN_UPPER_EXPONENTIAL; h[5] = 2.0; h[6] = 3.0;
    h[7] = PAGANI_DOMAIN_LOWER_EXPONENTIAL; h[8] = 1.0; h[9] = 2.0;
    h[10] = PAGANI_DOMAIN_BOTH_EXPONENTIAL; h[11] = 10.0; h[12] = 2.0;
    jacobian = pagani_domain_map(h, 3, t, x);
    /* 2 + 3 log 2; 1 - 2 log 4; 10 - 2 log 4 (t < 0: below the centre);
     * Jacobians 3/0.5, 2/0.25, 2/0.25 */
    tap_ok(fabs(x[0] - (2.0 + 3.0 * log(2.0))) < 1e-15 &&
           fabs(x[1] - (1.0 - 2.0 * log(4.0))) < 1e-15 &&
           fabs(x[2] - (10.0 - 2.0 * log(4.0))) < 1e-14 &&
           fabs(jacobian - 6.0 * 8.0 * 8.0) < 1e-12,
           "exponential map: x = (%.17g, %.17g, %.17g), dx/dt = %g", x[0],
           x[1], x[2], jacobian);
    tap_ok(pagani_domain_map(h, 3, end_up, x) == 0.0 &&
           pagani_domain_map(h, 3, end_both, x) == 0.0,
           "exponential map at t = 0 (a half-line's and the line's "
           "infinite end): 0");
}

/* The map's options refused, each PAGANI_ERR_OPTION naming the field. */
static void check_map_options(pagani_context *ctx, pagani_integrand *f)
{
    const double bad_centers[1] = {NAN}, bad_scales[3][1] = {{-1.0},
                                                             {INFINITY},
                                                             {NAN}};
    const double lo = -INFINITY, hi = INFINITY;
    pagani_options o = options_for(PAGANI_CUBATURE, 1e-3, 0.0);
    pagani_result r;
    int got;

    o.domain_map = (pagani_map)2;
    got = pagani_integrate(ctx, f, &lo, &hi, &o, &r);
    tap_ok(got == PAGANI_ERR_OPTION &&
               strstr(pagani_context_message(ctx), "domain_map"),
           "domain_map 2 refused: %s", pagani_context_message(ctx));
    o = options_for(PAGANI_CUBATURE, 1e-3, 0.0);
    o.domain_centers = bad_centers;
    got = pagani_integrate(ctx, f, &lo, &hi, &o, &r);
    tap_ok(got == PAGANI_ERR_OPTION &&
               strstr(pagani_context_message(ctx), "domain_centers[0]"),
           "a NaN centre refused: %s", pagani_context_message(ctx));
    o.domain_centers = NULL;
    for (int i = 0; i < 3; i++) {
        o.domain_scales = bad_scales[i];
        got = pagani_integrate(ctx, f, &lo, &hi, &o, &r);
        tap_ok(got == PAGANI_ERR_OPTION &&
                   strstr(pagani_context_message(ctx), "domain_scales[0]"),
               "domain_scales[0] = %g refused: %s", bad_scales[i][0],
               pagani_context_message(ctx));
    }
}

/* Bounds and options accepted and refused. */
static void check_input(pagani_context *ctx)
{
    static const struct {
        double lower, upper;
        int code;
    } cases[] = {
        {-INFINITY, INFINITY, PAGANI_OK}, {0.0, INFINITY, PAGANI_OK},
        {-INFINITY, 0.0, PAGANI_OK}, {NAN, 1.0, PAGANI_ERR_BOUNDS},
        {0.0, NAN, PAGANI_ERR_BOUNDS}, {INFINITY, INFINITY, PAGANI_ERR_BOUNDS},
        {-INFINITY, -INFINITY, PAGANI_ERR_BOUNDS},
        {0.0, -INFINITY, PAGANI_ERR_BOUNDS},
        {INFINITY, 0.0, PAGANI_ERR_BOUNDS},
        {-1e308, 1e308, PAGANI_ERR_BOUNDS}, {1.0, 1.0, PAGANI_ERR_BOUNDS},
    };
    const double scales[] = {-1.0, NAN, INFINITY};
    const double params[2] = {1.0, 1.0};
    pagani_integrand *f = NULL;
    pagani_options o = options_for(PAGANI_CUBATURE, 1e-3, 0.0);
    pagani_result r;
    long long record[PAGANI_QMC_PART_WORDS(16)];
    double lo = -INFINITY, hi = INFINITY;
    int rc;

    rc = pagani_integrand_from_function(ctx, &f, 1, laplace, params,
                                        sizeof params);
    for (size_t i = 0; rc == PAGANI_OK && i < sizeof cases / sizeof *cases;
         i++) {
        int got = pagani_integrate(ctx, f, &cases[i].lower, &cases[i].upper,
                                   &o, &r);
        tap_ok(got == cases[i].code, "bounds [%g, %g]: %s (%s)",
               cases[i].lower, cases[i].upper, pagani_strerror(got),
               pagani_context_message(ctx));
    }
    for (size_t i = 0; rc == PAGANI_OK && i < 3; i++) {
        int got;
        o.domain_scale = scales[i];
        got = pagani_integrate(ctx, f, &lo, &hi, &o, &r);
        tap_ok(got == PAGANI_ERR_OPTION, "domain_scale %g refused: %s",
               scales[i], pagani_context_message(ctx));
    }
    if (rc == PAGANI_OK) check_map_options(ctx, f);
    o = options_for(PAGANI_QMC, 1e-3, 0.0);
    rc = rc == PAGANI_OK ? pagani_qmc_part(ctx, f, &lo, &hi, &o, 1 << 10, 0,
                                           1, record)
                         : rc;
    tap_ok(rc == PAGANI_ERR_BOUNDS, "QMC parts refuse an unbounded axis: %s",
           pagani_context_message(ctx));
    pagani_integrand_destroy(f);
}

/* Gaussian second moments over R^n from source, every method. */
static void check_gaussians(pagani_context *ctx)
{
    static const struct {
        double centre, width, scale; /* scale 0: the default, 1 */
    } cases[] = {
        {0.0, 1.0, 0.0}, {0.0, 0.1, 0.1}, {0.0, 10.0, 10.0},
        {10.0, 1.0, 10.0}, {10.0, 10.0, 10.0}, {3.0, 0.1, 3.0},
    };
    double lower[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
    double upper[4] = {INFINITY, INFINITY, INFINITY, INFINITY};

    for (int n = 1; n <= 4; n++) {
        for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
            const double params[2] = {cases[c].centre, cases[c].width};
            const double truth = params[0] * params[0] + params[1] * params[1];
            const pagani_method methods[3] = {PAGANI_CUBATURE, PAGANI_QMC,
                                              PAGANI_VEGAS};
            pagani_integrand *f = NULL;
            char what[96];
            int rc = pagani_integrand_from_source(ctx, &f, n, moment_source,
                                                  params, sizeof params);
            /* Monte Carlo on the narrow ones in 1-D and 2-D only: a
             * Gaussian of width 0.1 about 3 fills 1e-4 of the 4-D box */
            int mc = n <= 2 || cases[c].width >= cases[c].centre;

            /* centred at 0 with the scale its width, the integrand in t is
             * the same for every width: in 4-D (the slowest) once */
            if (n == 4 && cases[c].centre == 0.0 && cases[c].scale != 0.0)
                continue;

            snprintf(what, sizeof what, "x0^2 Gaussian over R^%d, centre %g, "
                     "width %g, scale %g", n, cases[c].centre, cases[c].width,
                     cases[c].scale);
            for (int m = 0; m < (mc ? 3 : 1); m++) {
                double epsrel = m == 0 ? 1e-6 : 1e-3;
                pagani_options o = options_for(methods[m], epsrel,
                                               cases[c].scale);
                pagani_result r;
                int got = rc == PAGANI_OK
                              ? pagani_integrate(ctx, f, lower, upper, &o, &r)
                              : rc;
                judge(got, &r, methods[m], epsrel, truth, 1, what);
            }
            pagani_integrand_destroy(f);
        }
    }
}

/* f over [lower, upper] with cubature at 1e-6 and QMC and Vegas at 1e-3
 * (the default scale), each judged against truth (smooth: as judge). */
static void every_method(pagani_context *ctx, pagani_integrand *f,
                         const double *lower, const double *upper,
                         double truth, int smooth, const char *what)
{
    const pagani_method methods[3] = {PAGANI_CUBATURE, PAGANI_QMC,
                                      PAGANI_VEGAS};

    for (int m = 0; m < 3; m++) {
        double epsrel = m == 0 ? 1e-6 : 1e-3;
        pagani_options o = options_for(methods[m], epsrel, 0.0);
        pagani_result r;
        int rc = pagani_integrate(ctx, f, lower, upper, &o, &r);
        judge(rc, &r, methods[m], epsrel, truth, smooth, what);
    }
}

/* exp(-|x|) products over half-lines (host function), beside a finite
 * axis, every method. */
static void check_half_lines(pagani_context *ctx)
{
    /* rates 2, 0.5, 1; ends 1, -3, 0 */
    const double params[6] = {2.0, 0.5, 1.0, 1.0, -3.0, 0.0};
    const double lower[3] = {1.0, -INFINITY, 0.0};
    const double upper[3] = {INFINITY, -3.0, 1.0};
    pagani_integrand *f = NULL;
    int rc = pagani_integrand_from_function(ctx, &f, 3, laplace, params,
                                            sizeof params);

    if (tap_ok(rc == PAGANI_OK, "exp(-|x|): %s", pagani_strerror(rc)))
        every_method(ctx, f, lower, upper, 0.5 * 2.0 * (1.0 - exp(-1.0)), 1,
                     "exp(-|x|) on [1,inf) x (-inf,-3] x [0,1]");
    pagani_integrand_destroy(f);
}

/* (1 + r^2)^-2 over R^3, every method. Its tail r^-4 is too slow for
 * the map's Jacobian (x^2 per axis): in t, f J grows as x^2 toward the
 * corners where every |x_i| is large, an integrable corner singularity
 * that cubature does not resolve (README, "Domains and singularities"):
 * it must stay honest. */
static void check_power_tail(pagani_context *ctx)
{
    const double lower[3] = {-INFINITY, -INFINITY, -INFINITY};
    const double upper[3] = {INFINITY, INFINITY, INFINITY};
    pagani_integrand *f = NULL;
    const double k[1] = {2.0};
    int rc = pagani_integrand_from_function(ctx, &f, 3, power_tail, k,
                                            sizeof k);

    if (tap_ok(rc == PAGANI_OK, "(1+r^2)^-2: %s", pagani_strerror(rc)))
        every_method(ctx, f, lower, upper, M_PI * M_PI, 0,
                     "(1+r^2)^-2 over R^3");
    pagani_integrand_destroy(f);
}

/* A batch of Gaussians over R^2 with centres of their own, and a batch
 * of one Gaussian over boxes of their own (the line, a half-line, a
 * finite box): each result the single call's, bit for bit, and near the
 * truth. */
static void check_batches(pagani_context *ctx)
{
    const double params[3][2] = {{0.0, 1.0}, {1.0, 1.0}, {-2.0, 0.5}};
    const double lower[2] = {-INFINITY, -INFINITY};
    const double upper[2] = {INFINITY, INFINITY};
    /* one axis: (-inf, inf), [0, inf), [-1, 1] around centre 0 */
    const double box_lower[3] = {-INFINITY, 0.0, -1.0};
    const double box_upper[3] = {INFINITY, INFINITY, 1.0};
    const double box_truth[3] = {1.0, 0.5, erf(1.0 / sqrt(2.0))};
    pagani_options o = options_for(PAGANI_CUBATURE, 1e-6, 0.0);
    pagani_result batch[3], one;
    pagani_integrand *f = NULL, *g = NULL;
    int rc = pagani_integrand_from_source(ctx, &f, 2, moment_source,
                                          params[0], sizeof params[0]);

    if (rc == PAGANI_OK)
        rc = pagani_integrate_batch(ctx, f, 3, params, sizeof params[0], lower,
                                    upper, 0, &o, batch);
    for (int k = 0; k < 3; k++) {
        double truth = params[k][0] * params[k][0] + params[k][1] * params[k][1];
        int same = rc == PAGANI_OK &&
                   same_as_single(ctx, f, params[k], sizeof params[k], lower,
                                  upper, &o, &batch[k]);
        tap_ok(same && batch[k].status == PAGANI_CONVERGED &&
                   rel_error(batch[k].value, truth) <= 1e-6,
               "batch of centres over R^2, integral %d: the single call's "
               "value, true error %.2g", k,
               rc == PAGANI_OK ? rel_error(batch[k].value, truth) : NAN);
    }
    pagani_integrand_destroy(f);

    rc = pagani_integrand_from_source(ctx, &g, 1, "exp(-0.5 * x[0] * x[0]) / "
                                      "sqrt(2.0 * M_PI)", NULL, 0);
    if (rc == PAGANI_OK)
        rc = pagani_integrate_batch(ctx, g, 3, NULL, 0, box_lower, box_upper,
                                    1, &o, batch);
    for (int k = 0; k < 3; k++) {
        int same = rc == PAGANI_OK &&
                   pagani_integrate(ctx, g, box_lower + k, box_upper + k, &o,
                                    &one) == PAGANI_OK &&
                   one.value == batch[k].value;
        tap_ok(same && batch[k].status == PAGANI_CONVERGED &&
                   rel_error(batch[k].value, box_truth[k]) <= 1e-6,
               "batch of boxes [%g, %g]: the single call's value, true "
               "error %.2g", box_lower[k], box_upper[k],
               rc == PAGANI_OK ? rel_error(batch[k].value, box_truth[k]) : NAN);
    }
    pagani_integrand_destroy(g);
}

/* The moments (1, x0, x0^2) of a Gaussian over R^2 as a vector, from
 * the host function and from source, cubature and QMC. */
static void check_vectors(pagani_context *ctx)
{
    const double params[2] = {1.0, 2.0};
    const double truth[3] = {1.0, 1.0, 5.0};
    const double lower[2] = {-INFINITY, -INFINITY};
    const double upper[2] = {INFINITY, INFINITY};

    for (int form = 0; form < 2; form++) {
        for (int m = 0; m < 2; m++) {
            pagani_method method = m == 0 ? PAGANI_CUBATURE : PAGANI_QMC;
            double epsrel = m == 0 ? 1e-6 : 1e-3;
            pagani_options o = options_for(method, epsrel, 2.0);
            pagani_integrand *f = NULL;
            pagani_result r;
            double values[3], errors[3], worst = 0.0;
            int rc = form == 0
                         ? pagani_integrand_from_vector_function(
                               ctx, &f, 2, 3, moments.function, params,
                               sizeof params)
                         : pagani_integrand_from_vector_source(
                               ctx, &f, 2, 3, moments.source, params,
                               sizeof params);
            if (rc == PAGANI_OK)
                rc = pagani_integrate_vector(ctx, f, lower, upper, &o, &r,
                                             values, errors);
            for (int c = 0; rc == PAGANI_OK && c < 3; c++)
                worst = fmax(worst, rel_error(values[c], truth[c]));
            tap_ok(rc == PAGANI_OK &&
                       (method == PAGANI_CUBATURE
                            ? r.status == PAGANI_CONVERGED && worst <= epsrel
                            : r.status != PAGANI_CONVERGED || worst <= epsrel),
                   "vector moments over R^2 (%s, %s): %s, worst true error "
                   "%.2g", form == 0 ? "host function" : "source",
                   pagani_method_name(method),
                   rc == PAGANI_OK ? pagani_status_name(r.status)
                                   : pagani_strerror(rc), worst);
            pagani_integrand_destroy(f);
        }
    }
}

int main(void)
{
    pagani_context *ctx = NULL;

    if (pagani_context_create(&ctx, PAGANI_BACKEND_CPU) != PAGANI_OK) {
        printf("1..0 # SKIP no CPU context\n");
        pagani_context_destroy(ctx);
        return 0;
    }
    check_map();
    check_exponential_map();
    check_input(ctx);
    check_half_lines(ctx);
    check_power_tail(ctx);
    check_batches(ctx);
    check_vectors(ctx);
    check_gaussians(ctx);
    tap_done();
    pagani_context_destroy(ctx);
    return tap_exit_code();
}
