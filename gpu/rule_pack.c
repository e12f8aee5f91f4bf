/*
 * rule_pack.c - packs a pagani_rule for the GPU evaluate kernel
 * (rule_pack.h, layout in cubature_math.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "gpu/rule_pack.h"

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
    const int n = rule->n;
    double *table = out->consts + PAGANI_EVC_WEIGHTS;
    int nweights = 0;

    memset(out, 0, sizeof *out);
    if (n < 1 || n > 20 || rule->nsets > PAGANI_PACK_MAX_SETS ||
        rule->npoints > (1LL << 30))
        return -1;
    out->n = n;
    out->degree = rule->degree;
    out->points = malloc((size_t)(rule->nexplicit > 0 ? rule->nexplicit : 1) *
                         4 * sizeof(double));
    if (!out->points) return -2;
    for (int q = 0; q < rule->nexplicit; q++) {
        const double *off = rule->offsets + (size_t)q * n;
        double o[PAGANI_PACK_MAX_NONZERO] = {0.0, 0.0, 0.0};
        long long meta = 0;
        int used = 0, t;

        for (int d = 0; d < n; d++) {
            if (off[d] == 0.0) continue;
            if (used == PAGANI_PACK_MAX_NONZERO) goto unfit;
            o[used] = off[d];
            meta |= (long long)d << (5 * used);
            used++;
        }
        for (int k = used; k < PAGANI_PACK_MAX_NONZERO; k++)
            meta |= (long long)PAGANI_PACK_NO_AXIS << (5 * k);
        if ((t = weight_tuple(table, &nweights, rule->weights + 5 * (size_t)q)) < 0)
            goto unfit;
        meta |= (long long)t << 15;
        out->points[4 * q + 0] = o[0];
        out->points[4 * q + 1] = o[1];
        out->points[4 * q + 2] = o[2];
        memcpy(&out->points[4 * q + 3], &meta, sizeof meta);
    }
    out->shape.corner_weights = 0;
    if (rule->corner_count > 0) {
        int t = weight_tuple(table, &nweights, rule->corner_weights);
        if (t < 0) goto unfit;
        out->shape.corner_weights = t;
    }
    out->shape.nexplicit = rule->nexplicit;
    out->shape.npoints = (int)rule->npoints;
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
    return 0;
unfit:
    pagani_packed_rule_free(out);
    return -1;
}

void pagani_packed_rule_free(pagani_packed_rule *p)
{
    if (!p) return;
    free(p->points);
    p->points = NULL;
}

void pagani_packed_rule_point(const pagani_packed_rule *p, int q,
                              const double *lower, const double *width,
                              double *x)
{
    const int n = p->n;
    if (q < p->shape.nexplicit) {
        const double *o = p->points + 4 * (size_t)q;
        long long meta;
        memcpy(&meta, o + 3, sizeof meta);
        for (int d = 0; d < n; d++) {
            double off = d == pagani_pack_axis(meta, 0) ? o[0]
                       : d == pagani_pack_axis(meta, 1) ? o[1]
                       : d == pagani_pack_axis(meta, 2) ? o[2] : 0.0;
            x[d] = (lower[d] + 0.5 * width[d]) + off * width[d];
        }
    } else {
        int bits = q - p->shape.nexplicit;
        double g = p->consts[PAGANI_EVC_CORNER_GEN];
        for (int d = 0; d < n; d++) {
            double gh = g * width[d];
            x[d] = (lower[d] + 0.5 * width[d]) + ((bits >> d & 1) ? -gh : gh);
        }
    }
}
