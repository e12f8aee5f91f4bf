/*
 * vegas_batch_warm.c - a Vegas batch of a scan with warm starts
 * (options.batch_warm_stride m, pagani.h). A batch runs its integrals in
 * lockstep, so a neighbour's final grid is not there when another
 * integral starts: the batch runs in two waves instead, each one batch
 * (the device's width kept): first the pilots, integrals 0, m, 2m, ...,
 * cold; then the others, integral k from the final grid of pilot
 * round(k / m) (ties down, the last pilot at most) with at most 1
 * adjusting iteration. The random stream does not depend on an
 * integral's place in its batch, so each result is the bits of the
 * single call with that start.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "vegas/vegas.h"

/* Adjusting iterations of a warm integral: its pilot's grid needs one to
 * move to its own peak (bench_warm: 28% of the cold evaluations). */
#define WARM_ADJUST_ITERATIONS 1

/* Some integrals of the batch as a batch of their own: their blocks,
 * boxes and results gathered, scattered back by wave_scatter. */
typedef struct wave {
    int count;
    int *index;            /* the batch's index of each */
    pagani_batch batch;
    pagani_result *results;
    char *params;          /* gathered blocks, or NULL (shared) */
    double *boxes;         /* gathered lower then upper, or NULL (shared) */
    double *values;        /* vector integrands' components */
    int named;             /* the batch's integral its run's message
                              names, or -1 */
} wave;

static void wave_free(wave *w)
{
    free(w->index);
    free(w->results);
    free(w->params);
    free(w->boxes);
    free(w->values);
}

/* Gathers the w->count integrals of `from` at w->index (set). */
static int wave_gather(pagani_context *ctx, const pagani_batch *from, int n,
                       int ncomp, wave *w)
{
    const size_t k = (size_t)w->count, stride = from->params_stride;

    w->batch = *from;
    w->batch.count = w->count;
    w->results = calloc(k, sizeof *w->results);
    if (from->params && stride) w->params = malloc(k * stride);
    if (from->box_stride) w->boxes = malloc(2 * k * (size_t)n * sizeof(double));
    if (from->values) w->values = malloc(2 * k * (size_t)ncomp * sizeof(double));
    if (!w->results || (from->params && stride && !w->params) ||
        (from->box_stride && !w->boxes) || (from->values && !w->values))
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "batch_warm_stride: "
                           "no memory to gather %d integrals", w->count);
    for (size_t i = 0; i < k; i++) {
        const int j = w->index[i];
        if (w->params)
            memcpy(w->params + i * stride, pagani_batch_params(from, j), stride);
        if (w->boxes) {
            memcpy(w->boxes + i * n, pagani_batch_lower(from, j),
                   (size_t)n * sizeof(double));
            memcpy(w->boxes + (k + i) * n, pagani_batch_upper(from, j),
                   (size_t)n * sizeof(double));
        }
    }
    if (w->params) w->batch.params = w->params;
    if (w->boxes) {
        w->batch.lower = w->boxes;
        w->batch.upper = w->boxes + k * n;
        w->batch.box_stride = (size_t)n;
    }
    if (w->values) {
        w->batch.values = w->values;
        w->batch.errors = w->values + k * ncomp;
    }
    return PAGANI_OK;
}

/* The wave's results (and components) into the batch's. */
static void wave_scatter(const wave *w, const pagani_batch *to, int ncomp,
                         pagani_result *results)
{
    const size_t c = (size_t)ncomp;

    for (int i = 0; i < w->count; i++) {
        const size_t j = (size_t)w->index[i];
        results[j] = w->results[i];
        if (!w->values) continue;
        memcpy(to->values + j * c, w->batch.values + i * c, c * sizeof(double));
        memcpy(to->errors + j * c, w->batch.errors + i * c, c * sizeof(double));
    }
}

/* A message of the wave's run that names "integral i" of the wave (or,
 * in a wave of one, no integral) names the batch's index instead (in
 * w->named). */
static void renumber(pagani_context *ctx, int rc, wave *w)
{
    const char *rest;
    const int i = pagani_message_integral(ctx, w->count, &rest);

    w->named = i >= 0 ? w->index[i] : -1;
    if (i >= 0) pagani_fail(ctx, rc, "integral %d: %s", w->named, rest);
}

/* Runs wave w (gathered) with the start grids `start` (NULL: the
 * options') and its final grids into `final` (or NULL), then scatters
 * its results. Returns the run's code, its message naming the batch's
 * integral. */
static int wave_run(pagani_context *ctx, pagani_integrand *f,
                    const pagani_batch *batch, const pagani_options *opt,
                    wave *w, const double *const *start, double *final,
                    pagani_result *results)
{
    vegas_grids grids = {start, final};
    int rc;

    pagani_clear_message(ctx);
    rc = pagani_vegas_run(ctx, f, &w->batch, opt, w->results, &grids);
    if (rc == PAGANI_OK || rc == PAGANI_ERR_NONFINITE) {
        wave_scatter(w, batch, f->ncomp, results);
        renumber(ctx, rc, w);
    }
    return rc;
}

/* The options' checks: m, and what warm waves cannot be combined with. */
static int check(pagani_context *ctx, const pagani_options *opt)
{
    if (opt->batch_warm_stride < 2)
        return pagani_fail(ctx, PAGANI_ERR_OPTION, "batch_warm_stride must "
                           "be 0 (off) or at least 2 (one pilot in that "
                           "many integrals), got %d", opt->batch_warm_stride);
    if (opt->state_path)
        return pagani_fail(ctx, PAGANI_ERR_OPTION, "batch_warm_stride takes no "
                           "state_path: a checkpoint holds one batch, not "
                           "two waves");
    if (ctx->layer.run_batch)
        return pagani_fail(ctx, PAGANI_ERR_OPTION, "batch_warm_stride is not "
                           "supported on an MPI context: the ranks' shares "
                           "of a batch would pick other pilots");
    return PAGANI_OK;
}

/* The second wave's integrals, unrun after a stop in the first. */
static void stopped_unrun(pagani_integrand *f, const pagani_batch *batch,
                          const wave *w, pagani_result *results)
{
    for (int i = 0; i < w->count; i++) {
        const size_t j = (size_t)w->index[i];
        memset(&results[j], 0, sizeof results[j]);
        results[j].value = NAN;
        results[j].error = INFINITY;
        results[j].status = PAGANI_STOPPED;
        for (int c = 0; batch->values && c < f->ncomp; c++) {
            batch->values[j * f->ncomp + c] = NAN;
            batch->errors[j * f->ncomp + c] = INFINITY;
        }
    }
}

/* Whether a pilot was stopped (the callback or a stop request). */
static int any_stopped(const wave *w)
{
    for (int i = 0; i < w->count; i++)
        if (w->results[i].status == PAGANI_STOPPED) return 1;
    return 0;
}

/* How much a wave's message weighs against the other's (code rc): a NaN
 * or infinity (PAGANI_ERR_NONFINITE) 2, a warning with PAGANI_OK 1, none
 * 0. */
static int weight(int rc, const char *message)
{
    return rc == PAGANI_ERR_NONFINITE ? 2 : message && message[0] != '\0';
}

/* The two waves of a checked batch of K >= 2 integrals (both waves
 * have some), their grids of grid_size doubles: the pilots (first),
 * then the rest from their pilots' final grids. The call's message is
 * the heavier of the waves' (weight), between two of one weight the one
 * naming the batch's first integral: a NaN or infinity in either wave
 * is the call's PAGANI_ERR_NONFINITE naming the first such integral of
 * the batch, and a warning of either (PAGANI_OK) stays. */
static int run_waves(pagani_context *ctx, pagani_integrand *f,
                     const pagani_batch *batch, const pagani_options *opt,
                     size_t grid_size, wave *first, wave *rest,
                     pagani_result *results)
{
    const int m = opt->batch_warm_stride, K = batch->count;
    pagani_options warm = *opt;
    double *final = malloc(sizeof(double) * grid_size * (size_t)first->count);
    const double **start = malloc(sizeof *start * (size_t)rest->count);
    int rc, rc_rest;

    if (!final || !start) {
        free(final);
        free(start);
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "batch_warm_stride: no "
                           "memory for %d grids of %zu edges", first->count,
                           grid_size);
    }
    for (int i = 0, r = 0; i < K; i++) {
        int pilot = (i + (m - 1) / 2) / m;
        if (i % m == 0) continue;
        if (pilot >= first->count) pilot = first->count - 1;
        rest->index[r] = i;
        start[r++] = final + (size_t)pilot * grid_size;
    }
    rc = wave_gather(ctx, batch, f->n, f->ncomp, rest);
    if (rc == PAGANI_OK)
        rc = wave_run(ctx, f, batch, opt, first, NULL, final, results);
    if (rc == PAGANI_OK || rc == PAGANI_ERR_NONFINITE) {
        if (any_stopped(first)) {
            stopped_unrun(f, batch, rest, results);
        } else {
            char *kept = strdup(pagani_context_message(ctx));
            int mine, theirs;
            warm.vegas_grid_in = NULL;
            warm.vegas_grid_out = NULL;
            if (warm.vegas_adjust_iterations > WARM_ADJUST_ITERATIONS)
                warm.vegas_adjust_iterations = WARM_ADJUST_ITERATIONS;
            rc_rest = wave_run(ctx, f, batch, &warm, rest, start, NULL, results);
            mine = weight(rc, kept);
            theirs = weight(rc_rest, pagani_context_message(ctx));
            if (rc_rest != PAGANI_OK && rc_rest != PAGANI_ERR_NONFINITE)
                rc = rc_rest;
            else if (theirs > mine ||
                     (theirs == mine && rest->named < first->named))
                rc = rc_rest;
            else if (mine > 0 && kept) /* the first wave's stands */
                pagani_fail(ctx, rc, "%s", kept);
            free(kept);
        }
    }
    free(final);
    free(start);
    return rc;
}

int pagani_vegas_batch_warm(pagani_context *ctx, pagani_integrand *f,
                            const pagani_batch *batch,
                            const pagani_options *opt, pagani_result *results)
{
    const int m = opt->batch_warm_stride, K = batch->count;
    wave first, rest;
    vegas_plan plan;
    int rc;

    if ((rc = check(ctx, opt)) != PAGANI_OK ||
        (rc = pagani_vegas_plan(ctx, f, opt, &plan)) != PAGANI_OK)
        return rc;
    if (K == 1) return pagani_vegas_run(ctx, f, batch, opt, results, NULL);
    memset(&first, 0, sizeof first);
    memset(&rest, 0, sizeof rest);
    first.count = (K + m - 1) / m;
    rest.count = K - first.count;
    first.index = malloc(sizeof(int) * (size_t)first.count);
    rest.index = malloc(sizeof(int) * (size_t)rest.count);
    if (!first.index || !rest.index)
        rc = pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "batch_warm_stride: no "
                         "memory for the waves of %d integrals", K);
    for (int i = 0; rc == PAGANI_OK && i < first.count; i++)
        first.index[i] = i * m;
    if (rc == PAGANI_OK) rc = wave_gather(ctx, batch, f->n, f->ncomp, &first);
    if (rc == PAGANI_OK)
        rc = run_waves(ctx, f, batch, opt,
                       (size_t)plan.job.grid_axes * (plan.job.bins + 1), &first,
                       &rest, results);
    wave_free(&first);
    wave_free(&rest);
    return rc;
}
