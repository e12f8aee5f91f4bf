/*
 * mpi_layer.h - private to the MPI layer (libpagani_mpi): what it keeps on
 * a context made on a communicator, the agreement of the ranks on a code,
 * the QMC operations it puts in front of the backend's, and its way of
 * running a batch.
 *
 * The layer is a decorator of the backend interface (backend.h): its table
 * is a copy of the backend's with the operations it distributes replaced
 * (cubature's, QMC's and Vegas's) and its own state in the backend's
 * place; the drivers in src/cubature, src/vegas and src/qmc call it as any
 * backend and know nothing of MPI.
 */
#ifndef PAGANI_MPI_LAYER_H
#define PAGANI_MPI_LAYER_H

#include <mpi.h>
#include "internal.h"
#include "qmc_backend.h"
#include "vegas_backend.h"

/* The collective steps of the layer, named so that ranks that reach
 * different steps (a bug, or arguments that differ between ranks) are seen
 * and fail instead of waiting. */
enum mpi_step {
    MPI_STEP_CALL_END = 1,   /* the end of a collective public call */
    MPI_STEP_CALL_START,     /* the start of its work (mpi_call_start) */
    MPI_STEP_QMC_SETUP,
    MPI_STEP_QMC_SUMS,
    MPI_STEP_BATCH,          /* a batch spread over the ranks */
    MPI_STEP_VEGAS_SETUP,
    MPI_STEP_VEGAS_SAMPLE,
    MPI_STEP_CUB_EVALUATE,
    MPI_STEP_CUB_CLASSIFY,
    MPI_STEP_CUB_THRESHOLD,
    MPI_STEP_CUB_SPLIT,
    MPI_STEP_CUB_POINT,
    MPI_STEP_CHECKPOINT      /* a checkpoint's read or write */
};

typedef struct mpi_layer {
    MPI_Comm comm;       /* a duplicate of the user's, returning errors */
    int rank, size;
    int agreed;          /* a code agreed on in a step inside the current
                            call, not yet agreed at its end (0: none) */
    double mpi_seconds;  /* wall time spent in the layer's collectives */
    int local;           /* 1 while each rank runs its own share of a
                            batch: the operations do not communicate */
    backend_ops ops;     /* the context's table, called with the layer as
                            its state: the backend's, with ... */
    cubature_ops cubature; /* ... the methods' operations replaced by */
    qmc_ops qmc;           /* these, */
    vegas_ops vegas;
    const backend_ops *inner;     /* which call the backend's, with its */
    void *inner_state;            /* state */
    const cubature_ops *inner_cubature;
    const qmc_ops *inner_qmc;
    const vegas_ops *inner_vegas;
    struct mpi_cubature *cubature_run; /* the cubature run (mpi_cubature.c) */
    double imbalance;    /* cubature: the largest ratio, in the last
                            integration, of a rank's active regions to
                            the mean over the ranks */
} mpi_layer;

/* The layer of the context an operation runs for. */
static inline mpi_layer *mpi_layer_of(const pagani_context *ctx)
{
    return (mpi_layer *)ctx->layer.state;
}

/* The first of the shares of `total` items that rank r of `size` takes:
 * contiguous, in rank order, the first total % size one longer. Rank r
 * takes [mpi_share_start(total, size, r), mpi_share_start(total, size,
 * r + 1)). */
static inline unsigned long long mpi_share_start(unsigned long long total,
                                                 int size, int r)
{
    unsigned long long ur = (unsigned long long)r;
    unsigned long long extra = total % (unsigned long long)size;
    return ur * (total / (unsigned long long)size) + (ur < extra ? ur : extra);
}

/* One collective step: every rank of the layer brings its code rc and
 * gets back the code of the lowest rank whose rc was not PAGANI_OK, with
 * that rank's message in ctx ("rank R: ..."; the message unchanged when
 * every rank failed, except in MPI_STEP_CHECKPOINT), or PAGANI_OK when
 * none failed. Ranks at different
 * steps all get PAGANI_ERR_SYSTEM. A code other than PAGANI_OK is also
 * kept in layer->agreed for the end of the call. */
int mpi_agree(pagani_context *ctx, mpi_layer *layer, int rc,
              enum mpi_step step);

/* An MPI call's code as a libpagani code: PAGANI_OK, or PAGANI_ERR_SYSTEM
 * with `what` and MPI's message in ctx. */
int mpi_check(pagani_context *ctx, int mpi_rc, const char *what);

/* The layer's run_batch (pagani_layer, mpi_batch.c): a batch of at least
 * as many integrals as ranks is spread over them by integrals. */
int mpi_run_batch(pagani_context *ctx, pagani_integrand *f,
                  const struct pagani_batch *batch, const pagani_options *opt,
                  pagani_result *results);

/* Makes the layer's table over ctx's backend and installs it
 * (mpi_backend.c). */
void mpi_install(pagani_context *ctx, mpi_layer *layer);

/* Frees the layer (after the backend is closed; mpi_context.c). */
void mpi_layer_close(void *layer);

/* The end of a collective public call (pagani_collective_end;
 * mpi_context.c). */
int mpi_call_end(pagani_context *ctx, int rc);

/* The start of a collective call's work (pagani_collective_start;
 * mpi_agree.c): an agreement on the code, then one MPI_Allreduce of the
 * call's identity; PAGANI_ERR_OPTION on every rank, naming the fields
 * that differ, when the ranks' calls differ. */
int mpi_call_start(pagani_context *ctx, const pagani_call_identity *call);

/* The layer's checkpoint hooks (pagani_layer; mpi_checkpoint.c): among
 * the ranks that run one driver (not in a rank's share of a batch, where
 * they return rc, flag and 1), the agreed code of a checkpoint step,
 * whether any rank's flag is set, and whether every rank has the same
 * value. */
int mpi_checkpoint_agree(pagani_context *ctx, int rc);
int mpi_checkpoint_any(pagani_context *ctx, int flag);
int mpi_checkpoint_same(pagani_context *ctx, long long value);

/* The cubature operations that spread the region list over the ranks
 * (mpi_cubature.c); they call layer->inner_cubature. */
extern const cubature_ops pagani_mpi_cubature_ops;

/* The layer's cubature_counts (pagani_layer; mpi_cubature.c): the
 * regions of each integral in this rank's part of the list. */
void mpi_cubature_counts(pagani_context *ctx, long long *counts);

/* Frees the cubature run's buffers (mpi_cubature.c). */
void mpi_cubature_free(mpi_layer *layer);

/* The QMC operations that distribute a block of indices over the ranks
 * (mpi_qmc.c); they call layer->inner_qmc. */
extern const qmc_ops pagani_mpi_qmc_ops;

/* The Vegas operations that split a pass over the ranks (mpi_vegas.c);
 * they call layer->inner_vegas. */
extern const vegas_ops pagani_mpi_vegas_ops;

#endif /* PAGANI_MPI_LAYER_H */
