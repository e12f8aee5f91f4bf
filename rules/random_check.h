/*
 * random_check.h - the randomized check of a region's rule, written once
 * for the host (src/cpu, rules/rule.c) and the GPU's check kernel
 * (gpu/cubature/cubature_check.cuh; NVRTC receives this text pasted in
 * front of it).
 *
 * Where the sign of a region's error is unknown (rules/error_sign.h: a
 * jump or kink inside the region, a probe that raised E, or a rule that
 * sees a constant), the driver added its E by size. N regions cut by a
 * curved jump -- the indicator of a ball -- have errors of both signs
 * that cancel like a random walk, so that sum overstated the total by
 * about sqrt(N) times E's own pessimism: 5,000 times for the 3-D ball at
 * 1e-3.
 *
 * The check measures those errors instead. f at PAGANI_CHECK_POINTS
 * points drawn uniformly in the region gives M = volume * mean f, an
 * unbiased estimate of the region's integral I, so V - M estimates the
 * rule's error V - I without bias, with variance volume^2 s^2 / k (s^2 the
 * points' sample variance, k the points). The points come from Philox
 * keyed by the bits of the region's centre and widths: independent from
 * region to region, the same on every run and on both backends. Over the
 * checked regions of an integral, the sum of V - M is within
 * PAGANI_CHECK_SIGMAS times the root of the summed variances of the sum
 * of their errors, with the probability of a Gaussian tail, once enough
 * regions add to the variance that the sum is Gaussian: their effective
 * number (sum of variances)^2 / (sum of squared variances) at least
 * PAGANI_CHECK_MIN_REGIONS. The driver (cubature_steps.c) then takes the
 * smaller of that bound and the checked regions' sum of E, never below
 * the largest E of the list.
 *
 * Regions whose E a probe raised are checked too (the ball's surface
 * passing next to a vertex makes half of its regions so). A feature that
 * the probes saw and the check's points missed leaves that region's V -
 * M and variance small, so the bound may forget its E: no more than the
 * largest E of the list when one region holds it; over many regions, a
 * feature that the check's points keep missing is one of small volume,
 * whose error the largest E (the probes' floor: the whole region's
 * volume times what they saw) bounds.
 */
#ifndef PAGANI_RANDOM_CHECK_H
#define PAGANI_RANDOM_CHECK_H

#include "hostdevice.h"       /* PAGANI_HD */
#include "sampling/philox.h" /* pagani_philox4x32_10, pagani_u01_52 */

#define PAGANI_CHECK_POINTS 16
#define PAGANI_CHECK_SIGMAS 4.0
#define PAGANI_CHECK_MIN_REGIONS 64.0

/* splitmix64's finalizer: a 64-bit word whose bits all depend on z's. */
PAGANI_HD pagani_u64 pagani_check_mix(pagani_u64 z)
{
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The bits of a double. */
PAGANI_HD pagani_u64 pagani_check_bits(double x)
{
    union {
        double d;
        pagani_u64 u;
    } b;
    b.d = x;
    return b.u;
}

/* Axis d's share of a region's Philox key, from its centre c and width
 * h on that axis. */
PAGANI_HD pagani_u64 pagani_check_axis_hash(int d, double c, double h)
{
    const pagani_u64 salt = 0x5851F42D4C957F2Dull * (pagani_u64)(d + 1);
    return pagani_check_mix(pagani_check_mix(pagani_check_bits(c) ^ salt) ^
                            pagani_check_bits(h));
}

/* The Philox key of the region with centre c and widths h: its axes'
 * shares combined by exclusive or (in any order: the GPU takes an axis a
 * lane), then mixed. */
PAGANI_HD pagani_u64 pagani_check_key(const double *c, const double *h, int n)
{
    pagani_u64 shares = 0;
    for (int d = 0; d < n; d++) shares ^= pagani_check_axis_hash(d, c[d], h[d]);
    return pagani_check_mix(shares);
}

/* Coordinates d and d + 1 (when d + 1 < n) of check point j of the
 * region of `key` with centre c and widths h, into x: uniform in
 * (c - h/2, c + h/2), from Philox block (j, d / 2), two words a
 * coordinate; d is even. */
PAGANI_HD void pagani_check_pair(pagani_u64 key, int j, int d, int n, const double *c,
                                 const double *h, double *x)
{
    pagani_philox4 ctr, out;
    ctr.v[0] = (pagani_u32)j;
    ctr.v[1] = (pagani_u32)(d >> 1);
    ctr.v[2] = 0;
    ctr.v[3] = 0;
    out = pagani_philox4x32_10(ctr, (pagani_u32)key, (pagani_u32)(key >> 32));
    x[d] = c[d] + (pagani_u01_52(out.v[0], out.v[1]) - 0.5) * h[d];
    if (d + 1 < n) x[d + 1] = c[d + 1] + (pagani_u01_52(out.v[2], out.v[3]) - 0.5) * h[d + 1];
}

/* What a region's check found: from the mean of its f values and the sum
 * of their squared deviations from it, V - M into *diff and the variance
 * of V - M into *var. */
PAGANI_HD void pagani_check_result(double volume, double value, double mean,
                                   double squared_deviations, double *diff, double *var)
{
    const double k = PAGANI_CHECK_POINTS;
    *diff = value - volume * mean;
    *var = volume * volume * (squared_deviations / (k - 1.0)) / k;
}

#endif /* PAGANI_RANDOM_CHECK_H */
