/*
 * test_first_split.c - cubature's first split on the CPU backend:
 *  - worst-first refinement (the CPU's default) starts below 11-D from
 *    every axis halved once, 2^n regions, where the original's split is
 *    4 parts per axis below 5-D; breadth-first refinement, a set
 *    initial_splits, break points and unbounded axes keep the original's
 *    split (the first progress call's size: every region of the first
 *    list is active);
 *  - why not from the whole box: the suite's f8 in 8-D, (sum x_i^2)^7.5,
 *    whose first comparison of a region with its children along one of
 *    8 axes left the seven others unmeasured and converged at 1e-3 with a
 *    true error 1.4 times epsrel, here at 1e-2 .. 1e-4 with every
 *    converged run's true error within its reported error.
 */
#include <math.h>
#include <stdio.h>
#include "pagani.h"
#include "tap.h"

/* The size the first progress call saw. */
static long long first_size;

static int record_first(int iteration, long long size, double estimate,
                        double error, void *data)
{
    (void)estimate;
    (void)error;
    (void)data;
    if (iteration == 1) first_size = size;
    return 0;
}

/* A smooth integrand that every region resolves. */
static double smooth(const double *x, int n, const void *params)
{
    double s = 0.0;
    (void)params;
    for (int i = 0; i < n; i++) s += x[i];
    return exp(0.5 * s);
}

/* f8 of the paper's suite (tests/suite.h): (sum x_i^2)^7.5. */
static double suite_f8(const double *x, int n, const void *params)
{
    double s = 0.0;
    (void)params;
    for (int i = 0; i < n; i++) s += x[i] * x[i];
    return pow(s, 7.5);
}

#define F8_8D_TRUTH 8879.851175413485

/* e^(-sum x_i), for an unbounded box. */
static double decaying(const double *x, int n, const void *params)
{
    double s = 0.0;
    (void)params;
    for (int i = 0; i < n; i++) s += x[i];
    return exp(-s);
}

/* The first list's size of smooth over [0,1]^n, or with `unbounded` of
 * decaying over [0, inf) x [0,1]^(n-1), under opt (progress set here). */
static long long first_list(pagani_context *ctx, int n, pagani_options opt,
                            int unbounded)
{
    static const double lo[4] = {0, 0, 0, 0};
    double hi[4] = {1, 1, 1, 1};
    pagani_integrand *f = NULL;
    pagani_result r;
    int rc = pagani_integrand_from_function(ctx, &f, n, unbounded ? decaying : smooth,
                                            NULL, 0);

    if (unbounded) hi[0] = INFINITY;
    opt.epsrel = 1e-6;
    opt.progress = record_first;
    first_size = -1;
    if (rc == PAGANI_OK) rc = pagani_integrate(ctx, f, lo, hi, &opt, &r);
    pagani_integrand_destroy(f);
    return rc == PAGANI_OK ? first_size : -1;
}

static void split_checks(pagani_context *ctx)
{
    static const double breaks[1] = {0.3};
    static const int counts[4] = {1, 0, 0, 0};

    for (int n = 2; n <= 4; n++) {
        const long long halved = 1LL << n, original = 1LL << (2 * n);
        pagani_options opt = pagani_options_default(PAGANI_CUBATURE);
        long long size = first_list(ctx, n, opt, 0);
        tap_ok(size == halved, "worst-first %dD starts from %lld regions (%lld)", n,
               halved, size);
        opt.strategy = PAGANI_STRATEGY_BREADTH;
        size = first_list(ctx, n, opt, 0);
        tap_ok(size == original, "breadth-first %dD starts from %lld regions (%lld)",
               n, original, size);
        opt.strategy = PAGANI_STRATEGY_AUTO;
        opt.initial_splits = 4;
        size = first_list(ctx, n, opt, 0);
        tap_ok(size == original, "initial_splits 4 in %dD: %lld regions (%lld)", n,
               original, size);
        opt.initial_splits = 0;
        opt.breaks = breaks;
        opt.break_counts = counts;
        size = first_list(ctx, n, opt, 0);
        tap_ok(size == original, "break points in %dD: the original's %lld regions "
               "(%lld)", n, original, size);
        opt.breaks = NULL;
        opt.break_counts = NULL;
        size = first_list(ctx, n, opt, 1);
        tap_ok(size == original, "an unbounded axis in %dD: the original's %lld "
               "regions (%lld)", n, original, size);
    }
}

static void f8_checks(pagani_context *ctx)
{
    static const double lo[8] = {0}, hi[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    static const double epsrel[] = {1e-2, 3e-3, 1e-3, 3e-4, 1e-4};
    pagani_integrand *f = NULL;
    int rc = pagani_integrand_from_function(ctx, &f, 8, suite_f8, NULL, 0);

    for (size_t e = 0; e < sizeof epsrel / sizeof epsrel[0]; e++) {
        pagani_options opt = pagani_options_default(PAGANI_CUBATURE);
        pagani_result r;
        double true_error;
        opt.epsrel = epsrel[e];
        if (rc == PAGANI_OK) rc = pagani_integrate(ctx, f, lo, hi, &opt, &r);
        true_error = rc == PAGANI_OK ? fabs(r.value - F8_8D_TRUTH) : NAN;
        tap_ok(rc == PAGANI_OK && r.status == PAGANI_CONVERGED && true_error <= r.error,
               "f8 8D at %.0e: %s, true error %.3g within %.3g (%lld evaluations)",
               epsrel[e], rc == PAGANI_OK ? pagani_status_name(r.status)
                                          : pagani_strerror(rc),
               true_error, rc == PAGANI_OK ? r.error : NAN,
               rc == PAGANI_OK ? r.evaluations : 0LL);
    }
    pagani_integrand_destroy(f);
}

int main(void)
{
    pagani_context *ctx = NULL;

    if (pagani_context_create(&ctx, PAGANI_BACKEND_CPU) != PAGANI_OK ||
        pagani_context_set_threads(ctx, 1) != PAGANI_OK) {
        tap_ok(0, "CPU context: %s", pagani_context_message(ctx));
        pagani_context_destroy(ctx);
        return tap_exit_code();
    }
    split_checks(ctx);
    f8_checks(ctx);
    pagani_context_destroy(ctx);
    tap_done();
    return tap_exit_code();
}
