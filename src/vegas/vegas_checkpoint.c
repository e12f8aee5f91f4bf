/*
 * vegas_checkpoint.c - a PAGANI_VEGAS run's checkpoint (vegas.h). The
 * random stream is a function of (seed, iteration, cube, sample), so the
 * state at the start of an iteration is all a resume needs. The payload:
 *   the sizes (samples per piece and per iteration, sub-cubes, pieces,
 *   grid rows and bins, integrals K, components C) and R, the iterations
 *   recorded;
 *   the K grids;
 *   per member: evaluations, Vegas+ total, nonzero samples seen, bin
 *   scale (vmax), combined value and error, fault iteration and sums,
 *   overflow iteration, tail-dominated count, where it resumes (-1: it
 *   ended for good);
 *   per member: C x R estimates and variances, R nonzero counts and tail
 *   flags;
 *   the K results, and with C > 1 the K x C component values and errors;
 *   Vegas+: the K x m per-cube sample counts (8 bytes a sub-cube and
 *   integral), moved to and from the backend a slice at a time
 *   (vegas_ops.counts_out, counts_in). They are all the state Vegas+
 *   keeps there between iterations: a checkpoint is written before a
 *   pass or after the stratify that follows it, never between.
 */
#include <stdlib.h>
#include <string.h>
#include "vegas/vegas.h"

#define SIZE_WORDS 8

/* The sizes a file must share with the run that resumes it. */
static void sizes_of(const vegas_run *r, long long *w)
{
    const vegas_job *job = &r->plan.job;

    w[0] = job->samples;
    w[1] = r->plan.per_iteration;
    w[2] = job->cubes;
    w[3] = job->grid_axes;
    w[4] = job->bins;
    w[5] = r->count;
    w[6] = r->ncomp;
    w[7] = job->pieces;
}

/* Where member m, running or not, goes on from iteration `it`. */
static int resume_point(const vegas_member *m, int it)
{
    if (!m->running) return m->resume_at;
    return m->resume_at > it ? m->resume_at : it;
}

/* Member m's scalar fields, in the payload's order, put or taken. */
static void put_member(pagani_state_out *out, const vegas_member *m, int at)
{
    pagani_state_put(out, &m->evaluations, sizeof m->evaluations);
    pagani_state_put(out, &m->plus_total, sizeof m->plus_total);
    pagani_state_put(out, &m->seen, sizeof m->seen);
    pagani_state_put(out, &m->vmax, sizeof m->vmax);
    pagani_state_put(out, &m->value, sizeof m->value);
    pagani_state_put(out, &m->error, sizeof m->error);
    pagani_state_put(out, &m->fault_iteration, sizeof m->fault_iteration);
    pagani_state_put(out, &m->fault, sizeof m->fault);
    pagani_state_put(out, &m->overflow_iteration, sizeof m->overflow_iteration);
    pagani_state_put(out, &m->tail_combined, sizeof m->tail_combined);
    pagani_state_put(out, &at, sizeof at);
}

static int take_member(pagani_state_in *in, vegas_member *m)
{
    return pagani_state_take(in, &m->evaluations, sizeof m->evaluations) &&
           pagani_state_take(in, &m->plus_total, sizeof m->plus_total) &&
           pagani_state_take(in, &m->seen, sizeof m->seen) &&
           pagani_state_take(in, &m->vmax, sizeof m->vmax) &&
           pagani_state_take(in, &m->value, sizeof m->value) &&
           pagani_state_take(in, &m->error, sizeof m->error) &&
           pagani_state_take(in, &m->fault_iteration, sizeof m->fault_iteration) &&
           pagani_state_take(in, &m->fault, sizeof m->fault) &&
           pagani_state_take(in, &m->overflow_iteration,
                             sizeof m->overflow_iteration) &&
           pagani_state_take(in, &m->tail_combined, sizeof m->tail_combined) &&
           pagani_state_take(in, &m->resume_at, sizeof m->resume_at);
}

/* Member m's history of R iterations (the arrays of the member as
 * allocated: component c at c * itmax). */
static void put_history(pagani_state_out *out, const vegas_run *r,
                        const vegas_member *m, int R)
{
    const size_t its = (size_t)r->plan.itmax;
    for (int c = 0; c < r->ncomp; c++) {
        pagani_state_put(out, m->estimate + c * its, (size_t)R * sizeof(double));
        pagani_state_put(out, m->variance + c * its, (size_t)R * sizeof(double));
    }
    pagani_state_put(out, m->nonzero, (size_t)R * sizeof *m->nonzero);
    pagani_state_put(out, m->tail, (size_t)R * sizeof *m->tail);
}

static int take_history(pagani_state_in *in, const vegas_run *r,
                        vegas_member *m, int R)
{
    const size_t its = (size_t)r->plan.itmax;
    int ok = 1;
    for (int c = 0; c < r->ncomp && ok; c++)
        ok = pagani_state_take(in, m->estimate + c * its,
                               (size_t)R * sizeof(double)) &&
             pagani_state_take(in, m->variance + c * its,
                               (size_t)R * sizeof(double));
    return ok && pagani_state_take(in, m->nonzero, (size_t)R * sizeof *m->nonzero) &&
           pagani_state_take(in, m->tail, (size_t)R * sizeof *m->tail);
}

static size_t components_of(const vegas_run *r)
{
    return r->ncomp > 1 ? (size_t)r->count * (size_t)r->ncomp : 0;
}

/* A slice buffer for the Vegas+ counts (NULL, with the message, when
 * there is no memory for it); *slice its cubes. */
static long long *slice_buffer(pagani_context *ctx, const vegas_run *r,
                               long long *slice)
{
    const long long cubes = r->plan.job.cubes;
    long long *buf;

    *slice = cubes < VEGAS_COUNTS_SLICE ? cubes : VEGAS_COUNTS_SLICE;
    buf = malloc(sizeof *buf * (size_t)*slice);
    if (!buf)
        pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "Vegas+ checkpoint: %lld "
                    "sub-cube counts", *slice);
    return buf;
}

/* Vegas+: every integral's counts from the backend into the payload. */
static int put_counts(pagani_context *ctx, const vegas_run *r,
                      pagani_state_out *out)
{
    const long long cubes = r->plan.job.cubes;
    long long slice, *buf = slice_buffer(ctx, r, &slice);
    int rc = buf ? PAGANI_OK : PAGANI_ERR_NO_MEMORY;

    for (int k = 0; k < r->count && rc == PAGANI_OK; k++)
        for (long long c = 0; c < cubes && rc == PAGANI_OK; c += slice) {
            const long long n = cubes - c < slice ? cubes - c : slice;
            rc = r->ops->counts_out(r->state, k, c, n, buf);
            pagani_state_put(out, buf, sizeof *buf * (size_t)n);
        }
    free(buf);
    return rc;
}

/* Vegas+: every integral's counts from the payload into the backend; *fits
 * 0 when they are missing, out of [2, max_per_cube] or do not add up to
 * the member's total (then the backend's counts are partly replaced).
 * Returns the backend's code, or PAGANI_ERR_NO_MEMORY. */
static int take_counts(pagani_context *ctx, pagani_state_in *in,
                       vegas_run *r, int *fits)
{
    const vegas_job *job = &r->plan.job;
    long long slice, *buf = slice_buffer(ctx, r, &slice);
    int rc = buf ? PAGANI_OK : PAGANI_ERR_NO_MEMORY;

    for (int k = 0; k < r->count && rc == PAGANI_OK && *fits; k++) {
        long long sum = 0;
        for (long long c = 0; c < job->cubes && rc == PAGANI_OK && *fits;
             c += slice) {
            const long long n = job->cubes - c < slice ? job->cubes - c : slice;
            *fits = pagani_state_take(in, buf, sizeof *buf * (size_t)n);
            for (long long i = 0; i < n && *fits; i++) {
                *fits = buf[i] >= 2 && buf[i] <= job->max_per_cube;
                sum += buf[i];
            }
            if (*fits) rc = r->ops->counts_in(r->state, k, c, n, buf);
        }
        *fits = *fits && sum == r->members[k].plus_total;
    }
    free(buf);
    return rc;
}

int pagani_vegas_checkpoint_write(pagani_context *ctx, vegas_run *r,
                                  const vegas_member *members, int it,
                                  const pagani_result *results)
{
    long long sizes[SIZE_WORDS + 1];
    pagani_state_out out = {0};
    int rc;

    if (!r->checkpoint.path) return PAGANI_OK;
    sizes_of(r, sizes);
    sizes[SIZE_WORDS] = r->recorded;
    pagani_state_put(&out, sizes, sizeof sizes);
    pagani_state_put(&out, r->grids,
                     (size_t)r->count * r->grid_size * sizeof *r->grids);
    for (int k = 0; k < r->count; k++)
        put_member(&out, &members[k], resume_point(&members[k], it));
    for (int k = 0; k < r->count; k++)
        put_history(&out, r, &members[k], r->recorded);
    pagani_state_put(&out, results, (size_t)r->count * sizeof *results);
    pagani_state_put(&out, r->batch->values, components_of(r) * sizeof(double));
    pagani_state_put(&out, r->batch->errors, components_of(r) * sizeof(double));
    rc = r->plan.job.plus ? put_counts(ctx, r, &out) : PAGANI_OK;
    if (rc == PAGANI_OK) rc = pagani_checkpoint_write(ctx, &r->checkpoint, &out);
    pagani_state_out_free(&out);
    return rc;
}

/* Takes the payload apart into r up to the Vegas+ counts; 0 when it
 * does not fit (r partly overwritten). */
static int take_run(pagani_state_in *in, vegas_run *r, pagani_result *results)
{
    int ok = 1;

    ok = pagani_state_take(in, r->grids, (size_t)r->count * r->grid_size *
                                             sizeof *r->grids);
    for (int k = 0; k < r->count && ok; k++) {
        vegas_member *m = &r->members[k];
        ok = take_member(in, m) && m->resume_at >= -1 &&
             m->resume_at <= r->recorded;
        m->running = m->resume_at >= 0;
    }
    for (int k = 0; k < r->count && ok; k++)
        ok = take_history(in, r, &r->members[k], r->recorded);
    return ok &&
           pagani_state_take(in, results, (size_t)r->count * sizeof *results) &&
           pagani_state_take(in, r->batch->values,
                             components_of(r) * sizeof(double)) &&
           pagani_state_take(in, r->batch->errors,
                             components_of(r) * sizeof(double));
}

/* Takes the file's payload `in` apart into r and results: PAGANI_OK, or
 * PAGANI_ERR_STATE naming what does not fit (r partly overwritten). */
static int take_state(pagani_context *ctx, vegas_run *r, pagani_state_in *in,
                      pagani_result *results)
{
    long long want[SIZE_WORDS], got[SIZE_WORDS + 1];
    const char *path = r->checkpoint.path;
    int rc = PAGANI_OK, ok;

    sizes_of(r, want);
    ok = pagani_state_take(in, got, sizeof got);
    if (ok && memcmp(got, want, sizeof want))
        return pagani_fail(ctx, PAGANI_ERR_STATE, "checkpoint %s sampled "
                           "%lld points per iteration in %lld sub-cubes, "
                           "this run plans %lld in %lld: with "
                           "max_evaluations below vegas_calls x "
                           "(vegas_adjust_iterations + 3) the calls are "
                           "lowered, so a resume must keep max_evaluations "
                           "above that", path, got[1], got[2], want[1],
                           want[2]);
    if (ok && (got[SIZE_WORDS] < 0 || got[SIZE_WORDS] > r->plan.itmax))
        return pagani_fail(ctx, PAGANI_ERR_STATE, "checkpoint %s holds %lld "
                           "iterations, more than max_iterations %d: raise "
                           "max_iterations to resume it", path,
                           got[SIZE_WORDS], r->plan.itmax);
    if (ok) r->recorded = (int)got[SIZE_WORDS];
    ok = ok && take_run(in, r, results);
    if (ok && r->plan.job.plus) rc = take_counts(ctx, in, r, &ok);
    ok = ok && pagani_state_done(in);
    if (rc == PAGANI_OK && !ok)
        rc = pagani_fail(ctx, PAGANI_ERR_STATE, "checkpoint %s is no state "
                         "of this Vegas run (its members or sizes do not "
                         "fit)", path);
    return rc;
}

int pagani_vegas_checkpoint_resume(pagani_context *ctx, vegas_run *r,
                                   pagani_result *results, int *start)
{
    pagani_state_in in;
    int rc = pagani_checkpoint_resume(ctx, &r->checkpoint, &in);

    *start = 0;
    if (rc != PAGANI_OK || !in.data) return rc;
    rc = take_state(ctx, r, &in, results);
    free((void *)in.data);
    /* every rank's file of the same iteration (MPI) */
    rc = pagani_checkpoint_agree_resume(&r->checkpoint, rc, r->recorded);
    if (rc != PAGANI_OK) {
        memset(results, 0, (size_t)r->count * sizeof *results);
        return rc;
    }
    *start = r->plan.itmax;
    for (int k = 0; k < r->count; k++)
        if (r->members[k].running && r->members[k].resume_at < *start)
            *start = r->members[k].resume_at;
    return r->ops->set_grids(r->state, 0, r->count, r->grids);
}
