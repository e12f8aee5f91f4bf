/*
 * test_genz.c - whether PAGANI's cubature error estimate can be trusted,
 * on Genz's six families (genz.h) and the named cases of issue 19, on the
 * CPU backend.
 *
 * First the harness itself: the true values against independent
 * quadratures, and the families' source forms against their host forms.
 * Then a sweep of generated instances (families 1-6, n in {2,3,4,5,6,8},
 * epsrel 1e-3 .. 1e-7, seeds 1, 2, 3: every instance generated, none
 * picked), one TAP line each: "not ok" only for a false convergence (status
 * PAGANI_CONVERGED with a true relative error above epsrel) or an error
 * code; a run that stops unconverged at the evaluation cap is an honest
 * failure and passes. A summary follows, then the named cases.
 */
#define _GNU_SOURCE
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pagani.h"
#include "internal.h"
#include "genz.h"
#include "tap.h"

/* Evaluations one sweep run may spend (the whole test takes about 20 s
 * on two idle cores; 5e7 would take 50 s), and one run of a named case. */
#define SWEEP_CAP 20000000LL
#define NAMED_CAP 50000000LL

static const int sweep_dims[] = {2, 3, 4, 5, 6, 8};
static const double sweep_epsrel[] = {1e-3, 1e-4, 1e-5, 1e-6, 1e-7};
static const uint64_t sweep_seeds[] = {1, 2, 3};

#define COUNT(array) (int)(sizeof array / sizeof array[0])

/* ---- independent quadratures for the true values ---------------------- */

/* A one-dimensional rule: nodes and weights on [0,1]. */
#define AXIS_MAX 1280
typedef struct axis_rule {
    int count;
    double x[AXIS_MAX];
    long double w[AXIS_MAX];
} axis_rule;

/* Appends the m-point Gauss-Legendre rule (nodes gx, weights gw on
 * [-1,1]) mapped to [lo, hi]. */
static void add_panel(axis_rule *r, int m, const long double *gx,
                      const long double *gw, long double lo, long double hi)
{
    for (int q = 0; q < m && r->count < AXIS_MAX; q++, r->count++) {
        r->x[r->count] = (double)(0.5L * (lo + hi) + 0.5L * (hi - lo) * gx[q]);
        r->w[r->count] = 0.5L * (hi - lo) * gw[q];
    }
}

/* Appends panels over [lo, hi] whose widths halve `levels` times toward
 * the end `at` (lo or hi), where the integrand has its feature. */
static void add_graded(axis_rule *r, int m, const long double *gx,
                       const long double *gw, long double lo, long double hi,
                       long double at, int levels)
{
    long double len = hi - lo, dir = at == lo ? 1.0L : -1.0L;
    for (int k = 0; k < levels; k++) {
        long double near = at + dir * ldexpl(len, -(k + 1)),
                    far = at + dir * ldexpl(len, -k);
        add_panel(r, m, gx, gw, fminl(near, far), fmaxl(near, far));
    }
    add_panel(r, m, gx, gw, fminl(at, at + dir * ldexpl(len, -levels)),
              fmaxl(at, at + dir * ldexpl(len, -levels)));
}

/* The rule for axis i of instance g: 64 equal panels for the oscillatory
 * family; else panels graded toward the axis's feature (the corner 0 for
 * the corner peak, u_i for the others: peak, kink or jump). */
static void axis_rule_for(const genz_params *g, int i, int m, int levels,
                          axis_rule *r)
{
    long double gx[64], gw[64], c = g->u[i];

    genz_gauss_legendre(m, gx, gw);
    r->count = 0;
    if (g->family == GENZ_OSCILLATORY) {
        for (int k = 0; k < 64; k++)
            add_panel(r, m, gx, gw, k / 64.0L, (k + 1) / 64.0L);
    } else if (g->family == GENZ_CORNER_PEAK) {
        add_graded(r, m, gx, gw, 0.0L, 1.0L, 0.0L, levels);
    } else {
        add_graded(r, m, gx, gw, 0.0L, c, c, levels);
        add_graded(r, m, gx, gw, c, 1.0L, c, levels);
    }
}

/* The product of the axes' rules applied to the host function (n <= 3),
 * summed in long double. */
static long double product_quadrature(const genz_params *g, int m, int levels)
{
    static axis_rule axes[3];
    int idx[3] = {0, 0, 0}, n = g->n;
    long double sum = 0.0L;

    for (int i = 0; i < n; i++) axis_rule_for(g, i, m, levels, &axes[i]);
    for (;;) {
        double x[3] = {0, 0, 0};
        long double w = 1.0L;
        int i;
        for (i = 0; i < n; i++) {
            x[i] = axes[i].x[idx[i]];
            w *= axes[i].w[idx[i]];
        }
        sum += w * genz_function(x, n, g);
        for (i = 0; i < n && ++idx[i] == axes[i].count; i++) idx[i] = 0;
        if (i == n) return sum;
    }
}

/* The corner peak by inclusion-exclusion in long double: the sum over
 * subsets S of (-1)^|S| / (1 + sum_S a_i), over n! prod a_i. *condition
 * is the sum of the terms' magnitudes over the magnitude of the sum. */
static long double corner_inclusion_exclusion(const genz_params *g,
                                              double *condition)
{
    long double sum = 0.0L, size = 0.0L, scale = 1.0L;
    for (unsigned s = 0; s < 1u << g->n; s++) {
        long double denominator = 1.0L, term;
        int odd = 0;
        for (int i = 0; i < g->n; i++)
            if (s >> i & 1u) denominator += g->a[i], odd ^= 1;
        term = 1.0L / denominator;
        sum += odd ? -term : term;
        size += term;
    }
    for (int i = 0; i < g->n; i++) scale *= (i + 1) * (long double)g->a[i];
    *condition = (double)(size / fabsl(sum));
    return sum / scale;
}

/* Whether check is within tolerance of truth, relatively. */
static int agree(double truth, long double check, double tolerance)
{
    return fabsl(check - truth) <= tolerance * fabs(truth);
}

/* The 6-D Gaussian exp(-sum ((x_i - 0.448) / 0.05)^2). */
static void named_gaussian(genz_params *g)
{
    g->family = GENZ_GAUSSIAN;
    g->n = 6;
    for (int i = 0; i < 6; i++) g->a[i] = 20.0, g->u[i] = 0.448;
}

/* The instance (family, n <= 3, seed, multiplier): its true value
 * agrees with the product quadrature to 1e-12. */
static void check_quadrature(int family, int n, uint64_t seed,
                             double multiplier)
{
    genz_params g;
    long double q;
    double truth;

    genz_generate(&g, family, n, seed, multiplier);
    truth = genz_truth(&g);
    q = n == 3 ? product_quadrature(&g, 12, 24)
               : product_quadrature(&g, 20, 30);
    tap_ok(agree(truth, q, 1e-12),
           "true value of %s %dD seed %d x%g: %.17g, quadrature %.1e off",
           genz_name(family), n, (int)seed, multiplier, truth,
           (double)(fabsl(q - truth) / fabs(truth)));
}

/* Every family in 1 and 2 dimensions, and the corner peak in 3 and at a
 * hundredth and ten times its difficulty, against the product
 * quadrature; the corner peak in 1-2 D against its closed forms and in
 * 4-8 D against inclusion-exclusion; the named 6-D Gaussian against the
 * issue's formula. */
static void check_truths(void)
{
    genz_params g;

    for (int family = 1; family <= GENZ_FAMILIES; family++)
        for (int n = 1; n <= 2; n++)
            for (uint64_t seed = 1; seed <= 3; seed++)
                check_quadrature(family, n, seed, 1.0);
    for (uint64_t seed = 1; seed <= 2; seed++) {
        check_quadrature(GENZ_CORNER_PEAK, 3, seed, 1.0);
        for (int n = 1; n <= 3; n++) {
            check_quadrature(GENZ_CORNER_PEAK, n, seed, 0.01);
            check_quadrature(GENZ_CORNER_PEAK, n, seed, 10.0);
        }
    }
    for (uint64_t seed = 1; seed <= 3; seed++) {
        long double a, b;
        genz_generate(&g, GENZ_CORNER_PEAK, 1, seed, 1.0);
        a = g.a[0];
        tap_ok(agree(genz_truth(&g), 1.0L / (1.0L + a), 1e-14),
               "corner peak 1D seed %d: 1 / (1 + a)", (int)seed);
        genz_generate(&g, GENZ_CORNER_PEAK, 2, seed, 0.001);
        a = g.a[0], b = g.a[1];
        tap_ok(agree(genz_truth(&g),
                     (2 + a + b) / (2 * (1 + a) * (1 + b) * (1 + a + b)),
                     1e-14),
               "corner peak 2D seed %d x0.001: (2+a+b) / (2(1+a)(1+b)(1+a+b))",
               (int)seed);
    }
    for (int n = 4; n <= 8; n++) {
        double condition, truth;
        long double sum;
        genz_generate(&g, GENZ_CORNER_PEAK, n, 1, 1.0);
        truth = genz_truth(&g);
        sum = corner_inclusion_exclusion(&g, &condition);
        tap_ok(agree(truth, sum, 1e-13 + 1e-18 * condition),
               "corner peak %dD: inclusion-exclusion (condition %.1e) %.3e off",
               n, condition, (double)(fabsl(sum - truth) / truth));
    }
    {
        double one = 0.05 * sqrt(M_PI) / 2 *
                     (erf((1 - 0.448) / 0.05) + erf(0.448 / 0.05));
        named_gaussian(&g);
        tap_ok(agree(genz_truth(&g), pow(one, 6), 1e-14),
               "6D Gaussian of width 0.05 at 0.448: the issue's value %.17g",
               pow(one, 6));
    }
}

/* ---- source forms ---------------------------------------------------- */

/* Each family's source, compiled by the CPU backend, gives the host
 * function's values at random points (1 and 4 dimensions). */
static void check_sources(pagani_context *ctx)
{
    uint64_t state = 12345;

    for (int family = 1; family <= GENZ_FAMILIES; family++)
        for (int n = 1; n <= 4; n += 3) {
            genz_params g;
            double packed[2 * GENZ_MAX_DIM], worst = 0.0;
            pagani_integrand *f = NULL;
            int rc;

            genz_generate(&g, family, n, 7, 1.0);
            genz_pack(&g, packed);
            rc = pagani_integrand_from_source(ctx, &f, n, genz_source(family),
                                              packed, 2 * n * sizeof(double));
            for (int k = 0; rc == PAGANI_OK && k < 8; k++) {
                double x[GENZ_MAX_DIM], host, source;
                for (int i = 0; i < n; i++) x[i] = genz_uniform(&state);
                host = genz_function(x, n, &g);
                source = f->function(x, n, f->params);
                if (host != source)
                    worst = fmax(worst, fabs(source - host) /
                                            fmax(fabs(host), 1e-300));
            }
            tap_ok(rc == PAGANI_OK && worst <= 1e-14,
                   "%s %dD: source = host function at 8 points (worst "
                   "%.1e)%s%s",
                   genz_name(family), n, worst, rc ? ": " : "",
                   rc ? pagani_context_message(ctx) : "");
            pagani_integrand_destroy(f);
        }
}

/* ---- integration ----------------------------------------------------- */

/* Integrates f over [0,1]^n by cubature at epsrel (epsabs 0: relative
 * error only) under max_evaluations; prints the failure when it is one. */
static int integrate(pagani_context *ctx, int n, pagani_function f,
                     const void *params, size_t params_size, double epsrel,
                     unsigned flags, long long max_evaluations,
                     pagani_result *r)
{
    pagani_integrand *integrand = NULL;
    pagani_options opt = pagani_options_default(PAGANI_CUBATURE);
    double lower[GENZ_MAX_DIM] = {0}, upper[GENZ_MAX_DIM];
    int rc;

    for (int i = 0; i < n; i++) upper[i] = 1.0;
    opt.epsrel = epsrel;
    opt.epsabs = 0.0;
    opt.flags = flags;
    opt.max_evaluations = max_evaluations;
    memset(r, 0, sizeof *r);
    rc = pagani_integrand_from_function(ctx, &integrand, n, f, params,
                                        params_size);
    if (rc == PAGANI_OK)
        rc = pagani_integrate(ctx, integrand, lower, upper, &opt, r);
    if (rc != PAGANI_OK)
        tap_diag("%s: %s", pagani_strerror(rc), pagani_context_message(ctx));
    pagani_integrand_destroy(integrand);
    return rc;
}

/* Integrates a Genz instance under cap evaluations and judges it; returns
 * the outcome (-1 for an error code) and prints its TAP line. */
static int run_instance(pagani_context *ctx, const genz_params *g,
                        uint64_t seed, double epsrel, long long cap,
                        const char *label, genz_tally *t)
{
    pagani_result r;
    double truth = genz_truth(g);
    int rc = integrate(ctx, g->n, genz_function, g, sizeof *g, epsrel,
                       genz_cubature_flags(g->family), cap, &r);
    genz_outcome outcome = rc == PAGANI_OK
                               ? genz_tally_add(t, &r, truth, epsrel)
                               : GENZ_NOT_CONVERGED;

    int ok = rc == PAGANI_OK && outcome != GENZ_FALSE_CONVERGENCE;
    const char *fmt = "%s f%d %s n=%d seed=%d epsrel=%.0e: %s, reported "
                      "%.2e, true %.2e (%lld evaluations, %.2f s)%s";
    const char *status = rc ? pagani_strerror(rc) : pagani_status_name(r.status);
    const char *mark = outcome == GENZ_FALSE_CONVERGENCE ? " FALSE CONVERGENCE" : "";

    tap_ok(ok, fmt, label, g->family, genz_name(g->family), g->n, (int)seed, epsrel,
           status, r.error / fabs(r.value), fabs(r.value - truth) / fabs(truth),
           r.evaluations, r.seconds, mark);
    return rc == PAGANI_OK ? (int)outcome : -1;
}

/* The sweep of generated instances, and its summary. */
static void sweep(pagani_context *ctx)
{
    genz_tally t = {0};
    int skipped = 0, errors = 0;

    for (int family = 1; family <= GENZ_FAMILIES; family++)
        for (int d = 0; d < COUNT(sweep_dims); d++)
            for (int s = 0; s < COUNT(sweep_seeds); s++) {
                genz_params g;
                genz_generate(&g, family, sweep_dims[d], sweep_seeds[s], 1.0);
                for (int e = 0; e < COUNT(sweep_epsrel); e++) {
                    if (!genz_judged(&g)) {
                        tap_skip("sweep f%d n=%d seed=%d epsrel=%.0e: |I| "
                                 "below %g of its amplitude", family, g.n,
                                 (int)sweep_seeds[s], sweep_epsrel[e],
                                 GENZ_MIN_CANCELLATION);
                        skipped++;
                        continue;
                    }
                    if (run_instance(ctx, &g, sweep_seeds[s], sweep_epsrel[e],
                                     SWEEP_CAP, "sweep", &t) < 0)
                        errors++;
                }
            }
    tap_diag("sweep: %d runs, %d converged, %d false convergences, %d honest "
             "failures (not converged), %d errors, %d skipped; median "
             "reported/true error among converged %.3g (%.0f s)",
             t.runs + errors, t.converged, t.false_convergences,
             t.not_converged, errors, skipped, genz_tally_median(&t),
             t.seconds);
    genz_tally_free(&t);
}

/* ---- the named cases ----------------------------------------- */

/* (a) exp(-sum ((x_i - 0.448)/0.05)^2) in 6-D at 1e-5: no false
 * convergence. (b) Genz discontinuous in 5-D with its jump at x_1 =
 * 0.0626544, 1.5e-4 past the bisection point 0.0625, and none on x_2
 * (u_2 = 1), once with a_i = 0 (the indicator, I = 0.0626544) and once
 * with the standard a of seed 1: no false convergence at 1e-3, 1e-5,
 * 1e-7. (f) Genz C0 in 4-D, seed 106 at twice the standard difficulty
 * (found by bench_genz -r 15 -s 100 -m 2): its kink on x_4 lies at
 * 0.7489, 0.0011 inside the face 0.75 of the first regions, where the
 * axial probes' spread of 4 missed it and 1e-6 converged with 10 times
 * the error it reported: no false convergence at 1e-5, 1e-6, 1e-7. (g)
 * Genz product peak in 5-D, seed 303 at 1.5 times the standard
 * difficulty (bench_genz -r 10 -s 300 -m 1.5): the relative-error filter
 * finished the region holding the peak, 11% of the integral, whose E was
 * 1/64 of its true error, and 1e-4 converged six times off: no false
 * convergence at 1e-4. */
static void check_named_genz(pagani_context *ctx)
{
    static const double discontinuous_epsrel[] = {1e-3, 1e-5, 1e-7};
    static const double kink_epsrel[] = {1e-5, 1e-6, 1e-7};
    genz_tally t = {0};
    genz_params g;

    named_gaussian(&g);
    run_instance(ctx, &g, 0, 1e-5, NAMED_CAP,
                 "(a) 6D Gaussian width 0.05 at 0.448:", &t);
    for (int standard = 0; standard <= 1; standard++) {
        genz_generate(&g, GENZ_DISCONTINUOUS, 5, 1, 1.0);
        for (int i = 0; i < 5 && !standard; i++) g.a[i] = 0.0;
        g.u[0] = 0.0626544;
        g.u[1] = 1.0;
        for (int e = 0; e < COUNT(discontinuous_epsrel); e++)
            run_instance(ctx, &g, standard, discontinuous_epsrel[e], NAMED_CAP,
                         standard
                             ? "(b) jump at 0.0626544, standard a of seed 1:"
                             : "(b) jump at 0.0626544, a = 0:",
                         &t);
    }
    genz_generate(&g, GENZ_C0, 4, 106, 2.0);
    for (int e = 0; e < COUNT(kink_epsrel); e++)
        run_instance(ctx, &g, 106, kink_epsrel[e], NAMED_CAP,
                     "(f) C0 kink 0.0011 inside a face:", &t);
    genz_generate(&g, GENZ_PRODUCT_PEAK, 5, 303, 1.5);
    run_instance(ctx, &g, 303, 1e-4, NAMED_CAP, "(g) product peak held by one region:", &t);
    genz_tally_free(&t);
    {   /* PAGANI_FLAG_NO_PROBES: the rule's points, and the randomized
         * check's 16 on the regions it checks, are evaluated */
        pagani_result r;
        int rc = integrate(ctx, 5, genz_function, &g, sizeof g, 1e-3,
                           PAGANI_FLAG_NO_PROBES, NAMED_CAP, &r);
        long long checks = r.evaluations - r.regions * 273;
        tap_ok(rc == PAGANI_OK && checks >= 0 && checks % 16 == 0 &&
                   checks <= r.regions * 16,
               "(b) with PAGANI_FLAG_NO_PROBES: %lld evaluations for %lld "
               "regions of 273 points (no probes) and %lld checks of 16",
               r.evaluations, r.regions, checks / 16);
        rc = integrate(ctx, 5, genz_function, &g, sizeof g, 1e-3, 0, NAMED_CAP, &r);
        tap_ok(rc == PAGANI_OK && r.evaluations > r.regions * 273,
               "(b) with probes: %lld evaluations for %lld regions of 273 "
               "points (and probes)", r.evaluations, r.regions);
    }
}

/* The indicator of the ball of radius 1/2 about the cube's centre. */
static double ball(const double *x, int n, const void *params)
{
    double s = 0.0;
    (void)params;
    for (int i = 0; i < n; i++) s += (x[i] - 0.5) * (x[i] - 0.5);
    return s < 0.25 ? 1.0 : 0.0;
}

static double zero(const double *x, int n, const void *params)
{
    (void)x, (void)n, (void)params;
    return 0.0;
}

static double exp_sum(const double *x, int n, const void *params)
{
    (void)n, (void)params;
    return exp(x[0] + x[1]);
}

/* (c) the 3-D ball (pi/6) at 1e-3 converges, its reported error within
 * 100 times its true error; (d) the zero integrand in 2-D converges with
 * error 0; (e) exp(x0 + x1) at epsrel 1e-20, beyond double precision,
 * never reports less error than it has. */
static void check_named_other(pagani_context *ctx)
{
    pagani_result r;
    long double truth;
    double true_error;
    int rc;

    rc = integrate(ctx, 3, ball, NULL, 0, 1e-3, 0, NAMED_CAP, &r);
    true_error = fabs(r.value - M_PI / 6);
    tap_ok(rc == PAGANI_OK && r.status == PAGANI_CONVERGED &&
               true_error <= 1e-3 * M_PI / 6 && r.error <= 100 * true_error,
           "(c) 3D ball at 1e-3: %s, reported %.2e, true %.2e, ratio %.3g "
           "(%lld evaluations)", pagani_status_name(r.status),
           r.error / (M_PI / 6), true_error / (M_PI / 6), r.error / true_error,
           r.evaluations);

    rc = integrate(ctx, 2, zero, NULL, 0, 1e-3, 0, NAMED_CAP, &r);
    tap_ok(rc == PAGANI_OK && r.status == PAGANI_CONVERGED &&
           r.value == 0.0 && r.error == 0.0,
           "(d) zero in 2D: %s, value %g, error %g (%d iterations)",
           pagani_status_name(r.status), r.value, r.error, r.iterations);

    truth = expm1l(1.0L) * expm1l(1.0L);
    rc = integrate(ctx, 2, exp_sum, NULL, 0, 1e-20, 0, NAMED_CAP, &r);
    true_error = (double)fabsl(r.value - truth);
    tap_ok(rc == PAGANI_OK && r.error >= true_error &&
           (r.status != PAGANI_CONVERGED || true_error <= 1e-20 * truth),
           "(e) exp(x0+x1) 2D at 1e-20: %s, reported %.2e, true %.2e "
           "(relative)", pagani_status_name(r.status), r.error / (double)truth,
           true_error / (double)truth);
}

static int remove_entry(const char *path, const struct stat *sb, int flag,
                        struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    return remove(path);
}

int main(void)
{
    char root[] = "/tmp/pagani-test-genz-XXXXXX", cache[4096];
    pagani_context *ctx = NULL;
    struct timespec t0, t1;

    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (!mkdtemp(root)) return tap_skip_all("cannot create a temp dir");
    snprintf(cache, sizeof cache, "%s/cache", root);
    setenv("PAGANI_CACHE_DIR", cache, 1);
    setenv("TMPDIR", root, 1);

    check_truths();
    if (tap_ok(pagani_context_create(&ctx, PAGANI_BACKEND_CPU) == PAGANI_OK,
               "CPU context")) {
        check_sources(ctx);
        sweep(ctx);
        check_named_genz(ctx);
        check_named_other(ctx);
    }
    pagani_context_destroy(ctx);
    nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    tap_diag("%.0f s in all", (double)(t1.tv_sec - t0.tv_sec));
    tap_done();
    return tap_exit_code();
}
