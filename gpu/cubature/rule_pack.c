/*
 * rule_pack.c - packs a pagani_rule for the GPU evaluate kernel
 * (rule_pack.h, layout in cubature_math.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "gpu/cubature/rule_pack.h"

/* The index of weight tuple w among the first *count in table (5 doubles
 * each), appending it when new; -1 when the table is full. */
static int weight_tuple(double *table, int *count, const double *w)
{
    for (int t = 0; t < *count; t++)
        if (memcmp(table + 5 * t, w, 5 * sizeof *w) == 0) return t;
    if (*count == PAGANI_PACK_MAX_WEIGHTS) return -1;
    memcpy(table + 5 * *count, w, 5 * sizeof *w);
    return (*count)++;
}

int pagani_packed_rule_make(const pagani_rule *rule, pagani_packed_rule *out)
{
    const int n = rule->n, ne = rule->nexplicit;
    double *table = out->consts + PAGANI_EVC_WEIGHTS;
    int nweights = 0;

    memset(out, 0, sizeof *out);
    if (n < 1 || n > 20 || rule->nsets > PAGANI_PACK_MAX_SETS ||
        rule->npoints > (1LL << 30))
        return -1;
    out->n = n;
    out->degree = rule->degree;
    out->rows = calloc(PAGANI_ROW_TABLE(n, ne > 0 ? ne : 1), sizeof(double));
    out->tuples = malloc((size_t)(ne > 0 ? ne : 1) * sizeof(int));
    if (!out->rows || !out->tuples) {
        pagani_packed_rule_free(out);
        return -2;
    }
    for (int q = 0; q < ne; q++) {
        for (int d = 0; d < n; d++)
            out->rows[PAGANI_ROW_DOUBLE(n, q, d)] = rule->offsets[(size_t)q * n + d];
        for (int j = 0; j < 5; j++)
            out->rows[PAGANI_ROW_DOUBLE(n, q, PAGANI_ROW_COORDS(n) + j)] =
                rule->weights[5 * (size_t)q + j];
        if ((out->tuples[q] = weight_tuple(table, &nweights, rule->weights + 5 * (size_t)q)) < 0)
            goto unfit;
    }
    if (rule->corner_count > 0 &&
        (out->shape.corner_weights = weight_tuple(table, &nweights, rule->corner_weights)) < 0)
        goto unfit;
    out->shape.nexplicit = ne;
    out->shape.npoints = (int)rule->npoints;
    out->shape.nprobes = rule->nprobes;
    out->shape.nweights = nweights;
    out->shape.nsets = rule->nsets;
    out->shape.error_model = rule->error_model == PAGANI_ERROR_KRONROD
                                 ? PAGANI_GPU_ERROR_KRONROD : PAGANI_GPU_ERROR_DCUHRE;
    for (int k = 0; k < 3; k++)
        for (int s = 0; s < rule->nsets; s++) {
            out->consts[PAGANI_EVC_SCALE + 16 * k + s] = rule->scale[k][s];
            out->consts[PAGANI_EVC_NORM + 16 * k + s] = rule->norm[k][s];
        }
    out->consts[PAGANI_EVC_C0] = rule->c0;
    out->consts[PAGANI_EVC_C1] = rule->c1;
    out->consts[PAGANI_EVC_C2] = rule->c2;
    out->consts[PAGANI_EVC_RATIO] =
        n >= 2 && rule->split_a != 0.0
            ? (rule->split_b / rule->split_a) * (rule->split_b / rule->split_a)
            : 0.0;
    out->consts[PAGANI_EVC_CORNER_GEN] = rule->corner_gen;
    if (rule->nprobes > 0) {
        const pagani_axial_fit fit = pagani_axial_fit_of(rule->split_a, rule->split_b);
        memcpy(out->consts + PAGANI_EVC_AXIAL_FIT, &fit, sizeof fit);
    }
    return 0;
unfit:
    pagani_packed_rule_free(out);
    return -1;
}

void pagani_packed_rule_free(pagani_packed_rule *p)
{
    if (!p) return;
    free(p->rows);
    free(p->tuples);
    p->rows = NULL;
    p->tuples = NULL;
}

void pagani_packed_rule_point(const pagani_packed_rule *p, int q,
                              const double *lower, const double *width,
                              double *x)
{
    const int n = p->n, ne = p->shape.nexplicit;
    if (q < ne) {
        for (int d = 0; d < n; d++)
            x[d] = (lower[d] + 0.5 * width[d]) +
                   p->rows[PAGANI_ROW_DOUBLE(n, q, d)] * width[d];
    } else {
        int bits = q - ne;
        double g = p->consts[PAGANI_EVC_CORNER_GEN];
        for (int d = 0; d < n; d++) {
            double gh = g * width[d];
            x[d] = (lower[d] + 0.5 * width[d]) + ((bits >> d & 1) ? -gh : gh);
        }
    }
}
