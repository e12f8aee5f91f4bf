/*
 * mpi_context.c - pagani_mpi_context_create (pagani_mpi.h): a context on a
 * communicator, its layer over the backend (mpi_layer.h), and the end of
 * every collective call.
 */
#include <stdlib.h>
#include "pagani_mpi.h"
#include "mpi/mpi_layer.h"

/* Declared in mpi_layer.h: the code already agreed in a step of the
 * call, else an agreement now. */
int mpi_call_end(pagani_context *ctx, int rc)
{
    mpi_layer *L = mpi_layer_of(ctx);

    if (L->agreed) {
        rc = L->agreed;
        L->agreed = 0;
        return rc;
    }
    return mpi_agree(ctx, L, rc, MPI_STEP_CALL_END);
}

void mpi_layer_close(void *state)
{
    mpi_layer *L = state;
    int finalized = 0;

    if (!L) return;
    mpi_cubature_free(L);
    MPI_Finalized(&finalized);
    if (!finalized && L->comm != MPI_COMM_NULL) MPI_Comm_free(&L->comm);
    free(L);
}

/* The layer's communicator (a duplicate of comm that returns errors), its
 * rank and size, and the calling process's rank on its node and the
 * ranks there. */
static int open_comm(mpi_layer *L, MPI_Comm comm, int *node_rank,
                     int *node_size)
{
    MPI_Comm node = MPI_COMM_NULL;
    int rc = MPI_Comm_dup(comm, &L->comm);

    if (rc != MPI_SUCCESS) {
        L->comm = MPI_COMM_NULL;
        return rc;
    }
    if ((rc = MPI_Comm_set_errhandler(L->comm, MPI_ERRORS_RETURN)) ==
            MPI_SUCCESS &&
        (rc = MPI_Comm_rank(L->comm, &L->rank)) == MPI_SUCCESS &&
        (rc = MPI_Comm_size(L->comm, &L->size)) == MPI_SUCCESS &&
        (rc = MPI_Comm_split_type(L->comm, MPI_COMM_TYPE_SHARED, L->rank,
                                  MPI_INFO_NULL, &node)) == MPI_SUCCESS &&
        (rc = MPI_Comm_rank(node, node_rank)) == MPI_SUCCESS)
        rc = MPI_Comm_size(node, node_size);
    if (node != MPI_COMM_NULL) MPI_Comm_free(&node);
    return rc;
}

/* Whether every rank opened the same backend (AUTO may differ). */
static int same_backend(pagani_context *ctx, mpi_layer *L)
{
    int kind = (int)ctx->kind, range[2] = {kind, -kind}, all[2];
    int rc = MPI_Allreduce(range, all, 2, MPI_INT, MPI_MIN, L->comm);

    if (rc != MPI_SUCCESS) return mpi_check(ctx, rc, "MPI_Allreduce");
    if (all[0] != -all[1])
        return pagani_fail(ctx, PAGANI_ERR_BACKEND_UNAVAILABLE, "the ranks "
                           "opened different backends (some have no usable "
                           "GPU): ask for one backend explicitly");
    return PAGANI_OK;
}

int pagani_mpi_context_create(pagani_context **out, pagani_backend backend,
                              MPI_Comm comm)
{
    mpi_layer *L;
    int initialized = 0, node_rank = 0, node_size = 1, rc, mpi_rc;

    if (!out) return PAGANI_ERR_NULL_POINTER;
    *out = NULL;
    if (MPI_Initialized(&initialized) != MPI_SUCCESS || !initialized)
        return PAGANI_ERR_OPTION;
    if (!(L = calloc(1, sizeof *L))) return PAGANI_ERR_NO_MEMORY;
    L->imbalance = 1.0;
    if ((mpi_rc = open_comm(L, comm, &node_rank, &node_size)) != MPI_SUCCESS) {
        mpi_layer_close(L);
        return mpi_check(NULL, mpi_rc, "MPI_Comm_dup");
    }
    rc = pagani_context_create_ranked(out, backend, node_rank, node_size);
    if (*out && rc == PAGANI_OK) {
        mpi_install(*out, L);
    } else if (*out) { /* the layer only, to agree and to be freed */
        pagani_layer layer = {L, mpi_call_start, mpi_call_end,
                              mpi_run_batch, mpi_layer_close, L->rank,
                              L->size, NULL, NULL, NULL, NULL};
        pagani_context_add_layer(*out, (*out)->backend, &layer);
    }
    rc = mpi_agree(*out, L, rc, MPI_STEP_CALL_END);
    if (!*out) { /* no context to hold the layer */
        mpi_layer_close(L);
        return rc;
    }
    return rc == PAGANI_OK ? same_backend(*out, L) : rc;
}

double pagani_mpi_seconds(const pagani_context *ctx)
{
    if (!ctx || ctx->layer.collective_end != mpi_call_end) return 0.0;
    return mpi_layer_of(ctx)->mpi_seconds;
}

double pagani_mpi_imbalance(const pagani_context *ctx)
{
    if (!ctx || ctx->layer.collective_end != mpi_call_end) return 1.0;
    return mpi_layer_of(ctx)->imbalance;
}
