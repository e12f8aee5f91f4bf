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
 * combined iterations. Converged when K >= 2, mc_sigmas times the error
 * meets epsrel or epsabs (pagani_mc_tolerances) and chi2/dof <= chi2_max.
 *
 * Vector integrands: the grid adapts to component 0 (vegas_backend.h);
 * every component is combined on its own as above, and the integral
 * converges when the options' norm is met (rules/component_norm.h) and
 * every component's chi2/dof is within chi2_max.
 *
 * Heavy tails: an iteration is tail-dominated when one sample's term
 * carries more than VEGAS_TAIL_SHARE of its variance (vegas_sums.term_max,
 * the largest (v - piece mean)^2 term): its variance then rests on one
 * sample and, when f's variance is infinite (an integrable singularity
 * such as x^-0.9), is far below the truth in most iterations, which the
 * weights 1/sigma_k^2 then favour, so the weighted average is biased and
 * its error too small (issue 33: x^-0.9 converged 58 to 109 sigma off,
 * with chi2/dof 0.14 to 2.66). A combination holding such an iteration is
 * the plain average of its iterations with the error of a mean from their
 * spread; chi2/dof does not judge it, and it converges only over at least
 * VEGAS_TAIL_ITERATIONS iterations.
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
 *
 * Batches (pagani_integrate_batch; pagani_integrate is a batch of one):
 * every integral (member) has its own grid, bins, bin scale, history,
 * evaluations and Vegas+ counts, and runs exactly the iterations above;
 * the members still running are sampled together, each pass (pilot, pass,
 * repeat) over those that need it in one backend call. A member leaves
 * when it converges, fails or meets a limit; the others go on. Since the
 * random stream and every sum of a member depend on the job alone, its
 * result is the bits of the single call. NaN or infinity from f ends that
 * member only (value NaN, error infinite, PAGANI_NO_PROGRESS) and the call
 * returns PAGANI_ERR_NONFINITE naming the first such member. With more
 * than one member the progress callback is called once per iteration with
 * the number of members still running and the first one's estimate and
 * error; a stop ends every member still running. A batch with
 * batch_warm_stride runs as two such runs, its pilots cold and then the
 * others from their pilots' grids (vegas_batch_warm.c).
 *
 * Checkpoints (options state_path; vegas_checkpoint.c): the random
 * stream is a function of (seed, iteration, cube, sample), so the state
 * at the start of an iteration (grids, members, history) is a resume
 * point. It is written after an iteration when the interval is due, and,
 * when a limit or stop ends members, as a run without them would pass
 * through it: after the iteration the callback stopped or max_iterations
 * ended, before the one that max_evaluations forbade or a stop request
 * cut short (made again on resume, its pilot included). A run resumed
 * from it with the limits raised ends with the bits of the run never
 * stopped, except where max_evaluations changed what ran: a cap below
 * vegas_calls x (vegas_adjust_iterations + 3) lowers the calls (the
 * resume is refused, PAGANI_ERR_STATE), and a repeat pass skipped for
 * the cap (above) kept a grid the uncapped run adjusts. Members of a
 * batch that the cap stopped at different iterations each resume at
 * their own (those ahead wait). Vegas+ checkpoints hold its per-cube
 * sample counts too (the backend's, vegas_ops.counts_out and counts_in).
 *
 * Memory: the host holds per member a grid and its bins (grid_axes x (2 nb
 * + 1) doubles), the history of 3 x max_iterations words and the box;
 * what cannot be had is PAGANI_ERR_NO_MEMORY with the size asked for.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "methods.h"
#include "vegas/vegas.h"
#include "sampling/vegas_grid.h"
#include "rules/component_norm.h"

/* The combined estimate of iterations first..last. */
typedef struct vegas_combined {
    double value, error, chi2_dof;
    long long nonzero;
    int count;
    int tail; /* iterations whose variance rests on single samples */
} vegas_combined;

/* Frees what alloc_run and the backend's setup made. */
static void free_run(vegas_run *r)
{
    if (r->state) r->ops->release(r->state);
    free(r->lower);
    free(r->width);
    free(r->grids);
    free(r->bins);
    free(r->work);
    free(r->history);
    free(r->nonzero);
    free(r->tail);
    free(r->members);
    free(r->list);
    free(r->again);
    free(r->scale);
    free(r->beta_sums);
    free(r->totals);
    free(r->sums);
    free(r->repeat);
    free(r->components);
    free(r->components_repeat);
    free(r->bins_valid);
    free(r->saved);
    pagani_checkpoint_close(&r->checkpoint);
}

/* Host memory of a run of K integrals: per integral a grid and its bins
 * (grid_axes x (2 nb + 1) doubles), its history (3 x itmax words), its box
 * and the pass scratch; nothing else grows with K. Returns PAGANI_OK or
 * PAGANI_ERR_NO_MEMORY saying how much was asked for. */
static int alloc_run(pagani_context *ctx, vegas_run *r,
                     const pagani_batch *batch)
{
    const vegas_job *job = &r->plan.job;
    const size_t k = (size_t)r->count, n = (size_t)job->n;
    const size_t its = (size_t)r->plan.itmax, nb = (size_t)job->bins;
    const size_t C = (size_t)r->ncomp;
    double bytes;

    r->grid_size = (size_t)job->grid_axes * (nb + 1);
    r->bin_size = (size_t)job->grid_axes * nb;
    bytes =
        (double)k * (8.0 * (r->grid_size + r->bin_size + 2 * n +
                            (2 * C + 1.5) * its + 4 * C + 4) +
                     sizeof(vegas_member) + 2 * sizeof(vegas_sums) + 24);
    r->lower = malloc(sizeof(double) * k * n);
    r->width = malloc(sizeof(double) * k * n);
    r->grids = malloc(sizeof(double) * k * r->grid_size);
    r->bins = malloc(sizeof(double) * k * r->bin_size);
    r->work = malloc(sizeof(double) * (2 * nb + 1));
    r->history = calloc(2 * k * C * its, sizeof(double));
    r->nonzero = calloc(k * its, sizeof(long long));
    r->tail = calloc(k * its, sizeof(int));
    r->members = calloc(k, sizeof(vegas_member));
    r->list = malloc(sizeof(int) * k);
    r->again = malloc(sizeof(int) * k);
    r->scale = malloc(2 * sizeof(double) * k);
    r->beta_sums = malloc(sizeof(double) * k);
    r->totals = malloc(sizeof(long long) * k);
    r->sums = malloc(sizeof(vegas_sums) * k);
    r->repeat = malloc(sizeof(vegas_sums) * k);
    r->bins_valid = malloc(sizeof(int) * k);
    if (C > 1) {
        r->components = malloc(2 * sizeof(double) * k * C);
        r->components_repeat = malloc(2 * sizeof(double) * k * C);
    }
    if (r->checkpoint.path) r->saved = malloc(sizeof(vegas_member) * k);
    if (!r->lower || !r->width || !r->grids || !r->bins || !r->work ||
        !r->history || !r->nonzero || !r->tail || !r->members || !r->list ||
        !r->again || !r->scale || !r->beta_sums || !r->totals || !r->sums ||
        !r->repeat || !r->bins_valid || (C > 1 && (!r->components || !r->components_repeat)) ||
        (r->checkpoint.path && !r->saved))
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY,
                           "Vegas: %d integrals need "
                           "%.4g MB of host memory (a grid of %d x %d bins "
                           "each)",
                           r->count, bytes / 1e6, job->grid_axes, job->bins);
    for (int i = 0; i < r->count; i++) {
        vegas_member *m = &r->members[i];
        const double *lo = pagani_batch_lower(batch, i);
        const double *hi = pagani_batch_upper(batch, i);

        m->estimate = r->history + (size_t)i * C * its;
        m->variance = r->history + (k + (size_t)i) * C * its;
        m->nonzero = r->nonzero + (size_t)i * its;
        m->tail = r->tail + (size_t)i * its;
        m->volume = 1.0;
        for (int d = 0; d < job->n; d++) {
            r->lower[(size_t)i * n + d] = lo[d];
            r->width[(size_t)i * n + d] = hi[d] - lo[d];
            m->volume *= hi[d] - lo[d];
        }
        m->plus_total = r->plan.per_iteration;
        m->running = 1;
        m->fault_iteration = m->overflow_iteration = -1;
        pagani_vegas_grid_uniform(r->grids + (size_t)i * r->grid_size,
                                  job->grid_axes, job->bins);
    }
    return PAGANI_OK;
}

/* The plain average of component `comp` of member m over iterations
 * first..last (c->count of them, at least 2) into c, with the error of
 * the mean from their spread: what is left when the iterations' own
 * variances cannot be trusted as weights. */
static void combine_plain(const vegas_run *r, const vegas_member *m, int comp,
                          int first, int last, vegas_combined *c)
{
    const double *estimate = m->estimate + (size_t)comp * r->plan.itmax;
    double sum = 0.0, ss = 0.0;

    for (int k = first; k <= last; k++) sum += estimate[k];
    c->value = sum / c->count;
    for (int k = first; k <= last; k++)
        ss += (estimate[k] - c->value) * (estimate[k] - c->value);
    c->error = sqrt(ss / ((double)c->count * (c->count - 1)));
}

/* Inverse-variance average of component `comp` of member m over its
 * iterations first..last. An iteration whose variance came out 0 (no two
 * samples of a piece differed) has an unknown error, not a zero one: it
 * is left out, unless all are such, when the plain average is taken with
 * the iterations' largest distance from it as the error (a constant, whose
 * iterations differ only by rounding, or nothing seen). When one of the iterations is
 * tail-dominated (vegas_member.tail) and there are at least 2, the plain
 * average with the error from the iterations' spread is taken instead
 * (chi2/dof, still reported, is that of the iterations' own variances
 * about it). */
static vegas_combined combine(const vegas_run *r, const vegas_member *m,
                              int comp, int first, int last)
{
    const double *estimate = m->estimate + (size_t)comp * r->plan.itmax;
    const double *variance = m->variance + (size_t)comp * r->plan.itmax;
    vegas_combined c;
    double sw = 0.0, swi = 0.0, sum = 0.0, chi2 = 0.0;
    int weighted = 0;

    memset(&c, 0, sizeof c);
    for (int k = first; k <= last; k++) {
        c.nonzero += m->nonzero[k];
        c.tail += m->tail[k];
        c.count++;
        sum += estimate[k];
        if (variance[k] > 0.0) {
            sw += 1.0 / variance[k];
            swi += estimate[k] / variance[k];
            weighted++;
        }
    }
    if (c.count == 0) return c;
    if (weighted == 0) {
        c.value = sum / c.count;
        for (int k = first; k <= last; k++)
            if (fabs(estimate[k] - c.value) > c.error)
                c.error = fabs(estimate[k] - c.value);
        return c;
    }
    c.value = swi / sw;
    c.error = sqrt(1.0 / sw);
    if (c.tail > 0 && c.count >= 2) combine_plain(r, m, comp, first, last, &c);
    for (int k = first; k <= last; k++) {
        double d = estimate[k] - c.value;
        if (variance[k] > 0.0) chi2 += d * d / variance[k];
    }
    if (c.tail == 0) c.count = weighted;
    c.chi2_dof = weighted > 1 ? chi2 / (weighted - 1) : 0.0;
    return c;
}

/* Member k's combination of iterations first..last, every component:
 * component c's into all[c] (C of them). Returns whether the tolerance is
 * met by the norm (never for a value or error that is not finite, nor by
 * a tail-dominated combination of fewer than VEGAS_TAIL_ITERATIONS), in
 * *chi2_dof the largest chi2/dof of the components (0 for a
 * tail-dominated combination: not judged) and, when relative is not NULL,
 * in *relative whether epsrel alone is met. */
static int combine_all(const vegas_run *r, int k, int first, int last,
                       vegas_combined *all, double *chi2_dof, int *relative)
{
    const vegas_plan *p = &r->plan;
    double value[PAGANI_MAX_COMPONENTS], error[PAGANI_MAX_COMPONENTS];
    int trusted;

    *chi2_dof = 0.0;
    for (int c = 0; c < r->ncomp; c++) {
        all[c] = combine(r, &r->members[k], c, first, last);
        value[c] = all[c].value;
        error[c] = all[c].error;
        if (all[0].tail == 0 && !(all[c].chi2_dof <= *chi2_dof))
            *chi2_dof = all[c].chi2_dof;
    }
    /* a tail-dominated combination: its error is the spread's, which
     * few iterations do not make (and chi2/dof, made of their own
     * variances, judges nothing) */
    trusted = all[0].tail == 0 || all[0].count >= VEGAS_TAIL_ITERATIONS;
    if (relative)
        *relative = trusted && pagani_components_met(p->norm, r->ncomp, value,
                                                     error, p->epsrel, 0.0);
    return trusted && pagani_components_met(p->norm, r->ncomp, value, error,
                                            p->epsrel, p->epsabs);
}

/* Member k leaves the run after `iterations` iterations with `status`:
 * its result is the combination of its iterations from first_combined on;
 * a run that did not converge says PAGANI_NO_SIGNAL when those hold fewer
 * than 2 nonzero samples, and PAGANI_CHI2_TOO_LARGE when only chi2 kept it
 * from converging. */
static void finish(vegas_run *r, int k, int iterations, pagani_status status,
                   pagani_result *result)
{
    const vegas_plan *p = &r->plan;
    vegas_member *m = &r->members[k];
    int last = iterations - 1, first = p->first_combined, met, relative;
    vegas_combined all[PAGANI_MAX_COMPONENTS], c;
    double chi2_dof;

    m->running = 0;
    m->resume_at = status == PAGANI_MAX_EVALUATIONS ||
                           status == PAGANI_MAX_ITERATIONS ||
                           status == PAGANI_STOPPED
                       ? iterations
                       : -1;
    if (first > last) first = last; /* nothing combined: the last */
    met = combine_all(r, k, first < 0 ? 0 : first, last, all, &chi2_dof,
                      &relative);
    c = all[0];
    result->value = c.value;
    result->error = iterations > 0 ? c.error : INFINITY;
    result->chi2_dof = c.chi2_dof;
    for (int j = 0; r->ncomp > 1 && j < r->ncomp; j++) {
        r->batch->values[(size_t)k * r->ncomp + j] = all[j].value;
        r->batch->errors[(size_t)k * r->ncomp + j] =
            iterations > 0 ? all[j].error : INFINITY;
    }
    m->tail_combined = c.tail;
    result->status = status;
    result->evaluations = m->evaluations;
    result->regions = p->job.cubes;
    result->iterations = iterations;
    if (status == PAGANI_CONVERGED) {
        result->by_epsabs = !relative;
        return;
    }
    if (iterations == 0) return;
    if (c.nonzero < 2)
        result->status = PAGANI_NO_SIGNAL;
    else if (status == PAGANI_MAX_ITERATIONS && met && chi2_dof > p->chi2_max)
        result->status = PAGANI_CHI2_TOO_LARGE;
}

/* Sets the components (C > 1) of member k's result to the estimate of
 * one iteration, `it`, with an infinite error, or to NaN (it < 0). */
static void components_of_failure(vegas_run *r, int k, int it)
{
    const vegas_member *m = &r->members[k];
    for (int c = 0; r->ncomp > 1 && c < r->ncomp; c++) {
        r->batch->values[(size_t)k * r->ncomp + c] =
            it < 0 ? NAN : m->estimate[(size_t)c * r->plan.itmax + it];
        r->batch->errors[(size_t)k * r->ncomp + c] = INFINITY;
    }
}

/* Member k's estimate or variance of iteration `it` overflowed although f
 * was finite: its result is that estimate with an infinite error (status
 * PAGANI_NO_PROGRESS); the context message will say why. */
static void finish_overflow(vegas_run *r, int k, int it, pagani_result *result)
{
    finish(r, k, it, PAGANI_NO_PROGRESS, result); /* the iterations before */
    result->status = PAGANI_NO_PROGRESS;
    result->value = r->members[k].estimate[it];
    result->error = INFINITY;
    result->iterations = it + 1;
    r->members[k].overflow_iteration = it;
    components_of_failure(r, k, it);
}

/* Member k met NaN or infinity: value NaN, error infinite. */
static void finish_fault(vegas_run *r, int k, pagani_result *result)
{
    vegas_member *m = &r->members[k];

    memset(result, 0, sizeof *result);
    r->members[k].resume_at = -1;
    result->value = NAN;
    result->error = INFINITY;
    result->status = PAGANI_NO_PROGRESS;
    result->evaluations = m->evaluations;
    result->regions = r->plan.job.cubes;
    result->iterations = m->fault_iteration + 1;
    components_of_failure(r, k, -1);
}

/* The members that may run iteration `it` into r->list (returned: how
 * many); those whose next iteration (its pilot included) could pass
 * max_evaluations stop before it. */
static int admit(vegas_run *r, int it, pagani_result *results)
{
    const vegas_plan *p = &r->plan;
    int count = 0;

    for (int k = 0; k < r->count; k++) {
        vegas_member *m = &r->members[k];
        long long next = p->job.plus ? m->plus_total : p->per_iteration;

        if (!m->running || m->resume_at > it) continue; /* resumed later */
        if (it < p->ita && !(m->vmax > 0.0)) /* the pilot, at most */
            next += next / VEGAS_PILOT_STRIDE + p->job.pieces * p->job.samples;
        if (p->max_evaluations > 0 &&
            m->evaluations + next > p->max_evaluations)
            finish(r, k, it, PAGANI_MAX_EVALUATIONS, &results[k]);
        else
            r->list[count++] = k;
    }
    return count;
}

/* Adjusts the grids (and Vegas+ counts) of the members whose bins came in
 * this iteration, and hands the new grids to the backend at once. */
static int adjust(vegas_run *r, int count)
{
    const vegas_job *job = &r->plan.job;
    int first = -1, last = -1, n = 0;

    for (int i = 0; i < count; i++) {
        const int k = r->list[i];
        if (!r->bins_valid[i] || !r->members[k].running) continue;
        pagani_vegas_grid_adjust(r->grids + (size_t)k * r->grid_size,
                                 r->bins + (size_t)k * r->bin_size,
                                 job->grid_axes, job->bins, r->plan.alpha,
                                 r->work);
        if (first < 0) first = k;
        last = k;
        r->again[n] = k;
        r->beta_sums[n++] = r->sums[i].beta_sum;
    }
    if (n == 0) return PAGANI_OK;
    {
        int rc = r->ops->set_grids(r->state, first, last - first + 1, r->grids);
        if (rc != PAGANI_OK || !job->plus) return rc;
        rc = r->ops->stratify(r->state, r->again, n, r->beta_sums,
                              (long long)r->plan.calls, r->totals);
        for (int i = 0; i < n && rc == PAGANI_OK; i++)
            r->members[r->again[i]].plus_total = r->totals[i];
        return rc;
    }
}

/* Records iteration `it` of the i-th member of r->list: every
 * component's estimate and variance (component 0's are the pass's value
 * and variance). Returns 1 when one of them overflowed. */
static int record(vegas_run *r, int i, int it)
{
    const int k = r->list[i], C = r->ncomp;
    vegas_member *m = &r->members[k];
    const double scale = m->volume / (double)r->plan.job.cubes;
    int overflow = 0;

    for (int c = 0; c < C; c++) {
        size_t at = (size_t)c * r->plan.itmax + (size_t)it;
        double value = r->sums[i].value, variance = r->sums[i].variance;
        if (c > 0) {
            value = r->components[2 * ((size_t)i * C + c)];
            variance = r->components[2 * ((size_t)i * C + c) + 1];
        }
        m->estimate[at] = value * scale;
        m->variance[at] = variance * scale * scale;
        overflow |= !isfinite(m->estimate[at]) || !isfinite(m->variance[at]);
    }
    return overflow;
}

/* Records iteration `it` of the members in r->list and judges each:
 * converged, no signal, overflowed, or on to the next iteration. */
static void judge(vegas_run *r, int it, int count, pagani_result *results)
{
    const vegas_plan *p = &r->plan;

    for (int i = 0; i < count; i++) {
        const int k = r->list[i];
        vegas_member *m = &r->members[k];
        const vegas_sums *s = &r->sums[i];
        vegas_combined all[PAGANI_MAX_COMPONENTS], c;
        double chi2_dof;
        int met;

        if (!m->running) continue; /* f was NaN or infinite */
        if (record(r, i, it)) {
            finish_overflow(r, k, it, &results[k]);
            continue;
        }
        if (it >= r->recorded) r->recorded = it + 1;
        m->nonzero[it] = s->nonzero;
        m->seen += s->nonzero;
        m->tail[it] = s->term_max > VEGAS_TAIL_SHARE * s->variance;
        met = combine_all(r, k, it >= p->first_combined ? p->first_combined : it,
                          it, all, &chi2_dof, NULL);
        c = all[0];
        m->value = c.value;
        m->error = c.error;
        if (it >= p->first_combined && c.count >= 2) {
            if (m->seen == 0)
                finish(r, k, it + 1, PAGANI_NO_SIGNAL, &results[k]);
            else if (c.nonzero >= 2 && met && chi2_dof <= p->chi2_max)
                finish(r, k, it + 1, PAGANI_CONVERGED, &results[k]);
        }
    }
}

/* The progress call after iteration `it`: a single integral reports its
 * sub-cubes and estimate (an infinite error once it overflowed), a batch
 * the integrals still running and the first one's estimate. Returns
 * whether the callback asks to stop. */
static int progress(const vegas_run *r, int it, const pagani_options *opt)
{
    const vegas_member *first = NULL;
    long long running = 0;

    if (!opt->progress) return 0;
    for (int k = r->count - 1; k >= 0; k--)
        if (r->members[k].running) {
            first = &r->members[k];
            running++;
        }
    if (r->count == 1) {
        const vegas_member *m = &r->members[0];
        if (m->overflow_iteration == it) {
            opt->progress(it + 1, r->plan.job.cubes, m->estimate[it], INFINITY,
                          opt->progress_data);
            return 0;
        }
        return first && opt->progress(it + 1, r->plan.job.cubes, first->value,
                                      first->error, opt->progress_data);
    }
    return first && opt->progress(it + 1, running, first->value, first->error,
                                  opt->progress_data);
}

/* The end of a run: NaN or infinity in some integral is
 * PAGANI_ERR_NONFINITE naming the first such integral; else an overflow,
 * or else a result combined from tail-dominated iterations, is said in
 * the message (PAGANI_OK). */
static int report(pagani_context *ctx, const vegas_run *r)
{
    const char *which = r->count > 1 ? "integral " : "";

    for (int k = 0; k < r->count; k++)
        if (r->members[k].fault_iteration >= 0)
            return pagani_vegas_report_fault(ctx, r, k);
    for (int k = 0; k < r->count; k++) {
        const vegas_member *m = &r->members[k];
        int it = m->overflow_iteration;
        char name[32] = "";

        if (it < 0) continue;
        if (*which) snprintf(name, sizeof name, "%s%d: ", which, k);
        return pagani_fail(ctx, PAGANI_OK,
                           "%siteration %d: the estimate (%g) "
                           "or its variance overflows a double although the "
                           "integrand's values were finite: scale the "
                           "integrand down",
                           name, it + 1, m->estimate[it]);
    }
    for (int k = 0; k < r->count; k++) {
        const vegas_member *m = &r->members[k];
        char name[32] = "";

        if (m->tail_combined == 0) continue;
        if (*which) snprintf(name, sizeof name, "%s%d: ", which, k);
        return pagani_fail(ctx, PAGANI_OK,
                           "%sin %d of the iterations combined, one sample "
                           "carried more than %g%% of the variance (a heavy "
                           "tail, as of an integrable singularity): they were "
                           "averaged with the error from their spread, which "
                           "converges over %d iterations at the least",
                           name, m->tail_combined, 100.0 * VEGAS_TAIL_SHARE,
                           VEGAS_TAIL_ITERATIONS);
    }
    return PAGANI_OK;
}

/* The iterations member m has recorded when the run stops after `it`
 * iterations: `it`, or more for a resumed member still waiting for its
 * own. */
static int recorded_by(const vegas_member *m, int it)
{
    return m->resume_at > it ? m->resume_at : it;
}

/* After a stop request cut iteration `it` short: every running member
 * ends PAGANI_STOPPED with the iterations before it (NaN and +infinity
 * when there were none). */
static void stop_all(vegas_run *r, int it, pagani_result *results)
{
    for (int k = 0; k < r->count; k++) {
        const int done = recorded_by(&r->members[k], it);
        if (!r->members[k].running) continue;
        finish(r, k, done, PAGANI_STOPPED, &results[k]);
        if (done > 0) continue;
        results[k].value = NAN;
        for (int j = 0; r->ncomp > 1 && j < r->ncomp; j++)
            r->batch->values[(size_t)k * r->ncomp + j] = NAN;
    }
}

/* Whether some member is still running, or, with resumable, ended by a
 * limit or a stop (a checkpoint would resume it). */
static int any_member(const vegas_run *r, int resumable)
{
    for (int k = 0; k < r->count; k++)
        if (r->members[k].running ||
            (resumable && r->members[k].resume_at >= 0))
            return 1;
    return 0;
}

/* The iterations of all members from `start` on: each iteration admits
 * the members that may run it, samples them, adjusts their grids, judges
 * each and calls the progress callback; members end on their own, or all
 * at once on a stop request. The checkpoint is written after an
 * iteration when due, and when the run ends with members that a limit or
 * stop ended, in the state a run without them passes through: after the
 * iteration the callback stopped or max_iterations ended, before the one
 * that max_evaluations forbade or a stop request cut short. */
static int iterate(pagani_context *ctx, vegas_run *r, const pagani_options *opt,
                   int start, pagani_result *results)
{
    int it, rc;

    for (it = start; it < r->plan.itmax; it++) {
        int count = admit(r, it, results), stop;

        if (count == 0) {
            if (any_member(r, 0)) continue; /* resumed ones wait */
            break;
        }
        if (r->saved)
            memcpy(r->saved, r->members, sizeof *r->saved * (size_t)r->count);
        rc = pagani_vegas_passes(r, it, count, &count);
        if (rc == PAGANI_STOP_REQUESTED) {
            rc = pagani_vegas_checkpoint_write(ctx, r, r->saved, it, results);
            stop_all(r, it, results);
            return rc;
        }
        if (rc != PAGANI_OK) return rc;
        if ((rc = adjust(r, count)) != PAGANI_OK) return rc;
        judge(r, it, count, results);
        stop = progress(r, it, opt);
        for (int k = 0; k < r->count; k++) {
            if (r->members[k].fault_iteration == it)
                finish_fault(r, k, &results[k]);
            else if (stop && r->members[k].running)
                finish(r, k, recorded_by(&r->members[k], it + 1),
                       PAGANI_STOPPED, &results[k]);
        }
        if (any_member(r, 0) && pagani_checkpoint_due(&r->checkpoint) &&
            (rc = pagani_vegas_checkpoint_write(ctx, r, r->members, it + 1,
                                                results)) != PAGANI_OK)
            return rc;
    }
    for (int k = 0; k < r->count; k++)
        if (r->members[k].running)
            finish(r, k, r->plan.itmax, PAGANI_MAX_ITERATIONS, &results[k]);
    if (any_member(r, 1) &&
        (rc = pagani_vegas_checkpoint_write(ctx, r, r->members, it,
                                            results)) != PAGANI_OK)
        return rc;
    return report(ctx, r);
}

/* Every member's first grid: the caller's (grids->start), else
 * vegas_grid_in's (none: left uniform). */
static void place_grids(vegas_run *r, const pagani_options *opt,
                        const vegas_grids *grids)
{
    if (!grids || !grids->start) {
        pagani_vegas_warm_start(r, opt);
        return;
    }
    for (int k = 0; k < r->count; k++)
        memcpy(r->grids + (size_t)k * r->grid_size, grids->start[k],
               r->grid_size * sizeof *r->grids);
}

int pagani_vegas_integrate(pagani_context *ctx, pagani_integrand *f,
                           const pagani_batch *batch, const pagani_options *opt,
                           pagani_result *results)
{
    if (opt->batch_warm_stride != 0)
        return pagani_vegas_batch_warm(ctx, f, batch, opt, results);
    return pagani_vegas_run(ctx, f, batch, opt, results, NULL);
}

int pagani_vegas_run(pagani_context *ctx, pagani_integrand *f,
                     const pagani_batch *batch, const pagani_options *opt,
                     pagani_result *results, const vegas_grids *grids)
{
    vegas_run r;
    int rc, start = 0;

    memset(&r, 0, sizeof r);
    r.ops = ctx->backend ? ctx->backend->vegas : NULL;
    if (!r.ops)
        return pagani_fail(ctx, PAGANI_ERR_BACKEND_UNAVAILABLE,
                           "PAGANI_VEGAS is not available on the %s backend",
                           pagani_backend_name(ctx->kind));
    if ((rc = pagani_vegas_plan(ctx, f, opt, &r.plan)) != PAGANI_OK ||
        (rc = pagani_vegas_warm_check(ctx, opt, &r.plan)) != PAGANI_OK)
        return rc;
    r.batch = batch;
    /* the integrand's own block (pagani_integrate, or a batch sharing
     * it) is read afresh for every pass, as the callback may replace it */
    r.own_params = batch->params == f->params;
    r.count = batch->count;
    r.ncomp = f->ncomp;
    pagani_checkpoint_open(&r.checkpoint, ctx, f, batch, opt);
    rc = alloc_run(ctx, &r, batch);
    if (rc == PAGANI_OK) {
        vegas_job *job = &r.plan.job;
        job->integrals = r.count;
        job->lower = r.lower;
        job->width = r.width;
        rc = r.ops->setup(ctx->backend_state, job, &r.state);
    }
    if (rc == PAGANI_OK && (opt->vegas_grid_in || (grids && grids->start))) {
        place_grids(&r, opt, grids);
        rc = r.ops->set_grids(r.state, 0, r.count, r.grids);
    }
    if (rc == PAGANI_OK)
        rc = pagani_vegas_checkpoint_resume(ctx, &r, results, &start);
    if (rc == PAGANI_OK) rc = iterate(ctx, &r, opt, start, results);
    if (rc == PAGANI_OK) rc = pagani_vegas_warm_keep(ctx, &r, opt);
    if ((rc == PAGANI_OK || rc == PAGANI_ERR_NONFINITE) && grids &&
        grids->final)
        memcpy(grids->final, r.grids,
               (size_t)r.count * r.grid_size * sizeof *r.grids);
    free_run(&r);
    return rc;
}
