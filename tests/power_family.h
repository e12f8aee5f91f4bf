/*
 * power_family.h - x^-a e^(-b x) over [0, 1], singular at the face x = 0
 * (issue 33): with a = 0.9 its variance is infinite, with 0.5
 * log-divergent. Shared by the Vegas (vegas_cases.h) and QMC
 * (qmc_checks.h) sweeps, which draw b from the same fixed seed.
 */
#ifndef PAGANI_TEST_POWER_FAMILY_H
#define PAGANI_TEST_POWER_FAMILY_H

#include <math.h>
#include "pagani.h"

/* p[0] = a, p[1] = b. */
PAGANI_INTEGRAND(power_family, { return pow(x[0], -p[0]) * exp(-p[1] * x[0]); })

/* Its integral, sum_k (-b)^k / (k! (k + 1 - a)). */
static inline double power_family_truth(double a, double b)
{
    double sum = 0.0, term = 1.0;
    for (int k = 0; k < 60; k++) {
        sum += term / (k + 1 - a);
        term *= -b / (k + 1);
    }
    return sum;
}

/* The next b, in [0.5, 3.5), from the generator state *lcg (start: 33). */
static inline double power_family_next_b(unsigned long long *lcg)
{
    *lcg = *lcg * 6364136223846793005ULL + 1442695040888963407ULL;
    return 0.5 + 3.0 * (double)(*lcg >> 11) / 9007199254740992.0;
}

/* The runs of a sweep: how many, how many converged, how many of those
 * with a true error beyond 5 reported errors, and the largest multiple. */
typedef struct power_family_tally {
    int runs, converged, wrong;
    double worst;
} power_family_tally;

/* Counts run r of the family with p = {a, b}. */
static inline void power_family_count(power_family_tally *t, const pagani_result *r,
                               const double *p)
{
    double dev;
    t->runs++;
    if (r->status != PAGANI_CONVERGED) return;
    dev = fabs(r->value - power_family_truth(p[0], p[1])) / r->error;
    t->converged++;
    t->wrong += dev > 5.0;
    if (dev > t->worst) t->worst = dev;
}

#endif /* PAGANI_TEST_POWER_FAMILY_H */
