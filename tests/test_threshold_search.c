/*
 * test_threshold_search.c - the threshold search (src/cubature/
 * threshold_search.h) of several integrals in step, on a backend whose
 * statistics are counted exactly from seeded lists of regions (dyadic
 * errors and values: every sum is exact in any order). Checked against
 * what the search promises: a budget threshold finishes more than half of
 * the iteration's regions, keeps at most max_kept active and some active,
 * finishes at most 95% of the budget and stays at or below max_threshold;
 * a memory threshold keeps at most max_kept; no threshold only where the
 * active regions fit; the statistics returned are those of the threshold.
 * And the schedule: each step asks every unfinished search once, at most
 * 81 steps (40 candidates, then 41 for memory), and each integral gets
 * the bits it gets when searched alone.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cubature/threshold_search.h"
#include "tests/genz.h" /* genz_splitmix64 */
#include "tests/tap.h"

#define BATCHES 150
#define MOST_INTEGRALS 12
#define MOST_REGIONS 3000
#define MOST_STEPS 81 /* 40 budget candidates, then the largest error and 40 */

static uint64_t seed = 0x5eed7e57ULL;

static long long rng_below(long long n)
{
    return (long long)(genz_splitmix64(&seed) % (uint64_t)n);
}

/* A dyadic number: a 10-bit mantissa times 2^-e, e in 0..14. */
static double rng_dyadic(void)
{
    return ldexp((double)(1 + rng_below(1023)), -(int)rng_below(15) - 10);
}

/* One integral's list: its active regions' errors and values. */
typedef struct fake_list {
    long long active;
    double error[MOST_REGIONS], value[MOST_REGIONS];
} fake_list;

/* The fake backend: the lists, and what the steps asked. */
typedef struct fake_backend {
    const fake_list *lists;
    int integrals;
    int steps, repeated;    /* steps, and steps that asked an integral twice */
    int most_queries;
} fake_backend;

static threshold_stats exact_stats(const fake_list *l, double t)
{
    threshold_stats s = {0, 0.0, 0.0};
    for (long long i = 0; i < l->active; i++)
        if (l->error[i] <= t) {
            s.count++;
            s.value += l->value[i];
            s.error += l->error[i];
        }
    return s;
}

static int fake_threshold_stats(void *state, int queries, const int *integrals,
                                const double *thresholds, threshold_stats *stats)
{
    fake_backend *b = state;
    int asked[MOST_INTEGRALS] = {0};

    b->steps++;
    if (queries > b->most_queries) b->most_queries = queries;
    for (int q = 0; q < queries; q++) {
        if (asked[integrals[q]]++) b->repeated++;
        stats[q] = exact_stats(&b->lists[integrals[q]], thresholds[q]);
    }
    return PAGANI_OK;
}

/* A problem on list l: its classify sums, the regions of the iteration
 * (some finished by classification), a budget, room and a cap drawn so
 * that every outcome occurs. */
static threshold_problem draw_problem(int k, fake_list *l)
{
    threshold_problem pr;
    cubature_sums *s = &pr.sums;

    memset(&pr, 0, sizeof pr);
    l->active = rng_below(MOST_REGIONS + 1);
    s->min_error = INFINITY;
    s->max_error = 0.0;
    for (long long i = 0; i < l->active; i++) {
        l->error[i] = rng_below(4) ? rng_dyadic() : ldexp(1.0, -12); /* ties */
        l->value[i] = rng_below(2) ? rng_dyadic() : -rng_dyadic();
        s->active_error += l->error[i];
        s->active_value += l->value[i];
        s->min_error = fmin(s->min_error, l->error[i]);
        s->max_error = fmax(s->max_error, l->error[i]);
    }
    if (l->active == 0) s->min_error = 0.0;
    s->active = l->active;
    pr.integral = k;
    pr.regions = l->active + rng_below(l->active + 1);
    pr.budget = rng_below(6) ? s->active_error * (double)rng_below(1000) / 500.0 : 0.0;
    pr.max_kept = rng_below(2) ? l->active + rng_below(10) : rng_below(l->active + 2);
    pr.max_threshold = rng_below(3) ? INFINITY : s->max_error * (double)rng_below(1000) / 999.0;
    return pr;
}

/* What the search promises of its result. */
static int keeps_promises(const threshold_search *s, const fake_list *l)
{
    const threshold_problem *pr = &s->problem;
    const threshold_stats exact = s->threshold >= 0 ? exact_stats(l, s->threshold)
                                                    : (threshold_stats){0, 0.0, 0.0};
    const int same = exact.count == s->stats.count && exact.value == s->stats.value &&
                     exact.error == s->stats.error;

    if (s->stage != THRESHOLD_DONE || !same) return 0;
    if (s->threshold < 0) return pr->sums.active <= pr->max_kept;
    if (s->by_memory) return pr->sums.active - exact.count <= pr->max_kept;
    return 2 * (pr->regions - pr->sums.active + exact.count) > pr->regions &&
           pr->sums.active - exact.count <= pr->max_kept && exact.count < pr->sums.active &&
           exact.error <= 0.95 * pr->budget && s->threshold <= pr->max_threshold;
}

static int same_result(const threshold_search *a, const threshold_search *b)
{
    return memcmp(&a->threshold, &b->threshold, sizeof a->threshold) == 0 &&
           a->stats.count == b->stats.count &&
           memcmp(&a->stats.value, &b->stats.value, sizeof a->stats.value) == 0 &&
           memcmp(&a->stats.error, &b->stats.error, sizeof a->stats.error) == 0 &&
           a->by_memory == b->by_memory;
}

int main(void)
{
    static fake_list lists[MOST_INTEGRALS];
    cubature_ops ops;
    int outcomes[3] = {0, 0, 0}; /* none, budget, memory */

    memset(&ops, 0, sizeof ops);
    ops.threshold_stats = fake_threshold_stats;
    for (int batch = 0; batch < BATCHES; batch++) {
        const int K = 1 + (int)rng_below(MOST_INTEGRALS);
        threshold_search together[MOST_INTEGRALS], alone;
        threshold_problem problems[MOST_INTEGRALS];
        int integrals[MOST_INTEGRALS], promises = 1, identical = 1, rc;
        double thresholds[MOST_INTEGRALS];
        threshold_stats stats[MOST_INTEGRALS];
        fake_backend b = {lists, K, 0, 0, 0};

        for (int k = 0; k < K; k++) {
            problems[k] = draw_problem(k, &lists[k]);
            pagani_threshold_search_start(&together[k], &problems[k]);
        }
        rc = pagani_threshold_search_all(&ops, &b, together, K, integrals, thresholds, stats);
        for (int k = 0; k < K; k++) {
            fake_backend one = {lists, K, 0, 0, 0};
            promises &= keeps_promises(&together[k], &lists[k]);
            outcomes[together[k].threshold < 0 ? 0 : 1 + together[k].by_memory]++;
            pagani_threshold_search_start(&alone, &problems[k]);
            identical &= pagani_threshold_search_all(&ops, &one, &alone, 1, integrals,
                                                     thresholds, stats) == PAGANI_OK &&
                         same_result(&together[k], &alone) && one.steps <= b.steps;
        }
        tap_ok(rc == PAGANI_OK && promises && identical && b.repeated == 0 &&
                   b.most_queries <= K && b.steps <= MOST_STEPS,
               "batch %d of %d integrals: %d steps of at most %d queries, each integral once "
               "a step; results keep the promises and match each integral searched alone",
               batch, K, b.steps, b.most_queries);
    }
    tap_ok(outcomes[0] > 0 && outcomes[1] > 0 && outcomes[2] > 0,
           "the draws reach every outcome: no threshold %d, the budget's %d, memory's %d",
           outcomes[0], outcomes[1], outcomes[2]);
    tap_done();
    return tap_exit_code();
}
