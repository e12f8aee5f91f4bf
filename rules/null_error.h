/*
 * null_error.h - a region's raw error from its null rules' errors E_1,
 * E_2, E_3, and its two-level refinement (cubature-rules.md), written
 * once for the host (estimate.c, the OpenMP backend's classify) and the
 * GPU (gpu/cubature/cubature_math.h, the classify and check kernels;
 * NVRTC receives this text pasted in front of them).
 *
 * When the null rules decay -- c0 E_1 <= E_2 and c0 E_2 <= E_3, DCUHRE's
 * test that the rule is in its asymptotic regime -- the error is c1 E_1;
 * otherwise it is c2 times the largest E_k (the reference's formula).
 *
 * The error is not scaled down further by how fast the null rules decay:
 * three null rules can fall steeply in a region one or two widths of a
 * Gaussian across, where the basic rule is not yet in its asymptotic
 * regime. With the error scaled by c0 max(E_1/E_2, E_2/E_3) (down to
 * c1 E_1 / c0), the relative-error filter finished such regions with
 * errors a quarter of their true errors in sum (a 6-D Gaussian of width
 * 0.245 at 1e-5: 37,081 finished regions, sum of E 2.4e-8 against a true
 * 9.7e-8, all of one sign), and the integral converged 1.5 times beyond
 * its tolerance (issue 30, item 13; tests/test_batch_accuracy.c).
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
    if (pagani_null_rules_decay(c0, e1, e2, e3)) return volume * c1 * e1;
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
