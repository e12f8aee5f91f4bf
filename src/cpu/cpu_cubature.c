/*
 * cpu_cubature.c - the OpenMP implementation of the cubature operations of
 * backend.h. Every operation is one bulk pass over the region arrays; the
 * rule and the probes on one region are in cpu_cubature_eval.c.
 *
 * Sums are formed tile by tile and merged in tile order (cpu_cubature.h),
 * so an integral's sums depend neither on the number of threads nor on
 * the other integrals of a batch.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cpu/cpu_block.h"
#include "cpu/cpu_cubature.h"

/* Frees the per-integral arrays and the tile lists. */
static void free_integral_arrays(cpu_cubature *c)
{
    free(c->counts);
    free(c->first_region);
    free(c->first_tile);
    free(c->tile_start);
    free(c->tile_kept);
    free(c->tile_held);
    free(c->tile_stash);
    free(c->held_odd);
    free(c->tile_owner);
    free(c->tile_sums);
    free(c->tile_stats);
}

static void free_buffers(cpu_cubature *c)
{
    for (int b = 0; b < 2; b++) {
        free(c->lower[b]);
        free(c->width[b]);
        free(c->owner[b]);
    }
    free(c->value);
    free(c->error);
    free(c->parent_value);
    free(c->axis);
    free(c->bad_point);
    free(c->active);
    free(c->error_sign);
    free(c->check_diff);
    free(c->check_var);
    free(c->held);
    free(c->probed);
    free(c->graded_calls);
    cpu_hold_free(c);
    free_integral_arrays(c);
    cpu_vector_free(c);
    cpu_block_values_free(c);
}

void cpu_cubature_free(cpu_cubature *c)
{
    if (!c) return;
    free_buffers(c);
    free(c);
}

static size_t cpu_bytes_per_region(void *state, int n, int ncomp)
{
    (void)state;
    return 2 * 2 * (size_t)n * sizeof(double)   /* lower, width, 2 buffers */
           + 4 * sizeof(double)                 /* value, error, check */
           + sizeof(double) / 2                 /* parent value per pair */
           + 5 * sizeof(int) + 4                /* owner (2), axis, bad point,
                                                   graded calls; active, error
                                                   sign, held, probed */
           + cpu_vector_bytes_per_region(ncomp);
}

/* Allocates the region arrays for `cap` regions in n dimensions. */
static int allocate_regions(cpu_state *s, int n, long long cap)
{
    cpu_cubature *c;
    size_t nd = (size_t)n * (size_t)cap;

    cpu_cubature_free(s->cubature);
    s->cubature = c = calloc(1, sizeof *c);
    if (!c) return pagani_fail(s->ctx, PAGANI_ERR_NO_MEMORY, "cubature state");
    for (int b = 0; b < 2; b++) {
        c->lower[b] = malloc(nd * sizeof(double));
        c->width[b] = malloc(nd * sizeof(double));
        c->owner[b] = malloc((size_t)cap * sizeof(int));
    }
    c->value = malloc((size_t)cap * sizeof(double));
    c->error = malloc((size_t)cap * sizeof(double));
    c->parent_value = malloc(((size_t)cap / 2 + 1) * sizeof(double));
    c->axis = malloc((size_t)cap * sizeof(int));
    c->bad_point = malloc((size_t)cap * sizeof(int));
    c->active = malloc((size_t)cap);
    c->error_sign = malloc((size_t)cap);
    c->check_diff = malloc((size_t)cap * sizeof(double));
    c->check_var = malloc((size_t)cap * sizeof(double));
    c->held = malloc((size_t)cap);
    c->probed = malloc((size_t)cap);
    c->graded_calls = malloc((size_t)cap * sizeof(int));
    if (!c->lower[0] || !c->lower[1] || !c->width[0] || !c->width[1] ||
        !c->owner[0] || !c->owner[1] || !c->value || !c->error ||
        !c->parent_value || !c->axis || !c->bad_point || !c->active ||
        !c->error_sign || !c->check_diff || !c->check_var || !c->held ||
        !c->probed || !c->graded_calls) {
        cpu_cubature_free(c);
        s->cubature = NULL;
        return pagani_fail(s->ctx, PAGANI_ERR_NO_MEMORY,
                           "cannot allocate region lists for %lld regions "
                           "in %d dimensions", cap, n);
    }
    c->allocated_regions = (size_t)cap;
    c->allocated_coords = nd;
    return PAGANI_OK;
}

/* Allocates the per-integral arrays and the tile lists for K integrals. */
static int allocate_integrals(cpu_state *s, int K)
{
    cpu_cubature *c = s->cubature;
    size_t most_tiles = (size_t)c->capacity / CPU_TILE + (size_t)K + 1;

    free_integral_arrays(c);
    c->counts = malloc((size_t)K * sizeof(long long));
    c->first_region = malloc((size_t)K * sizeof(long long));
    c->first_tile = malloc(((size_t)K + 1) * sizeof(long long));
    c->tile_start = malloc(most_tiles * sizeof(long long));
    c->tile_kept = malloc(most_tiles * sizeof(long long));
    c->tile_held = malloc(most_tiles * sizeof(long long));
    c->tile_stash = malloc(most_tiles * sizeof(long long));
    c->held_odd = malloc((size_t)K * sizeof(long long));
    c->tile_owner = malloc(most_tiles * sizeof(int));
    c->tile_sums = malloc(most_tiles * sizeof *c->tile_sums);
    c->tile_stats = malloc(most_tiles * sizeof *c->tile_stats);
    if (!c->counts || !c->first_region || !c->first_tile || !c->tile_start ||
        !c->tile_kept || !c->tile_held || !c->tile_stash || !c->held_odd ||
        !c->tile_owner ||
        !c->tile_sums || !c->tile_stats)
        return pagani_fail(s->ctx, PAGANI_ERR_NO_MEMORY,
                           "cannot allocate the lists of %d integrals", K);
    return PAGANI_OK;
}

static int cpu_setup(void *state, const cubature_job *job)
{
    cpu_state *s = state;
    cpu_cubature *c = s->cubature;
    long long cap = job->capacity;
    int rc = cpu_start_threads(s);

    if (rc != PAGANI_OK) return rc;
    if (!c || c->allocated_regions < (size_t)cap ||
        c->allocated_coords < (size_t)job->n * (size_t)cap) {
        rc = allocate_regions(s, job->n, cap);
        if (rc != PAGANI_OK) return rc;
        c = s->cubature;
    }
    c->n = job->n;
    c->capacity = cap;
    c->rule = job->rule;
    if (job->rule->nprobes > 0)
        c->axial_fit = pagani_axial_fit_of(job->rule->split_a, job->rule->split_b);
    c->f = job->integrand;
    c->integrals = job->integrals;
    c->params = job->params;
    c->params_stride = job->params_stride;
    c->probes = job->probes && c->rule->nprobes > 0;
    c->job_probes = job->probes;
    c->cur = 0;
    rc = allocate_integrals(s, job->integrals);
    if (rc == PAGANI_OK) rc = cpu_vector_setup(s, job);
    /* after cpu_vector_setup, which sets c->ncomp */
    if (rc == PAGANI_OK && cpu_block_values_make(c, cpu_threads(s)) != PAGANI_OK)
        rc = pagani_fail(s->ctx, PAGANI_ERR_NO_MEMORY, "cubature: the values "
                         "of a block of the integrand for %d threads",
                         cpu_threads(s));
    return rc;
}

void cpu_make_tiles(cpu_cubature *c)
{
    long long region = 0, t = 0;
    for (int k = 0; k < c->integrals; k++) {
        c->first_region[k] = region;
        c->first_tile[k] = t;
        for (long long i = 0; i < c->counts[k]; i += CPU_TILE, t++) {
            c->tile_start[t] = region + i;
            c->tile_owner[t] = k;
        }
        region += c->counts[k];
    }
    c->first_tile[c->integrals] = t;
    c->tiles = t;
}

long long cpu_total_regions(const cpu_cubature *c)
{
    int K = c->integrals;
    return c->first_region[K - 1] + c->counts[K - 1];
}

static int cpu_load(void *state, const double *lower, const double *width,
                    const long long *counts)
{
    cpu_cubature *c = ((cpu_state *)state)->cubature;
    long long count;

    memcpy(c->counts, counts, (size_t)c->integrals * sizeof *counts);
    cpu_make_tiles(c);
    c->has_parents = 0;
    count = cpu_total_regions(c);
    memset(c->held, 0, (size_t)count);
    for (int d = 0; d < c->n; d++) {
        memcpy(c->lower[c->cur] + (size_t)d * c->capacity, lower + (size_t)d * count,
               (size_t)count * sizeof(double));
        memcpy(c->width[c->cur] + (size_t)d * c->capacity, width + (size_t)d * count,
               (size_t)count * sizeof(double));
    }
    for (int k = 0; k < c->integrals; k++)
        for (long long i = 0; i < counts[k]; i++)
            c->owner[c->cur][c->first_region[k] + i] = k;
    return PAGANI_OK;
}

static int cpu_evaluate(void *state, const double *probe_below,
                        const double *probe_relative, const double *check_above)
{
    cpu_state *s = state;
    cpu_cubature *c = s->cubature;
    long long count = cpu_total_regions(c);
    int checks = 0;

    for (int k = 0; k < c->integrals; k++) checks |= c->ncomp == 1 && !isinf(check_above[k]);
    if (cpu_is_block(c->f))
        return cpu_evaluate_blocks(s, probe_below, probe_relative, check_above,
                                   checks);
#pragma omp parallel num_threads(cpu_team(s, (double)count * c->rule->npoints))
    {
        double scratch[CPU_EVAL_SCRATCH];
#pragma omp for schedule(dynamic, 64)
        for (long long i = 0; i < count; i++) {
            int k = c->owner[c->cur][i];
            if (s->ctx->stop_requested) continue; /* the rest is skipped */
            cpu_evaluate_region(c, i, probe_below[k], probe_relative[k], scratch,
                                NULL);
        }
        /* the checks read a region's sibling: after every evaluation */
        if (checks) {
#pragma omp for schedule(dynamic, 256)
            for (long long i = 0; i < count; i++) {
                if (s->ctx->stop_requested) continue;
                cpu_check_region(c, i, check_above[c->owner[c->cur][i]], scratch,
                                 NULL);
            }
        }
    }
    return pagani_stop_point(s->ctx);
}

static void sums_merge(cubature_sums *into, const cubature_sums *part)
{
    into->value += part->value;
    into->error += part->error;
    into->active_value += part->active_value;
    into->active_error += part->active_error;
    pagani_error_parts_merge(&into->parts, &part->parts);
    if (part->active > 0) {
        if (into->active == 0 || part->min_error < into->min_error)
            into->min_error = part->min_error;
        if (into->active == 0 || part->max_error > into->max_error)
            into->max_error = part->max_error;
    }
    into->active += part->active;
    if (into->nonfinite_region < 0 && part->nonfinite_region >= 0) {
        into->nonfinite_region = part->nonfinite_region;
        into->nonfinite_point = part->nonfinite_point;
    }
}

static void sums_clear(cubature_sums *s)
{
    memset(s, 0, sizeof *s);
    s->nonfinite_region = -1;
}

/* Classifies the regions [start, end) of integral k as its request says
 * (two-level error first when it has parents: start is even, every
 * stretch being even then) and sums them into *p. */
static void classify_tile(cpu_cubature *c, long long start, long long end,
                          int k, const classify_request *q, cubature_sums *p)
{
    sums_clear(p);
    if (q->has_parents && c->ncomp > 1)
        cpu_vector_two_level(c, start, end, k);
    else if (q->has_parents)
        for (long long j = start / 2; j < end / 2; j++)
            if (!c->held[2 * j]) /* a held pair's E is refined already */
                cpu_two_level(c->value + 2 * j, c->error + 2 * j, c->parent_value[j],
                          c->error_sign + 2 * j);
    for (long long i = start; i < end; i++) {
        double v = c->value[i], e = c->error[i];
        int act = pagani_classify_active(q, v, e), checked = c->error_sign[i] & PAGANI_SIGN_CHECKED;
        c->active[i] = (unsigned char)act;
        p->value += v;
        p->error += e;
        pagani_error_parts_add(&p->parts, c->error_sign[i], v, e,
                               checked ? c->check_diff[i] : 0.0,
                               checked ? c->check_var[i] : 0.0);
        /* a held region's calls were counted in its own list */
        if (!c->held[i]) p->parts.graded_calls += c->graded_calls[i];
        if (act) {
            if (p->active == 0 || e < p->min_error) p->min_error = e;
            if (p->active == 0 || e > p->max_error) p->max_error = e;
            p->active_value += v;
            p->active_error += e;
            p->active++;
        }
        if (p->nonfinite_region < 0 && c->bad_point[i] >= 0) {
            p->nonfinite_region = i;
            p->nonfinite_point = c->bad_point[i];
        }
    }
}

static int cpu_classify(void *state, const classify_request *requests,
                        cubature_sums *sums, double *components)
{
    cpu_state *s = state;
    cpu_cubature *c = s->cubature;
    cubature_sums *part = c->tile_sums;

#pragma omp parallel for schedule(static) num_threads(cpu_team(s, (double)cpu_total_regions(c)))
    for (long long t = 0; t < c->tiles; t++) {
        int k = c->tile_owner[t];
        if (!requests[k].classify) continue;
        classify_tile(c, c->tile_start[t], cpu_tile_end(c, t, k), k, &requests[k],
                      &part[t]);
        if (components) cpu_vector_tile_sums(c, t, NULL);
    }
    for (int k = 0; k < c->integrals; k++) {
        if (!requests[k].classify) continue;
        sums_clear(&sums[k]);
        for (long long t = c->first_tile[k]; t < c->first_tile[k + 1]; t++)
            sums_merge(&sums[k], &part[t]);
        if (components)
            cpu_vector_merge(c, k, components + 2 * (size_t)c->ncomp * k);
    }
    return PAGANI_OK;
}

/* Statistics of integral k's active regions with E <= threshold: its
 * tiles' partial sums on the team, then added in tile order. */
static void threshold_stats_of(void *state, int k, double threshold,
                               threshold_stats *stats)
{
    cpu_state *s = state;
    cpu_cubature *c = s->cubature;
    long long first = c->first_tile[k], tiles = c->first_tile[k + 1] - first;
    threshold_stats *part = c->tile_stats + first;

#pragma omp parallel for schedule(static) num_threads(cpu_team(s, (double)c->counts[k]))
    for (long long t = 0; t < tiles; t++) {
        threshold_stats p = {0, 0.0, 0.0};
        for (long long i = c->tile_start[first + t]; i < cpu_tile_end(c, first + t, k); i++) {
            if (c->active[i] && c->error[i] <= threshold) {
                p.count++;
                p.value += c->value[i];
                p.error += c->error[i];
            }
        }
        part[t] = p;
    }
    memset(stats, 0, sizeof *stats);
    for (long long t = 0; t < tiles; t++) {
        stats->count += part[t].count;
        stats->value += part[t].value;
        stats->error += part[t].error;
    }
}

static int cpu_threshold_stats(void *state, int queries, const int *integrals,
                               const double *thresholds, threshold_stats *stats)
{
    for (int q = 0; q < queries; q++)
        threshold_stats_of(state, integrals[q], thresholds[q], &stats[q]);
    return PAGANI_OK;
}

static int keeps(const cpu_cubature *c, long long i, double threshold)
{
    return c->active[i] && c->error[i] > threshold;
}

void cpu_split_region(cpu_cubature *c, long long i, long long j)
{
    const int nxt = 1 - c->cur;
    const size_t cap = (size_t)c->capacity;
    for (int d = 0; d < c->n; d++) {
        double lo = c->lower[c->cur][d * cap + i], w = c->width[c->cur][d * cap + i];
        double *nlo = c->lower[nxt] + d * cap, *nw = c->width[nxt] + d * cap;
        if (d == c->axis[i]) {
            nlo[2 * j] = lo;
            nlo[2 * j + 1] = lo + w / 2;
            nw[2 * j] = nw[2 * j + 1] = w / 2;
        } else {
            nlo[2 * j] = nlo[2 * j + 1] = lo;
            nw[2 * j] = nw[2 * j + 1] = w;
        }
    }
    c->owner[nxt][2 * j] = c->owner[nxt][2 * j + 1] = c->owner[c->cur][i];
    c->held[2 * j] = c->held[2 * j + 1] = 0;
    c->parent_value[j] = c->value[i];
    if (c->ncomp > 1) cpu_vector_parent(c, i, j);
}

static int cpu_filter_split(void *state, const double *thresholds,
                            long long *new_counts, double *finished)
{
    cpu_state *s = state;
    cpu_cubature *c = s->cubature;
    double work = (double)cpu_total_regions(c);
    long long total = 0;

#pragma omp parallel for schedule(static) num_threads(cpu_team(s, work))
    for (long long t = 0; t < c->tiles; t++) {
        int k = c->tile_owner[t];
        long long kept = 0;
        for (long long i = c->tile_start[t]; i < cpu_tile_end(c, t, k); i++)
            kept += keeps(c, i, thresholds[k]);
        c->tile_kept[t] = kept;
        if (finished && isfinite(thresholds[k]))
            cpu_vector_tile_sums(c, t, &thresholds[k]);
    }
    for (int k = 0; finished && k < c->integrals; k++)
        if (isfinite(thresholds[k]))
            cpu_vector_merge(c, k, finished + 2 * (size_t)c->ncomp * k);
    for (int k = 0; k < c->integrals; k++) { /* exclusive scan, per integral */
        long long before = total;
        total = cpu_tile_scan(c->tile_kept, c->first_tile[k], c->first_tile[k + 1], total);
        new_counts[k] = 2 * (total - before);
    }
    if (2 * total > c->capacity)
        return pagani_fail(s->ctx, PAGANI_ERR_NO_MEMORY,
                           "split of %lld regions exceeds the capacity %lld",
                           total, c->capacity);
#pragma omp parallel for schedule(static) num_threads(cpu_team(s, work))
    for (long long t = 0; t < c->tiles; t++) {
        int k = c->tile_owner[t];
        long long j = c->tile_kept[t];
        for (long long i = c->tile_start[t]; i < cpu_tile_end(c, t, k); i++)
            if (keeps(c, i, thresholds[k])) cpu_split_region(c, i, j++);
    }
    c->cur = 1 - c->cur;
    c->has_parents = 1;
    memcpy(c->counts, new_counts, (size_t)c->integrals * sizeof *new_counts);
    cpu_make_tiles(c);
    return PAGANI_OK;
}

static int cpu_region_point(void *state, long long region, int point, double *x)
{
    cpu_cubature *c = ((cpu_state *)state)->cubature;
    double lo[PAGANI_MAX_DIM], w[PAGANI_MAX_DIM];
    cpu_region_box(c, region, lo, w);
    pagani_rule_point(c->rule, point, lo, w, x);
    return PAGANI_OK;
}

const cubature_ops pagani_cpu_cubature_ops = {
    cpu_setup,
    cpu_load,
    cpu_vector_set_weights,
    cpu_evaluate,
    cpu_classify,
    cpu_threshold_stats,
    cpu_filter_split,
    cpu_region_point,
    cpu_bytes_per_region,
    cpu_hold_split,
    cpu_kept_errors,
    cpu_export_regions,
    cpu_import_regions,
};
