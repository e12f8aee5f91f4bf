/*
 * cpu_block.h - private to the OpenMP backend: calling a block integrand
 * (pagani_integrand_from_block_function) from the threads of a pass.
 *
 * A pass that evaluates a block integrand gathers the points of its work
 * unit (a chunk of QMC indices, of Vegas pieces, or a run of cubature
 * regions) into a buffer, evaluates them with cpu_block_eval and then
 * forms its sums from the values in the order the one-point forms do, so
 * the results are the same bits. The threads gather and sum in parallel;
 * the calls themselves are serialized (one at a time, as pagani.h
 * promises). A call that returns non-zero ends the pass: no call is made
 * after it, and cpu_block_result turns the pass's code into
 * PAGANI_ERR_ABORTED.
 */
#ifndef PAGANI_CPU_BLOCK_H
#define PAGANI_CPU_BLOCK_H

#include "internal.h"

/* The most points a pass gathers for one call (a block integrand's
 * max_block above it still gets calls of at most this many points). */
#define CPU_BLOCK_MOST 65536

/* What the calls of one pass share: the first non-zero value a call
 * returned (0: none). Zero it before the pass. */
typedef struct cpu_block_gate {
    int returned;
} cpu_block_gate;

/* Whether f is a block integrand. */
static inline int cpu_is_block(const pagani_integrand *f)
{
    return f->block_function != NULL;
}

/* Whether the pass should skip its remaining work: a stop was requested
 * or a call returned non-zero. */
int cpu_block_halted(const pagani_context *ctx, cpu_block_gate *gate);

/* f's values at the npoints points x (f->n coordinates each), parameter
 * block params, into fx (f->ncomp values each, set to NaN before the
 * calls), in calls of at most f->max_block points, made one at a time
 * across threads. No call is made once the pass is halted. Returns 1 when
 * every value was made, else 0 (the pass is halted: gate->returned, or a
 * stop request, says why). */
int cpu_block_eval(cpu_block_gate *gate, const pagani_integrand *f,
                   const double *x, long long npoints, const void *params,
                   double *fx);

/* A pass's last word: PAGANI_ERR_ABORTED, with the returned value in the
 * context's message, when a call returned non-zero; else rc. */
int cpu_block_result(pagani_context *ctx, const cpu_block_gate *gate, int rc);

/*
 * A point log: how a loop written for one-point integrands (a Vegas
 * piece, sampling/vegas_piece.h) runs a block integrand unchanged. The
 * loop runs twice with a vector host function in place of f and the log
 * as its parameter block: first cpu_log_record keeps each point (and
 * answers 0); the points are evaluated in blocks (cpu_log_evaluate); then
 * cpu_log_replay answers each call, in the same order, with f's values
 * at that point. The loop's arithmetic is the one-point run's, on the
 * same values.
 */
typedef struct cpu_point_log {
    int n, ncomp;
    long long count;             /* points recorded (or asked to be) */
    long long capacity;          /* points x and fx hold */
    long long next;              /* the replay's next point */
    double *x, *fx;              /* x[p * n + i], fx[p * ncomp + c] */
} cpu_point_log;

/* Clears the log before a recording. */
void cpu_log_start(cpu_point_log *log);

/* Vector host functions (pagani_vector_function's shape) on a log given
 * as params: record x (counted even beyond the capacity), or replay the
 * next point's values. */
void cpu_log_record(const double *x, int n, const void *log, double *f);
void cpu_log_replay(const double *x, int n, const void *log, double *f);

/* Whether the log holds every point its recording asked for; if not it
 * grows to hold them (then record again), or returns -1 when memory
 * runs out. */
int cpu_log_complete(cpu_point_log *log);

/* f's values at the recorded points (cpu_block_eval), the replay set to
 * start at the first. Returns cpu_block_eval's answer. */
int cpu_log_evaluate(cpu_point_log *log, cpu_block_gate *gate,
                     const pagani_integrand *f, const void *params);

void cpu_log_free(cpu_point_log *log);

#endif /* PAGANI_CPU_BLOCK_H */
