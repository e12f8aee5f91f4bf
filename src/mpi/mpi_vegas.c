/*
 * mpi_vegas.c - PAGANI_VEGAS across the ranks: the layer's Vegas
 * operations (mpi_layer.h). Each sampling pass is cut into one part per
 * rank (vegas_pass.part: a contiguous share of the backend's partial sums,
 * the CPU's chunks or the GPU's blocks); the value and variance come back
 * as exact sums of those and the bins as 128-bit integers, added over the
 * ranks exactly, so that every rank gets the bits of the whole pass, the
 * same for any number of ranks, and the driver's grid adjustment, the
 * same on every rank, keeps them equal. Backends that cannot split a pass
 * (vegas_ops.parts 0) and Vegas+ (its per-cube counts live on every rank)
 * run replicated: every rank the whole pass.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "mpi/mpi_layer.h"

#define XSUM_WORDS (PAGANI_XSUM_BINS + 1)
/* The MAX values of a member: vmax, overflow, not finite, term_max. */
#define HIGHEST 4

typedef struct mpi_vegas {
    pagani_context *ctx;
    mpi_layer *layer;
    const vegas_ops *inner_ops;
    void *inner;                /* the backend's Vegas state */
    int spread;                 /* passes are split over the ranks */
    int exact;                  /* passes are exact sums of the backend's
                                   partials (spread, or a rank's share of
                                   a batch: the same bits either way) */
    size_t cells;               /* bins of one integral */
    int ncomp;                  /* C, components of the integrand */
    pagani_xsum *exact_sums;    /* 2 C per integral: each component's value
                                   and variance (component 0's first) */
    unsigned long long *totals; /* 2 words per cell per integral */
    long long *words;           /* what one SUM reduction carries */
    double *highest;            /* what one MAX reduction carries */
    long long *faults;          /* every rank's (cube, sample) per member */
    double *fault_values;
} mpi_vegas;

static void mpi_vegas_release(void *state)
{
    mpi_vegas *s = state;
    if (!s) return;
    if (s->inner) s->inner_ops->release(s->inner);
    free(s->exact_sums);
    free(s->totals);
    free(s->words);
    free(s->highest);
    free(s->faults);
    free(s->fault_values);
    free(s);
}

/* The buffers of a split pass for K integrals on `size` ranks. */
static int alloc_buffers(mpi_vegas *s, size_t K, size_t size)
{
    const size_t C = (size_t)s->ncomp;
    s->exact_sums = malloc(2 * K * C * sizeof *s->exact_sums);
    s->totals = malloc(2 * s->cells * K * sizeof *s->totals);
    /* exact sums, evaluations and nonzero, 4 digits per bin */
    s->words = malloc((2 * K * C * XSUM_WORDS + 2 * K + 4 * s->cells * K) *
                      sizeof *s->words);
    s->highest = malloc(HIGHEST * K * sizeof *s->highest);
    s->faults = malloc(2 * K * size * sizeof *s->faults);
    s->fault_values = malloc(K * size * sizeof *s->fault_values);
    return s->exact_sums && s->totals && s->words && s->highest && s->faults &&
           s->fault_values;
}

/* The backend's setup on every rank, agreed. */
static int mpi_vegas_setup(void *layer, const vegas_job *job, void **state)
{
    pagani_context *ctx = job->integrand->ctx;
    mpi_layer *L = layer;
    mpi_vegas *s = calloc(1, sizeof *s);
    int rc = PAGANI_OK;

    *state = NULL;
    if (!s) {
        rc = pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "Vegas over MPI: state");
    } else {
        s->ctx = ctx;
        s->layer = L;
        s->inner_ops = L->inner_vegas;
        /* one rank too, and a rank's share of a batch: passes are the
         * exact sums of the backend's partials, the same bits for any
         * number of ranks */
        s->exact = s->inner_ops->parts && !job->plus;
        s->spread = !L->local && s->exact;
        s->cells = (size_t)job->grid_axes * (size_t)job->bins;
        s->ncomp = job->ncomp;
        if (s->exact &&
            !alloc_buffers(s, (size_t)job->integrals, (size_t)L->size))
            rc = pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "Vegas over MPI: "
                             "the buffers of %d integrals", job->integrals);
        if (rc == PAGANI_OK)
            rc = s->inner_ops->setup(L->inner_state, job, &s->inner);
    }
    if (!L->local) rc = mpi_agree(ctx, L, rc, MPI_STEP_VEGAS_SETUP);
    if (rc != PAGANI_OK) {
        mpi_vegas_release(s);
        return rc;
    }
    *state = s;
    return PAGANI_OK;
}

static int mpi_vegas_set_grids(void *state, int first, int count,
                               const double *grids)
{
    mpi_vegas *s = state;
    return s->inner_ops->set_grids(s->inner, first, count, grids);
}

static int mpi_vegas_stratify(void *state, const int *members, int count,
                              const double *beta_sums, long long target,
                              long long *totals)
{
    mpi_vegas *s = state;
    return s->inner_ops->stratify(s->inner, members, count, beta_sums, target,
                                  totals);
}

/* Packs this rank's part for the reductions: the SUM words (exact sums,
 * normalised; evaluations and nonzero; each bin total as four 32-bit
 * digits) and the MAX values (vmax, overflow, whether a value or a
 * variance, of any component, is not finite, term_max). Returns the SUM words. */
static size_t pack(mpi_vegas *s, const vegas_pass *pass,
                   const vegas_sums *sums, const double *components,
                   int accumulate)
{
    const size_t C2 = 2 * (size_t)s->ncomp;
    const int n = pass->count;
    long long *w = s->words;
    size_t at = 0;

    for (int j = 0; j < 2 * n * s->ncomp; j++) {
        pagani_xsum_normalize(&s->exact_sums[j]);
        memcpy(w + at, &s->exact_sums[j], sizeof s->exact_sums[j]);
        at += XSUM_WORDS;
    }
    for (int i = 0; i < n; i++) {
        w[at++] = sums[i].evaluations;
        w[at++] = sums[i].nonzero;
        s->highest[HIGHEST * i] = sums[i].vmax;
        s->highest[HIGHEST * i + 1] = sums[i].overflow;
        s->highest[HIGHEST * i + 3] = sums[i].term_max;
        s->highest[HIGHEST * i + 2] =
            !isfinite(sums[i].value) || !isfinite(sums[i].variance);
        for (size_t j = 0; components && j < C2; j++)
            if (!isfinite(components[C2 * i + j])) s->highest[HIGHEST * i + 2] = 1;
    }
    for (int i = 0; accumulate && i < n; i++) {
        const unsigned long long *t =
            s->totals + 2 * s->cells * (size_t)pass->members[i];
        for (size_t c = 0; c < 2 * s->cells; c++) {
            w[at++] = (long long)(t[c] & 0xffffffffULL);
            w[at++] = (long long)(t[c] >> 32);
        }
    }
    return at;
}

/* The bins of member i from the reduced digits at d (4 per cell: low word
 * then high word, each as two 32-bit digits), carries propagated. */
static void unpack_bins(const long long *d, size_t cells, double scale,
                        double *bins)
{
    for (size_t c = 0; c < cells; c++) {
        unsigned long long word[2], carry = 0;
        for (int h = 0; h < 2; h++) {
            unsigned long long lo = (unsigned long long)d[4 * c + 2 * h];
            unsigned long long hi = (unsigned long long)d[4 * c + 2 * h + 1];
            lo += carry;
            hi += lo >> 32;
            word[h] = (lo & 0xffffffffULL) | (hi << 32);
            carry = hi >> 32;
        }
        bins[c] = pagani_vegas_bin_value(word[0], word[1], scale);
    }
}

/* Every member's first fault over the ranks (the parts are in cube order:
 * the lowest rank that met one has it), gathered 64 members at a time
 * (what this rank sends is on the stack). */
static int first_faults(mpi_vegas *s, int n, vegas_sums *sums)
{
    mpi_layer *L = s->layer;
    long long mine[2 * 64];
    double value[64];
    int rc = MPI_SUCCESS;

    for (int at = 0; at < n && rc == MPI_SUCCESS; at += 64) {
        int m = n - at < 64 ? n - at : 64;
        for (int i = 0; i < m; i++) {
            mine[2 * i] = sums[at + i].fault_cube;
            mine[2 * i + 1] = sums[at + i].fault_sample;
            value[i] = sums[at + i].fault_value;
        }
        rc = MPI_Allgather(mine, 2 * m, MPI_LONG_LONG, s->faults, 2 * m,
                           MPI_LONG_LONG, L->comm);
        if (rc == MPI_SUCCESS)
            rc = MPI_Allgather(value, m, MPI_DOUBLE, s->fault_values, m,
                               MPI_DOUBLE, L->comm);
        for (int i = 0; i < m && rc == MPI_SUCCESS; i++) {
            vegas_sums *t = &sums[at + i];
            t->fault_cube = t->fault_sample = -1;
            for (int r = 0; r < L->size; r++)
                if (s->faults[2 * (r * m + i)] >= 0) {
                    t->fault_cube = s->faults[2 * (r * m + i)];
                    t->fault_sample = s->faults[2 * (r * m + i) + 1];
                    t->fault_value = s->fault_values[r * m + i];
                    break;
                }
        }
    }
    return rc;
}

/* The reduced exact sum j (of 2 C a member) as a double. */
static double reduced(const mpi_vegas *s, size_t j)
{
    pagani_xsum x;
    memcpy(&x, s->words + j * XSUM_WORDS, sizeof x);
    return pagani_xsum_value(&x);
}

/* Adds the parts over the ranks into sums (and bins, and with several
 * components their sums, 2 C a member, as the backend lays them out). */
static int reduce_parts(mpi_vegas *s, const vegas_pass *pass,
                        vegas_sums *sums, double *bins, double *components,
                        int accumulate)
{
    mpi_layer *L = s->layer;
    const int n = pass->count;
    const size_t C2 = 2 * (size_t)s->ncomp;
    const size_t words = pack(s, pass, sums, components, accumulate);
    const size_t counts_at = (size_t)n * C2 * XSUM_WORDS;
    const size_t bins_at = counts_at + 2 * (size_t)n;
    int rc = MPI_Allreduce(MPI_IN_PLACE, s->words, (int)words, MPI_LONG_LONG,
                           MPI_SUM, L->comm);

    if (rc == MPI_SUCCESS)
        rc = MPI_Allreduce(MPI_IN_PLACE, s->highest, HIGHEST * n, MPI_DOUBLE,
                           MPI_MAX, L->comm);
    if (rc == MPI_SUCCESS) rc = first_faults(s, n, sums);
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        vegas_sums *t = &sums[i];
        const int overflow = s->highest[HIGHEST * i + 2] != 0.0;
        /* some part overflowed: no exact form */
        t->value = overflow ? INFINITY : reduced(s, C2 * i);
        t->variance = overflow ? INFINITY : reduced(s, C2 * i + 1);
        for (size_t j = 0; components && j < C2; j++)
            components[C2 * i + j] = overflow ? INFINITY : reduced(s, C2 * i + j);
        t->evaluations = s->words[counts_at + 2 * i];
        t->nonzero = s->words[counts_at + 2 * i + 1];
        t->vmax = s->highest[HIGHEST * i];
        t->overflow = s->highest[HIGHEST * i + 1] != 0.0;
        t->term_max = s->highest[HIGHEST * i + 3];
        if (accumulate)
            unpack_bins(s->words + bins_at + 4 * s->cells * (size_t)i,
                        s->cells, pass->bin_scale[i],
                        bins + s->cells * (size_t)pass->members[i]);
    }
    return rc;
}

static int mpi_vegas_sample(void *state, const vegas_pass *pass,
                            vegas_sums *sums, double *bins, double *components)
{
    mpi_vegas *s = state;
    mpi_layer *L = s->layer;
    const int accumulate = pass->accumulate && pass->stride <= 1 && bins;
    vegas_pass part = *pass;
    double start;
    int rc;

    if (!s->spread) { /* the whole pass here, its sums exact where they can be */
        part.exact = s->exact ? s->exact_sums : NULL;
        return s->inner_ops->sample(s->inner, &part, sums, bins, components);
    }
    part.part = L->rank;
    part.parts = L->size;
    part.exact = s->exact_sums;
    part.totals = accumulate ? s->totals : NULL;
    rc = s->inner_ops->sample(s->inner, &part, sums, NULL, components);
    if ((rc = mpi_agree(s->ctx, L, rc, MPI_STEP_VEGAS_SAMPLE)) != PAGANI_OK)
        return rc;
    start = MPI_Wtime();
    rc = reduce_parts(s, pass, sums, bins, components, accumulate);
    L->mpi_seconds += MPI_Wtime() - start;
    return mpi_check(s->ctx, rc, "Vegas sums over the ranks");
}

/* Vegas+ checkpoints: every rank holds the whole counts (Vegas+ runs
 * replicated) and writes its own file, so these are the backend's. */
static int mpi_vegas_counts_out(void *state, int k, long long first,
                                long long count, long long *counts)
{
    mpi_vegas *s = state;
    return s->inner_ops->counts_out(s->inner, k, first, count, counts);
}

static int mpi_vegas_counts_in(void *state, int k, long long first,
                               long long count, const long long *counts)
{
    mpi_vegas *s = state;
    return s->inner_ops->counts_in(s->inner, k, first, count, counts);
}

const vegas_ops pagani_mpi_vegas_ops = {
    mpi_vegas_setup,      mpi_vegas_set_grids, mpi_vegas_sample,
    mpi_vegas_stratify,   mpi_vegas_release,   1,
    mpi_vegas_counts_out, mpi_vegas_counts_in,
};
