/*
 * threshold_search.h - private to the PAGANI driver: the threshold search
 * of the paper's Algorithm 3, kept in its own file.
 */
#ifndef PAGANI_THRESHOLD_SEARCH_H
#define PAGANI_THRESHOLD_SEARCH_H

#include "backend.h"

/* What the threshold search sees of one iteration. */
typedef struct threshold_problem {
    int integral;            /* which integral of the list */
    long long regions;       /* its regions evaluated this iteration (s_it) */
    cubature_sums sums;      /* their classify sums */
    double budget;           /* error the thresholds may still finish */
    long long max_kept;      /* most regions that may stay active (memory) */
    double max_threshold;    /* the search's thresholds stay at or below it
                                (the regions the evaluation probed) */
} threshold_problem;

/* Searches for a threshold t such that finishing the active regions with
 * E <= t finishes more than half of this iteration's regions (and keeps at
 * most max_kept) while the error it finishes stays within a share P of
 * the budget, P starting at 25% and rising 10 points per change of search
 * direction up to 95%, and t <= max_threshold. On success returns
 * PAGANI_OK with *threshold >= 0
 * and *stats of the regions it finishes; when no threshold qualifies,
 * *threshold = -1 (finish nothing more). */
int pagani_threshold_search(const cubature_ops *ops, void *state,
                            const threshold_problem *problem,
                            double *threshold, threshold_stats *stats);

/* Smallest threshold (by bisection) that keeps at most max_kept active
 * regions: used when memory alone decides. */
int pagani_threshold_for_memory(const cubature_ops *ops, void *state,
                                const threshold_problem *problem,
                                double *threshold, threshold_stats *stats);

#endif /* PAGANI_THRESHOLD_SEARCH_H */
