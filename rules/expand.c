/*
 * expand.c - turns a table of fully symmetric sets into a pagani_rule: every
 * set's points (all distinct placements of its generator entries on the
 * axes, all sign choices of the non-zero entries) with the set's weights,
 * the implicit corner set, and the DCUHRE error constants scale and norm
 * (cubature-rules.md, "Error estimate of one region").
 */
#include <stdlib.h>
#include <math.h>

#include "rules/rule_table.h"

/* Walks the points of one set (ngen >= 0) in a fixed order: the axis of
 * entry 0 ascending, then of entry 1, ...; for each placement the sign
 * patterns 0 .. 2^ngen - 1 (bit i set: entry i negative). So a one-entry
 * set gives +g e_0, -g e_0, +g e_1, -g e_1, ... as rules.h requires.
 * Writes the points from index *np on when offsets is not NULL; counts
 * them in *np in any case. Entries equal to the previous one take a higher
 * axis, so that each distinct point comes once. */
static void place(const pagani_rule_set *s, int n, int i, int *axis,
                  double *offsets, double *weights, int *np)
{
    if (i == s->ngen) {
        for (int signs = 0; signs < (1 << s->ngen); signs++) {
            if (offsets) {
                double *x = offsets + (size_t)*np * n;
                for (int d = 0; d < n; d++) x[d] = 0.0;
                for (int j = 0; j < s->ngen; j++)
                    x[axis[j]] = (signs >> j & 1) ? -s->gen[j] : s->gen[j];
                for (int k = 0; k < 5; k++) weights[(size_t)*np * 5 + k] = s->w[k];
            }
            (*np)++;
        }
        return;
    }
    int first = (i > 0 && s->gen[i] == s->gen[i - 1]) ? axis[i - 1] + 1 : 0;
    for (int d = first; d < n; d++) {
        int used = 0;
        for (int j = 0; j < i; j++) used |= axis[j] == d;
        if (used) continue;
        axis[i] = d;
        place(s, n, i + 1, axis, offsets, weights, np);
    }
}

/* Number of points of set s in dimension n (0 when it does not fit). */
static double set_count(const pagani_rule_set *s, int n)
{
    int axis[3], np = 0;
    if (s->ngen == PAGANI_SET_CORNER) return ldexp(1.0, n);
    if (s->ngen > n) return 0.0;
    place(s, n, 0, axis, NULL, NULL, &np);
    return np;
}

/* scale(s,k) and norm(s,k), k = 1..3, over the sets that have points. */
static void error_constants(const pagani_rule_set *const *sets,
                            const double *count, int nsets, pagani_rule *rule)
{
    for (int s = 0; s < nsets; s++) {
        for (int k = 1; k <= 3; k++) {
            double wk = sets[s]->w[k];
            double scale = wk == 0.0 ? 100.0 : -sets[s]->w[k + 1] / wk;
            double sum = 0.0;
            for (int x = 0; x < nsets; x++)
                sum += count[x] * fabs(sets[x]->w[k + 1] + scale * sets[x]->w[k]);
            rule->scale[k - 1][s] = scale;
            rule->norm[k - 1][s] = sum > 0.0 ? 1.0 / sum : 0.0;
        }
    }
}

int pagani_rule_expand(const pagani_rule_table *t, pagani_rule *rule)
{
    const pagani_rule_set *sets[PAGANI_RULE_MAX_SETS];
    double count[PAGANI_RULE_MAX_SETS];
    int n = rule->n, nsets = 0, nexplicit = 0, nsplit = 0;

    rule->degree = t->degree;
    rule->error_model = t->error_model;
    rule->c0 = t->c0;
    rule->c1 = t->c1;
    rule->c2 = t->c2;
    for (int s = 0; s < t->nsets; s++) {
        const pagani_rule_set *set = &t->set[s];
        double c = set_count(set, n);
        if (c == 0.0) continue;
        sets[nsets] = set;
        count[nsets++] = c;
        if (set->ngen == PAGANI_SET_CORNER) {
            rule->corner_count = 1LL << n;
            rule->corner_gen = set->gen[0];
            for (int k = 0; k < 5; k++) rule->corner_weights[k] = set->w[k];
        } else {
            nexplicit += (int)c;
        }
    }
    rule->nexplicit = nexplicit;
    rule->npoints = nexplicit + rule->corner_count;
    rule->offsets = malloc((size_t)nexplicit * n * sizeof *rule->offsets);
    rule->weights = malloc((size_t)nexplicit * 5 * sizeof *rule->weights);
    if (!rule->offsets || !rule->weights) return -2;

    int np = 0, axis[3];
    for (int s = 0; s < nsets; s++) {
        if (sets[s]->ngen == PAGANI_SET_CORNER) continue;
        place(sets[s], n, 0, axis, rule->offsets, rule->weights, &np);
        /* The first two 2n-point sets give the fourth differences. */
        if (n >= 2 && sets[s]->ngen == 1 && nsplit < 2)
            *(nsplit++ == 0 ? &rule->split_a : &rule->split_b) = sets[s]->gen[0];
    }

    rule->nsets = nsets;
    if (t->error_model == PAGANI_ERROR_DCUHRE)
        error_constants(sets, count, nsets, rule);
    return 0;
}
