/*
 * fourth_difference.h - the split-axis measure of the DCUHRE rules, written
 * once for the host (rules/estimate.c) and the GPU evaluation kernel
 * (gpu/cubature/cubature_math.h; NVRTC receives this text pasted in front of
 * it).
 *
 * From f at the explicit points 0 .. 4n (rules.h: the centre, then
 * c +- a h_d e_d, then c +- b h_d e_d) and ratio = (b/a)^2:
 *   D_d = |2 (1 - ratio) f_0 + ratio (f(c+a) + f(c-a)) - (f(c+b) + f(c-b))|,
 * counted as 0 within 8 ulps of the magnitude of its terms (rounding, not
 * curvature), in the spirit of DCUHRE's "ignore differences below
 * roundoff", so that a function with no fourth-order variation is split
 * along its widest axis rather than by noise.
 */
#ifndef PAGANI_FOURTH_DIFFERENCE_H
#define PAGANI_FOURTH_DIFFERENCE_H

#include <math.h>
#include "hostdevice.h" /* PAGANI_HD */

PAGANI_HD double pagani_fourth_difference(int n, double ratio, const double *f, int d)
{
    const double eps = 2.220446049250313080847e-16; /* DBL_EPSILON */
    double fa = f[1 + 2 * d] + f[2 + 2 * d];
    double fb = f[1 + 2 * n + 2 * d] + f[2 + 2 * n + 2 * d];
    double t0 = 2.0 * (1.0 - ratio) * f[0];
    double diff = fabs(t0 + ratio * fa - fb);
    double mag = fabs(t0) + ratio * (fabs(f[1 + 2 * d]) + fabs(f[2 + 2 * d])) +
                 fabs(f[1 + 2 * n + 2 * d]) + fabs(f[2 + 2 * n + 2 * d]);
    return diff <= 8.0 * eps * mag ? 0.0 : diff;
}

#endif /* PAGANI_FOURTH_DIFFERENCE_H */
