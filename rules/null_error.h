/*
 * null_error.h - a region's raw error from its null rules' errors E_1,
 * E_2, E_3, and its two-level refinement (cubature-rules.md), written
 * once for the host (estimate.c, the OpenMP backend's classify) and the
 * GPU (gpu/cubature/cubature_math.h, the classify and check kernels;
 * NVRTC receives this text pasted in front of them).
 *
 * When the null rules decay -- c0 E_1 <= E_2 and c0 E_2 <= E_3, DCUHRE's
 * test that the rule is in its asymptotic regime -- the error is c1 E_1
 * scaled by how fast they decay: c0 r with r = max(E_1/E_2, E_2/E_3),
 * which is at most 1 there, and at least 1/c0. A sequence of null rules
 * that falls by a factor r per degree says the basic rule, of higher
 * degree than all of them, errs by about r times less than E_1 again; at
 * the threshold r = 1/c0 the error is c1 E_1 as in the original PAGANI,
 * below it proportionally less, down to c1 E_1 / c0 (the original's c1
 * E_1 overstated a smooth region's error a hundred times: the Genz
 * oscillatory family reported 69 times its true error, now 31). The
 * floor is what keeps the suite's f8, (sum x^2)^7.5 in 8-D, whose
 * derivatives of order 8 and up are singular at a corner, honest at
 * 1e-6: without it it converged with 9.2e-7 for a true 1.01e-6.
 * Otherwise the error is c2 times the largest E_k.
 */
#ifndef PAGANI_NULL_ERROR_H
#define PAGANI_NULL_ERROR_H

#include "hostdevice.h" /* PAGANI_HD */

/* Whether the null rules decay (the rule is in its asymptotic regime). */
PAGANI_HD int pagani_null_rules_decay(double c0, double e1, double e2, double e3)
{
    return c0 * e1 <= e2 && c0 * e2 <= e3;
}

/* The raw error of a region of `volume` from E_1, E_2, E_3 and the
 * rule's constants (c0, c1, c2). */
PAGANI_HD double pagani_null_rule_error(double c0, double c1, double c2, double volume,
                                        double e1, double e2, double e3)
{
    if (pagani_null_rules_decay(c0, e1, e2, e3)) {
        /* e1 > 0 makes e2 and e3 positive: c0 e1 <= e2, c0 e2 <= e3 */
        const double decay = e1 > 0.0 ? fmax(e1 / e2, e2 / e3) : 0.0;
        return volume * c1 * e1 * fmax(c0 * decay, 1.0 / c0);
    }
    return volume * c2 * fmax(e1, fmax(e2, e3));
}

/* Berntsen's two-level error (cubature-rules.md), classify's on both
 * backends, of a region of raw error e whose sibling's raw error is
 * e_sibling, their split having changed the parent's value by `change`
 * (V_L + V_R - V_parent). The randomized check (random_check.h) compares
 * it with its threshold: a region whose rule sees a constant has raw
 * error 0 and a two-level error from its sibling's jump. */
PAGANI_HD double pagani_two_level_error(double e, double e_sibling, double change)
{
    const double diff = (change < 0.0 ? -change : change) / 4.0, sum = e + e_sibling;
    return (sum > 0.0 ? e * (1.0 + 2.0 * diff / sum) : e) + diff;
}

#endif /* PAGANI_NULL_ERROR_H */
