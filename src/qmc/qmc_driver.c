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
 *     error <= max(epsabs, epsrel * |estimate|)
 * (PAGANI_CONVERGED), or max_iterations blocks have been summed (default 40:
 * PAGANI_MAX_ITERATIONS), or the next block would exceed max_evaluations
 * (R * N in all: the last block is cut to fit, PAGANI_MAX_EVALUATIONS).
 * When every value was exactly 0 the status is PAGANI_NO_SIGNAL. The
 * progress callback gets the points per shift as its second argument; when
 * it returns non-zero the run ends there (PAGANI_STOPPED, unless the values
 * were all 0).
 *
 * Overflow: the exact sums hold values up to DBL_MAX and the estimate is
 * scaled (qmc.h), so only an estimate or error beyond the range of a
 * double, or a finite f whose product with the transform's Jacobian is,
 * overflows. That ends the run after the block's progress call with status
 * PAGANI_NO_PROGRESS, the estimate (+-infinity when it is what overflowed,
 * as when the product did) and an infinite error.
 *
 * Sums are exact (exact_sum.h): a run gives the same bits on any thread
 * count, and the same as the sum of any split of its indices (qmc.h).
 */
#include <math.h>
#include <stdlib.h>
#include "methods.h"
#include "qmc/qmc.h"

/* Whether the tolerance is met; never for a value or error that is not
 * finite. */
static int met(const pagani_qmc_estimate *est, const pagani_options *opt)
{
    return isfinite(est->value) && isfinite(est->error) &&
           est->error <= fmax(opt->epsabs, opt->epsrel * fabs(est->value));
}

/* Whether every shift's sum is exactly zero. */
static int all_zero(const pagani_xsum *sums, int shifts)
{
    for (int r = 0; r < shifts; r++)
        if (pagani_xsum_value(&sums[r]) != 0.0) return 0;
    return 1;
}

int pagani_qmc_integrate(pagani_context *ctx, pagani_integrand *f,
                         const double *lower, const double *upper,
                         const pagani_options *opt, pagani_result *result)
{
    const qmc_ops *ops = ctx->backend ? ctx->backend->qmc : NULL;
    int max_it = opt->max_iterations ? opt->max_iterations
                                     : PAGANI_QMC_DEFAULT_ITERATIONS;
    unsigned long long N = 0, block, cap = 0;
    pagani_xsum *total = NULL, *part = NULL;
    pagani_qmc_estimate est = {0.0, 0.0, 0, 0};
    pagani_status status = PAGANI_MAX_ITERATIONS;
    void *state = NULL;
    qmc_fault fault;
    qmc_job job;
    int rc, it, stop, jacobian_overflow, overflow;

    if (!ops)
        return pagani_fail(ctx, PAGANI_ERR_BACKEND_UNAVAILABLE, "QMC is not "
                           "available on the %s backend",
                           pagani_backend_name(ctx->kind));
    if ((rc = pagani_qmc_job(ctx, f, lower, upper, opt, &job)) != PAGANI_OK)
        return rc;
    block = opt->qmc_initial_points ? (unsigned long long)opt->qmc_initial_points
                                    : PAGANI_QMC_DEFAULT_POINTS;
    if (opt->max_evaluations > 0) {
        cap = (unsigned long long)opt->max_evaluations / (unsigned long long)job.shifts;
        if (cap == 0)
            return pagani_fail(ctx, PAGANI_ERR_OPTION, "max_evaluations %lld "
                               "is below one point per shift (%d shifts)",
                               opt->max_evaluations, job.shifts);
    }
    total = malloc((size_t)job.shifts * sizeof *total);
    part = malloc((size_t)job.shifts * sizeof *part);
    if (!total || !part) {
        rc = pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "QMC sums");
        goto out;
    }
    for (int r = 0; r < job.shifts; r++) pagani_xsum_zero(&total[r]);
    if ((rc = ops->setup(ctx->backend_state, &job, &state)) != PAGANI_OK)
        goto out;

    for (it = 1; it <= max_it; it++) {
        int cut = 0;
        if (block > (1ULL << 62) - N) break;   /* indices stay below 2^62 */
        if (cap && N + block >= cap) {
            block = cap - N;
            cut = 1;
        }
        rc = ops->sums(state, 0, job.shifts, N + 1, block, 1, part, &fault);
        /* a finite f times the Jacobian beyond DBL_MAX: not f's fault */
        jacobian_overflow = rc == PAGANI_ERR_NONFINITE && isfinite(fault.value);
        if (jacobian_overflow) rc = PAGANI_OK;
        if (rc == PAGANI_ERR_NONFINITE) rc = pagani_qmc_fault(ctx, &job, &fault);
        if (rc != PAGANI_OK) goto out;
        for (int r = 0; r < job.shifts; r++) pagani_xsum_merge(&total[r], &part[r]);
        N += block;
        block = N;
        pagani_qmc_estimate_sums(&job, total, N, &est);
        if (jacobian_overflow) est.value = copysign(INFINITY, fault.value);
        overflow = !isfinite(est.value) || !isfinite(est.error);
        if (overflow) est.error = INFINITY;
        result->iterations = it;
        stop = opt->progress &&
               opt->progress(it, (long long)N, est.value, est.error, opt->progress_data);
        if (overflow) {
            status = PAGANI_NO_PROGRESS;
            pagani_fail(ctx, PAGANI_OK, "block %d: the estimate (%g) or its "
                        "error overflows a double although the integrand's "
                        "values were finite: scale the integrand down", it,
                        est.value);
            break;
        }
        if (met(&est, opt)) {
            status = PAGANI_CONVERGED;
            break;
        }
        if (stop) {
            status = PAGANI_STOPPED;
            break;
        }
        if (cut) {
            status = PAGANI_MAX_EVALUATIONS;
            break;
        }
    }
    if (status != PAGANI_NO_PROGRESS && all_zero(total, job.shifts))
        status = PAGANI_NO_SIGNAL;
    result->value = est.value;
    result->error = est.error;
    result->status = status;
    result->evaluations = (long long)(N * (unsigned long long)job.shifts);
    result->regions = 0;
    result->chi2_dof = 0.0;
    result->method = PAGANI_QMC;
out:
    if (state) ops->release(state);
    free(total);
    free(part);
    return rc;
}
