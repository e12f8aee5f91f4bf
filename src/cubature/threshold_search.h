/*
 * threshold_search.h - private to the PAGANI driver: the threshold search
 * of the paper's Algorithm 3, kept in its own file. Each integral's search
 * is a state that proposes one candidate threshold at a time and takes its
 * statistics, so that the searches of a batch go in step: one
 * threshold_stats call a step answers every integral's candidate.
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

/* Where a search stands. */
typedef enum threshold_stage {
    THRESHOLD_BUDGET,        /* Algorithm 3: within a share of the budget */
    THRESHOLD_MEMORY_FIRST,  /* memory decides: the largest error first */
    THRESHOLD_MEMORY,        /* then bisection */
    THRESHOLD_DONE
} threshold_stage;

/* One integral's search between two candidates. */
typedef struct threshold_search {
    threshold_problem problem;
    threshold_stage stage;
    int attempt;             /* candidates asked in this stage */
    int direction, changes;  /* THRESHOLD_BUDGET: the last step's sign and
                                how often it changed */
    double lo, hi, t, share;
    double threshold;        /* the result: -1 finishes nothing more */
    threshold_stats stats;   /* of the regions the result finishes */
    int by_memory;           /* memory decided the result */
} threshold_search;

/* Starts the search of *pr. THRESHOLD_BUDGET looks for a threshold t such
 * that finishing the active regions with E <= t finishes more than half
 * of this iteration's regions (and keeps at most max_kept) while the error
 * it finishes stays within a share P of the budget, P starting at 25% and
 * rising 10 points per change of search direction up to 95%, and t <=
 * max_threshold. When none qualifies and more than max_kept regions are
 * active, memory decides (THRESHOLD_MEMORY_FIRST, THRESHOLD_MEMORY): the
 * smallest threshold, by bisection, that keeps at most max_kept. */
void pagani_threshold_search_start(threshold_search *s, const threshold_problem *pr);

/* Runs the searches s[0 .. n) in step until all are done: each step one
 * threshold_stats call for every search's candidate (integrals and
 * thresholds are scratch of n entries each, stats too). Then s[i].threshold
 * and s[i].stats hold each result, and s[i].stage says nothing more. */
int pagani_threshold_search_all(const cubature_ops *ops, void *state, threshold_search *s,
                                int n, int *integrals, double *thresholds,
                                threshold_stats *stats);

#endif /* PAGANI_THRESHOLD_SEARCH_H */
