/*
 * estimate.c - what a region's rule sums say: its value and raw error
 * (DCUHRE null-rule model or Kronrod - Gauss), and the axis to split it
 * along (fourth differences), as cubature-rules.md gives them.
 */
#include <math.h>

#include "rules/rules.h"
#include "rules/fourth_difference.h"
#include "rules/error_sign.h"
#include "rules/null_error.h"

/* E_k = max over sets s of |r_{k+1} + scale(s,k) r_k| norm(s,k). */
static double null_error(const pagani_rule *rule, const double *r, int k)
{
    double e = 0.0;
    for (int s = 0; s < rule->nsets; s++) {
        double v = fabs(r[k + 1] + rule->scale[k - 1][s] * r[k]) * rule->norm[k - 1][s];
        if (v > e) e = v;
    }
    return e;
}

/* Kronrod: error = volume * |r_1|, r_1 the Kronrod minus Gauss sum. This is
 * QUADPACK's raw |K - G| without its rescaling (which needs the mean
 * absolute deviation of f, not a linear sum of f); it overestimates the
 * error of smooth integrands, never underestimates it by that rescaling. */
void pagani_rule_estimate(const pagani_rule *rule, const double sums[5],
                          double volume, double *value, double *error,
                          unsigned char *sign)
{
    int asymptotic = 1;
    *value = volume * sums[0];
    if (rule->error_model == PAGANI_ERROR_KRONROD) {
        *error = volume * fabs(sums[1]);
    } else {
        double e1 = null_error(rule, sums, 1);
        double e2 = null_error(rule, sums, 2);
        double e3 = null_error(rule, sums, 3);
        asymptotic = pagani_null_rules_decay(rule->c0, e1, e2, e3);
        *error = pagani_null_rule_error(rule->c0, rule->c1, rule->c2, volume, e1, e2, e3);
    }
    if (sign) *sign = pagani_error_sign(asymptotic, sums[1]);
}

/* The first axis of the largest fourth difference; the first widest axis
 * when all are zero (fourth_difference.h). */
int pagani_rule_split_axis(const pagani_rule *rule, const double *f,
                           const double *width)
{
    int n = rule->n, axis = 0, widest = 0;
    double ratio, dmax = 0.0;

    if (n < 2) return 0;
    ratio = (rule->split_b / rule->split_a) * (rule->split_b / rule->split_a);
    for (int d = 0; d < n; d++) {
        double diff = pagani_fourth_difference(n, ratio, f, d);
        if (diff > dmax) {
            dmax = diff;
            axis = d;
        }
        if (width[d] > width[widest]) widest = d;
    }
    return dmax > 0.0 ? axis : widest;
}
