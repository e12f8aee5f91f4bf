/*
 * qmc_checkpoint.c - a QMC run's checkpoint (qmc_run.h). The payload:
 * blocks summed, points per shift N, integrals running (live) and their
 * ids; every integral's result; the exact sums K x C x R (pagani_xsum
 * words, as the parts' records hold them); with C > 1 the components'
 * values and errors; the first fault and whether an overflow was noted;
 * the heavy-tail guard's state (qmc_tail.h: K x R peaks, K x
 * QMC_TAIL_BLOCKS levels, K growths and K held flags).
 */
#include <stdlib.h>
#include <string.h>
#include "qmc/qmc_run.h"

/* The sizes of the run's arrays. */
static size_t sums_of(const qmc_run *run)
{
    return (size_t)run->job.integrals * (size_t)run->ncomp *
           (size_t)run->job.shifts;
}

static size_t components_of(const qmc_run *run)
{
    return run->values ? (size_t)run->job.integrals * (size_t)run->ncomp : 0;
}

/* The guard's arrays, in the payload's order: their addresses and bytes. */
static int tail_arrays(const qmc_run *run, void **at, size_t *bytes)
{
    const qmc_tail *t = &run->tail;
    const size_t K = (size_t)run->job.integrals;
    at[0] = t->peak;
    bytes[0] = K * (size_t)run->job.shifts * sizeof *t->peak;
    at[1] = t->level;
    bytes[1] = K * QMC_TAIL_BLOCKS * sizeof *t->level;
    at[2] = t->growth;
    bytes[2] = K * sizeof *t->growth;
    at[3] = t->held;
    bytes[3] = K * sizeof *t->held;
    return 4;
}

int qmc_checkpoint_write(pagani_context *ctx, pagani_checkpoint *cp,
                         const qmc_run *run, const pagani_result *results)
{
    const long long head[3] = {run->blocks, (long long)run->points, run->live};
    pagani_state_out out = {0};
    void *tail[4];
    size_t bytes[4];
    int rc, arrays = tail_arrays(run, tail, bytes);

    if (!cp->path) return PAGANI_OK;
    pagani_state_put(&out, head, sizeof head);
    pagani_state_put(&out, run->ids, (size_t)run->live * sizeof *run->ids);
    pagani_state_put(&out, results, (size_t)run->job.integrals * sizeof *results);
    pagani_state_put(&out, run->total, sums_of(run) * sizeof *run->total);
    pagani_state_put(&out, run->values, components_of(run) * sizeof(double));
    pagani_state_put(&out, run->errors, components_of(run) * sizeof(double));
    pagani_state_put(&out, &run->nonfinite, sizeof run->nonfinite);
    pagani_state_put(&out, &run->overflow_noted, sizeof run->overflow_noted);
    for (int j = 0; j < arrays; j++) pagani_state_put(&out, tail[j], bytes[j]);
    rc = pagani_checkpoint_write(ctx, cp, &out);
    pagani_state_out_free(&out);
    return rc;
}

/* Whether blocks doubling from `first` points reach exactly N: N = first
 * (2^blocks - 1), below 2^62. */
static int points_fit(long long blocks, unsigned long long N,
                      unsigned long long first)
{
    unsigned long long want = 0, block = first;
    if (blocks < 0 || blocks > 62) return 0;
    for (long long b = 0; b < blocks; b++) {
        if (block > (1ULL << 62) - want) return 0;
        want += block;
        block = want;
    }
    return want == N;
}

/* Whether the `live` ids ascend within 0..K-1. */
static int ids_fit(const int *ids, int live, int K)
{
    for (int m = 0; m < live; m++)
        if (ids[m] < 0 || ids[m] >= K || (m > 0 && ids[m] <= ids[m - 1]))
            return 0;
    return 1;
}

int qmc_checkpoint_resume(pagani_context *ctx, const pagani_checkpoint *cp,
                          unsigned long long first, qmc_run *run,
                          pagani_result *results)
{
    const int K = run->job.integrals;
    pagani_state_in in;
    long long head[3] = {0, 0, 0};
    void *tail[4];
    size_t bytes[4];
    int rc = pagani_checkpoint_resume(ctx, cp, &in), ok;
    int arrays = tail_arrays(run, tail, bytes);

    if (rc != PAGANI_OK || !in.data) return rc;
    ok = pagani_state_take(&in, head, sizeof head) && head[2] >= 0 &&
         head[2] <= K && points_fit(head[0], (unsigned long long)head[1], first);
    ok = ok && pagani_state_take(&in, run->ids, (size_t)head[2] * sizeof *run->ids) &&
         ids_fit(run->ids, (int)head[2], K);
    ok = ok && pagani_state_take(&in, results, (size_t)K * sizeof *results) &&
         pagani_state_take(&in, run->total, sums_of(run) * sizeof *run->total) &&
         pagani_state_take(&in, run->values, components_of(run) * sizeof(double)) &&
         pagani_state_take(&in, run->errors, components_of(run) * sizeof(double)) &&
         pagani_state_take(&in, &run->nonfinite, sizeof run->nonfinite) &&
         pagani_state_take(&in, &run->overflow_noted, sizeof run->overflow_noted);
    for (int j = 0; j < arrays; j++)
        ok = ok && pagani_state_take(&in, tail[j], bytes[j]);
    ok = ok && pagani_state_done(&in);
    free((void *)in.data);
    if (!ok)
        rc = pagani_fail(ctx, PAGANI_ERR_STATE, "checkpoint %s is no state "
                         "of this QMC run (its blocks, points, integrals "
                         "or sizes do not fit the job)", cp->path);
    rc = pagani_checkpoint_agree_resume(cp, rc, ok ? head[0] : -1);
    if (rc != PAGANI_OK) {
        memset(results, 0, (size_t)K * sizeof *results);
        return rc;
    }
    run->blocks = (int)head[0];
    run->points = (unsigned long long)head[1];
    run->live = (int)head[2];
    for (int m = 0; m < run->live; m++)
        results[run->ids[m]].status = PAGANI_MAX_ITERATIONS;
    return PAGANI_OK;
}
