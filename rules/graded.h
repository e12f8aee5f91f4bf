/*
 * graded.h - the graded evaluation of a region at one of whose vertices f
 * is singular (issue 33), written once for the host (src/cpu) and, with
 * PAGANI_HD, for a GPU kernel that would do the same.
 *
 * x^-a has no scale: a region touching the vertex where f is singular
 * looks the same at every level of refinement, and its rule's error (or
 * the error floor its vertex probes set, rules/probe.h) falls only as
 * fast as its integral, by 2^-(1 - a) a halving of one axis. A corner
 * singularity of prod_i x_i^-1/2 in 3 and 4 dimensions never finished:
 * in 3-D the degree-11 rule has a point 1.5e-5 widths from every vertex,
 * where f makes the corner region's value and error 460 times its
 * integral; in 4-D the vertex probes set a floor 6e6 times it.
 *
 * Which regions: those where f is steep at a face as a power of the
 * distance is (pagani_graded_steep), graded toward the vertex v of the
 * largest vertex probe when a probe raised the error, else toward the
 * vertex f leans to (on each axis the side of the larger axial probe).
 * Smooth integrands seldom are steep so.
 *
 * The region's integral is unchanged under the region-local substitution
 * x_d = v_d + w_d t_d^k_d, t_d in [0, 1] over the region, v the singular
 * vertex and w_d the signed width toward the far side, with Jacobian
 * prod_d k_d |w_d| t_d^(k_d - 1). Where f ~ g(x) prod_d |x_d - v_d|^-a_d
 * with a smooth g, k_d = 1 / (1 - a_d) makes the transformed integrand
 * g(x(t)) prod_d k_d |w_d|^(1 - a_d), smooth: the rule is in its
 * asymptotic regime, its null rules and probes see no singularity, and
 * the region finishes once g is resolved. a_d is measured at v, from f
 * at the vertex probe (PAGANI_PROBE_INSET widths from each face through
 * v) and at the points PAGANI_GRADED_MID and PAGANI_GRADED_FAR widths
 * from v's face along d alone, a smooth factor's slope fitted out
 * (pagani_graded_power). An axis with a_d below PAGANI_GRADED_LEAST (f grows slower than
 * that, or falls, toward v) is not moved; a_d above PAGANI_GRADED_MOST
 * is taken as that (k_d at most 20: f at the probes would leave the
 * range of a double beyond), and a_d >= 1 (not integrable) moves
 * nothing.
 *
 * The transformed integrand is judged as any integrand is: its own rule,
 * null rules, axial and vertex probes (rules/probe.h), whose floors
 * raise its error. The backend takes its value and error when f was
 * finite at all its points and that error is below the error of f
 * itself; otherwise the region keeps the result of f itself. Both are
 * estimates of the same integral, each with the error the method gives
 * any integrand. A residual t^-eps, where a_d is slightly off, is what
 * the probes' floors see: with two points, a smooth factor e^(-x/2)
 * biased k to 2.001 on a region of width 1/4, whose axial probe then
 * missed by 0.5% (hence the third point).
 */
#ifndef PAGANI_GRADED_H
#define PAGANI_GRADED_H

#include "hostdevice.h" /* PAGANI_HD */
#include "rules/probe.h"

#define PAGANI_GRADED_MID 1e-3
#define PAGANI_GRADED_FAR 1e-2
#define PAGANI_GRADED_LEAST 0.1
#define PAGANI_GRADED_STEP 4.0
#define PAGANI_GRADED_MOST 0.95

/* The grading of a region: its singular vertex (bit d set: the upper
 * side of axis d) and the power k_d of each axis (1: not moved). Only
 * regions with vertex probes are graded (n <= PAGANI_PROBE_MAX_DIM). */
typedef struct pagani_grading {
    int vertex;
    double power[PAGANI_PROBE_MAX_DIM];
} pagani_grading;

/* The power k of an axis along which |f| is at[0] at the vertex probe
 * (PAGANI_PROBE_INSET widths from the vertex's face), at[1] and at[2]
 * PAGANI_GRADED_MID and PAGANI_GRADED_FAR widths from it: 1 / (1 - a)
 * for the exponent a of f's growth toward the face, or 1 (not moved;
 * above). log |f| = -a log u + c0 + c1 u fits the three: the linear
 * term takes up a smooth factor's slope, which would otherwise bias a by
 * c1 PAGANI_GRADED_FAR / log(PAGANI_GRADED_FAR / PAGANI_PROBE_INSET)
 * (k 2.001 for x^-1/2 e^(-x/2) on a region of width 1/4: the transformed
 * integrand t^0.0005, whose axial probe misses by 0.5%). */
PAGANI_HD double pagani_graded_power(const double at[3])
{
    const double u0 = PAGANI_PROBE_INSET, u1 = PAGANI_GRADED_MID, u2 = PAGANI_GRADED_FAR;
    double d01, d12, slope, a;
    if (!(at[0] > 0.0 && at[1] > 0.0 && at[2] > 0.0)) return 1.0;
    d01 = log(at[0] / at[1]);
    d12 = log(at[1] / at[2]);
    /* d01 = a log(u1/u0) + c1 (u0 - u1), d12 = a log(u2/u1) + c1 (u1 - u2) */
    slope = (d01 * log(u2 / u1) - d12 * log(u1 / u0)) /
            ((u0 - u1) * log(u2 / u1) - (u1 - u2) * log(u1 / u0));
    a = (d01 - slope * (u0 - u1)) / log(u1 / u0);
    if (!(a >= PAGANI_GRADED_LEAST && a < 1.0)) return 1.0;
    return 1.0 / (1.0 - fmin(a, PAGANI_GRADED_MOST));
}

/* Coordinate d of the point `inset` widths from the face through vertex
 * v along axis d, of a region with centre c, width h. */
PAGANI_HD double pagani_graded_coordinate(int v, int d, double c, double h, double inset)
{
    const double half = 0.5 - inset;
    return ((v >> d) & 1) ? c + half * h : c - half * h;
}

/* Whether f is steep at the face of axis d, side 0 (upper) or 1 (lower),
 * as a power of the distance from that face is, in a region whose axis
 * points' values are f (rules/probe.h's numbering) and whose axial probe
 * there gave `probe`: |f| at the probe, PAGANI_PROBE_INSET widths from
 * the face, exceeds PAGANI_GRADED_STEP times |f| at the rule's outermost
 * point on that side (fit->sliver + PAGANI_PROBE_INSET widths from it,
 * 2% for the degree-9 rule), and grows from there by more, on a log
 * scale, than from the inner axis point to the outermost. x^-a grows by
 * (0.02 / 1e-4)^a = 200^a over the first span (14 for a = 1/2, 4 for a =
 * 0.26) and by about 16^a over the second; a smooth f grows over the
 * 2% sliver by less than over the 30% between the points unless it
 * bends there (e^(b x), a Gaussian's tail: by a fifteenth, on a log
 * scale, of the second span's growth). */
PAGANI_HD int pagani_graded_steep(const double *f, int n, int d, int side,
                                  const pagani_axial_fit *fit, double probe)
{
    const int a_point = 1 + 2 * d + side, b_point = 1 + 2 * n + 2 * d + side;
    const double outer = fabs(f[fit->a_outer != 0.0 ? a_point : b_point]);
    const double inner = fabs(f[fit->a_outer != 0.0 ? b_point : a_point]);
    return fabs(probe) > PAGANI_GRADED_STEP * outer && fabs(probe) * inner > outer * outer;
}

/* Moves point x of the region with lower corner lo and widths w (n axes)
 * by grading g, in place; returns the Jacobian prod_d k_d t_d^(k_d - 1)
 * (over the region's volume, which the rule's weights carry). */
PAGANI_HD double pagani_graded_point(const pagani_grading *g, int n, const double *lo,
                                     const double *w, double *x)
{
    double jacobian = 1.0;
    for (int d = 0; d < n; d++) {
        const double k = g->power[d];
        const int upper = (g->vertex >> d) & 1;
        double t, s;
        if (k == 1.0) continue;
        t = (x[d] - lo[d]) / w[d];
        if (upper) t = 1.0 - t;
        s = pow(t, k);
        jacobian *= k * pow(t, k - 1.0);
        x[d] = upper ? lo[d] + w[d] * (1.0 - s) : lo[d] + w[d] * s;
    }
    return jacobian;
}

#endif /* PAGANI_GRADED_H */
