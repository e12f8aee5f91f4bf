/*
 * threshold_search.c - THRESHOLD-CLASSIFY of the PAGANI paper (Algorithm 3):
 * a bisection-like search for an error threshold under which active regions
 * are finished, subject to a memory requirement (more than half of the
 * regions finished) and an accuracy requirement (their error within a share
 * of the error budget); failing that, when memory demands it, the smallest
 * threshold that leaves room. Each candidate costs one query of a
 * threshold_stats call, which answers every search of a batch at once.
 */
#include <math.h>
#include "cubature/threshold_search.h"

#define MAX_ATTEMPTS 40
#define MAX_DIRECTION_CHANGES 12

/* The budget search found nothing: memory decides when the active regions
 * do not fit, starting from the largest error, which finishes them all
 * and so always fits. */
static void budget_failed(threshold_search *s)
{
    const threshold_problem *pr = &s->problem;

    if (pr->sums.active <= pr->max_kept) {
        s->stage = THRESHOLD_DONE;
        return;
    }
    s->stage = THRESHOLD_MEMORY_FIRST;
    s->by_memory = 1;
    s->attempt = 0;
    s->lo = pr->sums.min_error;
    s->hi = pr->sums.max_error;
    s->t = s->hi;
}

void pagani_threshold_search_start(threshold_search *s, const threshold_problem *pr)
{
    const cubature_sums *sums = &pr->sums;

    s->problem = *pr;
    s->stage = THRESHOLD_BUDGET;
    s->attempt = s->direction = s->changes = 0;
    s->lo = sums->min_error;
    s->hi = fmin(sums->max_error, pr->max_threshold);
    s->t = fmin(sums->active > 0 ? sums->active_error / (double)sums->active : 0.0, s->hi);
    s->share = 0.25;
    s->threshold = -1.0;
    s->stats = (threshold_stats){0, 0.0, 0.0};
    s->by_memory = 0;
    if (sums->active == 0 || pr->budget <= 0 || s->hi < s->lo) budget_failed(s);
}

/* Algorithm 3's step on the statistics of candidate s->t. */
static void take_budget(threshold_search *s, const threshold_stats *st)
{
    const threshold_problem *pr = &s->problem;
    const long long active = pr->sums.active;
    /* Finished this iteration: by the classification, plus under t; the
     * budget is the thresholds' own, so only theirs counts. */
    const long long finished = (pr->regions - active) + st->count;
    int step;

    /* Success leaves some region active: finishing them all would end the
     * run whatever the total error. */
    if (2 * finished > pr->regions && active - st->count <= pr->max_kept &&
        st->count < active) {
        if (st->error <= s->share * pr->budget) {
            s->threshold = s->t;
            s->stats = *st;
            s->stage = THRESHOLD_DONE;
            return;
        }
        step = -1; /* too much error finished: lower the threshold */
    } else {
        step = +1; /* too few finished: raise it */
    }
    if (s->direction != 0 && step != s->direction) {
        if (++s->changes > MAX_DIRECTION_CHANGES) {
            budget_failed(s);
            return;
        }
        s->share = s->share + 0.10 < 0.95 ? s->share + 0.10 : 0.95;
    }
    s->direction = step;
    if (step > 0) {
        s->lo = s->t;
        s->t = s->t + (s->hi - s->t) / 2;
    } else {
        s->hi = s->t;
        s->t = s->lo + (s->t - s->lo) / 2;
    }
    if (++s->attempt >= MAX_ATTEMPTS) budget_failed(s);
}

/* The memory bisection's step: the smallest threshold that keeps at most
 * max_kept active regions so far is the result. */
static void take_memory(threshold_search *s, const threshold_stats *st)
{
    const threshold_problem *pr = &s->problem;

    if (s->stage == THRESHOLD_MEMORY_FIRST || pr->sums.active - st->count <= pr->max_kept) {
        s->hi = s->t;
        s->threshold = s->t;
        s->stats = *st;
    } else {
        s->lo = s->t;
    }
    if (s->stage == THRESHOLD_MEMORY_FIRST) s->stage = THRESHOLD_MEMORY;
    else if (++s->attempt >= MAX_ATTEMPTS) s->stage = THRESHOLD_DONE;
    s->t = s->lo + (s->hi - s->lo) / 2;
}

int pagani_threshold_search_all(const cubature_ops *ops, void *state, threshold_search *s,
                                int n, int *integrals, double *thresholds,
                                threshold_stats *stats)
{
    for (;;) {
        int queries = 0, rc;

        for (int i = 0; i < n; i++)
            if (s[i].stage != THRESHOLD_DONE) {
                integrals[queries] = s[i].problem.integral;
                thresholds[queries++] = s[i].t;
            }
        if (queries == 0) return PAGANI_OK;
        rc = ops->threshold_stats(state, queries, integrals, thresholds, stats);
        if (rc != PAGANI_OK) return rc;
        queries = 0;
        for (int i = 0; i < n; i++) {
            if (s[i].stage == THRESHOLD_DONE) continue;
            if (s[i].stage == THRESHOLD_BUDGET) take_budget(&s[i], &stats[queries++]);
            else take_memory(&s[i], &stats[queries++]);
        }
    }
}
