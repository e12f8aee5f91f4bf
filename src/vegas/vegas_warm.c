/*
 * vegas_warm.c - Vegas warm starts (options vegas_grid_in and
 * vegas_grid_out, pagani.h): the grid a run leaves, and a run that starts
 * from one instead of a uniform grid. A Vegas+ run takes and leaves the
 * grid alone: its per-cube sample counts start uniform (the backend's
 * setup) and are learned anew.
 */
#include <stdlib.h>
#include <string.h>
#include "vegas/vegas.h"

int pagani_vegas_grid_create(pagani_vegas_grid **grid)
{
    if (!grid) return PAGANI_ERR_NULL_POINTER;
    *grid = calloc(1, sizeof **grid);
    return *grid ? PAGANI_OK : PAGANI_ERR_NO_MEMORY;
}

void pagani_vegas_grid_destroy(pagani_vegas_grid *grid)
{
    if (!grid) return;
    free(grid->edges);
    free(grid);
}

int pagani_vegas_warm_check(pagani_context *ctx, const pagani_options *opt,
                            const vegas_plan *plan)
{
    const pagani_vegas_grid *in = opt->vegas_grid_in;
    const vegas_job *job = &plan->job;

    if (!in) return PAGANI_OK;
    if (in->rows == 0)
        return pagani_fail(ctx, PAGANI_ERR_OPTION, "vegas_grid_in is empty: "
                           "no run has filled it (vegas_grid_out)");
    if (in->n != job->n || in->rows != job->grid_axes || in->bins != job->bins)
        return pagani_fail(ctx, PAGANI_ERR_OPTION, "vegas_grid_in was made "
                           "in %d dimensions with %d rows of %d bins; this "
                           "run has %d dimensions and %d rows of %d "
                           "(vegas_bins and PAGANI_FLAG_VEGAS_1D must match)",
                           in->n, in->rows, in->bins, job->n, job->grid_axes,
                           job->bins);
    return PAGANI_OK;
}

void pagani_vegas_warm_start(vegas_run *r, const pagani_options *opt)
{
    const pagani_vegas_grid *in = opt->vegas_grid_in;
    if (!in) return;
    for (int k = 0; k < r->count; k++)
        memcpy(r->grids + (size_t)k * r->grid_size, in->edges,
               r->grid_size * sizeof *r->grids);
}

int pagani_vegas_warm_keep(pagani_context *ctx, const vegas_run *r,
                           const pagani_options *opt)
{
    pagani_vegas_grid *out = opt->vegas_grid_out;
    const vegas_job *job = &r->plan.job;
    double *edges;

    if (!out) return PAGANI_OK;
    if (!(edges = realloc(out->edges, r->grid_size * sizeof *edges)))
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "vegas_grid_out: no "
                           "memory for %zu edges", r->grid_size);
    memcpy(edges, r->grids, r->grid_size * sizeof *edges);
    out->edges = edges;
    out->n = job->n;
    out->rows = job->grid_axes;
    out->bins = job->bins;
    return PAGANI_OK;
}
