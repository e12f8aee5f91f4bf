/*
 * cubature_worst.c - worst-first refinement, the CPU's strategy
 * (pagani_strategy): of the regions an iteration keeps, split only those
 * of the largest errors, as many as the tolerance needs, and let the
 * others wait in the list (the backend's hold_split), their errors in
 * the total as before. hcubature and Cuhre split one worst region at a
 * time; PAGANI's breadth-first iteration splits every kept region, which
 * fills a GPU but spends evaluations on regions whose errors the target
 * could have carried. A batch of the worst regions keeps the CPU's
 * threads busy and the iterations few.
 *
 * Nothing here decides convergence: the end tests, the classifications,
 * the thresholds, the probes, the randomized check and the two-level
 * error are those of breadth-first refinement (cubature_steps.c); only
 * the choice of what splits differs, and a held region is classified in
 * every iteration as a fresh one is. Where breadth-first refinement
 * splits a region whatever its error, so does this: a region that was
 * not vertex-probed, and one holding more than RELERR_LARGEST of the
 * estimate, whose rule and null rules can agree on an error far below
 * the true one until it is split (cubature_steps.c).
 */
#include <math.h>
#include <stdlib.h>
#include "cubature/cubature_run.h"
#include "cubature/worst_select.h"

/* The children's errors of a split region, in sum, over their parent's:
 * what an iteration expects of the regions it splits (halving a smooth
 * region cuts its error far more, a region holding a peak or a jump much
 * less; only the number of regions split depends on it). */
#define EXPECTED_DROP 0.25
/* The share of the target an iteration aims at: below 1, so that the
 * next end test has room to meet it. */
#define AIM 0.5
/* The share of the kept regions' error that may be held while the
 * tolerance is still far: the regions of the largest errors that carry
 * the rest split, and those of small errors wait until the others come
 * down to them (hcubature's order, a batch at a time). */
#define HOLD_SHARE 0.2
/* At least one kept region in LEAST_SPLIT splits, so that a list of N
 * regions takes O(log N) iterations, each a few passes over the list. */
#define LEAST_SPLIT 8

int cubature_worst_first(batch_run *b, const pagani_integrand *f, int *worst_first)
{
    /* A checkpoint holds a list of split regions' children only, not the
     * regions worst-first holds unsplit: a run with state_path refines
     * breadth-first. */
    const int runs = b->ops->hold_split != NULL && f->ncomp == 1 &&
                     b->opt->state_path == NULL;

    *worst_first = 0;
    if (b->opt->strategy == PAGANI_STRATEGY_BREADTH) return PAGANI_OK;
    if (b->opt->strategy == PAGANI_STRATEGY_WORST_FIRST && !runs)
        return pagani_fail(b->ctx, PAGANI_ERR_OPTION,
                           "worst-first refinement runs on the CPU backend "
                           "with scalar integrands and no state_path only "
                           "(%s backend, %d components%s)",
                           pagani_backend_name(b->ctx->kind), f->ncomp,
                           b->opt->state_path ? ", a checkpoint" : "");
    *worst_first = runs;
    return PAGANI_OK;
}

/* Room in b->kept_errors for `count` errors (grown by doubling: rarely). */
static int reserve_kept(batch_run *b, long long count)
{
    double *more;
    if (count <= b->kept_capacity) return PAGANI_OK;
    if (count < 2 * b->kept_capacity) count = 2 * b->kept_capacity;
    more = realloc(b->kept_errors, (size_t)count * sizeof *more);
    if (!more)
        return pagani_fail(b->ctx, PAGANI_ERR_NO_MEMORY,
                           "worst-first refinement's copy of %lld errors", count);
    b->kept_errors = more;
    b->kept_capacity = count;
    return PAGANI_OK;
}

void cubature_worst_free(batch_run *b)
{
    free(b->kept_errors);
    b->kept_errors = NULL;
    b->kept_capacity = 0;
}

/* Integral k's split_above: the largest error the regions it holds may
 * have, so that the errors held, the finished ones and EXPECTED_DROP of
 * those split meet AIM of the target (scaled by what the reported error
 * gains over the sum of E: cancellation), while at least one kept region
 * in LEAST_SPLIT splits, the largest error splits, and the held take
 * every kept error within 1e-30 of the largest; none held when none can
 * be. One selection (worst_select.h) over a copy of the kept errors. */
static int choose_worst(batch_run *b, int k)
{
    const run *r = &b->runs[k];
    const cubature_sums *s = &b->sums[k];
    const threshold_stats *thr = &b->finished[k];
    const double target = fmax(b->opt->epsrel * fabs(r->value), b->opt->epsabs);
    const double listed = r->finished_error + s->error;
    const double finished = r->finished_error + (s->error - s->active_error) + thr->error;
    const double kept_error = s->active_error - thr->error;
    const long long kept = s->active - thr->count;
    const long long least = (kept + LEAST_SPLIT - 1) / LEAST_SPLIT;
    double aim = AIM * target * (r->error > 0 && listed > r->error ? listed / r->error : 1.0);
    worst_limits l;
    long long copied, held;
    int rc;

    l.allowed = fmax((aim - finished - EXPECTED_DROP * kept_error) / (1.0 - EXPECTED_DROP),
                     HOLD_SHARE * kept_error);
    l.most = kept - least;
    l.floor = fmax(fmax(s->min_error, s->max_error * 1e-30), b->thresholds[k]);
    l.below = s->max_error;
    if (!(l.allowed > 0) || kept <= least || !(l.floor > 0) || !(l.below > l.floor))
        return PAGANI_OK;
    rc = reserve_kept(b, kept);
    if (rc == PAGANI_OK)
        rc = b->ops->kept_errors(b->ctx->backend_state, k, b->thresholds[k],
                                 b->kept_errors, &copied);
    if (rc != PAGANI_OK) return rc;
    held = cubature_worst_select(b->kept_errors, copied, l, &b->split_above[k]);
    b->splitting[k] = kept - held;
    return PAGANI_OK;
}

int cubature_choose_splits(batch_run *b)
{
    for (int k = 0; k < b->integrals; k++) {
        const run *r = &b->runs[k];
        int rc;
        if (!r->running) continue;
        b->splitting[k] = b->sums[k].active - b->finished[k].count;
        b->split_above[k] = b->thresholds[k]; /* hold none */
        b->hold_largest[k] = RELERR_LARGEST * fabs(r->previous_value);
        /* the first list's regions had no probes: they split */
        if (!b->worst_first || isnan(r->previous_value)) continue;
        rc = choose_worst(b, k);
        if (rc != PAGANI_OK) return rc;
    }
    return PAGANI_OK;
}

int cubature_hold_split(batch_run *b)
{
    const pagani_options *opt = b->opt;
    int rc = b->ops->hold_split(b->ctx->backend_state, b->thresholds, b->split_above,
                                b->hold_largest, b->counts, b->held_checked);

    for (int k = 0; rc == PAGANI_OK && k < b->integrals; k++) {
        run *r = &b->runs[k];
        long long kept = b->sums[k].active - b->finished[k].count, split;
        r->held = r->held_checked = 0;
        if (!r->running) continue;
        split = b->counts[k] - kept;
        r->held = kept - split;
        r->held_checked = b->held_checked[k];
        /* hold_split may split more than chosen (unprobed regions) */
        if (opt->max_evaluations > 0 &&
            r->result->evaluations + 2 * split * (b->points + b->check_points) >
                opt->max_evaluations)
            end_integral(b, k, PAGANI_MAX_EVALUATIONS);
    }
    return rc;
}
