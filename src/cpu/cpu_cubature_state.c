/*
 * cpu_cubature_state.c - the region list of the OpenMP backend copied out
 * to a checkpoint and back (backend.h: export_regions, import_regions):
 * the current buffer's corners and widths, and the parents' values of
 * its pairs, chunk by chunk.
 */
#include <string.h>
#include "cpu/cpu_cubature.h"

/* Where the parents' values of component `row` - 1 live (row 0: V). */
static double *parent_row(const cpu_cubature *c, int row)
{
    const size_t half = (size_t)c->capacity / 2 + 1;
    return row == 0 ? c->parent_value : c->comp_parent + (size_t)(row - 1) * half;
}

int cpu_export_regions(void *state, long long first, long long count,
                       double *lower, double *width, double *parents)
{
    const cpu_cubature *c = ((cpu_state *)state)->cubature;
    const size_t cap = (size_t)c->capacity, m = (size_t)count;

    for (int d = 0; d < c->n; d++) {
        memcpy(lower + d * m, c->lower[c->cur] + d * cap + first, m * sizeof(double));
        memcpy(width + d * m, c->width[c->cur] + d * cap + first, m * sizeof(double));
    }
    for (int row = 0; parents && row < pagani_parent_rows(c->ncomp); row++)
        memcpy(parents + row * (m / 2), parent_row(c, row) + first / 2,
               m / 2 * sizeof(double));
    return PAGANI_OK;
}

int cpu_import_regions(void *state, const long long *counts, long long first,
                       long long count, const double *lower,
                       const double *width, const double *parents)
{
    cpu_state *s = state;
    cpu_cubature *c = s->cubature;
    const size_t cap = (size_t)c->capacity, m = (size_t)count;
    long long total = 0;
    int k = 0;

    for (int j = 0; j < c->integrals; j++) total += counts[j];
    if (total > c->capacity || first < 0 || count < 0 || first + count > total)
        return pagani_fail(s->ctx, PAGANI_ERR_NO_MEMORY, "a list of %lld "
                           "regions exceeds the capacity %lld", total,
                           c->capacity);
    if (first == 0) {
        memcpy(c->counts, counts, (size_t)c->integrals * sizeof *counts);
        cpu_make_tiles(c);
    }
    c->has_parents = parents != NULL;
    memset(c->held + first, 0, m); /* a checkpointed run holds none */
    for (int d = 0; d < c->n; d++) {
        memcpy(c->lower[c->cur] + d * cap + first, lower + d * m, m * sizeof(double));
        memcpy(c->width[c->cur] + d * cap + first, width + d * m, m * sizeof(double));
    }
    for (long long i = first; i < first + count; i++) {
        while (i >= c->first_region[k] + c->counts[k]) k++;
        c->owner[c->cur][i] = k;
    }
    for (int row = 0; parents && row < pagani_parent_rows(c->ncomp); row++)
        memcpy(parent_row(c, row) + first / 2, parents + row * (m / 2),
               m / 2 * sizeof(double));
    return PAGANI_OK;
}
