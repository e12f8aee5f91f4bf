/*
 * cubature_driver.c - PAGANI, the paper's Algorithm 2, written once against
 * the cubature operations of backend.h (CPU or GPU alike):
 *
 *   split the box uniformly; then per iteration
 *     EVALUATE all regions; TWO-LEVEL ERROR + REL-ERR-CLASSIFY with sums;
 *     stop when (e + e_f) <= max(epsrel |v + v_f|, epsabs);
 *     THRESHOLD-CLASSIFY when the estimate has settled in its digits or
 *     splitting every active region would not fit in memory;
 *     add the finished regions to (v_f, e_f); FILTER + SPLIT the rest
 *     (worst-first, cubature_worst.c: split the worst of them, hold the
 *     others).
 *
 * Each integral of a batch is judged on its own, by the same decisions a
 * batch of one makes; the backend forms its sums from its own regions
 * only. An integral that ends leaves the list at the next split while the
 * others go on.
 *
 * It never reports convergence it did not reach: the finished regions'
 * errors stay in the total error for good, and sums that overflow a double
 * while f stays finite end the run after that iteration (its progress
 * call) with status PAGANI_NO_PROGRESS and an infinite error; and an
 * integral whose rule points and probes saw f = 0 (or next to it)
 * everywhere ends PAGANI_NO_SIGNAL, not converged (cubature_run.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cubature/cubature_run.h"
#include "rules/random_check.h"

#define DEFAULT_MAX_ITERATIONS 1000
#define DEFAULT_CPU_BUDGET ((size_t)1 << 30)
/* Most regions of one list: the CUDA backend scans them with int indices
 * (CUB); without this cap a GPU of 141 GB would hold more in 1 or 2
 * dimensions. */
#define MAX_REGIONS ((long long)1 << 30)
/* Worst-first refinement's first split, up to 10 dimensions: every axis
 * halved once, so that the first two-level comparison (a region against
 * its children along one axis) is of regions whose rule already saw f
 * at half the width along every other axis, as the original's split
 * does from 5-D on. From the whole box, the comparison along one of 8
 * axes left the seven others unmeasured: f8 8D, (sum x_i^2)^7.5, raw
 * error 0.10, its children's change 6.0, two-level error 7.0 against a
 * true 18, converged falsely at 1e-3. */
#define WORST_FIRST_PARTS 2

int pagani_cubature_initial_parts(int n, int requested)
{
    if (requested > 0) return requested;
    return n < 5 ? 4 : n <= 10 ? 2 : 1;
}

/* Parts per axis of integral k's first split: the original's
 * (pagani_cubature_initial_parts), or, refining worst-first below 11
 * dimensions, WORST_FIRST_PARTS unless initial_splits is set or the
 * domain layer maps an axis of its box (pagani_batch.mapped): the maps
 * of unbounded axes were measured from the original's split ((1 +
 * r^2)^-2 over R^3 converged at 1e-6 with a true error 2.4 times its
 * reported one from 2 parts per axis; tests/test_domains.c), and break
 * points give each segment whole cells of it (domain_batch.c). */
static int first_split_parts(const batch_run *b, const pagani_batch *batch, int k)
{
    const int original = pagani_cubature_initial_parts(b->n, b->opt->initial_splits);
    if (b->worst_first && b->opt->initial_splits == 0 && original > WORST_FIRST_PARTS &&
        !(batch->mapped && batch->mapped[k]))
        return WORST_FIRST_PARTS;
    return original;
}

/* Region capacity of one buffer from the memory budget. */
static long long region_capacity(pagani_context *ctx, int n, int ncomp)
{
    size_t budget = ctx->memory_budget;
    if (budget == 0) {
        size_t free_bytes = ctx->backend->free_memory(ctx->backend_state);
        budget = free_bytes ? free_bytes / 10 * 8 : DEFAULT_CPU_BUDGET;
    }
    long long regions =
        (long long)(budget / ctx->backend->cubature->bytes_per_region(
                                 ctx->backend_state, n, ncomp));
    return regions < MAX_REGIONS ? regions : MAX_REGIONS;
}

/* Uploads each integral's box split into first_parts^n equal regions
 * (its run's count), integral by integral. */
static int load_uniform_split(const batch_run *b, const pagani_batch *batch)
{
    const int *parts = b->first_parts;
    pagani_context *ctx = b->ctx;
    const int n = b->n;
    long long count = 0, i = 0;
    double *lo, *w;
    long long *counts;
    int rc;

    for (int k = 0; k < batch->count; k++) count += b->runs[k].count;
    lo = malloc((size_t)count * n * sizeof(double));
    w = malloc((size_t)count * n * sizeof(double));
    counts = malloc((size_t)batch->count * sizeof *counts);
    if (!lo || !w || !counts) {
        free(lo);
        free(w);
        free(counts);
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "initial regions");
    }
    for (int k = 0; k < batch->count; k++) {
        const double *lower = pagani_batch_lower(batch, k);
        const double *upper = pagani_batch_upper(batch, k);
        counts[k] = b->runs[k].count;
        for (long long j = 0; j < counts[k]; j++, i++) {
            long long rest = j;
            for (int d = 0; d < n; d++) {
                double width = (upper[d] - lower[d]) / parts[k];
                w[(size_t)d * count + i] = width;
                lo[(size_t)d * count + i] = lower[d] + (double)(rest % parts[k]) * width;
                rest /= parts[k];
            }
        }
    }
    rc = ctx->backend->cubature->load(ctx->backend_state, lo, w, counts);
    free(lo);
    free(w);
    free(counts);
    return rc;
}

/* What integral k's split may need: its active regions' children, or,
 * when classify left none active, all its regions' (choose_all then
 * classifies them active again). */
static long long split_need(const batch_run *b, int k)
{
    return 2 * (b->sums[k].active > 0 ? b->sums[k].active : b->runs[k].count);
}

/* Each running integral's share of the list after this split: when what
 * every running integral's split may need fits together, its own need and
 * an equal part of the rest, so that memory limits none of them and each
 * decides as it would alone; else an equal part of the list. */
static void share_list(batch_run *b, int running)
{
    long long need = 0, left;

    for (int k = 0; k < b->integrals; k++)
        if (b->runs[k].running) need += split_need(b, k);
    left = b->capacity - need;
    for (int k = 0; k < b->integrals; k++)
        b->runs[k].share = !running || !b->runs[k].running ? 0
                           : left >= 0 ? split_need(b, k) + left / running
                                       : b->capacity / running;
}

/* One iteration of every running integral; returns a backend's error, or
 * PAGANI_OK (also when f was not finite in some integral: b->nonfinite). */
static int iterate(batch_run *b, int it)
{
    int rc, running;

    cubature_checkpoint_mark(b, it);
    rc = cubature_evaluate(b);
    if (rc == PAGANI_STOP_REQUESTED) { /* the list is left as it is */
        cubature_stop_all(b);
        return cubature_checkpoint_stopped(b);
    }
    if (rc == PAGANI_OK) rc = cubature_classify(b);
    if (rc == PAGANI_OK) rc = cubature_take_estimates(b);
    if (rc != PAGANI_OK) return rc;
    running = cubature_end_tests(b, cubature_progress(b, it + 1));
    share_list(b, running);
    rc = cubature_choose_thresholds(b);
    if (rc == PAGANI_OK) rc = cubature_checkpoint_stopped(b);
    if (rc == PAGANI_OK && b->dropped) /* an ended integral's stay unset */
        memset(b->dropped, 0, 2 * (size_t)b->ncomp * b->integrals * sizeof(double));
    if (rc == PAGANI_OK && b->worst_first)
        rc = cubature_hold_split(b);
    else if (rc == PAGANI_OK)
        rc = b->ops->filter_split(b->ctx->backend_state, b->thresholds, b->counts,
                                  b->dropped);
    if (rc == PAGANI_OK && b->ncomp > 1) cubature_vector_finish(b);
    for (int k = 0; rc == PAGANI_OK && k < b->integrals; k++)
        b->runs[k].count = b->counts[k];
    return rc == PAGANI_OK ? cubature_checkpoint_due(b, it + 1) : rc;
}

/* Whether any integral is still running. */
static int any_running(const batch_run *b)
{
    for (int k = 0; k < b->integrals; k++)
        if (b->runs[k].running) return 1;
    return 0;
}

static void batch_free(batch_run *b)
{
    free(b->first_parts);
    free(b->runs);
    free(b->probe_below);
    free(b->probe_relative);
    free(b->check_above);
    free(b->thresholds);
    free(b->requests);
    free(b->sums);
    free(b->finished);
    free(b->searches);
    free(b->search_integrals);
    free(b->search_thresholds);
    free(b->search_stats);
    free(b->counts);
    free(b->halvings);
    free(b->split_above);
    free(b->hold_largest);
    free(b->splitting);
    free(b->held_checked);
    cubature_worst_free(b);
    cubature_vector_free(b);
    cubature_checkpoint_free(b);
}

/* Allocates the per-integral arrays and starts every integral. */
static int batch_start(batch_run *b, pagani_result *results)
{
    size_t K = (size_t)b->integrals;

    b->first_parts = malloc(K * sizeof(int));
    b->runs = malloc(K * sizeof *b->runs);
    b->probe_below = malloc(K * sizeof(double));
    b->probe_relative = malloc(K * sizeof(double));
    b->check_above = malloc(K * sizeof(double));
    b->thresholds = malloc(K * sizeof(double));
    b->requests = malloc(K * sizeof *b->requests);
    b->sums = malloc(K * sizeof *b->sums);
    b->finished = malloc(K * sizeof *b->finished);
    b->searches = malloc(K * sizeof *b->searches);
    b->search_integrals = malloc(K * sizeof(int));
    b->search_thresholds = malloc(K * sizeof(double));
    b->search_stats = malloc(K * sizeof *b->search_stats);
    b->counts = malloc(K * sizeof(long long));
    b->halvings = malloc(K * sizeof(int));
    b->split_above = malloc(K * sizeof(double));
    b->hold_largest = malloc(K * sizeof(double));
    b->splitting = malloc(K * sizeof(long long));
    b->held_checked = malloc(K * sizeof(long long));
    if (!b->first_parts || !b->runs || !b->probe_below || !b->probe_relative || !b->check_above ||
        !b->thresholds ||
        !b->requests || !b->sums || !b->finished || !b->searches || !b->search_integrals ||
        !b->search_thresholds || !b->search_stats || !b->counts || !b->halvings ||
        !b->split_above || !b->hold_largest || !b->splitting || !b->held_checked)
        return pagani_fail(b->ctx, PAGANI_ERR_NO_MEMORY,
                           "the state of %d integrals", b->integrals);
    for (size_t k = 0; k < K; k++) {
        run *r = &b->runs[k];
        *r = (run){.running = 1, .value = NAN, .error = NAN,
                   .previous_value = NAN, .previous_error = NAN, .earlier_value = NAN,
                   .unknown_signs = 1, .share = b->capacity,
                   .result = &results[k]};
        results[k].status = PAGANI_MAX_ITERATIONS;
    }
    b->nonfinite = -1;
    return PAGANI_OK;
}

/* Each integral's first split: its parts per axis (first_split_parts)
 * into b->first_parts, its regions into its run's count;
 * PAGANI_ERR_NO_MEMORY when they would fill more than half the list. */
static int plan_first_split(batch_run *b, const pagani_batch *batch)
{
    int *parts = b->first_parts;
    double regions = 0.0;
    int most = 1;

    for (int k = 0; k < b->integrals; k++) {
        parts[k] = first_split_parts(b, batch, k);
        regions += pow(parts[k], b->n); /* a double: 64^20 overflows a long long */
        if (parts[k] > most) most = parts[k];
    }
    if (regions > (double)(b->capacity / 2))
        return pagani_fail(b->ctx, PAGANI_ERR_NO_MEMORY,
                           "the memory budget holds %lld regions, too few for "
                           "%d integrals of up to %d^%d initial regions%s", b->capacity,
                           b->integrals, most, b->n,
                           b->integrals > 1 ? ": split the batch" : "");
    for (int k = 0; k < b->integrals; k++) {
        b->runs[k].count = 1;
        for (int d = 0; d < b->n; d++) b->runs[k].count *= parts[k];
    }
    return PAGANI_OK;
}

int pagani_cubature_integrate(pagani_context *ctx, pagani_integrand *f,
                              const pagani_batch *batch,
                              const pagani_options *opt, pagani_result *results)
{
    const int n = f->n;
    const int max_iterations = opt->max_iterations ? opt->max_iterations
                                                   : DEFAULT_MAX_ITERATIONS;
    pagani_rule *rule = NULL;
    cubature_job job;
    batch_run b = {0};
    int rc, it = -1;

    if (!pagani_has_host_form(f) && !f->device_module[0][PAGANI_CUBATURE])
        return pagani_fail(ctx, PAGANI_ERR_NO_FORM,
                           "the integrand has no form the %s backend can run",
                           pagani_backend_name(ctx->kind));
    rc = pagani_rule_create(n, opt->rule_degree, &rule);
    if (rc == -2) return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "rule tables");
    if (rc != 0)
        return pagani_fail(ctx, PAGANI_ERR_OPTION,
                           "no cubature rule of degree %d for n = %d (degree 11 "
                           "needs n = 3, degree 13 needs n = 2)",
                           opt->rule_degree, n);

    b.ctx = ctx;
    b.ops = ctx->backend->cubature;
    b.opt = opt;
    b.integrals = batch->count;
    b.n = n;
    b.relerr_filter = !(opt->flags & PAGANI_FLAG_NO_RELERR_FILTER);
    /* f's calls per region: the rule's points and, unless turned off, its
     * probes (counted for every region, probed or not: an upper bound). */
    b.points = rule->npoints + (opt->flags & PAGANI_FLAG_NO_PROBES ? 0 : rule->nprobes);
    /* and those of the randomized check, on the regions it checks (of a
     * scalar integrand only) */
    b.check_points = f->ncomp == 1 ? PAGANI_CHECK_POINTS : 0;
    b.capacity = region_capacity(ctx, n, f->ncomp);
    b.ncomp = f->ncomp;
    rc = cubature_worst_first(&b, f, &b.worst_first);
    job.integrand = f;
    job.rule = rule;
    job.n = n;
    job.integrals = batch->count;
    job.params = batch->params;
    job.params_stride = batch->params_stride;
    job.ncomp = f->ncomp;
    job.norm = opt->norm;
    job.probes = !(opt->flags & PAGANI_FLAG_NO_PROBES);
    if (rc == PAGANI_OK) rc = batch_start(&b, results);
    if (rc == PAGANI_OK) rc = plan_first_split(&b, batch);
    if (rc == PAGANI_OK && b.ncomp > 1) rc = cubature_vector_start(&b, batch, opt);
    if (rc == PAGANI_OK) rc = cubature_checkpoint_open(&b, f, batch); /* may set b.capacity */
    job.capacity = b.capacity;
    for (int k = 0; k < batch->count; k++) results[k].rule_degree = rule->degree;
    if (rc == PAGANI_OK) rc = b.ops->setup(ctx->backend_state, &job);
    if (rc == PAGANI_OK) rc = load_uniform_split(&b, batch);
    if (rc == PAGANI_OK) rc = cubature_checkpoint_resume(&b, &it);
    if (it < 0) it = 0; /* no file: the uniform split */
    for (; rc == PAGANI_OK && it < max_iterations && any_running(&b); it++)
        rc = iterate(&b, it);
    if (rc == PAGANI_OK) rc = cubature_checkpoint_end(&b, it);
    if (rc == PAGANI_OK && b.nonfinite >= 0) rc = PAGANI_ERR_NONFINITE;
    batch_free(&b);
    pagani_rule_destroy(rule);
    return rc;
}
