/*
 * test_worst_first.c - cubature's worst-first refinement
 * (PAGANI_STRATEGY_WORST_FIRST) on the CPU backend:
 *  - the option: an unknown strategy and worst-first with a vector
 *    integrand are PAGANI_ERR_OPTION;
 *  - held regions are not evaluated again, and the evaluations reported
 *    are f's calls exactly (probes off, one thread: a counting integrand);
 *  - it splits fewer regions than breadth-first refinement on a peak;
 *  - a seeded sweep of Genz's families (genz.h: n 2..6, epsrel 1e-3 ..
 *    1e-5, seeds 101 and 102, every instance generated, none picked) where
 *    every converged run's true error is within its reported error, for
 *    each strategy, one TAP line a run ("not ok": a true error above the
 *    reported one, or an error code). The seeds differ from test_genz's.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "pagani.h"
#include "genz.h"
#include "tap.h"

/* Evaluations one sweep run may spend. */
#define SWEEP_CAP 10000000LL

static const int sweep_dims[] = {2, 3, 4, 5, 6};
static const double sweep_epsrel[] = {1e-3, 1e-4, 1e-5};
static const uint64_t sweep_seeds[] = {101, 102};

#define COUNT(array) (int)(sizeof array / sizeof array[0])

/* f's calls, counted by peak_counted (one thread). */
static long long calls;

/* A product peak at (0.3, ..., 0.3) of width 1/20, counting its calls. */
static double peak_counted(const double *x, int n, const void *params)
{
    double r = 1.0;
    (void)params;
    calls++;
    for (int i = 0; i < n; i++) r /= 1.0 / 400.0 + (x[i] - 0.3) * (x[i] - 0.3);
    return r;
}

/* Its integral over [0,1]^n: per axis 20 (atan(14) + atan(6)). */
static double peak_truth(int n)
{
    return pow(20.0 * (atan(14.0) + atan(6.0)), n);
}

static void two_components(const double *x, int n, const void *params, double *f)
{
    (void)n;
    (void)params;
    f[0] = x[0];
    f[1] = 1.0;
}

static void option_checks(pagani_context *ctx)
{
    static const double lo[2] = {0, 0}, hi[2] = {1, 1};
    pagani_options opt = pagani_options_default(PAGANI_CUBATURE);
    pagani_integrand *f = NULL, *v = NULL;
    pagani_result r;
    double values[2], errors[2];
    int rc;

    rc = pagani_integrand_from_function(ctx, &f, 2, peak_counted, NULL, 0);
    opt.strategy = (pagani_strategy)7;
    if (rc == PAGANI_OK) rc = pagani_integrate(ctx, f, lo, hi, &opt, &r);
    tap_ok(rc == PAGANI_ERR_OPTION && strstr(pagani_context_message(ctx), "strategy"),
           "strategy 7: PAGANI_ERR_OPTION (%s)", pagani_context_message(ctx));
    opt.strategy = PAGANI_STRATEGY_WORST_FIRST;
    rc = pagani_integrand_from_vector_function(ctx, &v, 2, 2, two_components, NULL, 0);
    if (rc == PAGANI_OK) rc = pagani_integrate_vector(ctx, v, lo, hi, &opt, &r, values, errors);
    tap_ok(rc == PAGANI_ERR_OPTION && strstr(pagani_context_message(ctx), "scalar"),
           "worst-first with 2 components: PAGANI_ERR_OPTION (%s)",
           pagani_context_message(ctx));
    opt.strategy = PAGANI_STRATEGY_AUTO;
    rc = pagani_integrate_vector(ctx, v, lo, hi, &opt, &r, values, errors);
    tap_ok(rc == PAGANI_OK && r.status == PAGANI_CONVERGED,
           "auto with 2 components: breadth-first, converged (%s)",
           pagani_status_name(r.status));
    pagani_integrand_destroy(v);
    pagani_integrand_destroy(f);
}

/* The peak in 4-D at 1e-5 with the probes off, on one thread: a run's
 * evaluations, converged and within its error. */
static int peak_run(pagani_context *ctx, pagani_strategy strategy, pagani_result *r)
{
    static const double lo[4] = {0, 0, 0, 0}, hi[4] = {1, 1, 1, 1};
    pagani_options opt = pagani_options_default(PAGANI_CUBATURE);
    pagani_integrand *f = NULL;
    int rc = pagani_integrand_from_function(ctx, &f, 4, peak_counted, NULL, 0);

    opt.epsrel = 1e-5;
    opt.flags = PAGANI_FLAG_NO_PROBES;
    opt.strategy = strategy;
    calls = 0;
    if (rc == PAGANI_OK) rc = pagani_integrate(ctx, f, lo, hi, &opt, r);
    pagani_integrand_destroy(f);
    return rc;
}

static void counting_checks(pagani_context *ctx)
{
    pagani_result worst, breadth;
    long long worst_calls;
    int rc = pagani_context_set_threads(ctx, 1);
    double truth = peak_truth(4);

    if (rc == PAGANI_OK) rc = peak_run(ctx, PAGANI_STRATEGY_WORST_FIRST, &worst);
    worst_calls = calls;
    tap_ok(rc == PAGANI_OK && worst.status == PAGANI_CONVERGED &&
               fabs(worst.value - truth) <= worst.error,
           "worst-first peak 4D at 1e-5: converged, true error %.2e within %.2e",
           fabs(worst.value - truth), worst.error);
    tap_ok(rc == PAGANI_OK && worst_calls == worst.evaluations,
           "worst-first: f called %lld times, %lld evaluations reported "
           "(held regions are not evaluated again)", worst_calls, worst.evaluations);
    if (rc == PAGANI_OK) rc = peak_run(ctx, PAGANI_STRATEGY_BREADTH, &breadth);
    tap_ok(rc == PAGANI_OK && calls == breadth.evaluations &&
               breadth.status == PAGANI_CONVERGED,
           "breadth-first: f called %lld times, %lld evaluations reported", calls,
           breadth.evaluations);
    tap_ok(rc == PAGANI_OK && worst.evaluations < breadth.evaluations &&
               worst.regions < breadth.regions,
           "worst-first evaluated fewer regions than breadth-first (%lld < %lld)",
           worst.regions, breadth.regions);
    pagani_context_set_threads(ctx, 0);
}

/* One sweep run: "not ok" for a converged run whose true error exceeds
 * the reported one, or an error code. Returns 1 when it converged. */
static int sweep_run(pagani_context *ctx, pagani_integrand **f, const genz_params *g,
                     double epsrel, pagani_strategy strategy, uint64_t seed)
{
    static const double lo[GENZ_MAX_DIM] = {0}, hi[GENZ_MAX_DIM] = {1, 1, 1, 1, 1, 1};
    pagani_options opt = pagani_options_default(PAGANI_CUBATURE);
    pagani_result r;
    double truth = genz_truth(g), true_error;
    int rc = genz_set_instance(ctx, 0, g, f);

    opt.epsrel = epsrel;
    opt.max_evaluations = SWEEP_CAP;
    opt.flags = genz_cubature_flags(g->family);
    opt.strategy = strategy;
    if (rc == PAGANI_OK) rc = pagani_integrate(ctx, *f, lo, hi, &opt, &r);
    true_error = fabs(r.value - truth);
    tap_ok(rc == PAGANI_OK && (r.status != PAGANI_CONVERGED || true_error <= r.error),
           "%s %s %dD seed %llu at %.0e: %s, true error %.2e, reported %.2e, "
           "%lld evaluations",
           strategy == PAGANI_STRATEGY_WORST_FIRST ? "worst-first" : "breadth-first",
           genz_name(g->family), g->n, (unsigned long long)seed, epsrel,
           rc == PAGANI_OK ? pagani_status_name(r.status) : pagani_strerror(rc),
           true_error, r.error, r.evaluations);
    return rc == PAGANI_OK && r.status == PAGANI_CONVERGED;
}

static void sweep(pagani_context *ctx, pagani_strategy strategy)
{
    int runs = 0, converged = 0;
    for (int family = 1; family <= GENZ_FAMILIES; family++)
        for (int d = 0; d < COUNT(sweep_dims); d++) {
            pagani_integrand *f = NULL;
            for (int s = 0; s < COUNT(sweep_seeds); s++) {
                genz_params g;
                genz_generate(&g, family, sweep_dims[d], sweep_seeds[s], 1.0);
                if (!genz_judged(&g)) continue;
                for (int e = 0; e < COUNT(sweep_epsrel); e++, runs++)
                    converged += sweep_run(ctx, &f, &g, sweep_epsrel[e], strategy,
                                           sweep_seeds[s]);
            }
            pagani_integrand_destroy(f);
        }
    printf("# %s: %d of %d runs converged\n",
           strategy == PAGANI_STRATEGY_WORST_FIRST ? "worst-first" : "breadth-first",
           converged, runs);
}

int main(void)
{
    pagani_context *ctx = NULL;

    if (pagani_context_create(&ctx, PAGANI_BACKEND_CPU) != PAGANI_OK) {
        tap_ok(0, "CPU context: %s", pagani_context_message(ctx));
        return tap_exit_code();
    }
    option_checks(ctx);
    counting_checks(ctx);
    sweep(ctx, PAGANI_STRATEGY_WORST_FIRST);
    sweep(ctx, PAGANI_STRATEGY_BREADTH);
    pagani_context_destroy(ctx);
    tap_done();
    return tap_exit_code();
}
