/*
 * threshold_search.c - THRESHOLD-CLASSIFY of the PAGANI paper (Algorithm 3):
 * a bisection-like search for an error threshold under which active regions
 * are finished, subject to a memory requirement (more than half of the
 * regions finished) and an accuracy requirement (their error within a share
 * of the error budget). Each candidate costs one threshold_stats call.
 */
#include <math.h>
#include "cubature/threshold_search.h"

#define MAX_ATTEMPTS 40
#define MAX_DIRECTION_CHANGES 12

int pagani_threshold_search(const cubature_ops *ops, void *state,
                            const threshold_problem *pr,
                            double *threshold, threshold_stats *stats)
{
    const cubature_sums *s = &pr->sums;
    double lo = s->min_error, hi = fmin(s->max_error, pr->max_threshold);
    double t = fmin(s->active > 0 ? s->active_error / (double)s->active : 0.0, hi);
    double share = 0.25;
    int direction = 0, changes = 0;

    *threshold = -1.0;
    if (s->active == 0 || pr->budget <= 0 || hi < lo) return PAGANI_OK;
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        threshold_stats st;
        long long finished;
        int rc = ops->threshold_stats(state, pr->integral, t, &st);
        int step;

        if (rc != PAGANI_OK) return rc;
        /* Finished this iteration: by the classification, plus under t;
         * the budget is the thresholds' own, so only theirs counts. */
        finished = (pr->regions - s->active) + st.count;
        /* Success leaves some region active: finishing them all would end
         * the run whatever the total error. */
        if (2 * finished > pr->regions && s->active - st.count <= pr->max_kept &&
            st.count < s->active) {
            if (st.error <= share * pr->budget) {
                *threshold = t;
                *stats = st;
                return PAGANI_OK;
            }
            step = -1; /* too much error finished: lower the threshold */
        } else {
            step = +1; /* too few finished: raise it */
        }
        if (direction != 0 && step != direction) {
            if (++changes > MAX_DIRECTION_CHANGES) break;
            share = share + 0.10 < 0.95 ? share + 0.10 : 0.95;
        }
        direction = step;
        if (step > 0) {
            lo = t;
            t = t + (hi - t) / 2;
        } else {
            hi = t;
            t = lo + (t - lo) / 2;
        }
    }
    return PAGANI_OK;
}

int pagani_threshold_for_memory(const cubature_ops *ops, void *state,
                                const threshold_problem *pr,
                                double *threshold, threshold_stats *stats)
{
    double lo = pr->sums.min_error, hi = pr->sums.max_error;
    threshold_stats st;
    int rc;

    /* hi finishes every active region, so it always fits. */
    rc = ops->threshold_stats(state, pr->integral, hi, &st);
    if (rc != PAGANI_OK) return rc;
    *threshold = hi;
    *stats = st;
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        double t = lo + (hi - lo) / 2;
        rc = ops->threshold_stats(state, pr->integral, t, &st);
        if (rc != PAGANI_OK) return rc;
        if (pr->sums.active - st.count <= pr->max_kept) {
            hi = t;
            *threshold = t;
            *stats = st;
        } else {
            lo = t;
        }
    }
    return PAGANI_OK;
}
