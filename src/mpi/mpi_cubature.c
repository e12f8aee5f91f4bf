/*
 * mpi_cubature.c - PAGANI_CUBATURE across the ranks: the layer's cubature
 * operations (mpi_layer.h). The region list is partitioned: rank r holds
 * the initial regions j of each integral with j % P == r (interleaved, so
 * that the neighbourhood of a peak is shared among the ranks) and their
 * descendants, since a region's children stay where it was split.
 * Evaluation, the two-level error, classification and the split run on
 * each rank's own regions; what the driver reads is combined over the
 * ranks: classify's sums, the threshold search's statistics, the regions
 * each integral has after a split. The driver, the same on every rank,
 * then takes the same decisions everywhere.
 *
 * The rule: no regions move between ranks (no rebalancing). Measured
 * instead: the imbalance, the largest ratio of a rank's active regions to
 * the mean over the ranks in an integration (pagani_mpi_imbalance).
 * Memory scales with the ranks: the budget's bytes per region are a
 * rank's over 0.9 P (mpi_cub_bytes_per_region), so the driver sizes the
 * list as the ranks' lists together, less a tenth kept for the ranks'
 * shares drifting apart; each rank's part must fit its own budget, and a
 * rank whose share grows past a tenth over the mean fails the split with
 * PAGANI_ERR_NO_MEMORY on every rank (regions do not move yet).
 *
 * Not bit-identical across rank counts: each rank's sums come from its
 * backend over its own regions, so they are added in another order (here
 * the ranks' rounded sums are added exactly), which moves the last bits,
 * and decisions taken on them (thresholds, the end test) can differ at
 * that level; tests/test_mpi.sh bounds the difference by the errors.
 * Every collective step starts with mpi_agree, and the ranks' numbers are
 * gathered and added in rank order, so every rank has the same bits.
 * In a rank's share of a batch (layer->local) the operations are the
 * backend's alone.
 *
 * Checkpoints: each rank's file (src/state/checkpoint.c names it) holds
 * the driver's state, the same on every rank, and the rank's own part of
 * the list, which export_regions and import_regions copy from and to the
 * rank's backend; the regions each integral has in that part, which the
 * driver (counting the whole list) does not know, are kept here and read
 * through the layer's cubature_counts. A resume needs the same number of
 * ranks, so the parts are those the ranks had.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "mpi/mpi_layer.h"

typedef struct mpi_cubature {
    pagani_context *ctx;
    int local;              /* set up for a rank's share of a batch, or
                               on one rank: the backend's operations */
    int integrals;          /* K */
    int n;
    size_t capacity;        /* integrals the buffers below hold */
    cubature_sums *all;     /* every rank's sums of a call: size x K */
    long long *counts;      /* every rank's counts: size x K */
    long long *own;         /* this rank's counts: K */
    int *classified;        /* per integral: classify's request to */
    int ncomp;              /* C, components of the integrand */
    double *components;     /* vector integrands: every rank's component
                               sums of a call, size x K x 2C */
} mpi_cubature;

void mpi_cubature_free(mpi_layer *L)
{
    if (!L->cubature_run) return;
    free(L->cubature_run->all);
    free(L->cubature_run->counts);
    free(L->cubature_run->own);
    free(L->cubature_run->classified);
    free(L->cubature_run->components);
    free(L->cubature_run);
    L->cubature_run = NULL;
}

/* The run's state, with buffers for K integrals. */
static int open_run(pagani_context *ctx, mpi_layer *L, int K)
{
    mpi_cubature *c = L->cubature_run;
    size_t want = (size_t)K * (size_t)L->size;

    if (!c && !(c = L->cubature_run = calloc(1, sizeof *c)))
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "cubature over MPI");
    if (c->capacity < (size_t)K) {
        free(c->all);
        free(c->counts);
        free(c->own);
        free(c->classified);
        c->all = malloc(want * sizeof *c->all);
        c->counts = malloc(want * sizeof *c->counts);
        c->own = malloc((size_t)K * sizeof *c->own);
        c->classified = malloc((size_t)K * sizeof *c->classified);
        c->capacity = c->all && c->counts && c->own && c->classified
                          ? (size_t)K : 0;
        if (!c->capacity)
            return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "cubature over "
                               "MPI: the sums of %d integrals", K);
    }
    return PAGANI_OK;
}

/* The buffer of every rank's component sums for a job of several
 * components. */
static int open_components(pagani_context *ctx, mpi_layer *L,
                           const cubature_job *job)
{
    mpi_cubature *c = L->cubature_run;
    free(c->components);
    c->components = NULL;
    c->ncomp = job->ncomp;
    if (job->ncomp == 1) return PAGANI_OK;
    c->components = malloc((size_t)L->size * (size_t)job->integrals * 2 *
                           (size_t)job->ncomp * sizeof(double));
    if (!c->components)
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "cubature over MPI: "
                           "the component sums of %d integrals",
                           job->integrals);
    return PAGANI_OK;
}

/* Whether the operations run on this rank alone (a rank's share of a
 * batch, or one rank). */
static int alone(const mpi_layer *L)
{
    return L->local || L->size == 1;
}

/* The budget's bytes per region of the whole list: a rank's over the
 * ranks, less a margin (SHARE_MARGIN) for the ranks' shares drifting
 * apart, so that the list the driver sizes is the ranks' lists together
 * (memory scales with the ranks) and each rank's part still fits its own
 * budget. */
#define SHARE_MARGIN 0.9
static size_t mpi_cub_bytes_per_region(void *state, int n, int ncomp)
{
    mpi_layer *L = state;
    size_t rank_bytes = L->inner_cubature->bytes_per_region(L->inner_state, n,
                                                            ncomp);
    double share = SHARE_MARGIN * L->size;

    if (alone(L)) return rank_bytes;
    return (size_t)ceil((double)rank_bytes / share) + 1;
}

static int mpi_cub_setup(void *state, const cubature_job *job)
{
    mpi_layer *L = state;
    cubature_job mine = *job;
    int rc = open_run(job->integrand->ctx, L, job->integrals);

    if (rc == PAGANI_OK) rc = open_components(job->integrand->ctx, L, job);
    if (rc != PAGANI_OK) return rc;
    /* the list's capacity over the ranks: this rank's part of it */
    if (!alone(L))
        mine.capacity =
            (long long)ceil((double)job->capacity / (SHARE_MARGIN * L->size));
    L->cubature_run->ctx = job->integrand->ctx;
    L->cubature_run->local = alone(L);
    L->cubature_run->integrals = job->integrals;
    L->cubature_run->n = job->n;
    L->imbalance = 1.0;
    return L->inner_cubature->setup(L->inner_state, &mine);
}

/* This rank's initial regions of integral k, with count of them in all:
 * j = rank, rank + P, ... */
static long long own_count(const mpi_layer *L, long long count)
{
    return count > L->rank ? (count - L->rank + L->size - 1) / L->size : 0;
}

static int mpi_cub_load(void *state, const double *lower, const double *width,
                        const long long *counts)
{
    mpi_layer *L = state;
    mpi_cubature *c = L->cubature_run;
    const int K = c->integrals, n = c->n;
    long long total = 0, mine = 0, at = 0, i = 0;
    double *lo, *w;
    int rc;

    if (c->local) {
        memcpy(c->own, counts, (size_t)K * sizeof *counts);
        return L->inner_cubature->load(L->inner_state, lower, width, counts);
    }
    for (int k = 0; k < K; k++) {
        total += counts[k];
        mine += c->own[k] = own_count(L, counts[k]);
    }
    lo = malloc((size_t)(mine + 1) * (size_t)n * sizeof *lo);
    w = malloc((size_t)(mine + 1) * (size_t)n * sizeof *w);
    if (!lo || !w) {
        rc = PAGANI_ERR_NO_MEMORY;
    } else {
        for (int k = 0; k < K; k++) {
            for (long long j = L->rank; j < counts[k]; j += L->size, i++)
                for (int d = 0; d < n; d++) {
                    lo[(size_t)d * mine + i] = lower[(size_t)d * total + at + j];
                    w[(size_t)d * mine + i] = width[(size_t)d * total + at + j];
                }
            at += counts[k];
        }
        rc = L->inner_cubature->load(L->inner_state, lo, w, c->own);
    }
    free(lo);
    free(w);
    return rc;
}

static int mpi_cub_set_weights(void *state, const double *weights,
                               const int *reference)
{
    mpi_layer *L = state;
    return L->inner_cubature->set_weights(L->inner_state, weights, reference);
}

/* The backend's evaluation on each rank, agreed: a stop request or a
 * failure on one rank ends the iteration on all. */
static int mpi_cub_evaluate(void *state, const double *probe_below,
                            const double *probe_relative, const double *check_above)
{
    mpi_layer *L = state;
    mpi_cubature *c = L->cubature_run;
    int rc = L->inner_cubature->evaluate(L->inner_state, probe_below,
                                         probe_relative, check_above);

    if (c->local) return rc;
    return mpi_agree(c->ctx, L, rc, MPI_STEP_CUB_EVALUATE);
}

/* Gathers `bytes` bytes from every rank into `all` (rank r's at r *
 * bytes), after the agreement on rc; returns the agreed code. */
static int gather(pagani_context *ctx, mpi_layer *L, int rc, const void *mine,
                  void *all, size_t bytes, enum mpi_step step)
{
    double start = MPI_Wtime();

    if ((rc = mpi_agree(ctx, L, rc, step)) != PAGANI_OK) return rc;
    if (bytes > INT_MAX)
        return pagani_fail(ctx, PAGANI_ERR_SYSTEM, "MPI: %zu bytes of "
                           "cubature sums are too many", bytes);
    rc = MPI_Allgather(mine, (int)bytes, MPI_BYTE, all, (int)bytes, MPI_BYTE,
                       L->comm);
    L->mpi_seconds += MPI_Wtime() - start;
    return mpi_check(ctx, rc, "MPI_Allgather of cubature sums");
}

/* Adds the ranks' doubles a[r * stride] exactly, in any order the same. */
static double exact_total(const double *a, size_t stride, int size)
{
    pagani_xsum x;
    double plain = 0.0;

    pagani_xsum_zero(&x);
    for (int r = 0; r < size; r++) {
        double v = a[(size_t)r * stride];
        if (isfinite(v)) pagani_xsum_add(&x, v);
        else plain += v; /* NaN or infinity stays what it is */
    }
    return plain + pagani_xsum_value(&x);
}

/* Integral k's sums over the ranks (from c->all) into *s, and the
 * imbalance of its active regions into L->imbalance. */
static void combine_sums(mpi_layer *L, const mpi_cubature *c, int k,
                         cubature_sums *s)
{
    const size_t K = (size_t)c->integrals;
    const size_t stride = K * sizeof(cubature_sums) / sizeof(double);
    const cubature_sums *all = c->all + k;
    long long most = 0, region = LLONG_MAX;
    int seen = 0;

    s->value = exact_total(&all->value, stride, L->size);
    s->error = exact_total(&all->error, stride, L->size);
    s->active_value = exact_total(&all->active_value, stride, L->size);
    s->active_error = exact_total(&all->active_error, stride, L->size);
    /* the parts are doubles: each added exactly; the largest E is the
     * largest of the ranks' (below) */
    for (size_t j = 0; j < sizeof s->parts / sizeof(double); j++)
        ((double *)&s->parts)[j] =
            exact_total((const double *)&all->parts + j, stride, L->size);
    s->parts.largest = 0.0;
    s->active = 0;
    s->min_error = s->max_error = 0.0;
    s->nonfinite_region = -1;
    for (int r = 0; r < L->size; r++) {
        const cubature_sums *t = &all[(size_t)r * K];
        s->active += t->active;
        most = t->active > most ? t->active : most;
        if (t->parts.largest > s->parts.largest) s->parts.largest = t->parts.largest;
        if (t->active > 0) {
            if (!seen || t->min_error < s->min_error)
                s->min_error = t->min_error;
            if (!seen || t->max_error > s->max_error)
                s->max_error = t->max_error;
            seen = 1;
        }
        /* a region is named by its index on its rank times P plus the
         * rank (region_point reads it back) */
        if (t->nonfinite_region >= 0 &&
            t->nonfinite_region * L->size + r < region) {
            region = t->nonfinite_region * L->size + r;
            s->nonfinite_point = t->nonfinite_point;
        }
    }
    if (region != LLONG_MAX) s->nonfinite_region = region;
    if (s->active > 0 && (double)most * L->size / (double)s->active >
                             L->imbalance)
        L->imbalance = (double)most * L->size / (double)s->active;
}

/* A vector integrand's component sums (2C an integral, K of them) over
 * the ranks, after the agreement on rc: each added exactly, integral k's
 * only where take[k] (NULL: all). */
static int combine_components(mpi_layer *L, mpi_cubature *c, int rc,
                              double *sums, const int *take, enum mpi_step step)
{
    const size_t width = 2 * (size_t)c->ncomp * (size_t)c->integrals;

    rc = gather(c->ctx, L, rc, sums, c->components, width * sizeof *sums, step);
    if (rc != PAGANI_OK) return rc;
    for (size_t j = 0; j < width; j++)
        if (!take || take[j / (2 * (size_t)c->ncomp)])
            sums[j] = exact_total(c->components + j, width, L->size);
    return PAGANI_OK;
}

static int mpi_cub_classify(void *state, const classify_request *requests,
                            cubature_sums *sums, double *components)
{
    mpi_layer *L = state;
    mpi_cubature *c = L->cubature_run;
    const int K = c->integrals;
    int rc = L->inner_cubature->classify(L->inner_state, requests, sums,
                                         components);

    if (c->local) return rc;
    rc = gather(c->ctx, L, rc, sums, c->all, (size_t)K * sizeof *sums,
                MPI_STEP_CUB_CLASSIFY);
    if (rc != PAGANI_OK) return rc;
    for (int k = 0; k < K; k++)
        if (requests[k].classify) combine_sums(L, c, k, &sums[k]);
    if (!components) return PAGANI_OK;
    for (int k = 0; k < K; k++) c->classified[k] = requests[k].classify;
    return combine_components(L, c, PAGANI_OK, components, c->classified,
                              MPI_STEP_CUB_CLASSIFY);
}

/* Every query's statistics summed over the ranks: one gather a step. */
static int mpi_cub_threshold_stats(void *state, int queries, const int *integrals,
                                   const double *thresholds, threshold_stats *stats)
{
    mpi_layer *L = state;
    mpi_cubature *c = L->cubature_run;
    threshold_stats *all = (threshold_stats *)c->all; /* room: K per rank */
    const size_t stride = (size_t)queries * sizeof *all / sizeof(double);
    int rc;

    rc = L->inner_cubature->threshold_stats(L->inner_state, queries, integrals,
                                            thresholds, stats);
    if (c->local) return rc;
    rc = gather(c->ctx, L, rc, stats, all, (size_t)queries * sizeof *stats,
                MPI_STEP_CUB_THRESHOLD);
    if (rc != PAGANI_OK) return rc;
    for (int q = 0; q < queries; q++) {
        stats[q].count = 0;
        for (int r = 0; r < L->size; r++) stats[q].count += all[(size_t)r * queries + q].count;
        stats[q].value = exact_total(&all[q].value, stride, L->size);
        stats[q].error = exact_total(&all[q].error, stride, L->size);
    }
    return PAGANI_OK;
}

static int mpi_cub_filter_split(void *state, const double *thresholds,
                                long long *new_counts, double *finished)
{
    mpi_layer *L = state;
    mpi_cubature *c = L->cubature_run;
    const int K = c->integrals;
    int rc;

    rc = L->inner_cubature->filter_split(L->inner_state, thresholds,
                                         new_counts, finished);
    if (rc == PAGANI_OK)
        memcpy(c->own, new_counts, (size_t)K * sizeof *new_counts);
    if (c->local) return rc;
    /* the sums an integral that ended (threshold +inf) leaves unset are
     * added as they are, and not read */
    if (finished &&
        (rc = combine_components(L, c, rc, finished, NULL,
                                 MPI_STEP_CUB_SPLIT)) != PAGANI_OK)
        return rc;
    rc = gather(c->ctx, L, rc, new_counts, c->counts,
                (size_t)K * sizeof *new_counts, MPI_STEP_CUB_SPLIT);
    if (rc != PAGANI_OK) return rc;
    for (int k = 0; k < K; k++) {
        new_counts[k] = 0;
        for (int r = 0; r < L->size; r++)
            new_counts[k] += c->counts[(size_t)r * K + k];
    }
    return PAGANI_OK;
}

/* The point of a region named as in combine_sums: its rank computes it and
 * sends it to the others. */
static int mpi_cub_region_point(void *state, long long region, int point,
                                double *x)
{
    mpi_layer *L = state;
    mpi_cubature *c = L->cubature_run;
    const int owner = (int)(region % L->size);
    int rc = PAGANI_OK;

    if (c->local)
        return L->inner_cubature->region_point(L->inner_state, region, point,
                                               x);
    if (L->rank == owner)
        rc = L->inner_cubature->region_point(L->inner_state,
                                             region / L->size, point, x);
    if ((rc = mpi_agree(c->ctx, L, rc, MPI_STEP_CUB_POINT)) != PAGANI_OK)
        return rc;
    return mpi_check(c->ctx, MPI_Bcast(x, c->n, MPI_DOUBLE, owner, L->comm),
                     "MPI_Bcast of a region's point");
}

/* A checkpoint's copy of this rank's part of the list: the backend's. */
static int mpi_cub_export_regions(void *state, long long first,
                                  long long count, double *lower,
                                  double *width, double *parents)
{
    mpi_layer *L = state;
    return L->inner_cubature->export_regions(L->inner_state, first, count,
                                             lower, width, parents);
}

/* And back: counts are this rank's (those mpi_cubature_counts gave). */
static int mpi_cub_import_regions(void *state, const long long *counts,
                                  long long first, long long count,
                                  const double *lower, const double *width,
                                  const double *parents)
{
    mpi_layer *L = state;
    mpi_cubature *c = L->cubature_run;
    int rc = L->inner_cubature->import_regions(L->inner_state, counts, first,
                                               count, lower, width, parents);

    if (rc == PAGANI_OK)
        memcpy(c->own, counts, (size_t)c->integrals * sizeof *counts);
    return rc;
}

void mpi_cubature_counts(pagani_context *ctx, long long *counts)
{
    const mpi_cubature *c = mpi_layer_of(ctx)->cubature_run;
    memcpy(counts, c->own, (size_t)c->integrals * sizeof *counts);
}

const cubature_ops pagani_mpi_cubature_ops = {
    mpi_cub_setup,           mpi_cub_load,         mpi_cub_set_weights,
    mpi_cub_evaluate,
    mpi_cub_classify,        mpi_cub_threshold_stats,
    mpi_cub_filter_split,    mpi_cub_region_point,
    mpi_cub_bytes_per_region,
    NULL, /* hold_split: the ranks' lists rebalance; breadth-first only */
    NULL, /* kept_errors: with hold_split */
    mpi_cub_export_regions,  mpi_cub_import_regions,
};
