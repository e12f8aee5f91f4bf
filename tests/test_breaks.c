/*
 * test_breaks.c - cubature's break points (pagani_options.breaks; README,
 * "Domains and singularities") on the CPU backend: a kink at x0 = 0.3 and
 * a jump at x1 = 0.7, named as break points, converge to 1e-9 with the
 * evaluations of the smooth integrand of the same shape and far fewer
 * than without them, from host functions and source; several break
 * points on one axis, points outside the box ignored; bad break points
 * refused with PAGANI_ERR_OPTION; Vegas and QMC ignore them.
 */
#include <math.h>
#include <stdio.h>
#include "pagani.h"
#include "tap.h"

/* (1 + |x0 - 0.3|) times exp(x1) below x1 = 0.7 and 2 + x1 above. */
PAGANI_INTEGRAND(kink_jump, {
    double a = 1.0 + fabs(x[0] - 0.3);
    return a * (x[1] < 0.7 ? exp(x[1]) : 2.0 + x[1]);
})

/* The smooth twin: (1 + x0) exp(x1), for the evaluations it takes. */
PAGANI_INTEGRAND(smooth, { return (1.0 + x[0]) * exp(x[1]); })

/* |sin(5 x)| on [0, pi], kinks at k pi / 5: the integral is 2. */
PAGANI_INTEGRAND(rectified, { return fabs(sin(5.0 * x[0])); })

static double kink_jump_truth(void)
{
    /* int_0^1 1 + |x - 0.3| = 1 + (0.09 + 0.49) / 2; int_0^0.7 e^x
     * + int_0.7^1 (2 + x) = e^0.7 - 1 + 0.6 + 0.255 */
    return 1.29 * (exp(0.7) - 0.145);
}

static pagani_options cubature(double epsrel, const double *breaks,
                               const int *counts)
{
    pagani_options o = pagani_options_default(PAGANI_CUBATURE);
    o.epsrel = epsrel;
    o.max_evaluations = 20000000;
    o.breaks = breaks;
    o.break_counts = counts;
    return o;
}

/* The kink and the jump at 1e-9: with break points, from the host
 * function and from source, against the smooth twin and the run
 * without. */
static void check_kink_jump(pagani_context *ctx)
{
    const double lower[2] = {0.0, 0.0}, upper[2] = {1.0, 1.0};
    const double breaks[2] = {0.3, 0.7};
    const int counts[2] = {1, 1};
    const double truth = kink_jump_truth();
    pagani_options with = cubature(1e-9, breaks, counts);
    pagani_options without = cubature(1e-9, NULL, NULL);
    pagani_options twin_split = without;
    pagani_integrand *f = NULL, *src = NULL, *s = NULL;
    pagani_result r, rs, rw, twin;
    int rc = pagani_integrand_create(ctx, &f, 2, &kink_jump);

    /* the twin from the first split the break points keep (api.c): 4
     * parts per axis in 2-D, where worst-first refinement alone starts
     * from 2 */
    twin_split.initial_splits = 4;

    if (rc == PAGANI_OK)
        rc = pagani_integrand_from_source(ctx, &src, 2, kink_jump.source,
                                          NULL, 0);
    if (rc == PAGANI_OK) rc = pagani_integrand_create(ctx, &s, 2, &smooth);
    if (rc == PAGANI_OK) rc = pagani_integrate(ctx, f, lower, upper, &with, &r);
    if (rc == PAGANI_OK)
        rc = pagani_integrate(ctx, src, lower, upper, &with, &rs);
    if (rc == PAGANI_OK)
        rc = pagani_integrate(ctx, f, lower, upper, &without, &rw);
    if (rc == PAGANI_OK)
        rc = pagani_integrate(ctx, s, lower, upper, &twin_split, &twin);
    if (rc != PAGANI_OK) {
        tap_ok(0, "kink and jump: %s (%s)", pagani_strerror(rc),
               pagani_context_message(ctx));
        return;
    }
    tap_ok(r.status == PAGANI_CONVERGED &&
               fabs(r.value - truth) <= 1e-9 * truth,
           "kink at x0 = 0.3, jump at x1 = 0.7, with break points: %s at "
           "1e-9, true error %.2g, %lld evaluations",
           pagani_status_name(r.status), fabs(r.value - truth) / truth,
           r.evaluations);
    tap_ok(rs.status == PAGANI_CONVERGED && rs.value == r.value,
           "the same from source (the generated map): %s, %.17g",
           pagani_status_name(rs.status), rs.value);
    tap_ok(r.evaluations <= 2 * twin.evaluations,
           "with break points %lld evaluations, within twice the smooth "
           "twin's %lld", r.evaluations, twin.evaluations);
    tap_ok(rw.status != PAGANI_CONVERGED || fabs(rw.value - truth) <= 1e-9 * truth,
           "without break points: %s, true error %.2g (no false "
           "convergence)", pagani_status_name(rw.status),
           fabs(rw.value - truth) / truth);
    tap_ok(rw.evaluations >= 10 * r.evaluations,
           "without break points %lld evaluations, at least 10 times as "
           "many", rw.evaluations);
    pagani_integrand_destroy(f);
    pagani_integrand_destroy(src);
    pagani_integrand_destroy(s);
}

/* |sin 5x| over [0, pi] in 1-D: its 4 inner kinks need 8 cells; points
 * outside the interval ignored. */
static void check_many(pagani_context *ctx)
{
    const double lower = 0.0, upper = M_PI;
    const double breaks[6] = {-1.0, M_PI / 5, 2 * M_PI / 5, 3 * M_PI / 5,
                              4 * M_PI / 5, 4.0};
    const int counts[1] = {6};
    pagani_options o = cubature(1e-10, breaks, counts);
    pagani_integrand *f = NULL;
    pagani_result r;
    int rc = pagani_integrand_create(ctx, &f, 1, &rectified);

    if (rc == PAGANI_OK) rc = pagani_integrate(ctx, f, &lower, &upper, &o, &r);
    tap_ok(rc == PAGANI_ERR_OPTION, "4 break points inside, 4 cells: "
           "PAGANI_ERR_OPTION (%s)", pagani_context_message(ctx));
    o.initial_splits = 8;
    rc = f ? pagani_integrate(ctx, f, &lower, &upper, &o, &r) : rc;
    tap_ok(rc == PAGANI_OK && r.status == PAGANI_CONVERGED &&
               fabs(r.value - 2.0) <= 1e-10 * 2.0 && r.evaluations < 2000,
           "|sin 5x| over [0, pi] with its kinks named, 8 cells: %s, true "
           "error %.2g, %lld evaluations",
           rc == PAGANI_OK ? pagani_status_name(r.status) : pagani_strerror(rc),
           rc == PAGANI_OK ? fabs(r.value - 2.0) / 2.0 : NAN,
           rc == PAGANI_OK ? r.evaluations : 0LL);
    pagani_integrand_destroy(f);
}

/* Bad break points, and methods that ignore them. */
static void check_input(pagani_context *ctx)
{
    static const double lower[2] = {0.0, 0.0}, upper[2] = {1.0, 1.0};
    static const double unbounded[2] = {INFINITY, 1.0};
    static const double down[2] = {0.5, 0.2}, nan_break[1] = {NAN};
    static const double breaks[2] = {0.3, 0.7};
    static const int one_each[2] = {1, 1}, two[2] = {2, 0};
    static const int negative[2] = {-1, 0}, first[2] = {1, 0};
    static const struct {
        const double *breaks;
        const int *counts;
        const double *upper;
        int code;
        const char *what;
    } cases[] = {
        {down, two, upper, PAGANI_ERR_OPTION, "decreasing break points"},
        {nan_break, first, upper, PAGANI_ERR_OPTION, "a NaN break point"},
        {breaks, negative, upper, PAGANI_ERR_OPTION, "a negative count"},
        {NULL, one_each, upper, PAGANI_ERR_NULL_POINTER,
         "counts without points"},
        {breaks, one_each, unbounded, PAGANI_ERR_OPTION,
         "a break point on an unbounded axis"},
    };
    pagani_integrand *f = NULL;
    pagani_result r;
    int rc = pagani_integrand_create(ctx, &f, 2, &kink_jump);

    for (size_t i = 0; rc == PAGANI_OK && i < sizeof cases / sizeof *cases;
         i++) {
        pagani_options o = cubature(1e-6, cases[i].breaks, cases[i].counts);
        int got = pagani_integrate(ctx, f, lower, cases[i].upper, &o, &r);
        tap_ok(got == cases[i].code, "%s: %s (%s)", cases[i].what,
               pagani_strerror(got), pagani_context_message(ctx));
    }
    for (int m = 0; rc == PAGANI_OK && m < 2; m++) {
        pagani_options o = cubature(1e-3, breaks, one_each);
        int got;
        o.method = m == 0 ? PAGANI_QMC : PAGANI_VEGAS;
        o.mc_sigmas = 3.0;
        got = pagani_integrate(ctx, f, lower, upper, &o, &r);
        tap_ok(got == PAGANI_OK && (r.status != PAGANI_CONVERGED ||
                                    fabs(r.value - kink_jump_truth()) <=
                                        1e-3 * kink_jump_truth()),
               "%s ignores break points: %s", pagani_method_name(o.method),
               got == PAGANI_OK ? pagani_status_name(r.status)
                                : pagani_strerror(got));
    }
    if (rc != PAGANI_OK) tap_ok(0, "integrand: %s", pagani_strerror(rc));
    pagani_integrand_destroy(f);
}

int main(void)
{
    pagani_context *ctx = NULL;
    int rc = pagani_context_create(&ctx, PAGANI_BACKEND_CPU);

    if (tap_ok(rc == PAGANI_OK, "a CPU context: %s", pagani_strerror(rc))) {
        check_kink_jump(ctx);
        check_many(ctx);
        check_input(ctx);
    }
    tap_done();
    pagani_context_destroy(ctx);
    return tap_exit_code();
}
