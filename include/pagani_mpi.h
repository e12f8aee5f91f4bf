/*
 * pagani_mpi.h - libpagani's MPI layer: one integral across the ranks of
 * an MPI communicator (link with -lpagani_mpi -lpagani, or pkg-config
 * pagani-mpi, and build with the MPI compiler wrapper, mpicc).
 *
 * A context made by pagani_mpi_context_create is an ordinary
 * pagani_context: integrands, options, results and every function of
 * pagani.h work on it unchanged. What changes is that the calls that
 * integrate or make integrands are collective: every rank of the
 * communicator must make them, in the same order and with the same
 * arguments (the same integrand, box, options and parameter blocks), and
 * each returns the same code and result on every rank.
 *
 *  - PAGANI_QMC is distributed: each block of Zinterhof indices the driver
 *    sums is cut into one contiguous piece per rank, and the exact sums are
 *    added over the ranks (MPI_Allreduce of their integer digits): the
 *    result is bit for bit that of one process, for any number of ranks.
 *  - PAGANI_VEGAS is distributed: each sampling pass is cut into one part
 *    per rank (whole units of the backend's partial sums), its value and
 *    variance (every component's, for a vector integrand) added as exact
 *    sums of those partials and its bins as integers: the same bits for
 *    any number of ranks, 1 included (on the CPU also a plain process's;
 *    on CUDA a plain context merges the blocks in double, which may move
 *    the last bits). Vegas+ runs replicated.
 *  - pagani_integrate_batch with at least as many integrals as ranks gives
 *    each rank a contiguous share of the integrals (every method); the
 *    results are gathered on every rank.
 *  - PAGANI_CUBATURE partitions the region list: each rank holds every
 *    P-th initial region and its descendants, evaluates, classifies and
 *    splits its own, and the sums the driver reads are combined over the
 *    ranks (so the driver decides the same everywhere). Regions do not
 *    move between ranks (pagani_mpi_imbalance measures how uneven the
 *    ranks' shares become). Memory scales: the list is sized as the
 *    ranks' budgets together, less a tenth kept for the shares drifting
 *    apart; a rank whose share outgrows its own budget ends the call with
 *    PAGANI_ERR_NO_MEMORY on every rank. Not bit-identical across rank
 *    counts: the sums are added in another order, which moves the last
 *    bits of the value and error and can change a decision taken on them;
 *    the result is the same on every rank of one run.
 *
 * Errors: a call that fails on one rank (a compilation, the memory of one
 * rank, a backend error) returns the same code on every rank, and
 * pagani_context_message() says on every rank "rank R: " and the message
 * of the lowest rank R that failed. No rank is left waiting for another.
 * Ranks whose calls differ are found before any work: pagani_integrate,
 * its batch and vector forms and pagani_qmc_part compare, in one small
 * MPI_Allreduce, the method, n, ncomp, the count of integrals and
 * fingerprints of the integrand (its source, or a host function's form),
 * the parameter blocks, the boxes, the options (all but the progress
 * callback and its data) and the QMC part; when any differs every rank
 * returns PAGANI_ERR_OPTION and the message names what differs ("the
 * ranks' calls differ in the boxes"). Host functions are compared by
 * form only: their code cannot be.
 * A failure of MPI itself (the layer's communicator returns errors rather
 * than aborting) is PAGANI_ERR_SYSTEM with MPI's message.
 */
#ifndef PAGANI_MPI_H
#define PAGANI_MPI_H

#include <mpi.h>
#include "pagani.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Makes a context on communicator comm (collective over comm; MPI must be
 * initialised, else PAGANI_ERR_OPTION). The context works on a duplicate
 * of comm, so the user's own messages on comm never meet the layer's.
 *
 * Devices: with PAGANI_BACKEND_CUDA (or AUTO where a GPU is usable) each
 * rank takes the GPU of its node-local rank modulo the number of GPUs of
 * its node: with more ranks than GPUs on a node, ranks share GPUs round
 * robin (correct, each rank's work then shares the device), and the
 * default memory budget of each is its equal share of the GPU's memory.
 * PAGANI_CUDA_DEVICE, when set in a rank's environment, overrides the
 * choice for that rank. With PAGANI_BACKEND_CPU each rank runs its own
 * OpenMP threads (PAGANI_THREADS or pagani_context_set_threads: give each
 * rank its share of the node's cores). AUTO must choose the same backend
 * on every rank: when it does not, every rank fails with
 * PAGANI_ERR_BACKEND_UNAVAILABLE.
 *
 * Returns the same code on every rank; on failure *ctx may still hold a
 * context with the message (destroy it with pagani_context_destroy). */
int pagani_mpi_context_create(pagani_context **ctx, pagani_backend backend,
                              MPI_Comm comm);

/* Wall time in seconds this rank has spent in the layer's collective
 * calls on ctx since it was made (waiting for other ranks included): the
 * cost of the distribution, for benchmarks. 0 on other contexts. */
double pagani_mpi_seconds(const pagani_context *ctx);

/* Cubature over the ranks: the largest ratio, over the iterations of the
 * last cubature integration on ctx, of the active regions one rank held
 * to the mean over the ranks (1: balanced; regions do not move between
 * ranks). 1 on other contexts and before any cubature run. */
double pagani_mpi_imbalance(const pagani_context *ctx);

#ifdef __cplusplus
}
#endif

#endif /* PAGANI_MPI_H */
