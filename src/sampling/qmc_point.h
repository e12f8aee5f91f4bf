/*
 * qmc_point.h - the points of PAGANI_QMC, for the host and the device
 * (static inline, no headers): randomly shifted Zinterhof points mapped
 * through a periodising transform into the integration box.
 *
 * Point k (k >= 1) of random shift r, axis i (0-based):
 *   t_i = frac(k * theta_{i+1} + u_{r,i})        in (0,1), zinterhof.h
 *   x_i = lower_i + width_i * phi(t_i)
 *   w   = prod_i phi'(t_i)                       the Jacobian
 * and the shift's estimate is volume * (1/N) sum_k f(x_k) w_k.
 *
 * Transforms phi (pagani_options.qmc_transform). A Weyl sequence integrates
 * smooth PERIODIC functions at nearly O(1/N); a transform makes f periodic.
 *   0 none:       phi(t) = t, phi' = 1.
 *   1 tent:       (default) Baker's transform phi(t) = 1 - |2t - 1|, phi' = 1 (it
 *                 preserves measure); makes f continuous across the faces.
 *   2 Korobov:    polynomial transform of degree 2:
 *                 phi(t) = t^3 (10 - 15 t + 6 t^2), phi'(t) = 30 t^2 (1-t)^2,
 *                 the Jacobian vanishing to second order at both faces, so
 *                 f(phi) phi' is periodic with a periodic first derivative;
 *                 it also tames integrable singularities at the faces
 *                 (x^-1/2 becomes t^1/2).
 *   3 Korobov-3:  polynomial transform of degree 3:
 *                 phi(t) = t^4 (35 - 84 t + 70 t^2 - 20 t^3),
 *                 phi'(t) = 140 t^3 (1-t)^3, vanishing to third order at
 *                 both faces: f(phi) phi' is periodic with two periodic
 *                 derivatives, and a singularity x^-a at a face becomes
 *                 t^(3 - 4a) (x^-1/2: t; x^-0.9: t^-0.6, square
 *                 integrable, where degree 2 leaves t^-0.7).
 *
 * On the device the arithmetic uses __dmul_rn/__dadd_rn, which are never
 * fused into FMAs, so the host (x86-64, which has no FMA contraction by
 * default) and the GPU compute the same bits for every point.
 */
#ifndef PAGANI_QMC_POINT_H
#define PAGANI_QMC_POINT_H

#include "hostdevice.h" /* PAGANI_DMUL, PAGANI_DADD */
#include "sampling/zinterhof.h"

#define PAGANI_QMC_TRANSFORM_NONE 0
#define PAGANI_QMC_TRANSFORM_TENT 1
#define PAGANI_QMC_TRANSFORM_KOROBOV 2
#define PAGANI_QMC_TRANSFORM_KOROBOV3 3

#if !defined(__CUDACC_RTC__)
#include <math.h>   /* fabs; NVRTC has it built in */
#endif

/* phi(t) for the transform; multiplies *w by phi'(t). */
PAGANI_HD double pagani_qmc_periodize(double t, int transform, double *w)
{
    if (transform == PAGANI_QMC_TRANSFORM_TENT) {
        /* exact; branch-free (a branch here mispredicts half the time) */
        return PAGANI_DADD(1.0, -fabs(PAGANI_DADD(PAGANI_DADD(t, t), -1.0)));
    }
    if (transform == PAGANI_QMC_TRANSFORM_KOROBOV) {
        double u = PAGANI_DMUL(t, PAGANI_DADD(1.0, -t));   /* t (1-t) */
        double q = PAGANI_DADD(PAGANI_DMUL(6.0, t), -15.0);
        q = PAGANI_DADD(PAGANI_DMUL(q, t), 10.0);          /* 10-15t+6t^2 */
        *w = PAGANI_DMUL(*w, PAGANI_DMUL(30.0, PAGANI_DMUL(u, u)));
        return PAGANI_DMUL(PAGANI_DMUL(PAGANI_DMUL(t, t), t), q);
    }
    if (transform == PAGANI_QMC_TRANSFORM_KOROBOV3) {
        double u = PAGANI_DMUL(t, PAGANI_DADD(1.0, -t));   /* t (1-t) */
        double t2 = PAGANI_DMUL(t, t);
        double q = PAGANI_DADD(PAGANI_DMUL(-20.0, t), 70.0);
        q = PAGANI_DADD(PAGANI_DMUL(q, t), -84.0);
        q = PAGANI_DADD(PAGANI_DMUL(q, t), 35.0);          /* 35-84t+70t^2-20t^3 */
        *w = PAGANI_DMUL(*w, PAGANI_DMUL(140.0, PAGANI_DMUL(PAGANI_DMUL(u, u), u)));
        return PAGANI_DMUL(PAGANI_DMUL(t2, t2), q);
    }
    return t;
}

/* The fixed-point state of point k of shift `shift` on axis `axis`:
 * frac(k * theta + u), theta = {high, low} of theta_{axis+1}. */
PAGANI_HD pagani_u128 pagani_qmc_state(unsigned long long seed, unsigned shift,
                                       unsigned axis, unsigned long long k,
                                       const unsigned long long theta[2])
{
    pagani_u128 f;
    f.hi = theta[0];
    f.lo = theta[1];
    return pagani_u128_add(pagani_u128_mul(k, f),
                           pagani_zinterhof_shift(seed, shift, axis));
}

/* The coordinate of a state in the unit interval, phi(t); *w *= phi'.
 * A batch maps one such point to every integral's box (pagani_qmc_map). */
PAGANI_HD double pagani_qmc_unit(pagani_u128 state, int transform, double *w)
{
    return pagani_qmc_periodize(pagani_u128_to_open(state), transform, w);
}

/* A unit coordinate u in [lower, lower + width]. */
PAGANI_HD double pagani_qmc_map(double u, double lower, double width)
{
    return PAGANI_DADD(lower, PAGANI_DMUL(width, u));
}

/* The coordinate of a state in [lower, lower + width]; *w *= phi'. */
PAGANI_HD double pagani_qmc_coord(pagani_u128 state, int transform,
                                  double lower, double width, double *w)
{
    return pagani_qmc_map(pagani_qmc_unit(state, transform, w), lower, width);
}

#endif /* PAGANI_QMC_POINT_H */
