/*
 * test_vegas_batch_warm.c - Vegas batches of a scan with warm starts
 * (options.batch_warm_stride), on the CPU:
 *  - seeded scans of 40 nearby 4-D Gaussians (warm_scan.h) as one batch
 *    with one pilot in 8, for three seeds: every point converges, every
 *    true error within 4 reported sigma and at least 85% within 2 (the
 *    honesty of the Vegas sweeps), and each batch makes fewer
 *    evaluations than the same batch cold;
 *  - the waves: a pilot's result is the bits of the single cold call, and
 *    a warm integral's (between pilots, past the last pilot, on a tie)
 *    the bits of the single call from its nearest pilot's grid with 1
 *    adjusting iteration (value, error, evaluations, iterations): the
 *    batch's totals are those of the single calls;
 *  - a batch of vector integrals has its components where the results
 *    say; a batch with a box per integral (box_stride n + 1) gives the
 *    bits of the batch with one box;
 *  - NaN in a pilot and in a warm integral: PAGANI_ERR_NONFINITE naming
 *    the batch's first such integral, the others converged;
 *  - a stop request: every integral PAGANI_STOPPED;
 *  - the scans and the waves again with Vegas+ (PAGANI_FLAG_VEGAS_PLUS:
 *    a warm integral's per-cube counts start uniform, as a cold one's);
 *  - 1, a negative stride and state_path: PAGANI_ERR_OPTION naming the
 *    reason.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "pagani.h"
#include "tap.h"
#include "warm_scan.h"

#define DIM 4
#define POINTS 40
#define STRIDE 8

static pagani_context *ctx;

static unsigned flags; /* 0, then PAGANI_FLAG_VEGAS_PLUS */

static pagani_options options(void)
{
    pagani_options o = warm_scan_test_options();
    o.flags |= flags;
    return o;
}

static void scan_checks(pagani_integrand *f)
{
    warm_scan all = {0};

    for (unsigned long long seed = 7; seed < 10; seed++) {
        pagani_options o = options();
        warm_scan cold, warm;

        o.seed = seed;
        cold = warm_scan_batch(ctx, f, DIM, POINTS, 0, o, NULL);
        warm = warm_scan_batch(ctx, f, DIM, POINTS, STRIDE, o, NULL);
        tap_ok(warm.rc == PAGANI_OK && cold.rc == PAGANI_OK &&
                   warm.evaluations < cold.evaluations,
               "seed %llu: a batch of %d with one pilot in %d makes %lld "
               "evaluations against %lld cold (%.0f%%)", seed, POINTS, STRIDE,
               warm.evaluations, cold.evaluations,
               cold.evaluations ? 100.0 * warm.evaluations / cold.evaluations
                                : 0.0);
        all.points += warm.points;
        all.converged += warm.converged;
        all.within2 += warm.within2;
        all.within4 += warm.within4;
        if (!(warm.worst <= all.worst)) all.worst = warm.worst;
    }
    tap_ok(all.points == 3 * POINTS && all.converged == all.points,
           "warm batches: all %d points converge (%d)", 3 * POINTS,
           all.converged);
    tap_ok(all.within4 == all.points && all.within2 * 100 >= 85 * all.points,
           "warm batches: all within 4 sigma of the truth, %d/%d within 2 "
           "(worst %.2f sigma)", all.within2, all.points, all.worst);
}

/* Point k of the scan by a single call, cold (from NULL) or from grid
 * with 1 adjusting iteration; its final grid into out (or NULL). */
static pagani_result single(pagani_integrand *f, int k,
                            const pagani_vegas_grid *from,
                            pagani_vegas_grid *out)
{
    double lower[DIM], upper[DIM], p[BATCH_PARAMS];
    pagani_options o = options();
    pagani_result r;

    memset(&r, 0, sizeof r);
    batch_unit_cube(lower, upper, DIM);
    warm_scan_point(k, POINTS, p);
    o.vegas_grid_in = from;
    o.vegas_grid_out = out;
    if (from) o.vegas_adjust_iterations = 1;
    if (pagani_integrand_set_params(f, p, sizeof p) != PAGANI_OK ||
        pagani_integrate(ctx, f, lower, upper, &o, &r) != PAGANI_OK)
        r.status = -1;
    return r;
}

static int same(const pagani_result *a, const pagani_result *b)
{
    return a->status == b->status && a->value == b->value &&
           a->error == b->error && a->evaluations == b->evaluations &&
           a->iterations == b->iterations;
}

/* Integral k of the batch against the single calls: its pilot's cold
 * call and, unless k is that pilot, the call from the pilot's grid. */
static void wave_check(pagani_integrand *f, const pagani_result *batch, int k,
                       int pilot, const char *what)
{
    pagani_vegas_grid *grid = NULL;
    pagani_result cold, warm;

    pagani_vegas_grid_create(&grid);
    cold = single(f, pilot, NULL, grid);
    if (k == pilot) {
        tap_ok(same(&batch[k], &cold), "%s %d: the bits of the single cold "
               "call (%.17g +- %.3g, %lld evaluations; alone %.17g +- %.3g, "
               "%lld)", what, k, batch[k].value, batch[k].error,
               batch[k].evaluations, cold.value, cold.error, cold.evaluations);
    } else {
        warm = single(f, k, grid, NULL);
        tap_ok(same(&batch[k], &warm), "%s %d: the bits of the single call "
               "from pilot %d's grid (%.17g +- %.3g, %lld evaluations, %d "
               "iterations; alone %.17g +- %.3g, %lld, %d)", what, k, pilot,
               batch[k].value, batch[k].error, batch[k].evaluations,
               batch[k].iterations, warm.value, warm.error, warm.evaluations,
               warm.iterations);
    }
    pagani_vegas_grid_destroy(grid);
}

static void wave_checks(pagani_integrand *f)
{
    pagani_result r[POINTS];
    warm_scan s = warm_scan_batch(ctx, f, DIM, POINTS, STRIDE, options(), r);

    tap_ok(s.rc == PAGANI_OK, "the batch of %d with one pilot in %d runs",
           POINTS, STRIDE);
    wave_check(f, r, 0, 0, "pilot");
    wave_check(f, r, 16, 16, "pilot");
    wave_check(f, r, 3, 0, "integral");    /* nearer 0 than 8 */
    wave_check(f, r, 4, 0, "integral");    /* a tie: the lower pilot */
    wave_check(f, r, 13, 16, "integral");  /* nearer 16 */
    wave_check(f, r, 39, 32, "integral");  /* past the last pilot */
}

static void vector_check(pagani_integrand *f)
{
    double lower[DIM], upper[DIM], p[BATCH_PARAMS * 12];
    double values[12], errors[12];
    pagani_options o = options();
    pagani_result r[12];
    int rc, ok = 1;

    batch_unit_cube(lower, upper, DIM);
    for (int k = 0; k < 12; k++) warm_scan_point(k, 12, p + BATCH_PARAMS * k);
    o.batch_warm_stride = 4;
    rc = pagani_integrate_batch_vector(ctx, f, 12, p, BATCH_BLOCK, lower,
                                       upper, 0, &o, r, values, errors);
    for (int k = 0; k < 12; k++)
        ok &= values[k] == r[k].value && errors[k] == r[k].error &&
              r[k].status == PAGANI_CONVERGED;
    tap_ok(rc == PAGANI_OK && ok, "a vector batch of 12 with one pilot in 4: "
           "every integral's component where its result says (code %d)", rc);
}

/* A scan of 12 points as one batch with one pilot in 4 and options o,
 * the centres of integrals bad0 and bad1 NaN (-1: none). */
static int batch_of_12(pagani_integrand *f, pagani_options o, int bad0,
                       int bad1, pagani_result *r)
{
    double lower[DIM], upper[DIM], p[BATCH_PARAMS * 12];

    batch_unit_cube(lower, upper, DIM);
    for (int k = 0; k < 12; k++) warm_scan_point(k, 12, p + BATCH_PARAMS * k);
    if (bad0 >= 0) p[BATCH_PARAMS * bad0] = NAN;
    if (bad1 >= 0) p[BATCH_PARAMS * bad1] = NAN;
    o.batch_warm_stride = 4;
    return pagani_integrate_batch(ctx, f, 12, p, BATCH_BLOCK, lower, upper, 0,
                                  &o, r);
}

/* The scan's 12 points with a box per integral, every one the unit
 * cube, box_stride DIM + 1: the bits of the batch with one box. */
static void boxes_check(pagani_integrand *f)
{
    double lower[12 * (DIM + 1)], upper[12 * (DIM + 1)], p[BATCH_PARAMS * 12];
    pagani_options o = options();
    pagani_result one[12], each[12];
    int rc, same_bits = 1;

    for (int k = 0; k < 12; k++) {
        batch_unit_cube(lower + k * (DIM + 1), upper + k * (DIM + 1), DIM);
        warm_scan_point(k, 12, p + BATCH_PARAMS * k);
    }
    o.batch_warm_stride = 4;
    rc = pagani_integrate_batch(ctx, f, 12, p, BATCH_BLOCK, lower, upper,
                                DIM + 1, &o, each);
    if (batch_of_12(f, options(), -1, -1, one) != PAGANI_OK) rc = -1;
    for (int k = 0; k < 12; k++) same_bits &= same(&one[k], &each[k]);
    tap_ok(rc == PAGANI_OK && same_bits, "a box per integral (box_stride "
           "%d): the bits of the batch with one box (code %d)", DIM + 1, rc);
}

/* A batch of 12, one pilot in 4, whose integrals bad0 and bad1 have a
 * NaN centre: the message names integral `named`. */
static void nan_check(pagani_integrand *f, int bad0, int bad1, int named)
{
    pagani_result r[12];
    char says[32];
    int rc = batch_of_12(f, options(), bad0, bad1, r), others = 1;

    for (int k = 0; k < 12; k++)
        if (k != bad0 && k != bad1) others &= r[k].status == PAGANI_CONVERGED;
    snprintf(says, sizeof says, "integral %d:", named);
    tap_ok(rc == PAGANI_ERR_NONFINITE &&
               !strncmp(pagani_context_message(ctx), says, strlen(says)) &&
               r[bad0].status == PAGANI_NO_PROGRESS && isnan(r[bad0].value) &&
               r[bad1].status == PAGANI_NO_PROGRESS && others,
           "NaN in integrals %d and %d: PAGANI_ERR_NONFINITE naming %d, the "
           "others converged: %s", bad0, bad1, named,
           pagani_context_message(ctx));
}

static int stop_at_once(int iteration, long long size, double estimate,
                        double error, void *data)
{
    (void)iteration; (void)size; (void)estimate; (void)error; (void)data;
    return 1;
}

static void stop_check(pagani_integrand *f)
{
    pagani_options o = options();
    pagani_result r[12];
    int rc, stopped = 0;

    o.progress = stop_at_once;
    rc = batch_of_12(f, o, -1, -1, r);
    for (int k = 0; k < 12; k++) {
        const int pilot = k % 4 == 0;
        stopped += r[k].status == PAGANI_STOPPED &&
                   r[k].iterations == (pilot ? 1 : 0) &&
                   (pilot ? isfinite(r[k].value) : isnan(r[k].value));
    }
    tap_ok(rc == PAGANI_OK && stopped == 12, "a stop after the pilots' first "
           "iteration: the pilots stopped after it, the others unrun (%d of "
           "12)", stopped);
}

static void refusal_checks(pagani_integrand *f)
{
    const struct {
        int stride;
        const char *state, *says, *what;
    } cases[] = {
        {1, NULL, "at least 2", "batch_warm_stride 1"},
        {-3, NULL, "at least 2", "batch_warm_stride -3"},
        {4, "/tmp/pagani-batch-warm.state", "state_path", "state_path"},
    };
    double lower[DIM], upper[DIM], p[BATCH_PARAMS * 4];
    pagani_result r[4];

    batch_unit_cube(lower, upper, DIM);
    for (int k = 0; k < 4; k++) warm_scan_point(k, 4, p + BATCH_PARAMS * k);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pagani_options o = options();
        int rc;

        o.batch_warm_stride = cases[i].stride;
        o.state_path = cases[i].state;
        rc = pagani_integrate_batch(ctx, f, 4, p, BATCH_BLOCK, lower, upper, 0,
                                    &o, r);
        tap_ok(rc == PAGANI_ERR_OPTION &&
                   strstr(pagani_context_message(ctx), cases[i].says),
               "%s: PAGANI_ERR_OPTION: %s", cases[i].what,
               pagani_context_message(ctx));
    }
    tap_ok(access("/tmp/pagani-batch-warm.state", F_OK) != 0,
           "the refused run wrote no state file");
}

int main(void)
{
    pagani_integrand *f = NULL;

    alarm(tap_hang_seconds());
    if (pagani_context_create(&ctx, PAGANI_BACKEND_CPU) != PAGANI_OK)
        return tap_skip_all("no CPU context");
    pagani_context_set_threads(ctx, 2);
    if (pagani_integrand_create(ctx, &f, DIM, &batch_gaussian) != PAGANI_OK)
        return tap_skip_all(pagani_context_message(ctx));
    scan_checks(f);
    wave_checks(f);
    vector_check(f);
    boxes_check(f);
    nan_check(f, 8, 10, 8); /* a pilot first */
    nan_check(f, 3, 8, 3);  /* a warm integral before a pilot */
    nan_check(f, 5, 9, 5);  /* two warm integrals */
    stop_check(f);
    refusal_checks(f);
    flags = PAGANI_FLAG_VEGAS_PLUS;
    scan_checks(f);
    wave_checks(f);
    pagani_integrand_destroy(f);
    pagani_context_destroy(ctx);
    tap_done();
    return tap_exit_code();
}
