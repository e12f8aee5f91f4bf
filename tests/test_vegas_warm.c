/*
 * test_vegas_warm.c - Vegas warm starts (options vegas_grid_in and
 * vegas_grid_out, pagani_vegas_grid_create), on the CPU:
 *  - a seeded scan of 40 nearby 4-D Gaussians (warm_scan.h) at epsrel
 *    1e-3, cold and warm: every point converges, every true error within
 *    4 reported sigma and at least 85% within 2 (the honesty of the
 *    Vegas sweeps, tests/vegas_cases.h), and the warm scan makes fewer
 *    evaluations than the cold one; the same with Vegas+
 *    (PAGANI_FLAG_VEGAS_PLUS), whose runs leave and take the grid (the
 *    per-cube counts start uniform);
 *  - an empty grid, a grid of other vegas_bins or dimension:
 *    PAGANI_ERR_OPTION naming the difference; a checkpoint written from
 *    one grid is refused with another (PAGANI_ERR_STATE).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "pagani.h"
#include "tap.h"
#include "warm_scan.h"

#define DIM 4
#define POINTS 40

static pagani_context *ctx;

static pagani_options options(void) { return warm_scan_test_options(); }

static void honest(const warm_scan *s, const char *method, const char *which)
{
    tap_ok(s->rc == PAGANI_OK && s->points == POINTS &&
               s->converged == POINTS,
           "%s %s scan of %d Gaussians: all converge (%d, code %d)", method,
           which, POINTS, s->converged, s->rc);
    tap_ok(s->within4 == POINTS && s->within2 * 100 >= 85 * POINTS,
           "%s %s scan: all within 4 sigma of the truth, %d/%d within 2 "
           "(worst %.2f sigma)", method, which, s->within2, POINTS, s->worst);
}

/* The scan cold and warm with the options' flags, Vegas's or Vegas+'s. */
static void scan_checks(pagani_integrand *f, unsigned flags)
{
    const char *method = flags & PAGANI_FLAG_VEGAS_PLUS ? "Vegas+" : "Vegas";
    pagani_options o = options();
    warm_scan cold, warm;

    o.flags |= flags;
    cold = warm_scan_run(ctx, f, DIM, POINTS, 0, o);
    warm = warm_scan_run(ctx, f, DIM, POINTS, 1, o);
    honest(&cold, method, "cold");
    honest(&warm, method, "warm");
    tap_ok(warm.rc == PAGANI_OK && warm.evaluations < cold.evaluations,
           "%s warm starts save work: %lld evaluations against %lld cold "
           "(%.0f%%)", method, warm.evaluations, cold.evaluations,
           cold.evaluations ? 100.0 * warm.evaluations / cold.evaluations
                            : 0.0);
}

/* A run of f with options o: PAGANI_ERR_OPTION with `says` in the message. */
static void refused(pagani_integrand *f, pagani_options o, const char *says,
                    const char *what)
{
    double lower[DIM], upper[DIM];
    pagani_result r;
    int rc;

    batch_unit_cube(lower, upper, DIM);
    rc = pagani_integrate(ctx, f, lower, upper, &o, &r);
    tap_ok(rc == PAGANI_ERR_OPTION && strstr(pagani_context_message(ctx), says),
           "%s: PAGANI_ERR_OPTION: %s", what, pagani_context_message(ctx));
}

static void refusal_checks(pagani_integrand *f, pagani_integrand *g3)
{
    double lower[DIM], upper[DIM], p[BATCH_PARAMS];
    pagani_vegas_grid *empty = NULL, *grid = NULL, *other = NULL;
    pagani_options o = options();
    pagani_result r;
    char path[] = "/tmp/pagani-warm-XXXXXX";
    int fd = mkstemp(path), rc;

    batch_unit_cube(lower, upper, DIM);
    warm_scan_point(0, 2, p);
    pagani_integrand_set_params(f, p, sizeof p);
    tap_ok(pagani_vegas_grid_create(NULL) == PAGANI_ERR_NULL_POINTER,
           "pagani_vegas_grid_create(NULL) is PAGANI_ERR_NULL_POINTER");
    pagani_vegas_grid_create(&empty);
    pagani_vegas_grid_create(&grid);
    pagani_vegas_grid_create(&other);
    o.vegas_grid_out = grid;
    pagani_integrate(ctx, f, lower, upper, &o, &r);
    o.vegas_grid_out = other;
    o.seed = 8;
    pagani_integrate(ctx, f, lower, upper, &o, &r);

    {
        const struct {
            const pagani_vegas_grid *grid;
            pagani_integrand *f;
            int bins;            /* 0: options()'s */
            const char *says, *what;
        } cases[] = {
            {empty, f, 0, "empty", "an empty grid"},
            {grid, f, 50, "100 bins", "a grid of 100 bins in a run of 50"},
            {grid, g3, 0, "4 dimensions", "a 4-D grid for a 3-D integrand"},
        };
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            o = options();
            o.vegas_grid_in = cases[i].grid;
            if (cases[i].bins) o.vegas_bins = cases[i].bins;
            refused(cases[i].f, o, cases[i].says, cases[i].what);
        }
    }

    /* a checkpoint belongs to the grid it started from */
    o = options();
    o.vegas_grid_in = grid;
    o.state_path = path;
    o.max_iterations = 1;
    close(fd);
    unlink(path);
    pagani_integrate(ctx, f, lower, upper, &o, &r);
    o.vegas_grid_in = other;
    o.max_iterations = 0;
    rc = pagani_integrate(ctx, f, lower, upper, &o, &r);
    tap_ok(rc == PAGANI_ERR_STATE &&
               strstr(pagani_context_message(ctx), "the options"),
           "a checkpoint started from one grid, resumed from another: "
           "PAGANI_ERR_STATE: %s", pagani_context_message(ctx));
    unlink(path);
    pagani_vegas_grid_destroy(empty);
    pagani_vegas_grid_destroy(grid);
    pagani_vegas_grid_destroy(other);
    pagani_vegas_grid_destroy(NULL);
}

int main(void)
{
    pagani_integrand *f = NULL, *g3 = NULL;
    double p[BATCH_PARAMS] = {0.5, 0.2};

    alarm(tap_hang_seconds());
    if (pagani_context_create(&ctx, PAGANI_BACKEND_CPU) != PAGANI_OK)
        return tap_skip_all("no CPU context");
    pagani_context_set_threads(ctx, 2);
    if (pagani_integrand_create(ctx, &f, DIM, &batch_gaussian) != PAGANI_OK ||
        pagani_integrand_create(ctx, &g3, 3, &batch_gaussian) != PAGANI_OK ||
        pagani_integrand_set_params(g3, p, sizeof p) != PAGANI_OK)
        return tap_skip_all(pagani_context_message(ctx));
    scan_checks(f, 0);
    scan_checks(f, PAGANI_FLAG_VEGAS_PLUS);
    refusal_checks(f, g3);
    pagani_integrand_destroy(f);
    pagani_integrand_destroy(g3);
    pagani_context_destroy(ctx);
    tap_done();
    return tap_exit_code();
}
