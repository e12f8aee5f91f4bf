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
 * The values alone cannot tell a kink, or a jump next to a face of a
 * region over which f varies a lot, from a smooth f: the axial probes
 * below test the shape of f along each axis instead.
 *
 * Probes run only in 2 <= n <= PAGANI_PROBE_MAX_DIM (the 1-D
 * Gauss-Kronrod rule reaches within 0.5% of the ends already): the 2n
 * axial ones on every region, with the rule (3% of the degree-9 rule's
 * points in 6-D, 1.4% in 8-D); the 2^n vertex ones only on the regions
 * that an iteration could finish (the driver's bounds on E), at most 23%
 * of the degree-9 rule's points up to n = 8, 44% at n = 10.
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

/* How many probes a region of dimension n gets: the 2^n vertex probes
 * and then the 2n axial ones (below), or none. */
PAGANI_HD int pagani_probe_count(int n)
{
    return n >= 2 && n <= PAGANI_PROBE_MAX_DIM ? (1 << n) + 2 * n : 0;
}

/* Coordinate e of axial probe j (0 <= j < 2n: axis j / 2, the upper face
 * for even j) of a region with centre c and width h along axis e. */
PAGANI_HD double pagani_probe_axial_coordinate(int j, int e, double c, double h)
{
    const double half = 0.5 - PAGANI_PROBE_INSET;
    if (e != j / 2) return c;
    return (j & 1) ? c - half * h : c + half * h;
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

#define PAGANI_PROBE_AXIAL_SPREAD 2.0

/* The values of f a region's axial test reads: the 4n + 1 axis points and
 * the 2n axial probes where there are probes, else (4n + 1, for the
 * fourth differences) the axis points alone: the GPU's vector kernel
 * stages this many rows of f (rounded up to whole warps). */
#define PAGANI_PROBE_AXIAL_ROWS(n) \
    ((n) >= 2 && (n) <= PAGANI_PROBE_MAX_DIM ? 6 * (n) + 1 : 4 * (n) + 1)

/* The axial probes: f at c +- (1/2 - PAGANI_PROBE_INSET) h_d e_d, the
 * middle of each face, 2 per axis (upper first). The rule's points on
 * the axis through the centre -- f0 at c, f at c +- a h_d e_d and at
 * c +- b h_d e_d (the explicit points 0 .. 4n: fa = f[1 + 2d], f[2 + 2d];
 * fb = f[1 + 2n + 2d], f[2 + 2n + 2d]) -- extrapolated to the face by
 * the quartic through them predict f there; the quadratic through f0
 * and the outer pair measures how far such a prediction can be off. When
 * the probe misses the quartic by more than PAGANI_PROBE_AXIAL_SPREAD
 * times that (and by more than rounding), f bends or jumps in the sliver
 * between the outermost point and the face (a kink or a jump just past a
 * bisection point, which |f| alone cannot tell from a smooth f), and the
 * sliver, (1/2 - outer) of the volume, could hold volume * (1/2 - outer)
 * * miss of error. The spread was 4 until a Genz C0 kink 0.44% of the
 * width inside a face (4-D, seed 106 at twice the standard difficulty)
 * missed the quartic by about 3 times it and went unseen; at 2 the
 * suite's regions are the same.
 *
 * Both extrapolations are linear in the five values, with coefficients
 * that depend on the rule's offsets a and b (in widths) only:
 * pagani_axial_fit_of computes them once per rule (the GPU keeps them in
 * the packed rule's constants), so that a region's test costs no
 * division. With T the face's offset, A = a^2, B = b^2, S = T^2 and the
 * even and odd parts ea = (fa+ + fa-)/2, oa = (fa+ - fa-)/(2a) (eb, ob
 * likewise):
 *   quartic   = f0 c0 + ea c1 + eb c2 +- T (oa + (ob - oa) k),
 *   quadratic = f0 + (e_out - f0) q +- T o_out,
 * the quadratic in t^2 through (0, f0), (A, ea), (B, eb), the line in t^2
 * through (A, oa), (B, ob), and the outer pair's parabola. */
typedef struct pagani_axial_fit {
    double c0, c1, c2;     /* the quartic's even part */
    double inv_2a, inv_2b; /* 1/(2a), 1/(2b): the odd parts' slopes */
    double k;              /* (S - A) / (B - A) */
    double q;              /* S / outer^2 */
    double sliver;         /* 1/2 - outer, outer = max(a, b) */
    double a_outer;        /* 1 when a > b, else 0 */
} pagani_axial_fit;

/* Doubles of a pagani_axial_fit (the GPU's constants table holds them). */
#define PAGANI_AXIAL_FIT_DOUBLES 9

PAGANI_HD pagani_axial_fit pagani_axial_fit_of(double a, double b)
{
    const double T = 0.5 - PAGANI_PROBE_INSET;
    const double A = a * a, B = b * b, S = T * T, outer = a > b ? a : b;
    pagani_axial_fit fit;
    fit.c0 = (S - A) * (S - B) / (A * B);
    fit.c1 = S * (S - B) / (A * (A - B));
    fit.c2 = S * (S - A) / (B * (B - A));
    fit.inv_2a = 0.5 / a;
    fit.inv_2b = 0.5 / b;
    fit.k = (S - A) / (B - A);
    fit.q = S / (outer * outer);
    fit.sliver = 0.5 - outer;
    fit.a_outer = a > b ? 1.0 : 0.0;
    return fit;
}

/* The axial test of axis d, side 0 (upper) or 1 (lower), of a region of
 * `volume` whose axis points' values are f (as above) and whose probe
 * there gave `probe`: the error floor the miss sets, or 0. */
PAGANI_HD double pagani_probe_axial_floor(double volume, const double *f, int n, int d,
                                          int side, const pagani_axial_fit *fit,
                                          double probe)
{
    const double T = 0.5 - PAGANI_PROBE_INSET, sign = side ? -1.0 : 1.0;
    const double eps = 2.220446049250313080847e-16; /* DBL_EPSILON */
    const double f0 = f[0], fap = f[1 + 2 * d], fam = f[2 + 2 * d];
    const double fbp = f[1 + 2 * n + 2 * d], fbm = f[2 + 2 * n + 2 * d];
    const double ea = 0.5 * (fap + fam), eb = 0.5 * (fbp + fbm);
    const double oa = (fap - fam) * fit->inv_2a, ob = (fbp - fbm) * fit->inv_2b;
    const double e_out = fit->a_outer != 0.0 ? ea : eb;
    const double o_out = fit->a_outer != 0.0 ? oa : ob;
    const double even4 = f0 * fit->c0 + ea * fit->c1 + eb * fit->c2;
    const double odd4 = T * (oa + (ob - oa) * fit->k);
    const double even2 = f0 + (e_out - f0) * fit->q;
    const double odd2 = T * o_out;
    const double quartic = even4 + sign * odd4, quadratic = even2 + sign * odd2;
    const double miss = fabs(probe - quartic);
    const double noise = 64.0 * eps * (fabs(f0) + fabs(fap) + fabs(fam) + fabs(fbp) +
                                       fabs(fbm) + fabs(probe));
    if (!(miss > PAGANI_PROBE_AXIAL_SPREAD * fabs(quartic - quadratic) + noise)) return 0.0;
    return volume * fit->sliver * miss;
}

#endif /* PAGANI_PROBE_H */
