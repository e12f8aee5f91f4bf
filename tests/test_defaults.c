/*
 * test_defaults.c - the defaults give honest answers (issue 31): epsabs 0
 * (relative convergence unless asked), "converged" never on nothing seen
 * (PAGANI_NO_SIGNAL), by_epsabs saying when epsabs decided, PAGANI_AUTO's
 * choice from a pilot sample, and the default evaluation budget. On the
 * CPU backend, with fixed seeds: every verdict is deterministic.
 */
#include <math.h>
#include <string.h>
#include "pagani.h"
#include "tap.h"

/* A Gaussian of integral pi^(3/2) over R^3, here over a box 2e6 wide. */
PAGANI_INTEGRAND(gauss3, { return exp(-(x[0] * x[0] + x[1] * x[1] + x[2] * x[2])); })
/* prod exp(-4.6 x_i) over [0,1]^6: about 1e-4. */
PAGANI_INTEGRAND(small6, {
    double s = 0.0;
    for (int i = 0; i < 6; i++) s += x[i];
    return exp(-4.6 * s);
})
PAGANI_INTEGRAND(zero, { return 0.0; })
PAGANI_INTEGRAND(tiny, { return 1e-305; })
/* Odd in x[0] over a box symmetric in it: 0, from nonzero values. */
PAGANI_INTEGRAND(odd, { return x[0] * exp(x[1]); })
/* Smooth in many dimensions: the real part of prod exp(i 0.3 x_k), an
 * analytic cos(0.3 sum x) = Re prod (e^(0.3 i) - 1) / (0.3 i). */
PAGANI_INTEGRAND(cos_sum, {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += x[i];
    return cos(0.3 * s);
})
PAGANI_INTEGRAND(exp_sum, {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += x[i];
    return exp(-s / n);
})
/* A Gaussian peak of width p[0] at p[1] in every axis. */
PAGANI_INTEGRAND(peak, {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += (x[i] - p[1]) * (x[i] - p[1]);
    return exp(-s / (2.0 * p[0] * p[0]));
})

static pagani_integrand *make(pagani_context *ctx, int n, const pagani_integrand_def *def)
{
    pagani_integrand *f = NULL;
    if (pagani_integrand_create(ctx, &f, n, def) != PAGANI_OK) return NULL;
    return f;
}

/* Integrates def over [lo, hi]^n. */
static int integrate(pagani_context *ctx, int n, const pagani_integrand_def *def,
                     const double *params, size_t params_size, double lo, double hi,
                     const pagani_options *opt, pagani_result *r)
{
    double lower[PAGANI_MAX_DIM], upper[PAGANI_MAX_DIM];
    pagani_integrand *f = make(ctx, n, def);
    int rc;

    if (!f) return -1;
    for (int i = 0; i < n; i++) lower[i] = lo, upper[i] = hi;
    rc = pagani_integrand_set_params(f, params, params_size);
    if (rc == PAGANI_OK) rc = pagani_integrate(ctx, f, lower, upper, opt, r);
    pagani_integrand_destroy(f);
    return rc;
}

/* Item 1: epsabs 0 by default, and what convergence then means. */
static void epsabs_checks(pagani_context *ctx)
{
    const pagani_method methods[3] = {PAGANI_CUBATURE, PAGANI_VEGAS, PAGANI_QMC};
    pagani_options opt = pagani_options_default(PAGANI_CUBATURE);
    pagani_result r;
    const double truth = pow(M_PI, 1.5);
    double v;
    int rc;

    tap_ok(opt.epsabs == 0.0 && opt.epsrel == 1e-3 && opt.max_evaluations == 0,
           "the defaults are epsrel 1e-3, epsabs 0, max_evaluations 0 (the "
           "backend's budget)");

    rc = integrate(ctx, 3, &gauss3, NULL, 0, -1e6, 1e6, &opt, &r);
    tap_ok(rc == PAGANI_OK && !(r.status == PAGANI_CONVERGED &&
                                 fabs(r.value - truth) > 1e-3 * truth),
           "a Gaussian in a box 2e6 wide is not converged on a wrong value "
           "(%.6g +- %.2g, %s; true %.6g)", r.value, r.error,
           pagani_status_name(r.status), truth);

    opt.epsrel = 1e-9;
    v = pow((1.0 - exp(-4.6)) / 4.6, 6);
    rc = integrate(ctx, 6, &small6, NULL, 0, 0.0, 1.0, &opt, &r);
    tap_ok(rc == PAGANI_OK && r.status == PAGANI_CONVERGED && !r.by_epsabs &&
               fabs(r.value - v) <= 1e-9 * v,
           "epsrel 1e-9 on a 6-D integral of 1e-4 meets 1e-9 relatively "
           "(true error %.2g, %s)", fabs(r.value - v) / v,
           pagani_status_name(r.status));

    /* Nothing seen: never converged, whatever epsabs. */
    for (int m = 0; m < 3; m++) {
        for (int abs = 0; abs < 2; abs++) {
            opt = pagani_options_default(methods[m]);
            opt.epsabs = abs ? 1e-6 : 0.0;
            opt.max_iterations = methods[m] == PAGANI_VEGAS ? 12 : 0;
            rc = integrate(ctx, 3, &zero, NULL, 0, 0.0, 1.0, &opt, &r);
            tap_ok(rc == PAGANI_OK && r.status == PAGANI_NO_SIGNAL && r.value == 0.0,
                   "%s, epsabs %g: f = 0 ends PAGANI_NO_SIGNAL (%s)",
                   pagani_method_name(methods[m]), opt.epsabs,
                   pagani_status_name(r.status));
        }
    }
    opt = pagani_options_default(PAGANI_CUBATURE);
    opt.epsabs = 1e-6;
    rc = integrate(ctx, 3, &tiny, NULL, 0, 0.0, 1.0, &opt, &r);
    tap_ok(rc == PAGANI_OK && r.status == PAGANI_NO_SIGNAL,
           "cubature: f = 1e-305 (below 1e-300 times the volume) is "
           "PAGANI_NO_SIGNAL (%s)", pagani_status_name(r.status));

    /* An odd f: 0 from nonzero values converges by epsabs, and says so. */
    for (int m = 0; m < 3; m++) {
        opt = pagani_options_default(methods[m]);
        opt.epsabs = methods[m] == PAGANI_CUBATURE ? 1e-10 : 1e-3;
        rc = integrate(ctx, 2, &odd, NULL, 0, -1.0, 1.0, &opt, &r);
        tap_ok(rc == PAGANI_OK && r.status == PAGANI_CONVERGED && r.by_epsabs == 1 &&
                   fabs(r.value) <= 3.0 * opt.epsabs,
               "%s: an odd f over a symmetric box converges by epsabs %g "
               "(%.3g +- %.2g, %s, by_epsabs %d)", pagani_method_name(methods[m]),
               opt.epsabs, r.value, r.error, pagani_status_name(r.status),
               r.by_epsabs);
    }
    opt = pagani_options_default(PAGANI_CUBATURE);
    opt.epsabs = 1e-3;
    rc = integrate(ctx, 2, &odd, NULL, 0, 0.0, 1.0, &opt, &r);
    tap_ok(rc == PAGANI_OK && r.status == PAGANI_CONVERGED && r.by_epsabs == 0,
           "a result that meets epsrel is not by_epsabs (%s, by_epsabs %d)",
           pagani_status_name(r.status), r.by_epsabs);
}

/* Item 2: AUTO's choice over a seeded set. */
static void auto_checks(pagani_context *ctx)
{
    pagani_options opt = pagani_options_default(PAGANI_AUTO);
    pagani_result r, q;
    int rc;

    rc = integrate(ctx, 6, &exp_sum, NULL, 0, 0.0, 1.0, &opt, &r);
    tap_ok(rc == PAGANI_OK && r.method == PAGANI_CUBATURE &&
               r.auto_reason == PAGANI_AUTO_LOW_DIMENSION,
           "AUTO takes cubature in 6 dimensions (%s, reason %d)",
           pagani_method_name(r.method), r.auto_reason);

    for (unsigned long long seed = 1; seed <= 3; seed++) {
        static const int dims[2] = {16, 30};
        for (int d = 0; d < 2; d++) {
            const int n = dims[d];
            const pagani_integrand_def *def = d ? &cos_sum : &exp_sum;
            double truth;
            opt = pagani_options_default(PAGANI_AUTO);
            opt.epsrel = 1e-4;
            opt.seed = seed;
            if (d) { /* Re ((e^(0.3i) - 1) / (0.3i))^n */
                double mod = 2.0 * sin(0.15) / 0.3, arg = 0.15 * n;
                truth = pow(mod, n) * cos(arg);
            } else {
                truth = pow(n * (1.0 - exp(-1.0 / n)), n);
            }
            rc = integrate(ctx, n, def, NULL, 0, 0.0, 1.0, &opt, &r);
            opt.method = PAGANI_QMC; /* the same run, without the pilot */
            if (rc == PAGANI_OK) rc = integrate(ctx, n, def, NULL, 0, 0.0, 1.0, &opt, &q);
            tap_ok(rc == PAGANI_OK && r.method == PAGANI_QMC &&
                       r.value == q.value &&
                       r.evaluations >= q.evaluations + 16 * 1024 &&
                       r.auto_reason == PAGANI_AUTO_SMOOTH &&
                       r.status == PAGANI_CONVERGED &&
                       fabs(r.value - truth) <= 3e-4 * fabs(truth),
                   "seed %llu: AUTO takes QMC for the smooth %s in %d-D "
                   "(%s, reason %d, %s, true error %.2g, %lld evaluations "
                   "with the pilot, %lld without)",
                   seed, d ? "cos(0.3 sum x)" : "exp(-sum x / n)", n,
                   pagani_method_name(r.method), r.auto_reason,
                   pagani_status_name(r.status),
                   fabs(r.value - truth) / fabs(truth), r.evaluations,
                   q.evaluations);
        }
        for (int w = 0; w < 2; w++) {
            const double params[2] = {w ? 0.05 : 0.1, 0.3 + 0.1 * (double)seed};
            opt = pagani_options_default(PAGANI_AUTO);
            opt.seed = seed;
            opt.max_iterations = 2; /* the choice is what is tested */
            rc = integrate(ctx, 16, &peak, params, sizeof params, 0.0, 1.0, &opt, &r);
            tap_ok(rc == PAGANI_OK && r.method == PAGANI_VEGAS &&
                       (r.auto_reason == PAGANI_AUTO_ROUGH ||
                        r.auto_reason == PAGANI_AUTO_NO_SIGNAL),
                   "seed %llu: AUTO takes Vegas for a Gaussian peak of width "
                   "%g in 16-D (%s, reason %d)", seed, params[0],
                   pagani_method_name(r.method), r.auto_reason);
        }
    }
    opt = pagani_options_default(PAGANI_QMC);
    rc = integrate(ctx, 16, &exp_sum, NULL, 0, 0.0, 1.0, &opt, &r);
    tap_ok(rc == PAGANI_OK && r.auto_reason == PAGANI_AUTO_NOT_USED,
           "a named method has auto_reason PAGANI_AUTO_NOT_USED");
}

/* Item 3: every method's default ends within the CPU's budget on an
 * integral that cannot converge, 1/sqrt(x) to 1e-14 (a singularity at 0;
 * source, compiled, to spend the budget sooner). */
static void budget_checks(pagani_context *ctx)
{
    const pagani_method methods[3] = {PAGANI_CUBATURE, PAGANI_VEGAS, PAGANI_QMC};
    const double lo = 0.0, hi = 1.0;
    pagani_integrand *f = NULL;

    if (pagani_integrand_from_source(ctx, &f, 1, "1.0 / sqrt(x[0])", NULL, 0) !=
        PAGANI_OK) {
        tap_ok(0, "1/sqrt(x) compiles: %s", pagani_context_message(ctx));
        return;
    }
    for (int m = 0; m < 3; m++) {
        pagani_options opt = pagani_options_default(methods[m]);
        pagani_result r;
        int rc;
        opt.epsrel = 1e-14;
        rc = pagani_integrate(ctx, f, &lo, &hi, &opt, &r);
        tap_ok(rc == PAGANI_OK && r.status != PAGANI_CONVERGED &&
                   r.evaluations > 0 &&
                   r.evaluations <= PAGANI_DEFAULT_EVALUATIONS_CPU &&
                   (methods[m] != PAGANI_QMC || r.status == PAGANI_MAX_EVALUATIONS),
               "%s: the default ends within %lld evaluations on the CPU "
               "(%lld, %s)", pagani_method_name(methods[m]),
               PAGANI_DEFAULT_EVALUATIONS_CPU, r.evaluations,
               pagani_status_name(r.status));
    }
    pagani_integrand_destroy(f);
}

int main(void)
{
    pagani_context *ctx;

    if (pagani_context_create(&ctx, PAGANI_BACKEND_CPU) != PAGANI_OK) return 1;
    epsabs_checks(ctx);
    auto_checks(ctx);
    budget_checks(ctx);
    pagani_context_destroy(ctx);
    tap_done();
    return tap_exit_code();
}
