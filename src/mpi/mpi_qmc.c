/*
 * mpi_qmc.c - PAGANI_QMC across the ranks (Hofbauer, Uhl and Zinterhof's
 * GRID scheme): the layer's QMC operations (mpi_layer.h) cut each block of
 * sequence indices the driver asks for into one contiguous piece per rank,
 * sum the pieces on the ranks' backends, and add the exact sums over the
 * ranks. Exact sums add as integers (exact_sum.h): normalised, their
 * digits are below 2^32, so a plain MPI_SUM of the 64-bit words of P ranks
 * is the merge of the P accumulators, and the result has the bits of one
 * process for any number of ranks.
 */
#include <stdlib.h>
#include <string.h>
#include "mpi/mpi_layer.h"

/* A pagani_xsum travels as its words: the bins and the load. */
#define XSUM_WORDS (PAGANI_XSUM_BINS + 1)
typedef char xsum_is_its_words[sizeof(pagani_xsum) ==
                                       XSUM_WORDS * sizeof(long long)
                                   ? 1
                                   : -1];

typedef struct mpi_qmc {
    pagani_context *ctx;
    mpi_layer *layer;
    int local;              /* made for a rank's share of a batch: the
                               backend's operations alone */
    void *inner;            /* the backend's QMC state */
    int ncomp;              /* components of the integrand: sums each */
    qmc_fault *gathered;    /* every rank's faults of one call */
} mpi_qmc;

static void mpi_qmc_release(void *state)
{
    mpi_qmc *s = state;
    if (!s) return;
    if (s->inner) s->layer->inner_qmc->release(s->inner);
    free(s->gathered);
    free(s);
}

/* The backend's setup on every rank, agreed (a kernel that compiles on
 * one rank only fails on all); alone for a rank's share of a batch. */
static int mpi_qmc_setup(void *layer, const qmc_job *job, void **state)
{
    pagani_context *ctx = job->integrand->ctx;
    mpi_layer *L = layer;
    mpi_qmc *s = calloc(1, sizeof *s);
    int rc;

    *state = NULL;
    if (!s) {
        rc = pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "QMC over MPI: state");
    } else {
        s->ctx = ctx;
        s->layer = L;
        s->local = L->local;
        s->ncomp = job->ncomp;
        s->gathered = malloc((size_t)L->size * (size_t)job->integrals *
                             sizeof *s->gathered);
        rc = s->gathered ? L->inner_qmc->setup(L->inner_state, job, &s->inner)
                         : pagani_fail(ctx, PAGANI_ERR_NO_MEMORY,
                                       "QMC over MPI: fault reports");
    }
    if (!L->local) rc = mpi_agree(ctx, L, rc, MPI_STEP_QMC_SETUP);
    if (rc != PAGANI_OK) {
        mpi_qmc_release(s);
        return rc;
    }
    *state = s;
    return PAGANI_OK;
}

/* Each integral's first fault over the ranks: the pieces are in index
 * order, so the lowest rank that met one has the smallest index. Returns
 * whether there was any. */
static int first_faults(const mpi_qmc *s, int live, qmc_fault *faults)
{
    int any = 0;

    for (int m = 0; m < live; m++) {
        faults[m].k = 0;
        for (int r = 0; r < s->layer->size; r++) {
            const qmc_fault *f = &s->gathered[(size_t)r * live + m];
            if (f->k) {
                faults[m] = *f;
                any = 1;
                break;
            }
        }
    }
    return any;
}

/* Adds the normalised sums[0..count) over the ranks, in place, in calls
 * of at most 2^24 words (an MPI count is an int). */
static int add_over_ranks(mpi_layer *L, pagani_xsum *sums, size_t count)
{
    const size_t chunk = ((size_t)1 << 24) / XSUM_WORDS;
    int mpi_rc = MPI_SUCCESS;

    for (size_t j = 0; j < count; j++) pagani_xsum_normalize(&sums[j]);
    for (size_t at = 0; at < count && mpi_rc == MPI_SUCCESS; at += chunk) {
        size_t n = count - at < chunk ? count - at : chunk;
        mpi_rc = MPI_Allreduce(MPI_IN_PLACE, &sums[at], (int)(n * XSUM_WORDS),
                               MPI_LONG_LONG, MPI_SUM, L->comm);
    }
    return mpi_rc;
}

static int mpi_qmc_sums(void *state, const int *ids, int live,
                        int first_shift, int shifts, unsigned long long first,
                        unsigned long long count, unsigned long long leap,
                        pagani_xsum *out, qmc_fault *faults, double *peaks)
{
    mpi_qmc *s = state;
    mpi_layer *L = s->layer;
    const unsigned long long lo = mpi_share_start(count, L->size, L->rank);
    const unsigned long long hi =
        mpi_share_start(count, L->size, L->rank + 1);
    const size_t sums = (size_t)live * (size_t)s->ncomp * (size_t)shifts;
    int rc = PAGANI_OK, mpi_rc;
    double start;

    if (s->local)
        return L->inner_qmc->sums(s->inner, ids, live, first_shift, shifts,
                                  first, count, leap, out, faults, peaks);
    for (size_t j = 0; j < sums; j++) pagani_xsum_zero(&out[j]);
    for (size_t j = 0; peaks && j < (size_t)live * shifts; j++) peaks[j] = 0.0;
    for (int m = 0; m < live; m++) faults[m].k = 0;
    if (hi > lo)
        rc = L->inner_qmc->sums(s->inner, ids, live, first_shift, shifts,
                                first + lo * leap, hi - lo, leap, out, faults,
                                peaks);
    /* NaN in f is a result (in faults), not a failure */
    rc = mpi_agree(s->ctx, L, rc == PAGANI_ERR_NONFINITE ? PAGANI_OK : rc,
                   MPI_STEP_QMC_SUMS);
    if (rc != PAGANI_OK) return rc;
    start = MPI_Wtime();
    mpi_rc = add_over_ranks(L, out, sums);
    if (mpi_rc == MPI_SUCCESS && peaks) /* a maximum: exact in any order */
        mpi_rc = MPI_Allreduce(MPI_IN_PLACE, peaks, live * shifts, MPI_DOUBLE,
                               MPI_MAX, L->comm);
    if (mpi_rc == MPI_SUCCESS)
        mpi_rc = MPI_Allgather(faults, live * (int)sizeof *faults, MPI_BYTE,
                               s->gathered, live * (int)sizeof *faults,
                               MPI_BYTE, L->comm);
    L->mpi_seconds += MPI_Wtime() - start;
    if (mpi_rc != MPI_SUCCESS)
        return mpi_check(s->ctx, mpi_rc, "QMC sums over the ranks");
    return first_faults(s, live, faults) ? PAGANI_ERR_NONFINITE : PAGANI_OK;
}

/* The points of one shift: a report, on this rank alone. */
static int mpi_qmc_points(void *state, int shift, unsigned long long first,
                          unsigned long long count, unsigned long long leap,
                          double *x)
{
    mpi_qmc *s = state;
    return s->layer->inner_qmc->points(s->inner, shift, first, count, leap,
                                       x);
}

const qmc_ops pagani_mpi_qmc_ops = {
    mpi_qmc_setup,
    mpi_qmc_sums,
    mpi_qmc_points,
    mpi_qmc_release,
};
