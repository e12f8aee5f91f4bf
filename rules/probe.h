/*
 * probe.h - the vertex probes that check what a DCUHRE rule cannot see,
 * written once for the host (src/cpu) and the GPU evaluation kernel (NVRTC
 * receives this text pasted in front of gpu/cubature/cubature_math.h).
 *
 * A rule sees f only at its points. The outermost stay 2% of the width
 * inside the region along one axis at a time, and 16% along all axes at
 * once (the 2^n corner set), so a feature that reaches into a region
 * through a face or a corner -- the tail of a peak centred just outside,
 * a jump just past a bisection point -- can lie wholly between the points
 * and the boundary. Then every rule and null rule agrees on a small value
 * with a small error, and the region would be finished with the wrong
 * integral: a 6-D Gaussian of width 0.05 centred at 0.448 lost 3e-4 of
 * its value that way, a jump 1.5e-4 past x = 0.0625 lost 3e-3.
 *
 * Probes are f at the 2^n points c_d +- (1/2 - PAGANI_PROBE_INSET) h_d,
 * next to the region's vertices, where no rule point lies. When the
 * largest |f| at a probe exceeds PAGANI_PROBE_RATIO times the largest |f|
 * at the rule's points, the rule has missed what the probes saw: the
 * region's error becomes at least volume * max |f(probe)| (all that the
 * missed feature could hold), and the region is split along the axis
 * across which the probes differ most, |sum over probes of +-|f||, + on
 * the upper side of the axis, so that refinement brings rule points onto
 * the feature. A region whose rule resolves f does not vary by a factor
 * PAGANI_PROBE_RATIO between its corner set and its vertices, so its
 * estimate is untouched; nor is a region where f is negligible everywhere
 * (its error stays negligible).
 *
 * Only the regions that an iteration could finish are probed (the
 * driver's bounds on E), and only in 2 <= n <= PAGANI_PROBE_MAX_DIM:
 * 2^n evaluations a probed region, at most 23% of the degree-9 rule's
 * points up to n = 8, 44% at n = 10. The 1-D Gauss-Kronrod rule reaches
 * within 0.5% of the ends already.
 */
#ifndef PAGANI_PROBE_H
#define PAGANI_PROBE_H

#include "hostdevice.h" /* PAGANI_HD */

#define PAGANI_PROBE_INSET 1e-3
#define PAGANI_PROBE_RATIO 1e3
#define PAGANI_PROBE_MAX_DIM 10

/* How many probes a region of dimension n gets: 2^n or 0. */
PAGANI_HD int pagani_probe_count(int n)
{
    return n >= 2 && n <= PAGANI_PROBE_MAX_DIM ? 1 << n : 0;
}

/* Coordinate d of probe v of a region with centre c and width h: bit d of
 * v set means the upper side of axis d. */
PAGANI_HD double pagani_probe_coordinate(int v, int d, double c, double h)
{
    const double half = 0.5 - PAGANI_PROBE_INSET;
    return ((v >> d) & 1) ? c + half * h : c - half * h;
}

/* Whether the probes saw what the rule's points did not: the largest |f|
 * at the probes and at the rule's points. */
PAGANI_HD int pagani_probe_missed(double probe_max, double rule_max)
{
    return probe_max > PAGANI_PROBE_RATIO * rule_max;
}

#endif /* PAGANI_PROBE_H */
