/*
 * cpu_qmc.c - the OpenMP backend's QMC operation (qmc_backend.h): shifted
 * Zinterhof sums over a block or a leap of indices.
 *
 * Work: the (shift, chunk of CPU_QMC_CHUNK indices) pairs, handed out
 * dynamically. Each thread adds its values into private exact accumulators
 * (exact_sum.h), one per shift, merged at the end: all integer additions,
 * so the sums do not depend on the schedule or on the thread count.
 * Within a chunk the fixed-point states advance by adding leap * theta,
 * which gives the same bits as computing each point on its own.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cpu/cpu_backend.h"
#include "qmc_backend.h"
#include "sampling/qmc_point.h"
#include "sampling/zinterhof_table.h"

#define CPU_QMC_CHUNK 4096ULL

typedef struct cpu_qmc {
    qmc_job job;
    int threads;
} cpu_qmc;

static int cpu_qmc_setup(void *backend_state, const qmc_job *job,
                         void **qmc_state)
{
    cpu_qmc *q;
    int rc = cpu_start_threads(backend_state);

    if (rc != PAGANI_OK) return rc;
    q = malloc(sizeof *q);
    if (!q)
        return pagani_fail(job->integrand->ctx, PAGANI_ERR_NO_MEMORY,
                           "QMC state");
    q->job = *job;
    q->threads = cpu_threads(backend_state);
    *qmc_state = q;
    return PAGANI_OK;
}

static void cpu_qmc_release(void *qmc_state) { free(qmc_state); }

/* Fixed-point states of point k of `shift`, and the step leap * theta. */
static void start_states(const qmc_job *job, unsigned shift,
                         unsigned long long k, unsigned long long leap,
                         pagani_u128 *state, pagani_u128 *step)
{
    for (int i = 0; i < job->n; i++) {
        pagani_u128 theta = {pagani_zinterhof_theta[i][0],
                             pagani_zinterhof_theta[i][1]};
        state[i] = pagani_qmc_state(job->seed, shift, (unsigned)i, k,
                                    pagani_zinterhof_theta[i]);
        step[i] = pagani_u128_mul(leap, theta);
    }
}

/* The point of the states in the box, with its Jacobian; advances the
 * states by one step. */
static double next_point(const qmc_job *job, pagani_u128 *state,
                         const pagani_u128 *step, double *x)
{
    double w = 1.0;
    for (int i = 0; i < job->n; i++) {
        x[i] = pagani_qmc_coord(state[i], job->transform, job->lower[i],
                                job->width[i], &w);
        state[i] = pagani_u128_add(state[i], step[i]);
    }
    return w;
}

/* Whether fault (k, r) comes before the recorded one. */
static int earlier(unsigned long long k, int r, const qmc_fault *f)
{
    return f->k == 0 || k < f->k || (k == f->k && r < f->shift);
}

static int cpu_qmc_sums(void *qmc_state, int first_shift, int shifts,
                        unsigned long long first, unsigned long long count,
                        unsigned long long leap, pagani_xsum *out,
                        qmc_fault *fault)
{
    const cpu_qmc *q = qmc_state;
    const qmc_job *job = &q->job;
    const pagani_integrand *f = job->integrand;
    long long chunks = (long long)((count + CPU_QMC_CHUNK - 1) / CPU_QMC_CHUNK);
    long long items = chunks * shifts;
    int no_memory = 0;

    memset(fault, 0, sizeof *fault);
    for (int r = 0; r < shifts; r++) pagani_xsum_zero(&out[r]);

#pragma omp parallel num_threads(q->threads)
    {
        pagani_xsum *acc = malloc((size_t)shifts * sizeof *acc);
        qmc_fault mine = {0, 0, 0.0};
        pagani_u128 state[PAGANI_MAX_DIM], step[PAGANI_MAX_DIM];
        double x[PAGANI_MAX_DIM];

        if (acc)
            for (int r = 0; r < shifts; r++) pagani_xsum_zero(&acc[r]);
#pragma omp for schedule(dynamic, 1)
        for (long long item = 0; item < items; item++) {
            int r = (int)(item / chunks);
            unsigned long long j0 = (unsigned long long)(item % chunks) * CPU_QMC_CHUNK;
            unsigned long long j1 = j0 + CPU_QMC_CHUNK < count ? j0 + CPU_QMC_CHUNK : count;
            unsigned long long k = first + j0 * leap;
            if (!acc) continue;
            start_states(job, (unsigned)(first_shift + r), k, leap, state, step);
            for (unsigned long long j = j0; j < j1; j++, k += leap) {
                double w = next_point(job, state, step, x);
                double fx = f->function(x, job->n, f->params);
                double v = fx * w;
                if (!isfinite(v)) {
                    if (earlier(k, first_shift + r, &mine)) {
                        mine.k = k;
                        mine.shift = first_shift + r;
                        mine.value = fx;
                    }
                    continue;
                }
                pagani_xsum_add(&acc[r], v);
            }
        }
#pragma omp critical(pagani_cpu_qmc_merge)
        {
            if (!acc) no_memory = 1;
            else
                for (int r = 0; r < shifts; r++) pagani_xsum_merge(&out[r], &acc[r]);
            if (mine.k && earlier(mine.k, mine.shift, fault)) *fault = mine;
        }
        free(acc);
    }
    if (no_memory)
        return pagani_fail(f->ctx, PAGANI_ERR_NO_MEMORY, "QMC accumulators");
    return fault->k ? PAGANI_ERR_NONFINITE : PAGANI_OK;
}

static int cpu_qmc_points(void *qmc_state, int shift, unsigned long long first,
                          unsigned long long count, unsigned long long leap,
                          double *x)
{
    const cpu_qmc *q = qmc_state;
    pagani_u128 state[PAGANI_MAX_DIM], step[PAGANI_MAX_DIM];

    start_states(&q->job, (unsigned)shift, first, leap, state, step);
    for (unsigned long long j = 0; j < count; j++)
        next_point(&q->job, state, step, x + j * (unsigned long long)q->job.n);
    return PAGANI_OK;
}

const qmc_ops pagani_cpu_qmc_ops = {
    cpu_qmc_setup,
    cpu_qmc_sums,
    cpu_qmc_points,
    cpu_qmc_release,
};
