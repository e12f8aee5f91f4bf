/*
 * vegas_driver.c - PAGANI_VEGAS: m-Cubes (Sakiotis et al. 2022, Algorithm
 * 2), Vegas importance sampling over stratified sub-cubes, written once for
 * every backend against vegas_ops (vegas_backend.h).
 *
 * Per iteration: one sampling pass over all sub-cubes (the backend), which
 * during the first ita iterations also returns the bin contributions; the
 * grid is then adjusted on the host (vegas_grid.c) and, with Vegas+, the
 * per-cube sample counts re-allocated. After ita iterations the grid is
 * frozen and the cheaper pass without bins runs.
 *
 * Combining: iterations from the last adjusting one on (ita - 1, 0-based)
 * are averaged with weights 1/sigma_k^2 (Lepage): I = sum w I_k / sum w,
 * sigma = (sum w)^-1/2, chi2/dof = sum w (I_k - I)^2 / (K - 1) over the K
 * combined iterations. Converged when K >= 2, the error meets epsrel or
 * epsabs and chi2/dof <= chi2_max.
 *
 * Honest failure: when the combined iterations hold fewer than 2 samples
 * with f != 0, the error estimate says nothing about the integral: the
 * status is PAGANI_NO_SIGNAL (the run stops as soon as it could otherwise
 * have converged with no nonzero sample seen at all). Iterations that
 * disagree leave the status PAGANI_CHI2_TOO_LARGE. An iteration whose
 * estimate or variance overflows a double while f stays finite (f J
 * beyond DBL_MAX, or spread beyond about 1e154, whose square overflows)
 * ends the run with status PAGANI_NO_PROGRESS, that estimate and an
 * infinite error.
 *
 * Bin scale: contributions are added as integers (vegas_backend.h), scaled
 * so that the largest (f J)^2 of the previous iteration maps to 2^42; the
 * first iteration's scale comes from a pilot pass over every 16th piece. A
 * pass that meets a value too large for the scale is repeated (same
 * points) with the scale of its own maximum.
 *
 * Limits: the run stops before an iteration that could take the count of
 * evaluations (pilots and repeats included) past max_evaluations (status
 * PAGANI_MAX_EVALUATIONS); a repeat that would pass it is skipped and the
 * grid kept. The progress callback sees (iteration, sub-cubes, combined
 * estimate, error); when it asks to stop, the result is that estimate with
 * status PAGANI_STOPPED (or PAGANI_NO_SIGNAL, as above). result->regions is
 * the number of sub-cubes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "methods.h"
#include "vegas/vegas.h"
#include "sampling/vegas_point.h"
#include "sampling/vegas_grid.h"

typedef struct vegas_run {
    const vegas_ops *ops;
    void *state;
    vegas_plan plan;
    double *grid, *bins, *work;
    double *estimate, *variance;   /* per iteration */
    long long *nonzero;
    long long evaluations;
    long long plus_total;          /* Vegas+: samples of the next pass */
    double vmax;                   /* largest v^2 of the last pass */
} vegas_run;

/* The combined estimate of iterations first..last. */
typedef struct vegas_combined {
    double value, error, chi2_dof;
    long long nonzero;
    int count;
} vegas_combined;

static void free_run(vegas_run *r)
{
    if (r->state) r->ops->release(r->state);
    free(r->grid);
    free(r->bins);
    free(r->work);
    free(r->estimate);
    free(r->variance);
    free(r->nonzero);
}

static int alloc_run(pagani_context *ctx, vegas_run *r)
{
    const vegas_job *job = &r->plan.job;
    size_t rows = (size_t)job->grid_axes, nb = (size_t)job->bins;

    r->grid = malloc(sizeof(double) * rows * (nb + 1));
    r->bins = malloc(sizeof(double) * rows * nb);
    r->work = malloc(sizeof(double) * (2 * nb + 1));
    r->estimate = malloc(sizeof(double) * (size_t)r->plan.itmax);
    r->variance = malloc(sizeof(double) * (size_t)r->plan.itmax);
    r->nonzero = malloc(sizeof(long long) * (size_t)r->plan.itmax);
    if (!r->grid || !r->bins || !r->work || !r->estimate || !r->variance ||
        !r->nonzero)
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "Vegas host arrays");
    pagani_vegas_grid_uniform(r->grid, job->grid_axes, job->bins);
    return PAGANI_OK;
}

/* The coordinates of sample `sample` of cube `cube` (as the backends
 * compute them) into a message. */
static int report_fault(pagani_context *ctx, const vegas_run *r, int it,
                        const vegas_sums *s)
{
    const vegas_job *job = &r->plan.job;
    char text[1024];
    size_t len = 0;
    long long c = s->fault_cube;
    double jac = 1.0;
    int b;

    for (int i = 0; i < job->n && len < sizeof text - 64; i++) {
        int blk = i / 4;
        pagani_philox4 w = pagani_vegas_random(job->seed, (pagani_u32)it,
                                               (pagani_u64)s->fault_cube,
                                               (pagani_u64)s->fault_sample, blk);
        const double *row = r->grid + (job->grid_axes > 1 ? i * (job->bins + 1) : 0);
        double k = (double)(c % job->g);
        double u = pagani_vegas_axis(k, w.v[i % 4], (double)job->bins / job->g,
                                     job->bins, row, &jac, &b);
        c /= job->g;
        len += (size_t)snprintf(text + len, sizeof text - len, "%s%.17g",
                                i ? ", " : "",
                                pagani_vegas_coord(job->lower[i], job->width[i], u));
    }
    return pagani_fail(ctx, PAGANI_ERR_NONFINITE,
                       "the integrand returned %g at x = (%s%s) (Vegas "
                       "iteration %d, sub-cube %lld, sample %lld)",
                       s->fault_value, text, len >= sizeof text - 64 ? ", ..." : "",
                       it + 1, s->fault_cube, s->fault_sample);
}

/* One pass of iteration `it`, with the pilot and the repeat that the bin
 * scale may need. */
static int run_pass(pagani_context *ctx, vegas_run *r, int it, int adjusting,
                    vegas_sums *sums, int *bins_valid)
{
    vegas_pass pass;
    int rc;

    *bins_valid = 0;
    memset(&pass, 0, sizeof pass);
    pass.iteration = (unsigned)it;
    pass.stride = 1;
    if (adjusting && !(r->vmax > 0.0)) {           /* pilot for the scale */
        pass.stride = VEGAS_PILOT_STRIDE;
        if ((rc = r->ops->sample(r->state, &pass, sums, NULL)) != PAGANI_OK)
            return rc;
        r->evaluations += sums->evaluations;
        if (sums->fault_cube >= 0) return report_fault(ctx, r, it, sums);
        r->vmax = sums->vmax;
        pass.stride = 1;
    }
    pass.accumulate = adjusting;
    pass.stratify = adjusting && r->plan.job.plus;
    pass.bin_scale = r->vmax > 0.0 ? VEGAS_SCALE_TARGET / r->vmax : 0.0;
    if ((rc = r->ops->sample(r->state, &pass, sums, r->bins)) != PAGANI_OK)
        return rc;
    r->evaluations += sums->evaluations;
    if (sums->fault_cube >= 0) return report_fault(ctx, r, it, sums);
    if (!isfinite(sums->value) || !isfinite(sums->variance))
        return PAGANI_OK; /* the sums overflowed: the driver stops */
    if (adjusting && (sums->overflow || (pass.bin_scale == 0.0 && sums->vmax > 0.0))) {
        /* the bins lack the largest contributions: repeat the pass, or
         * when the evaluation budget forbids that, keep the grid */
        long long limit = r->plan.max_evaluations;
        r->vmax = sums->vmax;
        if (limit > 0 && r->evaluations + sums->evaluations > limit) return PAGANI_OK;
        pass.bin_scale = VEGAS_SCALE_TARGET / sums->vmax;
        if ((rc = r->ops->sample(r->state, &pass, sums, r->bins)) != PAGANI_OK)
            return rc;
        r->evaluations += sums->evaluations;
    }
    *bins_valid = adjusting;
    r->vmax = sums->vmax;
    return PAGANI_OK;
}

/* Inverse-variance average of iterations first..last. An iteration whose
 * variance came out 0 (no two samples of a piece differed) has an unknown
 * error, not a zero one: it is left out, unless all are such, when the
 * plain average is taken with error 0 (a constant, or nothing seen). */
static vegas_combined combine(const vegas_run *r, int first, int last)
{
    vegas_combined c;
    double sw = 0.0, swi = 0.0, sum = 0.0, chi2 = 0.0;
    int weighted = 0;

    memset(&c, 0, sizeof c);
    for (int k = first; k <= last; k++) {
        c.nonzero += r->nonzero[k];
        c.count++;
        sum += r->estimate[k];
        if (r->variance[k] > 0.0) {
            sw += 1.0 / r->variance[k];
            swi += r->estimate[k] / r->variance[k];
            weighted++;
        }
    }
    if (c.count == 0) return c;
    if (weighted == 0) {
        c.value = sum / c.count;
        for (int k = first; k <= last; k++)
            if (r->estimate[k] != c.value) c.chi2_dof = INFINITY;
        return c;
    }
    c.value = swi / sw;
    c.error = sqrt(1.0 / sw);
    for (int k = first; k <= last; k++) {
        double d = r->estimate[k] - c.value;
        if (r->variance[k] > 0.0) chi2 += d * d / r->variance[k];
    }
    c.count = weighted;
    c.chi2_dof = weighted > 1 ? chi2 / (weighted - 1) : 0.0;
    return c;
}

/* Whether the tolerance is met; never for a value or error that is not
 * finite. */
static int error_met(const vegas_plan *p, const vegas_combined *c)
{
    return isfinite(c->value) && isfinite(c->error) &&
           (c->error <= p->epsrel * fabs(c->value) || c->error <= p->epsabs);
}

/* Adjusts the grid (and Vegas+ counts) after an adjusting iteration. */
static int adjust(vegas_run *r, const vegas_sums *sums)
{
    const vegas_job *job = &r->plan.job;
    int rc;

    pagani_vegas_grid_adjust(r->grid, r->bins, job->grid_axes, job->bins,
                             r->plan.alpha, r->work);
    if ((rc = r->ops->set_grid(r->state, r->grid)) != PAGANI_OK) return rc;
    if (job->plus)
        rc = r->ops->stratify(r->state, sums->beta_sum,
                              (long long)r->plan.calls, &r->plus_total);
    return rc;
}

static void fill_result(const vegas_run *r, int iterations, pagani_status status,
                        pagani_result *result)
{
    const vegas_plan *p = &r->plan;
    int last = iterations - 1, first = p->first_combined;
    vegas_combined c;

    if (first > last) first = last;           /* nothing combined: the last */
    c = combine(r, first < 0 ? 0 : first, last);
    result->value = c.value;
    result->error = iterations > 0 ? c.error : INFINITY;
    result->chi2_dof = c.chi2_dof;
    result->status = status;
    result->evaluations = r->evaluations;
    result->regions = p->job.cubes;
    result->iterations = iterations;
}

/* Ends the run at iteration `it`, whose estimate or variance overflowed
 * although f was finite: the result is that estimate with an infinite
 * error (status PAGANI_NO_PROGRESS), after the progress call; the context
 * message says why. */
static int stop_on_overflow(pagani_context *ctx, const vegas_run *r, int it,
                            const pagani_options *opt, pagani_result *result)
{
    fill_result(r, it, PAGANI_NO_PROGRESS, result);  /* the iterations before */
    result->value = r->estimate[it];
    result->error = INFINITY;
    result->iterations = it + 1;
    if (opt->progress)
        opt->progress(it + 1, r->plan.job.cubes, result->value, INFINITY,
                      opt->progress_data);
    pagani_fail(ctx, PAGANI_OK, "iteration %d: the estimate (%g) or its "
                "variance overflows a double although the integrand's values "
                "were finite: scale the integrand down", it + 1,
                r->estimate[it]);
    return PAGANI_OK;
}

static int iterate(pagani_context *ctx, vegas_run *r, const pagani_options *opt,
                   pagani_result *result)
{
    const vegas_plan *p = &r->plan;
    const double scale = p->volume / (double)p->job.cubes;
    pagani_status status = PAGANI_MAX_ITERATIONS;
    long long seen = 0;                 /* nonzero samples in all iterations */
    int it, rc;

    for (it = 0; it < p->itmax; it++) {
        const int adjusting = it < p->ita;
        long long next = p->job.plus ? r->plus_total : p->per_iteration;
        vegas_sums sums;
        vegas_combined c;
        int bins_valid;

        if (adjusting && !(r->vmax > 0.0))   /* the pilot, at most */
            next += next / VEGAS_PILOT_STRIDE + p->job.pieces * p->job.samples;
        if (p->max_evaluations > 0 && r->evaluations + next > p->max_evaluations) {
            status = PAGANI_MAX_EVALUATIONS;
            break;
        }
        if ((rc = run_pass(ctx, r, it, adjusting, &sums, &bins_valid)) != PAGANI_OK) {
            fill_result(r, it, PAGANI_MAX_ITERATIONS, result);
            return rc;
        }
        r->estimate[it] = sums.value * scale;
        r->variance[it] = sums.variance * scale * scale;
        r->nonzero[it] = sums.nonzero;
        if (!isfinite(r->estimate[it]) || !isfinite(r->variance[it]))
            return stop_on_overflow(ctx, r, it, opt, result);
        seen += sums.nonzero;
        if (bins_valid && (rc = adjust(r, &sums)) != PAGANI_OK) {
            fill_result(r, it + 1, PAGANI_MAX_ITERATIONS, result);
            return rc;
        }
        c = combine(r, it >= p->first_combined ? p->first_combined : it, it);
        if (it >= p->first_combined && c.count >= 2) {
            if (seen == 0) { status = PAGANI_NO_SIGNAL; it++; break; }
            if (c.nonzero >= 2 && error_met(p, &c) && c.chi2_dof <= p->chi2_max) {
                status = PAGANI_CONVERGED;
                it++;
                break;
            }
        }
        if (opt->progress &&
            opt->progress(it + 1, p->job.cubes, c.value, c.error, opt->progress_data)) {
            status = PAGANI_STOPPED;
            it++;
            break;
        }
    }
    fill_result(r, it, status, result);
    if (status != PAGANI_CONVERGED && it > 0) {
        vegas_combined c = combine(r, p->first_combined < it ? p->first_combined : it - 1, it - 1);
        if (c.nonzero < 2) result->status = PAGANI_NO_SIGNAL;
        else if (status == PAGANI_MAX_ITERATIONS && error_met(p, &c) &&
                 c.chi2_dof > p->chi2_max)
            result->status = PAGANI_CHI2_TOO_LARGE;
    }
    return PAGANI_OK;
}

int pagani_vegas_integrate(pagani_context *ctx, pagani_integrand *f,
                           const double *lower, const double *upper,
                           const pagani_options *opt, pagani_result *result)
{
    vegas_run r;
    int rc;

    memset(&r, 0, sizeof r);
    r.ops = ctx->backend ? ctx->backend->vegas : NULL;
    if (!r.ops)
        return pagani_fail(ctx, PAGANI_ERR_BACKEND_UNAVAILABLE,
                           "PAGANI_VEGAS is not available on the %s backend",
                           pagani_backend_name(ctx->kind));
    if ((rc = pagani_vegas_plan(ctx, f, lower, upper, opt, &r.plan)) != PAGANI_OK)
        return rc;
    r.plus_total = r.plan.per_iteration;
    rc = alloc_run(ctx, &r);
    if (rc == PAGANI_OK)
        rc = r.ops->setup(ctx->backend_state, &r.plan.job, &r.state);
    if (rc == PAGANI_OK) rc = iterate(ctx, &r, opt, result);
    free_run(&r);
    return rc;
}
