/*
 * qmc_driver.c - PAGANI_QMC: randomly shifted Zinterhof sequences with the
 * error taken from the spread over shifts (DESIGN.md sections 1 and 7).
 *
 * R = qmc_shifts random shifts u_r (Cranley-Patterson) of the sequence
 * frac(k * theta), theta_i = e^(1/i). Shift r estimates the integral by
 * volume * (1/N) sum_{k=1..N} f(x_k) w_k over its first N points (mapped
 * through the periodising transform, qmc_point.h); the estimate is the mean
 * of the R shift estimates, the error their standard error. The driver
 * starts with N = qmc_initial_points and doubles N, summing only the new
 * block of indices N+1..2N each time, until
 *     mc_sigmas * error <= max(epsabs, epsrel * |estimate|)
 * (PAGANI_CONVERGED; pagani_mc_tolerances), or max_iterations blocks have been summed (default 16:
 * PAGANI_MAX_ITERATIONS), or the next block would exceed max_evaluations
 * (R * N in all: the last block is cut to fit, PAGANI_MAX_EVALUATIONS).
 * When every value was exactly 0 the status is PAGANI_NO_SIGNAL. The
 * progress callback gets the points per shift as its second argument; when
 * it returns non-zero the run ends there (PAGANI_STOPPED, unless the values
 * were all 0).
 *
 * Batches (pagani_integrate_batch): the K integrals share the points of
 * the unit cube; integral k maps them to its own box and evaluates f with
 * its own parameter block, into its own R exact sums. Every block is one
 * pass of the backend (one launch) over the integrals still running; an
 * integral leaves when it has met its tolerance or ended otherwise, while
 * the others go on. The blocks are the same for every integral, so each
 * integral's sums, hence its result, are the bits of pagani_integrate with
 * its block and box. With K > 1 the progress callback gets the number of
 * integrals summed in the block (those that did not fail) and the
 * estimate of the first of them; non-zero stops every one still running.
 * NaN or infinity from f ends only that integral: value NaN, error
 * +infinity, status PAGANI_NO_PROGRESS, and the call returns
 * PAGANI_ERR_NONFINITE naming the first such integral and its point.
 *
 * Overflow: the exact sums hold values up to DBL_MAX and the estimate is
 * scaled (qmc.h), so only an estimate or error beyond the range of a
 * double, or a finite f whose product with the transform's Jacobian is,
 * overflows. That ends the integral after the block's progress call with
 * status PAGANI_NO_PROGRESS, the estimate (+-infinity when it is what
 * overflowed, as when the product did) and an infinite error.
 *
 * Vector integrands: every component is summed over the same points, each
 * into its own R sums, and estimated on its own (value and error over the
 * shifts); the integral converges when the options' norm is met
 * (rules/component_norm.h), and a NaN in any component is the integral's.
 *
 * Heavy tails (qmc_tail.h): the backends also return each shift's
 * largest |f J| of the block; where it keeps growing with N (f J
 * unbounded, its variance infinite or nearly so) every component's error
 * is at least the tail error that the largest value supports, so the
 * integral converges only when that meets the tolerance too. A limit
 * that ends an integral which only the tail error kept from converging
 * at its last block gives it status PAGANI_HEAVY_TAIL, and the growth is
 * said in the context's message (with PAGANI_OK) whenever the guard
 * found f J unbounded at the end.
 *
 * Sums are exact (exact_sum.h): a run gives the same bits on any thread
 * count, and the same as the sum of any split of its indices (qmc.h).
 *
 * Checkpoints (options state_path; qmc_checkpoint.c): the state between
 * blocks (blocks summed, the exact sums, the integrals running, the
 * results of those that ended) is written when the interval is due and,
 * when a limit or stop ends the run, as a run without them would have
 * it: after the block that the callback stopped or max_iterations ended,
 * before the block that max_evaluations cuts or a stop request cut short
 * (summed again on resume). A run resumed from it ends with the bits of
 * the run never stopped.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "methods.h"
#include "qmc/qmc_run.h"
#include "rules/component_norm.h"

/* Whether integral k meets the tolerance (every component by the norm),
 * or with_epsabs 0, epsrel alone; never when a value or error is not
 * finite. */
static int met(const qmc_run *run, int k, const pagani_result *res,
               const pagani_options *opt, int with_epsabs)
{
    const size_t C = (size_t)run->ncomp;
    double epsrel, epsabs;
    pagani_mc_tolerances(opt, &epsrel, &epsabs);
    if (!with_epsabs) epsabs = 0.0;
    if (C > 1)
        return pagani_components_met(opt->norm, run->ncomp, run->values + k * C,
                                     run->errors + k * C, epsrel, epsabs);
    return isfinite(res->value) && isfinite(res->error) &&
           res->error <= fmax(epsabs, epsrel * fabs(res->value));
}

/* Makes the K x R sums of run->job and the backend's state; every
 * integral running, its status PAGANI_MAX_ITERATIONS until something else
 * ends it. */
static int open_run(pagani_context *ctx, qmc_run *run, pagani_result *results)
{
    const int K = run->job.integrals;
    size_t sums = (size_t)K * (size_t)run->ncomp * (size_t)run->job.shifts;

    run->total = malloc(sums * sizeof *run->total);
    run->part = malloc(sums * sizeof *run->part);
    run->faults = malloc((size_t)K * sizeof *run->faults);
    run->ids = malloc((size_t)K * sizeof *run->ids);
    run->peaks = malloc((size_t)K * run->job.shifts * sizeof *run->peaks);
    if (!run->total || !run->part || !run->faults || !run->ids ||
        !run->peaks || !qmc_tail_open(&run->tail, K, run->job.shifts))
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "QMC sums: %d integrals "
                           "x %d components x %d shifts need %zu bytes", K,
                           run->ncomp, run->job.shifts,
                           2 * sums * sizeof *run->total);
    for (size_t j = 0; j < sums; j++) pagani_xsum_zero(&run->total[j]);
    for (int k = 0; k < K; k++) {
        run->ids[k] = k;
        results[k].status = PAGANI_MAX_ITERATIONS;
    }
    run->live = K;
    return run->ops->setup(ctx->backend_state, &run->job, &run->state);
}

/* Frees what open_run made. */
static void close_run(qmc_run *run)
{
    if (run->state) run->ops->release(run->state);
    free(run->total);
    free(run->part);
    free(run->faults);
    free(run->ids);
    free(run->peaks);
    qmc_tail_free(&run->tail);
}

/* Component c's estimate of integral k into the batch's components
 * (several) and, for component 0, into its result res. */
static void put_estimate(qmc_run *run, int k, int c, pagani_result *res,
                         double value, double error)
{
    if (run->values) {
        run->values[(size_t)k * run->ncomp + c] = value;
        run->errors[(size_t)k * run->ncomp + c] = error;
    }
    if (c == 0) {
        res->value = value;
        res->error = error;
    }
}

/* The volume of integral k's box. */
static double volume_of(const qmc_job *job, int k)
{
    const double *lower = qmc_job_lower(job, k), *upper = qmc_job_upper(job, k);
    double volume = 1.0;
    for (int i = 0; i < job->n; i++) volume *= upper[i] - lower[i];
    return volume;
}

/* Adds the block's sums of the m-th running integral to its totals and
 * puts its estimate over N points per shift in its result (the error
 * +infinity when either overflowed), and the block's largest values to
 * the heavy-tail guard. Returns 0 when f was not finite
 * there: the integral then has its final result (NaN, +infinity,
 * PAGANI_NO_PROGRESS) and the first such integral is kept for the
 * report. */
static int add_block(qmc_run *run, int m, int it, unsigned long long N,
                     pagani_result *results)
{
    const int R = run->job.shifts, k = run->ids[m], C = run->ncomp;
    const qmc_fault *fault = &run->faults[m];
    pagani_result *res = &results[k];
    /* a finite f times the Jacobian beyond DBL_MAX: not f's fault */
    int jacobian_overflow = fault->k && isfinite(fault->value);

    res->iterations = it;
    res->evaluations = (long long)(N * (unsigned long long)R);
    if (fault->k && !jacobian_overflow) {
        if (!run->nonfinite.k || k < run->nonfinite.integral)
            run->nonfinite = *fault;
        for (int c = 0; c < C; c++) put_estimate(run, k, c, res, NAN, INFINITY);
        res->status = PAGANI_NO_PROGRESS;
        return 0;
    }
    qmc_tail_add(&run->tail, k, it, &run->peaks[(size_t)m * R]);
    for (int c = 0; c < C; c++) {
        pagani_xsum *total = &run->total[((size_t)k * C + c) * R];
        pagani_qmc_estimate est;
        for (int r = 0; r < R; r++)
            pagani_xsum_merge(&total[r], &run->part[((size_t)m * C + c) * R + r]);
        pagani_qmc_estimate_sums(&run->job, k, total, N, &est);
        if (jacobian_overflow && c == fault->component)
            est.value = copysign(INFINITY, fault->value);
        put_estimate(run, k, c, res, est.value,
                     isfinite(est.value) && isfinite(est.error) ? est.error
                                                                : INFINITY);
    }
    return 1;
}

/* Whether some component of integral k has an overflowed estimate. */
static int overflowed(const qmc_run *run, int k, const pagani_result *res)
{
    const size_t C = (size_t)run->ncomp;
    for (size_t c = 0; run->errors && c < C; c++)
        if (!isfinite(run->errors[k * C + c])) return 1;
    return !isfinite(res->error);
}

/* Raises every component's error of integral k (its result res, over
 * the run's points per shift) to the tail error when its f J counts as
 * unbounded (qmc_tail.h); returns whether it did. */
static int raise_to_tail(qmc_run *run, int k, pagani_result *res)
{
    const int C = run->ncomp;
    double tail = qmc_tail_error(&run->tail, k, volume_of(&run->job, k),
                                 run->points);

    if (tail <= 0.0) return 0;
    for (int c = 0; c < C; c++) {
        double value = C > 1 ? run->values[(size_t)k * C + c] : res->value;
        double error = C > 1 ? run->errors[(size_t)k * C + c] : res->error;
        put_estimate(run, k, c, res, value, fmax(error, tail));
    }
    return 1;
}

/* How integral k, summed in block `it`, ends by the single call's rules
 * when no limit or stop ends it: PAGANI_NO_PROGRESS when its estimate
 * overflowed (noted in the context's message, the first time),
 * PAGANI_CONVERGED when its error meets the tolerance, raised to the
 * tail error first (raise_to_tail; when the spread met it and the tail
 * error not, the integral is held: tail.held[k]); PAGANI_MAX_ITERATIONS
 * when it goes on. */
static pagani_status decide(pagani_context *ctx, qmc_run *run, int k, int it,
                            pagani_result *res, const pagani_options *opt)
{
    int spread_met;

    if (overflowed(run, k, res)) {
        char who[32] = "";
        if (run->job.integrals > 1)
            snprintf(who, sizeof who, "integral %d: ", k);
        if (!run->overflow_noted)
            pagani_fail(ctx, PAGANI_OK, "%sblock %d: the estimate (%g) or its "
                        "error overflows a double although the integrand's "
                        "values were finite: scale the integrand down", who,
                        it, res->value);
        run->overflow_noted = 1;
        return PAGANI_NO_PROGRESS;
    }
    spread_met = met(run, k, res, opt, 1);
    run->tail.held[k] = 0;
    if (!raise_to_tail(run, k, res))
        return spread_met ? PAGANI_CONVERGED : PAGANI_MAX_ITERATIONS;
    if (met(run, k, res, opt, 1)) return PAGANI_CONVERGED;
    run->tail.held[k] = spread_met;
    return PAGANI_MAX_ITERATIONS;
}

/* Ends every integral still running with status (PAGANI_STOPPED or
 * PAGANI_MAX_EVALUATIONS): its result is the last block's (before the
 * first: NaN and +infinity). */
static void end_running(qmc_run *run, pagani_status status,
                        pagani_result *results)
{
    for (int m = 0; m < run->live; m++) {
        pagani_result *res = &results[run->ids[m]];
        res->status = status;
        if (res->iterations > 0) continue;
        for (int c = 0; c < run->ncomp; c++)
            put_estimate(run, run->ids[m], c, res, NAN, INFINITY);
    }
    run->live = 0;
}

/* Sums block number `it`, indices N + 1 .. N + block (N = run->points),
 * for the running integrals, then calls the progress callback (*stop: it
 * asked to stop) and ends the integrals that are done, as if no limit or
 * stop ended the run (end_running does that after). Returns a backend
 * error, PAGANI_STOP_REQUESTED (nothing summed: the block before is the
 * estimate), else PAGANI_OK. */
static int run_block(pagani_context *ctx, qmc_run *run, int it,
                     unsigned long long block, const pagani_options *opt,
                     pagani_result *results, int *stop)
{
    const int R = run->job.shifts;
    const unsigned long long N = run->points;
    int first = -1, running = 0, keep = 0;
    int rc = run->ops->sums(run->state, run->ids, run->live, 0, R, N + 1,
                            block, 1, run->part, run->faults, run->peaks);

    *stop = 0;
    if (rc != PAGANI_OK && rc != PAGANI_ERR_NONFINITE) return rc;
    for (int m = 0; m < run->live; m++)
        if (add_block(run, m, it, N + block, results)) {
            if (first < 0) first = run->ids[m];
            running++;
        }
    run->blocks = it;
    run->points = N + block;
    if (opt->progress && running > 0)
        *stop = opt->progress(it, run->job.integrals == 1
                                      ? (long long)(N + block) : running,
                              results[first].value, results[first].error,
                              opt->progress_data) != 0;
    for (int m = 0; m < run->live; m++) {
        int k = run->ids[m];
        if (results[k].status == PAGANI_NO_PROGRESS) continue; /* f failed */
        results[k].status = decide(ctx, run, k, it, &results[k], opt);
        results[k].by_epsabs = results[k].status == PAGANI_CONVERGED &&
                               !met(run, k, &results[k], opt, 0);
        if (results[k].status == PAGANI_MAX_ITERATIONS) run->ids[keep++] = k;
    }
    run->live = keep;
    return PAGANI_OK;
}

/* Sums blocks it = run->blocks + 1 .. max_it, each as large as the
 * points before it (the first `first`), until no integral runs, the
 * evaluation cap (points per shift; 0: none) cuts a block, or a stop.
 * The checkpoint is written after a block when due, and with the state
 * that a run without limits or stops passes through whenever one ends
 * the run: after the block the progress callback stopped or max_it
 * ended, before the block that a stop request cut short or the cap cuts
 * (that block is summed again on resume). */
static int run_blocks(pagani_context *ctx, qmc_run *run, pagani_checkpoint *cp,
                      int max_it, unsigned long long first,
                      unsigned long long cap, const pagani_options *opt,
                      pagani_result *results)
{
    unsigned long long block = run->points ? run->points : first;
    int rc = PAGANI_OK;

    for (int it = run->blocks + 1; it <= max_it && run->live > 0; it++) {
        int cut = 0, stop = 0;
        if (block > (1ULL << 62) - run->points) break; /* indices < 2^62 */
        if (cap && run->points >= cap) { /* a resume under a lower cap */
            end_running(run, PAGANI_MAX_EVALUATIONS, results);
            break;
        }
        if (cap && run->points + block >= cap) {
            block = cap - run->points;
            cut = 1;
            rc = qmc_checkpoint_write(ctx, cp, run, results);
            if (rc != PAGANI_OK) return rc;
        }
        rc = run_block(ctx, run, it, block, opt, results, &stop);
        if (rc == PAGANI_STOP_REQUESTED) {
            rc = cut ? PAGANI_OK : qmc_checkpoint_write(ctx, cp, run, results);
            end_running(run, PAGANI_STOPPED, results);
            return rc;
        }
        if (rc != PAGANI_OK) return rc;
        if (!cut && run->live > 0 &&
            (stop || it == max_it || pagani_checkpoint_due(cp)))
            rc = qmc_checkpoint_write(ctx, cp, run, results);
        if (stop || cut)
            end_running(run, stop ? PAGANI_STOPPED : PAGANI_MAX_EVALUATIONS,
                        results);
        if (rc != PAGANI_OK) return rc;
        block = run->points;
    }
    return PAGANI_OK;
}

/* The end of the heavy-tail guard: an integral that a limit ended while
 * only its tail error kept it from converging says PAGANI_HEAVY_TAIL; the
 * first integral whose f J counts as unbounded at its end has the growth
 * said in the context's message (PAGANI_OK), unless an overflow's is
 * there. */
static void report_tail(pagani_context *ctx, const qmc_run *run,
                        pagani_result *results)
{
    int said = run->overflow_noted;

    for (int k = 0; k < run->job.integrals; k++) {
        pagani_result *res = &results[k];
        char who[32] = "";
        if (res->status == PAGANI_NO_PROGRESS || !qmc_tail_unbounded(&run->tail, k))
            continue;
        if (run->tail.held[k] && (res->status == PAGANI_MAX_ITERATIONS ||
                                  res->status == PAGANI_MAX_EVALUATIONS))
            res->status = PAGANI_HEAVY_TAIL;
        if (said++) continue;
        if (run->job.integrals > 1) snprintf(who, sizeof who, "integral %d: ", k);
        pagani_fail(ctx, PAGANI_OK, "%sthe largest |f J| of a shift grew as "
                    "N^%.2f over the last doublings of N: f J is unbounded "
                    "(an integrable singularity) or peaks more narrowly "
                    "than the points resolve, and the spread over the "
                    "shifts is no error for it; the error is at least %g "
                    "times the largest value's share of the estimate; for "
                    "a singular face or corner take qmc_transform 2 or 3 "
                    "(README, \"Domains and singularities\")", who,
                    run->tail.growth[k], QMC_TAIL_SCALE);
    }
}

int pagani_qmc_integrate(pagani_context *ctx, pagani_integrand *f,
                         const pagani_batch *batch,
                         const pagani_options *opt, pagani_result *results)
{
    int max_it = opt->max_iterations ? opt->max_iterations
                                     : PAGANI_QMC_DEFAULT_ITERATIONS;
    unsigned long long first, cap = 0;
    pagani_checkpoint cp;
    qmc_run run = {0};
    int rc;

    run.ops = ctx->backend ? ctx->backend->qmc : NULL;
    if (!run.ops)
        return pagani_fail(ctx, PAGANI_ERR_BACKEND_UNAVAILABLE, "QMC is not "
                           "available on the %s backend",
                           pagani_backend_name(ctx->kind));
    first = opt->qmc_initial_points ? (unsigned long long)opt->qmc_initial_points
                                    : PAGANI_QMC_DEFAULT_POINTS;
    if ((rc = pagani_qmc_batch_job(ctx, f, batch, opt, &run.job)) != PAGANI_OK)
        return rc;
    run.ncomp = f->ncomp;
    if (run.ncomp > 1) {
        run.values = batch->values;
        run.errors = batch->errors;
    }
    if (opt->max_evaluations > 0) {
        cap = (unsigned long long)opt->max_evaluations /
              (unsigned long long)run.job.shifts;
        if (cap == 0)
            return pagani_fail(ctx, PAGANI_ERR_OPTION, "max_evaluations %lld "
                               "is below one point per shift (%d shifts)",
                               opt->max_evaluations, run.job.shifts);
    }
    pagani_checkpoint_open(&cp, ctx, f, batch, opt);
    if ((rc = open_run(ctx, &run, results)) != PAGANI_OK ||
        (rc = qmc_checkpoint_resume(ctx, &cp, first, &run, results)) !=
            PAGANI_OK ||
        (rc = run_blocks(ctx, &run, &cp, max_it, first, cap, opt,
                         results)) != PAGANI_OK)
        goto out;
    for (int k = 0; k < batch->count; k++)
        if (results[k].status != PAGANI_NO_PROGRESS &&
            results[k].status != PAGANI_STOPPED &&
            pagani_qmc_all_zero(&run.total[(size_t)k * run.ncomp * run.job.shifts],
                                run.ncomp * run.job.shifts))
            results[k].status = PAGANI_NO_SIGNAL;
    report_tail(ctx, &run, results);
    if (run.nonfinite.k) rc = pagani_qmc_fault(ctx, &run.job, &run.nonfinite);
out:
    close_run(&run);
    pagani_checkpoint_close(&cp);
    return rc;
}
