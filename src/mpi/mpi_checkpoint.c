/*
 * mpi_checkpoint.c - the layer's checkpoint hooks (mpi_layer.h). Each
 * rank writes its own file (src/state/checkpoint.c names it); the ranks
 * that run one driver together hold the same state, so they must write
 * at the same iterations (a write is due when it is due by any rank's
 * clock), resume all or none (a file found by any rank), from the same
 * iteration (mpi_checkpoint_same: files of different ones are refused),
 * and fail together. A rank's share of a batch runs alone: there the
 * hooks do not communicate.
 */
#include "mpi/mpi_layer.h"

int mpi_checkpoint_agree(pagani_context *ctx, int rc)
{
    mpi_layer *L = mpi_layer_of(ctx);
    return L->local ? rc : mpi_agree(ctx, L, rc, MPI_STEP_CHECKPOINT);
}

int mpi_checkpoint_any(pagani_context *ctx, int flag)
{
    mpi_layer *L = mpi_layer_of(ctx);
    int mine = flag != 0, any = mine;
    double start;

    if (L->local) return mine;
    start = MPI_Wtime();
    if (MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, L->comm) != MPI_SUCCESS)
        any = mine; /* the layer's next collective step reports it */
    L->mpi_seconds += MPI_Wtime() - start;
    return any;
}

int mpi_checkpoint_same(pagani_context *ctx, long long value)
{
    mpi_layer *L = mpi_layer_of(ctx);
    /* the value and its complement: one MPI_MIN gives min and max */
    unsigned long long mine[2] = {(unsigned long long)value,
                                  ~(unsigned long long)value};
    unsigned long long all[2] = {mine[0], mine[1]};
    double start;

    if (L->local) return 1;
    start = MPI_Wtime();
    if (MPI_Allreduce(mine, all, 2, MPI_UNSIGNED_LONG_LONG, MPI_MIN,
                      L->comm) != MPI_SUCCESS)
        all[1] = mine[1]; /* the layer's next collective step reports it */
    L->mpi_seconds += MPI_Wtime() - start;
    return all[0] == ~all[1];
}
