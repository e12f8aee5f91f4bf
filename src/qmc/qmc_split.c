/*
 * qmc_split.c - PAGANI_QMC's shared pieces (qmc.h): the job, the estimate
 * over shifts, the fault report, and the pieces of a split run.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "qmc/qmc.h"
#include "sampling/qmc_point.h"
#include "sampling/zinterhof_table.h"

int pagani_qmc_batch_job(pagani_context *ctx, pagani_integrand *f,
                         const pagani_batch *batch, const pagani_options *opt,
                         qmc_job *job)
{
    int shifts = opt->qmc_shifts ? opt->qmc_shifts : PAGANI_QMC_DEFAULT_SHIFTS;

    if (shifts < 2 || shifts > PAGANI_QMC_MAX_SHIFTS)
        return pagani_fail(ctx, PAGANI_ERR_OPTION, "qmc_shifts must be 2..%d "
                           "(0: %d), got %d", PAGANI_QMC_MAX_SHIFTS,
                           PAGANI_QMC_DEFAULT_SHIFTS, opt->qmc_shifts);
    if (opt->qmc_initial_points < 0)
        return pagani_fail(ctx, PAGANI_ERR_OPTION, "qmc_initial_points must "
                           "be >= 0 (0: 2^14), got %lld", opt->qmc_initial_points);
    if (opt->qmc_transform < PAGANI_QMC_TRANSFORM_NONE ||
        opt->qmc_transform > PAGANI_QMC_TRANSFORM_KOROBOV3)
        return pagani_fail(ctx, PAGANI_ERR_OPTION, "qmc_transform must be 0 "
                           "(none), 1 (tent), 2 (Korobov) or 3 (Korobov "
                           "degree 3), got %d",
                           opt->qmc_transform);
    if (f->n > PAGANI_ZINTERHOF_MAX_DIM)
        return pagani_fail(ctx, PAGANI_ERR_DIMENSION, "QMC supports n <= %d, "
                           "got %d", PAGANI_ZINTERHOF_MAX_DIM, f->n);
    memset(job, 0, sizeof *job);
    job->integrand = f;
    job->n = f->n;
    job->shifts = shifts;
    job->transform = opt->qmc_transform;
    job->seed = opt->seed;
    job->integrals = batch->count;
    job->lower = batch->lower;
    job->upper = batch->upper;
    job->box_stride = batch->box_stride;
    job->params = batch->params;
    job->params_stride = batch->params_stride;
    job->ncomp = f->ncomp;
    return PAGANI_OK;
}

int pagani_qmc_job(pagani_context *ctx, pagani_integrand *f,
                   const double *lower, const double *upper,
                   const pagani_options *opt, qmc_job *job)
{
    pagani_batch one = {1, f->params, 0, lower, upper, 0, NULL, NULL, NULL};
    return pagani_qmc_batch_job(ctx, f, &one, opt, job);
}

/* Sums beyond the range of a double are read in units of 2^(32 * this). */
#define SCALED_BINS 4

/* Shift r's estimate volume * sum / points, the sum read in units of
 * 2^(32 bins). */
static double shift_estimate(const pagani_xsum *sum, int bins, double volume,
                             unsigned long long points)
{
    return volume * (pagani_xsum_value_scaled(sum, bins) / (double)points);
}

/* The mean of integral k's shift estimates and its standard error, both in
 * units of 2^*unit. The deviations from the mean are squared over a power of 2
 * near the largest, so that the squares neither overflow nor underflow.
 * Unscaled, *unit = 0; scaled, the sums are read in units of 2^(32
 * SCALED_BINS) and the volume as its mantissa, so that nothing overflows.
 * Scalings by powers of 2 are exact: where the plain formula stays in the
 * normal range they give its bits. */
static void spread_over_shifts(const qmc_job *job, int k,
                               const pagani_xsum *sums, unsigned long long N,
                               int scaled, double *mean, double *error,
                               int *unit)
{
    const int R = job->shifts, bins = scaled ? SCALED_BINS : 0;
    const double *lower = qmc_job_lower(job, k), *upper = qmc_job_upper(job, k);
    double volume = 1.0, sum = 0.0, largest = 0.0, ss = 0.0;
    int volume_exp = 0, spread_exp = 0;

    for (int i = 0; i < job->n; i++) volume *= upper[i] - lower[i];
    if (scaled) volume = frexp(volume, &volume_exp);
    for (int r = 0; r < R; r++)
        sum += shift_estimate(&sums[r], bins, volume, N);
    *mean = sum / R;
    for (int r = 0; r < R; r++) {
        double d = shift_estimate(&sums[r], bins, volume, N) - *mean;
        largest = fmax(largest, fabs(d));
    }
    frexp(largest, &spread_exp);
    for (int r = 0; r < R; r++) {
        double d = shift_estimate(&sums[r], bins, volume, N) - *mean;
        d = ldexp(d, -spread_exp);
        ss += d * d;
    }
    *error = ldexp(sqrt(ss / ((double)R * (R - 1))), spread_exp);
    *unit = scaled ? 32 * bins + volume_exp : 0;
}

void pagani_qmc_estimate_sums(const qmc_job *job, int k,
                              const pagani_xsum *sums,
                              unsigned long long points,
                              pagani_qmc_estimate *est)
{
    double mean, error;
    int unit;

    est->points = points;
    est->partial = 0;
    if (points == 0) {
        est->value = est->error = 0.0;
        return;
    }
    spread_over_shifts(job, k, sums, points, 0, &mean, &error, &unit);
    if (!isfinite(mean) || !isfinite(error)) /* sums beyond a double's range */
        spread_over_shifts(job, k, sums, points, 1, &mean, &error, &unit);
    est->value = ldexp(mean, unit);
    est->error = ldexp(error, unit);
}

int pagani_qmc_fault(pagani_context *ctx, const qmc_job *job,
                     const qmc_fault *fault)
{
    const double *lower = qmc_job_lower(job, fault->integral);
    const double *upper = qmc_job_upper(job, fault->integral);
    char coords[512], integral[32] = "", component[32] = "";
    size_t used = 0;
    double w = 1.0;

    coords[0] = '\0';
    for (int i = 0; i < job->n && used < sizeof coords - 32; i++) {
        pagani_u128 s = pagani_qmc_state(job->seed, (unsigned)fault->shift,
                                         (unsigned)i, fault->k,
                                         pagani_zinterhof_theta[i]);
        double x = pagani_qmc_coord(s, job->transform, lower[i],
                                    upper[i] - lower[i], &w);
        used += (size_t)snprintf(coords + used, sizeof coords - used, "%s%.17g",
                                 i ? ", " : "", x);
    }
    if (used >= sizeof coords - 32)
        snprintf(coords + used, sizeof coords - used, ", ...");
    if (job->integrals > 1)
        snprintf(integral, sizeof integral, "integral %d: ", fault->integral);
    if (job->ncomp > 1)
        snprintf(component, sizeof component, " in component %d",
                 fault->component);
    return pagani_fail(ctx, PAGANI_ERR_NONFINITE, "%sthe integrand returned "
                       "%g%s at x = (%s) (QMC point %llu of shift %d; Jacobian "
                       "%g)", integral, fault->value, component, coords,
                       fault->k, fault->shift, w);
}

int pagani_qmc_sum_piece(pagani_context *ctx, pagani_integrand *f,
                         const double *lower, const double *upper,
                         const pagani_options *opt, unsigned long long first,
                         unsigned long long count, unsigned long long leap,
                         pagani_xsum *sums)
{
    const qmc_ops *ops;
    const int first_integral = 0;
    qmc_job job;
    qmc_fault fault;
    void *state = NULL;
    int rc;

    if (!ctx) return PAGANI_ERR_NULL_POINTER;
    if (!f || !lower || !upper || !opt || !sums)
        return pagani_fail(ctx, PAGANI_ERR_NULL_POINTER, "QMC piece: an "
                           "argument is NULL");
    if (f->ctx != ctx)
        return pagani_fail(ctx, PAGANI_ERR_CONTEXT_MISMATCH, "the integrand "
                           "was created by another context");
    if (!ctx->backend || !(ops = ctx->backend->qmc))
        return pagani_fail(ctx, PAGANI_ERR_BACKEND_UNAVAILABLE, "QMC is not "
                           "available on this context's backend");
    if (first < 1 || leap < 1 ||
        (count > 0 && (count - 1) > ((1ULL << 63) - first) / leap))
        return pagani_fail(ctx, PAGANI_ERR_OPTION, "QMC piece: indices must "
                           "be 1 <= first + j*leap < 2^63 (first %llu, count "
                           "%llu, leap %llu)", first, count, leap);
    if ((rc = pagani_qmc_job(ctx, f, lower, upper, opt, &job)) != PAGANI_OK)
        return rc;
    rc = ops->setup(ctx->backend_state, &job, &state);
    if (rc == PAGANI_OK)
        rc = ops->sums(state, &first_integral, 1, 0, job.shifts, first, count,
                       leap, sums, &fault, NULL);
    if (state) ops->release(state);
    if (rc == PAGANI_ERR_NONFINITE) return pagani_qmc_fault(ctx, &job, &fault);
    return rc;
}

int pagani_qmc_combine(const qmc_job *job, int pieces, const pagani_xsum *sums,
                       const unsigned long long *points,
                       unsigned long long planned, pagani_qmc_estimate *est)
{
    int R = job->shifts;
    unsigned long long total = 0;
    pagani_xsum *acc = malloc((size_t)R * sizeof *acc);

    if (!acc) return PAGANI_ERR_NO_MEMORY;
    for (int r = 0; r < R; r++) pagani_xsum_zero(&acc[r]);
    for (int p = 0; p < pieces; p++) {
        for (int r = 0; r < R; r++)
            pagani_xsum_merge(&acc[r], &sums[(size_t)p * R + r]);
        total += points[p];
    }
    pagani_qmc_estimate_sums(job, 0, acc, total, est);
    est->partial = total < planned;
    free(acc);
    return PAGANI_OK;
}

int pagani_qmc_all_zero(const pagani_xsum *sums, int shifts)
{
    for (int r = 0; r < shifts; r++)
        if (pagani_xsum_value(&sums[r]) != 0.0) return 0;
    return 1;
}
