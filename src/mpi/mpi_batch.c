/*
 * mpi_batch.c - a batch of integrals across the ranks (the layer's
 * run_batch, mpi_layer.h). With at least as many integrals as ranks, rank
 * r integrates a contiguous share of the integrals on its own device (the
 * layer's operations do not communicate meanwhile), and the results are
 * gathered on every rank. libpagani keeps the integrals of a batch
 * independent (pagani.h: results[k] is what pagani_integrate gives for
 * block k, bit for bit on the CPU and for Vegas and QMC), so the results
 * are those of one process; each rank holds only its integrals' regions
 * or grids. A smaller batch runs as one: QMC, Vegas and cubature
 * distributed by points, passes and regions.
 */
#include <limits.h>
#include <stdlib.h>
#include "methods.h"
#include "mpi/mpi_layer.h"

/* A failure in a share of `count` integrals from `first` names the
 * integral by its index in the share (or, in a share of one, not at all):
 * name it by its index in the batch. */
static void renumber_message(pagani_context *ctx, int rc, int first,
                             int count)
{
    const char *rest;
    const int local = pagani_message_integral(ctx, count, &rest);
    if (local >= 0) pagani_fail(ctx, rc, "integral %d: %s", first + local, rest);
}

/* Every rank's results into results[] on every rank: rank r's share is
 * the integrals [mpi_share_start(K, size, r), mpi_share_start(K, size, r +
 * 1)). */
static int gather_results(mpi_layer *L, int K, pagani_result *results)
{
    int *bytes = malloc(2 * sizeof(int) * (size_t)L->size), *at, mpi_rc;

    if (!bytes) return MPI_ERR_NO_MEM;
    at = bytes + L->size;
    for (int r = 0; r < L->size; r++) {
        at[r] = (int)(mpi_share_start((unsigned long long)K, L->size, r) *
                      sizeof *results);
        bytes[r] = (int)(mpi_share_start((unsigned long long)K, L->size,
                                         r + 1) *
                         sizeof *results) -
                   at[r];
    }
    mpi_rc = MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, results, bytes,
                            at, MPI_BYTE, L->comm);
    free(bytes);
    return mpi_rc;
}

int mpi_run_batch(pagani_context *ctx, pagani_integrand *f,
                  const pagani_batch *batch, const pagani_options *opt,
                  pagani_result *results)
{
    mpi_layer *L = mpi_layer_of(ctx);
    const int K = batch->count;
    pagani_batch share = *batch;
    int first, rc, mpi_rc;
    double start;

    if (K < L->size || L->size == 1 ||
        (size_t)K > INT_MAX / sizeof *results)
        return pagani_run_method(ctx, f, batch, opt, results);
    /* every rank is here (none failed on its own before): then gather */
    if ((rc = mpi_agree(ctx, L, PAGANI_OK, MPI_STEP_BATCH)) != PAGANI_OK)
        return rc;
    first = (int)mpi_share_start((unsigned long long)K, L->size, L->rank);
    share.count =
        (int)mpi_share_start((unsigned long long)K, L->size, L->rank + 1) -
        first;
    share.params = pagani_batch_params(batch, first);
    share.lower = pagani_batch_lower(batch, first);
    share.upper = pagani_batch_upper(batch, first);
    if (batch->mapped) share.mapped = batch->mapped + first;
    L->local = 1;
    rc = pagani_run_method(ctx, f, &share, opt, results + first);
    L->local = 0;
    renumber_message(ctx, rc, first, share.count);
    start = MPI_Wtime();
    mpi_rc = gather_results(L, K, results);
    L->mpi_seconds += MPI_Wtime() - start;
    if (mpi_rc != MPI_SUCCESS)
        return mpi_check(ctx, mpi_rc, "MPI_Allgatherv of a batch's results");
    return rc;
}
