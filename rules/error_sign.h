/*
 * error_sign.h - what a region knows of the sign of its error, one byte a
 * region, written for the host (src/cpu) and the GPU (NVRTC receives this
 * text pasted in front of the evaluate kernel; cubature_tiles.cuh includes
 * it for classify).
 *
 * A region's E bounds the size of its error, not its sign, and summing the
 * E of all regions (DCUHRE's and PAGANI's total) assumes that every error
 * points the same way. Where the rule is in its asymptotic regime -- the
 * null rules decay, DCUHRE's own test for trusting E_1 -- the error is
 * dominated by the rule's leading error term, whose sign two estimates
 * give: the first null rule's value, and once a region has a parent,
 * V_L + V_R - V_parent, the change its split made. An oscillatory f (the
 * suite's f1) has errors of both signs that cancel in the sum a thousand
 * times over; a one-signed curvature (a Gaussian's tails, exp) has errors
 * of one sign, and so do both estimates. Elsewhere (null rules that do not
 * decay: a jump or kink inside the region; or a probe that raised E) the
 * sign is unknown. The driver's global error (cubature_steps.c) adds the
 * errors of known sign with each estimate's signs; of the others, those
 * of regions that a randomized check measured (rules/random_check.h) as
 * the check bounds their sum, the rest by size.
 */
#ifndef PAGANI_ERROR_SIGN_H
#define PAGANI_ERROR_SIGN_H

#include "hostdevice.h" /* PAGANI_HD */

#define PAGANI_SIGN_KNOWN 1           /* else the bits below mean nothing */
#define PAGANI_SIGN_RULE_NEGATIVE 2   /* the first null rule's value is < 0 */
#define PAGANI_SIGN_PARENT_NEGATIVE 4 /* V_L + V_R - V_parent < 0 */
#define PAGANI_SIGN_CHECKED 8         /* unknown, and the region was checked
                                         (rules/random_check.h) */

/* A region's sign byte after its rule: unknown unless `asymptotic` and
 * the first null rule's value is not 0 (a rule that sees a constant says
 * nothing of the sign of an error its parent's change gives it); the
 * parent's estimate starts as the null rule's (a region of the first
 * list has no parent). */
PAGANI_HD unsigned char pagani_error_sign(int asymptotic, double null_value)
{
    if (!asymptotic || null_value == 0.0) return 0;
    return null_value < 0.0
               ? PAGANI_SIGN_KNOWN | PAGANI_SIGN_RULE_NEGATIVE | PAGANI_SIGN_PARENT_NEGATIVE
               : PAGANI_SIGN_KNOWN;
}

/* A sibling pair's sign bytes after their split changed the parent's
 * value by `change` (V_L + V_R - V_parent): when both are known, the
 * parent's estimate of the sign becomes that change's. */
PAGANI_HD void pagani_error_sign_pair(unsigned char *left, unsigned char *right,
                                      double change)
{
    const unsigned char parent = change < 0.0 ? PAGANI_SIGN_PARENT_NEGATIVE : 0;
    if (!(*left & *right & PAGANI_SIGN_KNOWN)) return;
    *left = (unsigned char)((*left & ~PAGANI_SIGN_PARENT_NEGATIVE) | parent);
    *right = (unsigned char)((*right & ~PAGANI_SIGN_PARENT_NEGATIVE) | parent);
}

/* Sums of the errors of a set of regions by what is known of their signs
 * (classify's, in cubature_sums; the driver's global error reads them).
 * Doubles only: the MPI layer adds the ranks' parts as an array of them. */
typedef struct pagani_error_parts {
    double rule_signed;    /* sum of +-E, the null rule's sign, over the
                              regions whose sign is known */
    double parent_signed;  /* the same with the parent's sign */
    double signed_squared; /* sum of E^2 over them */
    double unsigned_sum;   /* sum of E over the regions of unknown sign
                              that were not checked */
    double checked;        /* how many regions were checked
                              (rules/random_check.h) */
    double checked_sum;    /* sum of E over them */
    double check_diff;     /* sum of V - M over them */
    double check_var;      /* sum of the variances of V - M */
    double check_var2;     /* sum of their squares */
    double largest;        /* the largest E of all */
    double magnitude;      /* sum of |V| over all: not an error, but
                              summed here by every backend and the MPI
                              layer; 0 when f was 0 at every rule point
                              (the driver's PAGANI_NO_SIGNAL) */
    double least;          /* sum of max(|V| - E, 0) over all: what the
                              regions are sure to hold, in size, when
                              f has one sign (the driver's least value
                              of the integral, cubature_steps.c) */
    double graded_calls;   /* not an error either: f's calls of the
                              regions' graded evaluations beyond their
                              points (rules/graded.h; the CPU backend
                              adds them in its classify, 0 elsewhere),
                              which the driver counts as evaluations */
} pagani_error_parts;

/* Adds a region's value v and error e with sign byte `sign` to *p; a
 * checked region (PAGANI_SIGN_CHECKED) adds its check's V - M and its
 * variance. */
PAGANI_HD void pagani_error_parts_add(pagani_error_parts *p, unsigned char sign,
                                      double v, double e, double check_diff,
                                      double check_var)
{
    p->magnitude += fabs(v);
    p->least += fabs(v) > e ? fabs(v) - e : 0.0;
    if (sign & PAGANI_SIGN_KNOWN) {
        p->rule_signed += (sign & PAGANI_SIGN_RULE_NEGATIVE) ? -e : e;
        p->parent_signed += (sign & PAGANI_SIGN_PARENT_NEGATIVE) ? -e : e;
        p->signed_squared += e * e;
    } else if (sign & PAGANI_SIGN_CHECKED) {
        p->checked += 1.0;
        p->checked_sum += e;
        p->check_diff += check_diff;
        p->check_var += check_var;
        p->check_var2 += check_var * check_var;
    } else {
        p->unsigned_sum += e;
    }
    if (e > p->largest) p->largest = e;
}

/* Adds the sums *part to *into. */
PAGANI_HD void pagani_error_parts_merge(pagani_error_parts *into,
                                        const pagani_error_parts *part)
{
    into->rule_signed += part->rule_signed;
    into->parent_signed += part->parent_signed;
    into->signed_squared += part->signed_squared;
    into->unsigned_sum += part->unsigned_sum;
    into->checked += part->checked;
    into->checked_sum += part->checked_sum;
    into->check_diff += part->check_diff;
    into->check_var += part->check_var;
    into->check_var2 += part->check_var2;
    into->magnitude += part->magnitude;
    into->least += part->least;
    into->graded_calls += part->graded_calls;
    if (part->largest > into->largest) into->largest = part->largest;
}

#endif /* PAGANI_ERROR_SIGN_H */
