/*
 * qmc_run.h - the state of a PAGANI_QMC run over a batch between blocks
 * (qmc_driver.c), and its checkpoint (qmc_checkpoint.c).
 */
#ifndef PAGANI_QMC_RUN_H
#define PAGANI_QMC_RUN_H

#include "qmc/qmc.h"
#include "qmc/qmc_tail.h"
#include "state/checkpoint.h"

typedef struct qmc_run {
    const qmc_ops *ops;
    void *state;                 /* the backend's, for the job */
    qmc_job job;
    int ncomp;                   /* components of f: C */
    pagani_xsum *total;          /* total[(k * C + c) * R + r]: integral k,
                                    component c, shift r */
    pagani_xsum *part;           /* part[(m * C + c) * R + r]: one block,
                                    integral ids[m] */
    double *values, *errors;     /* the batch's components (C > 1), or NULL */
    qmc_fault *faults;           /* faults[m]: one block, ids[m] */
    double *peaks;               /* peaks[m * R + r]: one block's largest
                                    |f J|, ids[m] */
    qmc_tail tail;               /* the heavy-tail guard's state */
    int *ids;                    /* the integrals still running, ascending */
    int live;                    /* how many */
    qmc_fault nonfinite;         /* the first integral f failed in (k = 0:
                                    none) */
    int overflow_noted;          /* an overflow is in the context's message */
    int blocks;                  /* blocks summed */
    unsigned long long points;   /* points per shift summed: N */
} qmc_run;

/* Writes run's state, with results[0..K-1], to cp's file (PAGANI_OK
 * without one): the blocks summed, the exact sums in the layout of the
 * parts' records (pagani_xsum words), the integrals still running and
 * the results of those that ended. */
int qmc_checkpoint_write(pagani_context *ctx, pagani_checkpoint *cp,
                         const qmc_run *run, const pagani_result *results);

/* Resumes run (opened, no block summed) and results from cp's file when
 * there is one: PAGANI_OK, PAGANI_ERR_STATE when
 * the file is not a state of this run (a payload that does not fit the
 * job: the message says so), or the read's error. `first` is the points
 * per shift of the first block. */
int qmc_checkpoint_resume(pagani_context *ctx, const pagani_checkpoint *cp,
                          unsigned long long first, qmc_run *run,
                          pagani_result *results);

#endif /* PAGANI_QMC_RUN_H */
