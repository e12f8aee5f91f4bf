/*
 * auto_method.c - PAGANI_AUTO: which method integrates, from what can be
 * learnt cheaply (pagani.h, pagani_auto_reason).
 *
 * Up to AUTO_CUBATURE_DIM dimensions cubature: deterministic, and the
 * fastest to many digits there. Above, the choice is between QMC, whose
 * error falls as about 1/N on a smooth f (faster with the tent transform)
 * and Vegas, whose importance sampling finds a peak that QMC's uniform
 * points see as noise falling like 1/sqrt(N). A pilot QMC run of the
 * first integral at PILOT_POINTS and 16 times as many points per shift
 * measures which: the error falls by up to 16 on a smooth f, by 8.5 to
 * 13 on the 30-D cos(0.3 sum x), still short of its asymptotic rate (at
 * 1e-4 QMC converges in 0.3 s where Vegas spent 50 s on its iteration
 * limit), by about sqrt(16) = 4 on a rough one and not at all on a peak
 * of width 0.1 in 16-D, whose points have not found it; the cut,
 * PAGANI_AUTO_SMOOTH_RATIO, is the rate N^-0.625 (from 8 and 4 times:
 * seeds 1 to 3 gave 4.2 to 4.8 on that cos, too close to 2.8). A
 * pilot that sees only zeros (a peak its points missed) chooses Vegas,
 * whose grid search has a better chance; one that meets the tolerance
 * already chooses QMC. The pilot runs with the caller's options (seed,
 * shifts, transform), through the context's layer, so that every MPI
 * rank chooses alike.
 */
#include <string.h>
#include "methods.h"

#define AUTO_CUBATURE_DIM 12
#define PILOT_POINTS 1024
#define PILOT_GROWTH 16

/* One block of QMC over integral 0 of the batch at `points` per shift:
 * its result in *r. */
static int pilot_run(pagani_context *ctx, pagani_integrand *f,
                     const pagani_batch *batch, const pagani_options *opt,
                     long long points, pagani_result *r)
{
    double values[PAGANI_MAX_COMPONENTS], errors[PAGANI_MAX_COMPONENTS];
    pagani_options o = *opt;
    pagani_batch first = *batch;

    o.method = PAGANI_QMC;
    o.qmc_initial_points = points;
    o.max_iterations = 1;
    o.max_evaluations = 0;
    o.progress = NULL;
    first.count = 1;
    first.params = pagani_batch_params(batch, 0);
    first.params_stride = 0;
    first.values = f->ncomp > 1 ? values : NULL;
    first.errors = f->ncomp > 1 ? errors : NULL;
    memset(r, 0, sizeof *r);
    return pagani_run_layered(ctx, f, &first, &o, r);
}

int pagani_auto_choose(pagani_context *ctx, pagani_integrand *f,
                       const pagani_batch *batch, pagani_options *opt,
                       pagani_auto_reason *reason, long long *pilot_evaluations)
{
    pagani_result coarse, fine;
    int rc;

    *pilot_evaluations = 0;
    if (f->n <= AUTO_CUBATURE_DIM) {
        opt->method = PAGANI_CUBATURE;
        *reason = PAGANI_AUTO_LOW_DIMENSION;
        return PAGANI_OK;
    }
    rc = pilot_run(ctx, f, batch, opt, PILOT_POINTS, &coarse);
    *pilot_evaluations += coarse.evaluations;
    if (rc != PAGANI_OK) return rc;
    fine = coarse;
    if (coarse.status != PAGANI_CONVERGED && coarse.status != PAGANI_NO_SIGNAL) {
        rc = pilot_run(ctx, f, batch, opt, PILOT_POINTS * PILOT_GROWTH, &fine);
        *pilot_evaluations += fine.evaluations;
        if (rc != PAGANI_OK) return rc;
    }
    if (fine.status == PAGANI_NO_SIGNAL) {
        opt->method = PAGANI_VEGAS;
        *reason = PAGANI_AUTO_NO_SIGNAL;
    } else if (fine.status == PAGANI_CONVERGED ||
               coarse.error >= PAGANI_AUTO_SMOOTH_RATIO * fine.error) {
        opt->method = PAGANI_QMC;
        *reason = PAGANI_AUTO_SMOOTH;
    } else {
        opt->method = PAGANI_VEGAS;
        *reason = PAGANI_AUTO_ROUGH;
    }
    return PAGANI_OK;
}
