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
 * next to the region's vertices, where no rule point lies. The probes have
 * missed the rule's view of f in two ways:
 *  - above: the largest |f| at a probe exceeds PAGANI_PROBE_RATIO times
 *    the largest |f| at the rule's points (a peak reaching in);
 *  - below: where |f| keeps one sign over the rule's points, between
 *    rule_min > 0 and rule_max, the smallest |f| at a probe is below
 *    rule_min (rule_min / rule_max)^3, outside the rule's range on a log
 *    scale by three times its width, and rule_min - probe_min exceeds
 *    the range rule_max - rule_min (a jump to 0 or down to a lower level
 *    in the sliver between the points and a face: f drops where the rule
 *    saw it level).
 * A smooth f does not leave its range so far between the rule's outermost
 * points and the vertices, which lie 1.46 times as far from the centre as
 * the rule's corner points. On a log scale a log-quadratic f (a Gaussian
 * centred in the region) leaves it by about 1.1 times its width, hence 3;
 * a smooth f that crosses 0 just past the points leaves it without bound,
 * but on a linear scale by less than its range: even cos(s), 1 at the
 * centre and 1/2 at the corner points, drops by 0.92 of its range at the
 * vertices. Only the log test alone split the zero crossings of f1 8D
 * until the evaluation cap.
 * When the error the probes say a region must carry
 * (pagani_probe_floor) exceeds its error, that becomes its error, and the
 * region is split along the axis across which the
 * probes differ most, |sum over probes of +-|f||, + on the upper side of
 * the axis, so that refinement brings rule points onto the feature. A
 * region whose rule resolves f is untouched, as is a region where f is
 * negligible everywhere (its error stays negligible).
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

#define PAGANI_PROBE_INSET 1e-4
#define PAGANI_PROBE_RATIO 1e3
/* Where a running minimum of |f| starts: DBL_MAX, above any finite |f|
 * (NVRTC has no <float.h> or INFINITY). */
#define PAGANI_PROBE_NO_MIN 1.7976931348623157e308
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

/* The error that region's probes say it must at least carry, from the
 * largest and smallest |f| at the probes and at the rule's points: above,
 * volume * probe_max (all the peak could hold); below, volume * (rule_min
 * - probe_min) (what the rule's level loses where f drops); 0 when the
 * probes saw nothing the rule missed. */
PAGANI_HD double pagani_probe_floor(double volume, double probe_max, double probe_min,
                                    double rule_max, double rule_min)
{
    const double q = rule_min / rule_max;
    double floor = 0.0;
    if (probe_max > PAGANI_PROBE_RATIO * rule_max) floor = volume * probe_max;
    if (rule_min > 0.0 && probe_min < rule_min * q * q * q &&
        rule_min - probe_min > rule_max - rule_min)
        floor = fmax(floor, volume * (rule_min - probe_min));
    return floor;
}

#endif /* PAGANI_PROBE_H */
