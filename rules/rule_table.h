/*
 * rule_table.h - private to rules/: a rule as its table of fully symmetric
 * sets (generator and five weights each), as cubature-rules.md lists them,
 * before expansion into the points of a pagani_rule. Each rule file fills
 * one table; expand.c turns any table into points, weights and the error
 * constants, so no rule file repeats that code.
 */
#ifndef PAGANI_RULE_TABLE_H
#define PAGANI_RULE_TABLE_H

#include "rules/rules.h"

/* ngen of the set of 2^n points (g, ..., g) kept implicit as the corner set. */
#define PAGANI_SET_CORNER (-1)

/* One fully symmetric set: its non-zero generator entries (units of the
 * width; equal entries adjacent) and its weights w_0..w_4 per point. A set
 * with more entries than n has no points and is left out. */
typedef struct pagani_rule_set {
    int ngen;                   /* 0 .. 3, or PAGANI_SET_CORNER */
    double gen[3];
    double w[5];
} pagani_rule_set;

typedef struct pagani_rule_table {
    int degree;
    pagani_error_model error_model;
    double c0, c1, c2;          /* error-model constants (DCUHRE) */
    int nsets;
    pagani_rule_set set[PAGANI_RULE_MAX_SETS];
} pagani_rule_table;

/* The tables, one per rule file; n is the dimension the weights are for. */
void pagani_dcuhre7_table(int n, pagani_rule_table *t);
void pagani_dcuhre9_table(int n, pagani_rule_table *t);
void pagani_dcuhre11_table(pagani_rule_table *t);
void pagani_dcuhre13_table(pagani_rule_table *t);
void pagani_gauss_kronrod_table(pagani_rule_table *t);

/* Fills rule (n already set) from table t: explicit points in table order
 * (centre first when the table starts with it), the corner set, split
 * generators, scale and norm. Returns 0, or -2 when memory ran out. */
int pagani_rule_expand(const pagani_rule_table *t, pagani_rule *rule);

#endif /* PAGANI_RULE_TABLE_H */
