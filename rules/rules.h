/*
 * rules.h - cubature rules with null rules for error estimates: the DCUHRE
 * fully symmetric rules of degree 7 and 9 (any n >= 2), 11 (n = 3) and 13
 * (n = 2), and Gauss-Kronrod 7/15 for n = 1 (../shared/reference/
 * cubature-rules.md has the tables and formulas).
 *
 * A rule is expanded once per (n, degree) into plain arrays that the CPU and
 * the GPU backends read the same way:
 *
 *  - explicit points: offsets[p*n + d] is coordinate d of point p relative
 *    to the region's centre, in units of the region's width (so the point
 *    is c_d + offsets[p*n+d] * h_d); weights[p*5 + k] is w_k of that point.
 *    Point 0 is the centre. For the DCUHRE rules, points 1 + 2d and 2 + 2d
 *    are c +- a h_d e_d and points 1 + 2n + 2d and 2 + 2n + 2d are
 *    c +- b h_d e_d, a and b the generators of the rule's first two 2n-point
 *    sets (split_a, split_b), so the fourth differences read them directly.
 *  - the corner set (degree 7 and 9): corner_count = 2^n points
 *    c_d + s_d * corner_gen * h_d, s_d = -1 where bit d of the point's index
 *    is set, each with weights corner_weights[k]. corner_count = 0 when the
 *    rule has no such set (all its points are explicit).
 *
 * The sums r_k = sum over all points of w_k * f(point), k = 0..4, give the
 * estimate V * r_0 and, through pagani_rule_estimate, the error.
 *
 * After the rule's npoints come nprobes probes (probe.h: f next to the
 * region's vertices, which checks what the rule cannot see), then the
 * PAGANI_CHECK_POINTS random points of the check of a region whose error's
 * sign is unknown (random_check.h); a region's evaluation costs at most
 * npoints + nprobes + PAGANI_CHECK_POINTS calls of f.
 */
#ifndef PAGANI_RULES_H
#define PAGANI_RULES_H

#define PAGANI_RULE_MAX_SETS 16

typedef enum pagani_error_model {
    PAGANI_ERROR_DCUHRE = 0,    /* null rules, cubature-rules.md */
    PAGANI_ERROR_KRONROD        /* |Kronrod - Gauss| for n = 1 */
} pagani_error_model;

typedef struct pagani_rule {
    int n;
    int degree;                 /* 7, 9, 11, 13; 15 for Gauss-Kronrod */
    pagani_error_model error_model;
    long long npoints;          /* nexplicit + corner_count */
    int nprobes;                /* probes after the points (probe.h) */
    int nexplicit;
    double *offsets;            /* nexplicit * n */
    double *weights;            /* nexplicit * 5 */
    long long corner_count;     /* 2^n or 0 */
    double corner_gen;
    double corner_weights[5];
    /* Error estimate constants (DCUHRE): per fully symmetric set s and
     * k = 1..3 stored at [k-1][s]. */
    int nsets;
    double scale[3][PAGANI_RULE_MAX_SETS];
    double norm[3][PAGANI_RULE_MAX_SETS];
    double c0, c1, c2;          /* (5,1,5), (4,.5,3) or (10,1,5) */
    /* Split axis (fourth differences); 0 for n = 1 rules. */
    double split_a, split_b;
} pagani_rule;

/* The default degree for n (Cuhre's choice): 13 for n = 2, 11 for n = 3,
 * 9 otherwise; 15 (Gauss-Kronrod) for n = 1. */
int pagani_rule_default_degree(int n);

/* Builds the rule of `degree` for dimension n (degree 0: the default).
 * Returns 0 on success, -1 when the pair is not supported (e.g. degree 11
 * with n != 3, n < 1 or n > 20), -2 when memory ran out. */
int pagani_rule_create(int n, int degree, pagani_rule **rule);
void pagani_rule_destroy(pagani_rule *rule);

/* Coordinates of point p (0 <= p < npoints: the rule's; then up to
 * npoints + nprobes: the probes; then the check's) of the region with
 * lower corner `lower` and widths `width`, written to x[0..n-1]. */
void pagani_rule_point(const pagani_rule *rule, long long p,
                       const double *lower, const double *width, double *x);

/* Value and raw error of a region of volume `volume` from its five sums,
 * and what is known of the error's sign (rules/error_sign.h) into *sign
 * unless NULL: known where the null rules decay (Kronrod: always), the
 * first null rule's sign. */
void pagani_rule_estimate(const pagani_rule *rule, const double sums[5],
                          double volume, double *value, double *error,
                          unsigned char *sign);

/* Split axis from f at the explicit points 0 .. 4n (see above) and the
 * widths: the axis of the largest fourth difference, the widest axis on
 * ties of zero. Returns 0 for n = 1. */
int pagani_rule_split_axis(const pagani_rule *rule, const double *f,
                           const double *width);

#endif /* PAGANI_RULES_H */
