/*
 * rule.c - building and using a pagani_rule: the default degree per
 * dimension, create (which table for which (n, degree)), destroy, and the
 * coordinates of a rule point, probe or check point in a region.
 */
#include <math.h>
#include <stdlib.h>

#include "rules/rule_table.h"
#include "rules/probe.h"
#include "rules/random_check.h"

#define PAGANI_RULE_MAX_DIM 20

int pagani_rule_default_degree(int n)
{
    if (n < 1 || n > PAGANI_RULE_MAX_DIM) return 0;   /* no rule */
    if (n == 1) return 15;
    if (n == 2) return 13;
    if (n == 3) return 11;
    return 9;
}

/* Fills t with the table of (n, degree); -1 when there is none. */
static int select_table(int n, int degree, pagani_rule_table *t)
{
    if (n == 1) {
        if (degree != 15) return -1;
        pagani_gauss_kronrod_table(t);
        return 0;
    }
    switch (degree) {
    case 7: pagani_dcuhre7_table(n, t); return 0;
    case 9: pagani_dcuhre9_table(n, t); return 0;
    case 11: if (n != 3) return -1; pagani_dcuhre11_table(t); return 0;
    case 13: if (n != 2) return -1; pagani_dcuhre13_table(t); return 0;
    default: return -1;
    }
}

int pagani_rule_create(int n, int degree, pagani_rule **rule)
{
    pagani_rule_table t;
    pagani_rule *r;
    int rc;

    if (!rule) return -1;
    *rule = NULL;
    if (n < 1 || n > PAGANI_RULE_MAX_DIM) return -1;
    if (degree == 0) degree = pagani_rule_default_degree(n);
    if (select_table(n, degree, &t) != 0) return -1;
    r = calloc(1, sizeof *r);
    if (!r) return -2;
    r->n = n;
    rc = pagani_rule_expand(&t, r);
    if (rc != 0) {
        pagani_rule_destroy(r);
        return rc;
    }
    r->nprobes = pagani_probe_count(n);
    *rule = r;
    return 0;
}

void pagani_rule_destroy(pagani_rule *rule)
{
    if (!rule) return;
    free(rule->offsets);
    free(rule->weights);
    free(rule);
}

void pagani_rule_point(const pagani_rule *rule, long long p,
                       const double *lower, const double *width, double *x)
{
    int n = rule->n;

    if (p < rule->nexplicit) {
        const double *off = rule->offsets + (size_t)p * n;
        for (int d = 0; d < n; d++)
            x[d] = lower[d] + 0.5 * width[d] + off[d] * width[d];
    } else if (p < rule->npoints) {
        long long q = p - rule->nexplicit;
        for (int d = 0; d < n; d++) {
            double g = (q >> d & 1) ? -rule->corner_gen : rule->corner_gen;
            x[d] = lower[d] + 0.5 * width[d] + g * width[d];
        }
    } else if (p - rule->npoints < rule->nprobes && p - rule->npoints < 1LL << n) {
        int v = (int)(p - rule->npoints);
        for (int d = 0; d < n; d++)
            x[d] = pagani_probe_coordinate(v, d, lower[d] + 0.5 * width[d],
                                           width[d]);
    } else if (p - rule->npoints < rule->nprobes) {
        int j = (int)(p - rule->npoints - (1LL << n));
        for (int d = 0; d < n; d++)
            x[d] = pagani_probe_axial_coordinate(j, d, lower[d] + 0.5 * width[d],
                                                 width[d]);
    } else {
        int j = (int)(p - rule->npoints - rule->nprobes);
        double c[PAGANI_RULE_MAX_DIM];
        for (int d = 0; d < n; d++) c[d] = lower[d] + 0.5 * width[d];
        const pagani_u64 key = pagani_check_key(c, width, n);
        for (int d = 0; d < n; d += 2) pagani_check_pair(key, j, d, n, c, width, x);
    }
}
