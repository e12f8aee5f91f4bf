/*
 * qmc_record.h - the record of a QMC part (pagani.h, "QMC in parts"): its
 * header, written and read back, and its sums checked before they are
 * merged. A record is untrusted input (a file, a database): every word is
 * checked against the integral it must be a part of, and no word read
 * from it sizes an allocation or an index before it is.
 */
#ifndef PAGANI_QMC_RECORD_H
#define PAGANI_QMC_RECORD_H

#include "qmc_backend.h"

/* The header's words, in pagani.h's order. */
enum {
    QMC_REC_TAG,       /* "PQMC" and the version */
    QMC_REC_PART,
    QMC_REC_PARTS,
    QMC_REC_SHIFTS,
    QMC_REC_POINTS,
    QMC_REC_N,
    QMC_REC_SEED,
    QMC_REC_TRANSFORM,
    QMC_REC_INTEGRAND, /* pagani_identity_integrand */
    QMC_REC_PARAMS,    /* pagani_identity_block of f's parameter block */
    QMC_REC_BOX,       /* the box's fingerprint */
    QMC_REC_CHECKSUM   /* FNV-1a of every other word of the record */
};

/* Writes into record the header of part p of P of the indices 1..N of
 * one-integral job, and the job's sums (job->shifts of them). */
void qmc_record_write(const qmc_job *job, int p, int P, unsigned long long N,
                      const pagani_xsum *sums, long long *record);

/* Whether record r (rec; its index, for the message) is a part of job's
 * integral cut as record 0 (first; NULL when rec is record 0): PAGANI_OK,
 * PAGANI_ERR_NULL_POINTER, or PAGANI_ERR_OPTION naming what is wrong
 * (another version, a damaged record, a field out of range, another
 * integrand, parameter block, box, dimension, seed, transform or cut).
 * Reads the header, and the sums only once the shifts are job's. */
int qmc_record_check(pagani_context *ctx, const qmc_job *job,
                     const long long *first, const long long *rec, int r);

/* Shift s's sum of checked record r, normalised, into *sum: PAGANI_OK, or
 * PAGANI_ERR_OPTION when it is no sum a part can hold (its words would
 * overflow the accumulator that merges it). */
int qmc_record_sum(pagani_context *ctx, const long long *rec, int r, int s,
                   pagani_xsum *sum);

#endif /* PAGANI_QMC_RECORD_H */
