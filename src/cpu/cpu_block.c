/*
 * cpu_block.c - calling a block integrand from the threads of a pass (see
 * cpu_block.h): the calls are serialized by one named critical section,
 * and the gate is read and written there or atomically; and the point
 * log that runs a one-point loop on a block integrand.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cpu/cpu_block.h"

int cpu_block_halted(const pagani_context *ctx, cpu_block_gate *gate)
{
    int returned;
#pragma omp atomic read
    returned = gate->returned;
    return returned != 0 || ctx->stop_requested;
}

int cpu_block_eval(cpu_block_gate *gate, const pagani_integrand *f,
                   const double *x, long long npoints, const void *params,
                   double *fx)
{
    const int n = f->n, ncomp = f->ncomp;
    int made = 1;

    for (long long i = 0; i < npoints * ncomp; i++) fx[i] = NAN;
    for (long long at = 0; made && at < npoints; at += f->max_block) {
        long long count = npoints - at < f->max_block ? npoints - at
                                                      : f->max_block;
#pragma omp critical(pagani_cpu_block_call)
        {
            if (cpu_block_halted(f->ctx, gate)) {
                made = 0;
            } else {
                int r = f->block_function(x + at * n, n, count, params,
                                          fx + at * ncomp, f->block_data);
                if (r != 0) {
#pragma omp atomic write
                    gate->returned = r;
                    made = 0;
                }
            }
        }
    }
    return made;
}

int cpu_block_result(pagani_context *ctx, const cpu_block_gate *gate, int rc)
{
    if (gate->returned == 0) return rc;
    return pagani_fail(ctx, PAGANI_ERR_ABORTED, "the integrand's block "
                       "function returned %d: the integration was aborted",
                       gate->returned);
}

void cpu_log_start(cpu_point_log *log)
{
    log->count = 0;
    log->next = 0;
}

/* The log's parameter block: the loop hands it on as const. */
static cpu_point_log *log_of(const void *params)
{
    return (cpu_point_log *)params;
}

void cpu_log_record(const double *x, int n, const void *params, double *f)
{
    cpu_point_log *log = log_of(params);
    if (log->count < log->capacity)
        memcpy(log->x + log->count * n, x, (size_t)n * sizeof *x);
    log->count++;
    for (int c = 0; c < log->ncomp; c++) f[c] = 0.0;
}

void cpu_log_replay(const double *x, int n, const void *params, double *f)
{
    cpu_point_log *log = log_of(params);
    (void)x;
    (void)n;
    memcpy(f, log->fx + log->next * log->ncomp,
           (size_t)log->ncomp * sizeof *f);
    log->next++;
}

int cpu_log_complete(cpu_point_log *log)
{
    double *x, *fx;
    if (log->count <= log->capacity) return 1;
    x = realloc(log->x, (size_t)log->count * log->n * sizeof *x);
    if (x) log->x = x;
    fx = realloc(log->fx, (size_t)log->count * log->ncomp * sizeof *fx);
    if (fx) log->fx = fx;
    if (!x || !fx) return -1;
    log->capacity = log->count;
    return 0;
}

int cpu_log_evaluate(cpu_point_log *log, cpu_block_gate *gate,
                     const pagani_integrand *f, const void *params)
{
    log->next = 0;
    return cpu_block_eval(gate, f, log->x, log->count, params, log->fx);
}

void cpu_log_free(cpu_point_log *log)
{
    free(log->x);
    free(log->fx);
    log->x = log->fx = NULL;
    log->capacity = 0;
}
