/*
 * qmc_record.c - a QMC part's record (qmc_record.h): written, and checked
 * word by word when it comes back.
 */
#include <limits.h>
#include <string.h>
#include "qmc/qmc_record.h"
#include "state/identity.h"

typedef char header_is_pagani_h_s[QMC_REC_CHECKSUM + 1 ==
                                          PAGANI_QMC_PART_HEADER
                                      ? 1
                                      : -1];
typedef char record_sums_are_xsums[PAGANI_QMC_SUM_WORDS * sizeof(long long) ==
                                           sizeof(pagani_xsum)
                                       ? 1
                                       : -1];

#define TAG_NAME 0x50514d43LL /* "PQMC" */
#define RECORD_VERSION 2
#define PART_TAG (TAG_NAME << 32 | RECORD_VERSION)
#define POINTS_LIMIT (1ULL << 62)
/* A part's sum is below 2^1086 in magnitude (2^62 doubles below 2^1024):
 * its top bin, of weight 2^1070, below 2^16. A record's may reach 2^24,
 * so that 2^31 records still merge far inside the accumulator's range. */
#define TOP_BIN_LIMIT (1LL << 24)

/* The fingerprint of job's box. */
static long long box_identity(const qmc_job *job)
{
    pagani_hash h = pagani_hash_start();
    pagani_hash_box(&h, job->n, job->lower, job->upper);
    return (long long)h.state;
}

/* The checksum of a record with `shifts` sums: every word but its own. */
static long long checksum(const long long *rec, int shifts)
{
    pagani_hash h = pagani_hash_start();
    size_t words = PAGANI_QMC_PART_WORDS(shifts);

    for (size_t i = 0; i < words; i++)
        if (i != QMC_REC_CHECKSUM)
            pagani_hash_word(&h, (unsigned long long)rec[i]);
    return (long long)h.state;
}

/* The words that say which integral a record is of, as job's. */
static void identify(const qmc_job *job, long long *header)
{
    const pagani_integrand *f = job->integrand;

    header[QMC_REC_TAG] = PART_TAG;
    header[QMC_REC_SHIFTS] = job->shifts;
    header[QMC_REC_N] = job->n;
    header[QMC_REC_SEED] = (long long)job->seed;
    header[QMC_REC_TRANSFORM] = job->transform;
    header[QMC_REC_INTEGRAND] = (long long)pagani_identity_integrand(f);
    header[QMC_REC_PARAMS] =
        (long long)pagani_identity_block(f->params, f->params_size);
    header[QMC_REC_BOX] = box_identity(job);
}

void qmc_record_write(const qmc_job *job, int p, int P, unsigned long long N,
                      const pagani_xsum *sums, long long *record)
{
    identify(job, record);
    record[QMC_REC_PART] = p;
    record[QMC_REC_PARTS] = P;
    record[QMC_REC_POINTS] = (long long)N;
    memcpy(record + PAGANI_QMC_PART_HEADER, sums,
           (size_t)job->shifts * sizeof *sums);
    record[QMC_REC_CHECKSUM] = checksum(record, job->shifts);
}

/* Whether the record's tag is this version's; else the message. */
static int check_tag(pagani_context *ctx, const long long *rec, int r)
{
    if (rec[QMC_REC_TAG] == PART_TAG) return PAGANI_OK;
    if (rec[QMC_REC_TAG] >> 32 == TAG_NAME)
        return pagani_fail(ctx, PAGANI_ERR_OPTION, "QMC parts: record %d is "
                           "of version %lld; this libpagani reads version %d "
                           "(make the part again)", r,
                           rec[QMC_REC_TAG] & 0xffffffffLL, RECORD_VERSION);
    return pagani_fail(ctx, PAGANI_ERR_OPTION, "QMC parts: record %d is no "
                       "QMC part's record (its tag is %#llx)", r,
                       (unsigned long long)rec[QMC_REC_TAG]);
}

/* Whether part, parts and points are in range: 0 <= part < parts <=
 * points < 2^62, parts <= INT_MAX. */
static int check_cut(pagani_context *ctx, const long long *rec, int r)
{
    long long p = rec[QMC_REC_PART], P = rec[QMC_REC_PARTS];
    long long N = rec[QMC_REC_POINTS];

    if (P >= 1 && P <= INT_MAX && p >= 0 && p < P && N >= P &&
        (unsigned long long)N < POINTS_LIMIT)
        return PAGANI_OK;
    return pagani_fail(ctx, PAGANI_ERR_OPTION, "QMC parts: record %d is out "
                       "of range: part %lld of %lld parts of %lld points "
                       "(need 0 <= part < parts <= points < 2^62 and parts "
                       "<= %d)", r, p, P, N, INT_MAX);
}

/* The words of the header that identify the integral, and what a record
 * whose word differs was made with. */
static const struct {
    int word;
    const char *what;
} identity_words[] = {
    {QMC_REC_N, "in another dimension"},
    {QMC_REC_INTEGRAND, "from another integrand"},
    {QMC_REC_PARAMS, "with another parameter block"},
    {QMC_REC_BOX, "over another box"},
    {QMC_REC_SEED, "with another seed"},
    {QMC_REC_TRANSFORM, "with another transform"},
};

int qmc_record_check(pagani_context *ctx, const qmc_job *job,
                     const long long *first, const long long *rec, int r)
{
    long long want[PAGANI_QMC_PART_HEADER];
    int rc;

    if (!rec)
        return pagani_fail(ctx, PAGANI_ERR_NULL_POINTER, "QMC parts: record "
                           "%d is NULL", r);
    if ((rc = check_tag(ctx, rec, r)) != PAGANI_OK) return rc;
    if (rec[QMC_REC_SHIFTS] != job->shifts)
        return pagani_fail(ctx, PAGANI_ERR_OPTION, "QMC parts: record %d "
                           "holds %lld shifts, the options %d", r,
                           rec[QMC_REC_SHIFTS], job->shifts);
    if (rec[QMC_REC_CHECKSUM] != checksum(rec, job->shifts))
        return pagani_fail(ctx, PAGANI_ERR_OPTION, "QMC parts: record %d is "
                           "damaged: its checksum does not match its words",
                           r);
    if ((rc = check_cut(ctx, rec, r)) != PAGANI_OK) return rc;
    identify(job, want);
    for (size_t i = 0; i < sizeof identity_words / sizeof identity_words[0];
         i++)
        if (rec[identity_words[i].word] != want[identity_words[i].word])
            return pagani_fail(ctx, PAGANI_ERR_OPTION, "QMC parts: record %d "
                               "was made %s", r, identity_words[i].what);
    if (first && (rec[QMC_REC_POINTS] != first[QMC_REC_POINTS] ||
                  rec[QMC_REC_PARTS] != first[QMC_REC_PARTS]))
        return pagani_fail(ctx, PAGANI_ERR_OPTION, "QMC parts: record %d "
                           "cuts another run: %lld points in %lld parts, "
                           "record 0 %lld in %lld", r, rec[QMC_REC_POINTS],
                           rec[QMC_REC_PARTS], first[QMC_REC_POINTS],
                           first[QMC_REC_PARTS]);
    return PAGANI_OK;
}

/* |v| without overflow. */
static unsigned long long magnitude(long long v)
{
    return v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
}

int qmc_record_sum(pagani_context *ctx, const long long *rec, int r, int s,
                   pagani_xsum *sum)
{
    unsigned long long bound;
    int ok;

    memcpy(sum, rec + PAGANI_QMC_PART_HEADER +
                    (size_t)s * PAGANI_QMC_SUM_WORDS,
           sizeof *sum);
    /* an accumulator's bins stay within load * 2^32 (exact_sum.h) */
    ok = sum->load >= 0 && sum->load <= PAGANI_XSUM_MAX_LOAD;
    bound = ok ? (unsigned long long)sum->load << 32 : 0;
    for (int j = 0; ok && j < PAGANI_XSUM_BINS; j++)
        ok = magnitude(sum->bin[j]) <= bound;
    if (ok) {
        pagani_xsum_normalize(sum);
        ok = magnitude(sum->bin[PAGANI_XSUM_BINS - 1]) < TOP_BIN_LIMIT;
    }
    if (ok) return PAGANI_OK;
    return pagani_fail(ctx, PAGANI_ERR_OPTION, "QMC parts: record %d is "
                       "damaged: the sum of shift %d is none a part can hold",
                       r, s);
}
