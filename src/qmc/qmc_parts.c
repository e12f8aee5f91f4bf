/*
 * qmc_parts.c - a PAGANI_QMC integral in parts (pagani.h, "QMC in parts"):
 * a part's exact sums as a record the caller stores, and the combination
 * of records into the one-process result.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "qmc/qmc.h"

/* The record's words: a pagani_xsum is its bins and its load. */
typedef char record_sums_are_xsums[PAGANI_QMC_SUM_WORDS * sizeof(long long) ==
                                           sizeof(pagani_xsum)
                                       ? 1
                                       : -1];

#define PART_TAG 0x50514d4300000001LL /* "PQMC", version 1 */

/* The header's words. */
enum { H_TAG, H_PART, H_PARTS, H_SHIFTS, H_POINTS, H_N, H_SEED, H_TRANSFORM };

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
    return pagani_qmc_job(ctx, f, lower, upper, opt, job);
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
    if (P < 1 || p < 0 || p >= P || N < 1 || N >= 1ULL << 62)
        return pagani_fail(ctx, PAGANI_ERR_OPTION, "QMC parts: need 0 <= "
                           "part < parts and 1 <= points < 2^62 (part %d, "
                           "parts %d, points %llu)", p, P, N);
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
    record[H_TAG] = PART_TAG;
    record[H_PART] = p;
    record[H_PARTS] = P;
    record[H_SHIFTS] = job.shifts;
    record[H_POINTS] = (long long)N;
    record[H_N] = job.n;
    record[H_SEED] = (long long)job.seed;
    record[H_TRANSFORM] = job.transform;
    memcpy(record + PAGANI_QMC_PART_HEADER, sums,
           (size_t)job.shifts * sizeof *sums);
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

/* Whether record r is a part of the integral of job (the first record
 * fixes the points and the parts). */
static int check_record(pagani_context *ctx, const qmc_job *job,
                        const long long *first, const long long *rec, int r)
{
    if (!rec)
        return pagani_fail(ctx, PAGANI_ERR_NULL_POINTER, "QMC parts: record "
                           "%d is NULL", r);
    if (rec[H_TAG] != PART_TAG || rec[H_SHIFTS] != job->shifts ||
        rec[H_N] != job->n || rec[H_SEED] != (long long)job->seed ||
        rec[H_TRANSFORM] != job->transform ||
        rec[H_POINTS] != first[H_POINTS] || rec[H_PARTS] != first[H_PARTS] ||
        rec[H_PARTS] < 1 || rec[H_PART] < 0 || rec[H_PART] >= rec[H_PARTS] ||
        rec[H_POINTS] < 1)
        return pagani_fail(ctx, PAGANI_ERR_OPTION, "QMC parts: record %d is "
                           "not a part of this integral (its tag, shifts, "
                           "points, parts, dimension, seed or transform "
                           "differ from the options' or the first record's)",
                           r);
    return PAGANI_OK;
}

/* Merges the records' sums into acc (job->shifts of them) and counts the
 * points present; a part may come once. */
static int merge_records(pagani_context *ctx, const qmc_job *job, int count,
                         const long long *const *records, pagani_xsum *acc,
                         unsigned long long *points)
{
    const int P = (int)records[0][H_PARTS];
    char *seen = calloc((size_t)P, 1);
    int rc = seen ? PAGANI_OK
                  : pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "QMC parts: %d", P);

    *points = 0;
    for (int i = 0; i < count && rc == PAGANI_OK; i++) {
        const long long *rec = records[i];
        unsigned long long first, n;
        if ((rc = check_record(ctx, job, records[0], rec, i)) != PAGANI_OK)
            break;
        if (seen[rec[H_PART]]++) {
            rc = pagani_fail(ctx, PAGANI_ERR_OPTION, "QMC parts: part %lld "
                             "comes twice (record %d)", rec[H_PART], i);
            break;
        }
        for (int r = 0; r < job->shifts && rc == PAGANI_OK; r++) {
            pagani_xsum s;
            memcpy(&s, rec + PAGANI_QMC_PART_HEADER +
                           (size_t)r * PAGANI_QMC_SUM_WORDS, sizeof s);
            if (s.load < 0 || s.load > PAGANI_XSUM_MAX_LOAD)
                rc = pagani_fail(ctx, PAGANI_ERR_OPTION, "QMC parts: record "
                                 "%d is damaged (shift %d)", i, r);
            else
                pagani_xsum_merge(&acc[r], &s);
        }
        if (rc != PAGANI_OK) break;
        part_block((unsigned long long)rec[H_POINTS], P, (int)rec[H_PART],
                   &first, &n);
        *points += n;
    }
    free(seen);
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
    if (!records[0]) return check_record(ctx, &job, NULL, NULL, 0);
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
        result->evaluations = (long long)(points * (unsigned)job.shifts);
        result->method = PAGANI_QMC;
        result->backend = ctx->kind;
        if (pagani_qmc_all_zero(acc, job.shifts))
            result->status = PAGANI_NO_SIGNAL;
        else if (isfinite(result->error) &&
                 result->error <= fmax(epsabs, epsrel * fabs(result->value)))
            result->status = PAGANI_CONVERGED;
        else
            result->status = points < (unsigned long long)records[0][H_POINTS]
                                 ? PAGANI_MAX_EVALUATIONS
                                 : PAGANI_MAX_ITERATIONS;
    }
    free(acc);
    return rc;
}
