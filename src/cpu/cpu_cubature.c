/*
 * cpu_cubature.c - the OpenMP implementation of the cubature operations of
 * backend.h. Every operation is one bulk pass over the region arrays.
 *
 * Reductions are summed in fixed chunks of CHUNK regions, chunk results in
 * chunk order, so the answer does not depend on the number of threads.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cpu/cpu_backend.h"
#include "rules/probe.h"

#define CHUNK 1024

struct cpu_cubature {
    int n;
    long long capacity;
    size_t allocated_regions;    /* what the buffers hold: regions, and */
    size_t allocated_coords;     /* doubles in each lower/width buffer */
    const pagani_rule *rule;
    const pagani_integrand *f;
    double *lower[2], *width[2]; /* SoA [d*capacity + i], current: cur */
    int cur;
    double *value, *error;       /* V, E per region */
    double *parent_value;        /* V of the parent of pair j */
    int *axis;                   /* split axis K */
    int *bad_point;              /* first rule point with NaN/Inf, or -1 */
    unsigned char *active;       /* A */
    long long *chunk_count;      /* scan scratch, one per chunk */
};

static void free_buffers(cpu_cubature *c)
{
    for (int b = 0; b < 2; b++) {
        free(c->lower[b]);
        free(c->width[b]);
    }
    free(c->value);
    free(c->error);
    free(c->parent_value);
    free(c->axis);
    free(c->bad_point);
    free(c->active);
    free(c->chunk_count);
}

void cpu_cubature_free(cpu_cubature *c)
{
    if (!c) return;
    free_buffers(c);
    free(c);
}

static size_t cpu_bytes_per_region(int n)
{
    return 2 * 2 * (size_t)n * sizeof(double)   /* lower, width, 2 buffers */
           + 2 * sizeof(double)                 /* value, error */
           + sizeof(double) / 2                 /* parent value per pair */
           + 2 * sizeof(int) + 1;               /* axis, bad point, active */
}

static int cpu_setup(void *state, const cubature_job *job)
{
    cpu_state *s = state;
    cpu_cubature *c = s->cubature;
    long long cap = job->capacity;
    size_t nd = (size_t)job->n * (size_t)cap;
    int rc = cpu_start_threads(s);

    if (rc != PAGANI_OK) return rc;
    if (!c || c->allocated_regions < (size_t)cap || c->allocated_coords < nd) {
        cpu_cubature_free(c);
        s->cubature = c = calloc(1, sizeof *c);
        if (!c) return pagani_fail(s->ctx, PAGANI_ERR_NO_MEMORY, "cubature state");
        for (int b = 0; b < 2; b++) {
            c->lower[b] = malloc(nd * sizeof(double));
            c->width[b] = malloc(nd * sizeof(double));
        }
        c->value = malloc((size_t)cap * sizeof(double));
        c->error = malloc((size_t)cap * sizeof(double));
        c->parent_value = malloc(((size_t)cap / 2 + 1) * sizeof(double));
        c->axis = malloc((size_t)cap * sizeof(int));
        c->bad_point = malloc((size_t)cap * sizeof(int));
        c->active = malloc((size_t)cap);
        c->chunk_count = malloc(((size_t)cap / CHUNK + 1) * sizeof(long long));
        if (!c->lower[0] || !c->lower[1] || !c->width[0] || !c->width[1] ||
            !c->value || !c->error || !c->parent_value || !c->axis ||
            !c->bad_point || !c->active || !c->chunk_count) {
            cpu_cubature_free(c);
            s->cubature = NULL;
            return pagani_fail(s->ctx, PAGANI_ERR_NO_MEMORY,
                               "cannot allocate region lists for %lld regions "
                               "in %d dimensions", cap, job->n);
        }
        c->allocated_regions = (size_t)cap;
        c->allocated_coords = nd;
    }
    c->n = job->n;
    c->capacity = cap;
    c->rule = job->rule;
    c->f = job->integrand;
    c->cur = 0;
    return PAGANI_OK;
}

static int cpu_load(void *state, const double *lower, const double *width,
                    long long count)
{
    cpu_cubature *c = ((cpu_state *)state)->cubature;
    for (int d = 0; d < c->n; d++) {
        memcpy(c->lower[c->cur] + (size_t)d * c->capacity, lower + (size_t)d * count,
               (size_t)count * sizeof(double));
        memcpy(c->width[c->cur] + (size_t)d * c->capacity, width + (size_t)d * count,
               (size_t)count * sizeof(double));
    }
    return PAGANI_OK;
}

/* Gathers region i's corner and widths from the SoA lists. */
static void region_box(const cpu_cubature *c, long long i, double *lo, double *w)
{
    for (int d = 0; d < c->n; d++) {
        lo[d] = c->lower[c->cur][(size_t)d * c->capacity + i];
        w[d] = c->width[c->cur][(size_t)d * c->capacity + i];
    }
}

/* f at point p of region i (rule_point's numbering): 0 for NaN or
 * infinity, whose first point is kept in *first_bad. */
static double f_at(const cpu_cubature *c, long long p, const double *lo,
                   const double *w, double *x, int *first_bad)
{
    double fx;
    pagani_rule_point(c->rule, p, lo, w, x);
    fx = c->f->function(x, c->n, c->f->params);
    if (isfinite(fx)) return fx;
    if (*first_bad < 0) *first_bad = (int)p;
    return 0.0;
}

/* The probes of region i (probe.h): when they see more than the rule's
 * largest |f|, rule_max, allows, raises the region's error to what they
 * saw and splits it across the axis where they differ most. scratch: 2n
 * doubles. */
static void check_probes(cpu_cubature *c, long long i, const double *lo,
                         const double *w, double volume, double rule_max,
                         double *scratch, int *first_bad)
{
    const int n = c->n;
    double *x = scratch, *side = x + n, probe_max = 0.0;
    int axis = 0;

    for (int d = 0; d < n; d++) side[d] = 0.0;
    for (int v = 0; v < c->rule->nprobes; v++) {
        double a = fabs(f_at(c, c->rule->npoints + v, lo, w, x, first_bad));
        if (a > probe_max) probe_max = a;
        for (int d = 0; d < n; d++) side[d] += (v >> d & 1) ? a : -a;
    }
    if (!pagani_probe_missed(probe_max, rule_max)) return;
    for (int d = 1; d < n; d++)
        if (fabs(side[d]) > fabs(side[axis])) axis = d;
    c->error[i] = fmax(c->error[i], volume * probe_max);
    c->axis[i] = axis;
}

/* Applies the rule to region i: V, raw E, split axis, first bad point;
 * then the probes when E <= probe_below or E <= probe_relative * |V|. */
static void evaluate_region(cpu_cubature *c, long long i, double probe_below,
                            double probe_relative, double *scratch)
{
    const pagani_rule *r = c->rule;
    const int n = c->n;
    double *lo = scratch, *w = lo + n, *x = w + n, *f_axis = x + n;
    double sums[5] = {0, 0, 0, 0, 0}, volume = 1.0, rule_max = 0.0;
    int first_bad = -1;
    long long p;

    region_box(c, i, lo, w);
    for (int d = 0; d < n; d++) volume *= w[d];
    for (p = 0; p < r->npoints; p++) {
        const double *wk = p < r->nexplicit ? r->weights + 5 * p : r->corner_weights;
        double fx = f_at(c, p, lo, w, x, &first_bad);
        if (p <= 4 * n && p < r->nexplicit) f_axis[p] = fx;
        if (fabs(fx) > rule_max) rule_max = fabs(fx);
        for (int k = 0; k < 5; k++) sums[k] += wk[k] * fx;
    }
    pagani_rule_estimate(r, sums, volume, &c->value[i], &c->error[i]);
    c->axis[i] = pagani_rule_split_axis(r, f_axis, w);
    if (c->error[i] <= probe_below || c->error[i] <= probe_relative * fabs(c->value[i]))
        check_probes(c, i, lo, w, volume, rule_max, x, &first_bad);
    c->bad_point[i] = first_bad;
}

static int cpu_evaluate(void *state, long long count, double probe_below,
                        double probe_relative)
{
    cpu_state *s = state;
    cpu_cubature *c = s->cubature;
    size_t scratch_len = 3 * (size_t)c->n + 4 * (size_t)c->n + 1;
    int failed = 0;

#pragma omp parallel num_threads(cpu_threads(s))
    {
        double *scratch = malloc(scratch_len * sizeof(double));
        if (!scratch) {
#pragma omp atomic write
            failed = 1;
        } else {
#pragma omp for schedule(dynamic, 64)
            for (long long i = 0; i < count; i++)
                evaluate_region(c, i, probe_below, probe_relative, scratch);
        }
        free(scratch);
    }
    if (failed) return pagani_fail(s->ctx, PAGANI_ERR_NO_MEMORY, "evaluation scratch");
    return PAGANI_OK;
}

/* Berntsen's two-level error for the sibling pair (2j, 2j+1). */
static void two_level_error(cpu_cubature *c, long long j)
{
    double *e = c->error + 2 * j;
    double diff = fabs(c->value[2 * j] + c->value[2 * j + 1] - c->parent_value[j]) / 4;
    double sum = e[0] + e[1];
    if (sum > 0) {
        e[0] *= 1 + 2 * diff / sum;
        e[1] *= 1 + 2 * diff / sum;
    }
    e[0] += diff;
    e[1] += diff;
}

static void sums_merge(cubature_sums *into, const cubature_sums *part)
{
    into->value += part->value;
    into->error += part->error;
    into->active_value += part->active_value;
    into->active_error += part->active_error;
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

static int cpu_classify(void *state, long long count, int has_parents,
                        int relerr_filter, double epsrel, double negligible,
                        cubature_sums *sums)
{
    cpu_state *s = state;
    cpu_cubature *c = s->cubature;
    long long nchunks = (count + CHUNK - 1) / CHUNK;
    cubature_sums *part = malloc((size_t)(nchunks > 0 ? nchunks : 1) * sizeof *part);

    if (!part) return pagani_fail(s->ctx, PAGANI_ERR_NO_MEMORY, "classify scratch");
    if (has_parents) {
#pragma omp parallel for schedule(static) num_threads(cpu_threads(s))
        for (long long j = 0; j < count / 2; j++) two_level_error(c, j);
    }
#pragma omp parallel for schedule(static) num_threads(cpu_threads(s))
    for (long long k = 0; k < nchunks; k++) {
        long long end = (k + 1) * CHUNK < count ? (k + 1) * CHUNK : count;
        cubature_sums *p = &part[k];
        sums_clear(p);
        for (long long i = k * CHUNK; i < end; i++) {
            double v = c->value[i], e = c->error[i];
            int act = e > negligible && (!relerr_filter || e > epsrel * fabs(v));
            c->active[i] = (unsigned char)act;
            p->value += v;
            p->error += e;
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
    sums_clear(sums);
    for (long long k = 0; k < nchunks; k++) sums_merge(sums, &part[k]);
    free(part);
    return PAGANI_OK;
}

static int cpu_threshold_stats(void *state, long long count, double threshold,
                               threshold_stats *stats)
{
    cpu_state *s = state;
    cpu_cubature *c = s->cubature;
    long long nchunks = (count + CHUNK - 1) / CHUNK;
    threshold_stats *part = malloc((size_t)(nchunks > 0 ? nchunks : 1) * sizeof *part);

    if (!part) return pagani_fail(s->ctx, PAGANI_ERR_NO_MEMORY, "threshold scratch");
#pragma omp parallel for schedule(static) num_threads(cpu_threads(s))
    for (long long k = 0; k < nchunks; k++) {
        long long end = (k + 1) * CHUNK < count ? (k + 1) * CHUNK : count;
        threshold_stats p = {0, 0.0, 0.0};
        for (long long i = k * CHUNK; i < end; i++) {
            if (c->active[i] && c->error[i] <= threshold) {
                p.count++;
                p.value += c->value[i];
                p.error += c->error[i];
            }
        }
        part[k] = p;
    }
    memset(stats, 0, sizeof *stats);
    for (long long k = 0; k < nchunks; k++) {
        stats->count += part[k].count;
        stats->value += part[k].value;
        stats->error += part[k].error;
    }
    free(part);
    return PAGANI_OK;
}

static int keeps(const cpu_cubature *c, long long i, double threshold)
{
    return c->active[i] && c->error[i] > threshold;
}

/* Writes the two halves of region i (split along its axis) to slots
 * 2j and 2j+1 of the other buffer. */
static void split_region(cpu_cubature *c, long long i, long long j)
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
    c->parent_value[j] = c->value[i];
}

static int cpu_filter_split(void *state, long long count, double threshold,
                            long long *new_count)
{
    cpu_state *s = state;
    cpu_cubature *c = s->cubature;
    long long nchunks = (count + CHUNK - 1) / CHUNK, total = 0;

#pragma omp parallel for schedule(static) num_threads(cpu_threads(s))
    for (long long k = 0; k < nchunks; k++) {
        long long end = (k + 1) * CHUNK < count ? (k + 1) * CHUNK : count, kept = 0;
        for (long long i = k * CHUNK; i < end; i++) kept += keeps(c, i, threshold);
        c->chunk_count[k] = kept;
    }
    for (long long k = 0; k < nchunks; k++) { /* exclusive scan */
        long long kept = c->chunk_count[k];
        c->chunk_count[k] = total;
        total += kept;
    }
    if (2 * total > c->capacity)
        return pagani_fail(s->ctx, PAGANI_ERR_NO_MEMORY,
                           "split of %lld regions exceeds the capacity %lld",
                           total, c->capacity);
#pragma omp parallel for schedule(static) num_threads(cpu_threads(s))
    for (long long k = 0; k < nchunks; k++) {
        long long end = (k + 1) * CHUNK < count ? (k + 1) * CHUNK : count;
        long long j = c->chunk_count[k];
        for (long long i = k * CHUNK; i < end; i++)
            if (keeps(c, i, threshold)) split_region(c, i, j++);
    }
    c->cur = 1 - c->cur;
    *new_count = 2 * total;
    return PAGANI_OK;
}

static int cpu_region_point(void *state, long long region, int point, double *x)
{
    cpu_cubature *c = ((cpu_state *)state)->cubature;
    double lo[PAGANI_MAX_DIM], w[PAGANI_MAX_DIM];
    region_box(c, region, lo, w);
    pagani_rule_point(c->rule, point, lo, w, x);
    return PAGANI_OK;
}

const cubature_ops pagani_cpu_cubature_ops = {
    cpu_setup,
    cpu_load,
    cpu_evaluate,
    cpu_classify,
    cpu_threshold_stats,
    cpu_filter_split,
    cpu_region_point,
    cpu_bytes_per_region,
};
