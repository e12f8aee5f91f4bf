/*
 * qmc_parts.c - a PAGANI_QMC integral in parts (pagani.h, "QMC in parts"):
 * a part's exact sums as a record the caller stores, and the combination
 * of records into the one-process result.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "qmc/qmc.h"
#include "qmc/qmc_record.h"
#include "state/identity.h"
#include "domain/domain.h"

/* Part p of P of the indices 1..N: the first index and how many. */
static void part_block(unsigned long long N, int P, int p,
                       unsigned long long *first, unsigned long long *count)
{
    unsigned long long q = N / (unsigned long long)P, rest = N % (unsigned)P;
    unsigned long long up = (unsigned long long)p;

    *first = 1 + up * q + (up < rest ? up : rest);
    *count = q + (up < rest);
}

/* The options (NULL: the defaults) and the checks of pagani_qmc_part and
 * pagani_qmc_combine_parts; fills *job. */
static int start(pagani_context *ctx, pagani_integrand *f,
                 const double *lower, const double *upper,
                 const pagani_options *options, const void *out,
                 pagani_options *opt, qmc_job *job)
{
    int rc;

    *opt = options ? *options : pagani_options_default(PAGANI_QMC);
    if (!f || !lower || !upper || !out)
        return pagani_fail(ctx, PAGANI_ERR_NULL_POINTER, "QMC parts: %s is "
                           "NULL", !f ? "the integrand" : !lower ? "lower" :
                           !upper ? "upper" : "the output");
    if (f->ctx != ctx)
        return pagani_fail(ctx, PAGANI_ERR_CONTEXT_MISMATCH, "the integrand "
                           "was created by another context");
    if (f->ncomp > 1)
        return pagani_fail(ctx, PAGANI_ERR_COMPONENTS, "QMC parts: the "
                           "integrand has %d components; a part's record "
                           "holds one", f->ncomp);
    if ((rc = pagani_check_options(ctx, opt)) != PAGANI_OK ||
        (rc = pagani_check_bounds(ctx, f->n, lower, upper)) != PAGANI_OK ||
        (rc = pagani_params_check(ctx, f, f->params_size)) != PAGANI_OK)
        return rc;
    for (int i = 0; i < f->n; i++)
        if (pagani_domain_unbounded(lower[i], upper[i]))
            return pagani_fail(ctx, PAGANI_ERR_BOUNDS, "QMC parts: axis %d "
                               "is unbounded ([%g, %g]); parts take finite "
                               "boxes", i, lower[i], upper[i]);
    return pagani_qmc_job(ctx, f, lower, upper, opt, job);
}

/* The start of pagani_qmc_part's work (pagani_collective_start): on an
 * MPI context the ranks agree on the integral and the part. */
static int agree_on_part(pagani_context *ctx, pagani_integrand *f,
                         const double *lower, const double *upper,
                         const pagani_options *opt, unsigned long long N,
                         int p, int P)
{
    pagani_batch one = {1, f->params, 0, lower, upper, 0, NULL, NULL, NULL};
    pagani_options qmc = *opt;
    pagani_hash part = pagani_hash_start();

    qmc.method = PAGANI_QMC; /* pagani_qmc_part ignores the method */
    pagani_hash_word(&part, (unsigned long long)p);
    pagani_hash_word(&part, (unsigned long long)P);
    pagani_hash_word(&part, N);
    return pagani_collective_start(ctx, f, &one, &qmc, part.state);
}

/* pagani_qmc_part, up to the agreement of the ranks. */
static int part_sums(pagani_context *ctx, pagani_integrand *f,
                     const double *lower, const double *upper,
                     const pagani_options *options, unsigned long long N,
                     int p, int P, long long *record)
{
    pagani_options opt;
    qmc_job job;
    pagani_xsum *sums;
    unsigned long long first, count;
    int rc = start(ctx, f, lower, upper, options, record, &opt, &job);

    if (rc != PAGANI_OK) return rc;
    if (P < 1 || p < 0 || p >= P || N < (unsigned long long)P ||
        N >= 1ULL << 62)
        return pagani_fail(ctx, PAGANI_ERR_OPTION, "QMC parts: need 0 <= "
                           "part < parts <= points < 2^62 (part %d, parts "
                           "%d, points %llu)", p, P, N);
    if ((rc = agree_on_part(ctx, f, lower, upper, &opt, N, p, P)) !=
        PAGANI_OK)
        return rc;
    if (!(sums = malloc((size_t)job.shifts * sizeof *sums)))
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "QMC parts: %d sums",
                           job.shifts);
    part_block(N, P, p, &first, &count);
    for (int r = 0; r < job.shifts; r++) pagani_xsum_zero(&sums[r]);
    if (count > 0)
        rc = pagani_qmc_sum_piece(ctx, f, lower, upper, &opt, first, count, 1,
                                  sums);
    if (rc == PAGANI_STOP_REQUESTED) /* no status to carry it */
        rc = pagani_fail(ctx, PAGANI_ERR_STOPPED, "QMC part %d of %d: stopped "
                         "on request; the record is incomplete", p, P);
    qmc_record_write(&job, p, P, N, sums, record);
    free(sums);
    return rc;
}

int pagani_qmc_part(pagani_context *ctx, pagani_integrand *f,
                    const double *lower, const double *upper,
                    const pagani_options *options, unsigned long long points,
                    int part, int parts, long long *record)
{
    int rc;

    if (!ctx) return PAGANI_ERR_NULL_POINTER;
    pagani_clear_message(ctx);
    rc = part_sums(ctx, f, lower, upper, options, points, part, parts, record);
    ctx->stop_requested = 0;
    return pagani_collective_end(ctx, rc);
}

static int compare_parts(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* Whether the checked records' parts are distinct (a part may come
 * once): sorted, no two alike. */
static int distinct_parts(pagani_context *ctx, int count,
                          const long long *const *records)
{
    long long *part = malloc((size_t)count * sizeof *part);
    int rc = PAGANI_OK;

    if (!part)
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "QMC parts: %d part "
                           "numbers", count);
    for (int i = 0; i < count; i++) part[i] = records[i][QMC_REC_PART];
    qsort(part, (size_t)count, sizeof *part, compare_parts);
    for (int i = 1; i < count && rc == PAGANI_OK; i++)
        if (part[i] == part[i - 1])
            rc = pagani_fail(ctx, PAGANI_ERR_OPTION, "QMC parts: part %lld "
                             "comes twice", part[i]);
    free(part);
    return rc;
}

/* Checks the records (each a part of job's integral, cut as record 0,
 * each part once), then merges their sums into acc (job->shifts of them)
 * and counts the points present. */
static int merge_records(pagani_context *ctx, const qmc_job *job, int count,
                         const long long *const *records, pagani_xsum *acc,
                         unsigned long long *points)
{
    int rc = PAGANI_OK;

    *points = 0;
    for (int i = 0; i < count && rc == PAGANI_OK; i++)
        rc = qmc_record_check(ctx, job, i ? records[0] : NULL, records[i], i);
    if (rc != PAGANI_OK) return rc;
    if (count > records[0][QMC_REC_PARTS])
        return pagani_fail(ctx, PAGANI_ERR_OPTION, "QMC parts: %d records of "
                           "%lld parts", count, records[0][QMC_REC_PARTS]);
    if ((rc = distinct_parts(ctx, count, records)) != PAGANI_OK) return rc;
    for (int i = 0; i < count && rc == PAGANI_OK; i++) {
        const long long *rec = records[i];
        unsigned long long first, n;
        for (int r = 0; r < job->shifts && rc == PAGANI_OK; r++) {
            pagani_xsum s;
            if ((rc = qmc_record_sum(ctx, rec, i, r, &s)) == PAGANI_OK)
                pagani_xsum_merge(&acc[r], &s);
        }
        part_block((unsigned long long)rec[QMC_REC_POINTS],
                   (int)rec[QMC_REC_PARTS], (int)rec[QMC_REC_PART], &first,
                   &n);
        *points += n;
    }
    return rc;
}

int pagani_qmc_combine_parts(pagani_context *ctx, pagani_integrand *f,
                             const double *lower, const double *upper,
                             const pagani_options *options, int count,
                             const long long *const *records,
                             pagani_result *result)
{
    pagani_options opt;
    qmc_job job;
    pagani_xsum *acc;
    pagani_qmc_estimate est;
    unsigned long long points;
    int rc;

    if (!ctx) return PAGANI_ERR_NULL_POINTER;
    pagani_clear_message(ctx);
    if ((rc = start(ctx, f, lower, upper, options, result, &opt, &job)) !=
        PAGANI_OK)
        return rc;
    if (count < 1 || !records)
        return pagani_fail(ctx, count < 1 ? PAGANI_ERR_OPTION
                                          : PAGANI_ERR_NULL_POINTER,
                           "QMC parts: need count >= 1 records");
    if (!(acc = malloc((size_t)job.shifts * sizeof *acc)))
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "QMC parts: %d sums",
                           job.shifts);
    for (int r = 0; r < job.shifts; r++) pagani_xsum_zero(&acc[r]);
    rc = merge_records(ctx, &job, count, records, acc, &points);
    if (rc == PAGANI_OK) {
        double epsrel, epsabs;
        pagani_mc_tolerances(&opt, &epsrel, &epsabs);
        pagani_qmc_estimate_sums(&job, 0, acc, points, &est);
        memset(result, 0, sizeof *result);
        result->value = est.value;
        result->error = isfinite(est.value) && isfinite(est.error)
                            ? est.error : INFINITY;
        result->iterations = 1;
        result->evaluations = points > (unsigned long long)LLONG_MAX /
                                           (unsigned)job.shifts
                                  ? LLONG_MAX
                                  : (long long)(points * (unsigned)job.shifts);
        result->method = PAGANI_QMC;
        result->backend = ctx->kind;
        if (pagani_qmc_all_zero(acc, job.shifts))
            result->status = PAGANI_NO_SIGNAL;
        else if (isfinite(result->error) &&
                 result->error <= fmax(epsabs, epsrel * fabs(result->value)))
            result->status = PAGANI_CONVERGED;
        else
            result->status =
                points < (unsigned long long)records[0][QMC_REC_POINTS]
                    ? PAGANI_MAX_EVALUATIONS
                    : PAGANI_MAX_ITERATIONS;
    }
    free(acc);
    return rc;
}
