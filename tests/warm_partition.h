/*
 * warm_partition.h - for bench_warm_cubature: a measurement of cubature
 * warm starts (issue 34) made outside the library, the way op_profile.h
 * times the backend operations: the context's cubature operations are
 * wrapped so that a run of integral 0 leaves its final partition (every
 * region it finished, with the axes of its last splits), and a run can
 * load a partition in place of the uniform split.
 *
 * The capture reads the list through export_regions around every split
 * (filter_split, hold_split), on any backend: a region of the old list
 * that is neither a parent of a pair of the new list nor held in it
 * (the same box) was dropped, a leaf of the final partition. A pair's
 * axis is where its children's corners differ; a region's history keeps
 * the axes of its last 8 splits, so that a partition can be coarsened
 * exactly: each leaf replaced by its ancestor `up` splits above, and of
 * those the largest kept (tree nodes nest or are disjoint, so the
 * maximal ones tile the box).
 *
 * A warm run loads the uniform split as the driver asks and then
 * replaces it (import_regions, as a checkpoint's resume does).
 * The driver counts the first iteration's evaluations for the uniform
 * split it believes it loaded (its regions' rule points and probes; the
 * randomized checks are counted from the backend's sums):
 * warm_evaluations corrects a warm run's count. The wrappers' own time
 * (host copies, hashing) is kept in warm_overhead, to take from the
 * call's seconds.
 */
#ifndef PAGANI_WARM_PARTITION_H
#define PAGANI_WARM_PARTITION_H

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "internal.h"

/* Regions as boxes (row i: lower[n], width[n]) and their split axes
 * (the last in the low byte, axis + 1; 0: none known). */
typedef struct warm_boxes {
    int n;
    long long count, size;
    double *box;
    unsigned long long *history;
} warm_boxes;

static const cubature_ops *warm_real;
static const backend_ops *warm_saved;
static cubature_ops warm_ops;
static backend_ops warm_backend;
static int warm_n;
static long long warm_count;        /* regions of the current list */
static warm_boxes warm_list;        /* the current list, by box */
static warm_boxes warm_leaves;      /* what the run dropped so far */
static const warm_boxes *warm_start; /* loaded instead of the split, or NULL */
static long long warm_uniform;      /* regions of the split it replaced */
static double warm_overhead;        /* seconds in the wrappers' own work */
static int warm_failed;             /* a wrapper ran out of memory */

static double warm_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int warm_reserve(warm_boxes *b, long long count)
{
    double *box;
    unsigned long long *history;
    if (count <= b->size) return 1;
    if (count < 2 * b->size) count = 2 * b->size;
    box = realloc(b->box, (size_t)count * 2 * b->n * sizeof *box);
    if (box) b->box = box;
    history = realloc(b->history, (size_t)count * sizeof *history);
    if (history) b->history = history;
    if (!box || !history) {
        warm_failed = 1;
        return 0;
    }
    b->size = count;
    return 1;
}

static void warm_boxes_free(warm_boxes *b)
{
    free(b->box);
    free(b->history);
    memset(b, 0, sizeof *b);
}

static double *warm_box(const warm_boxes *b, long long i)
{
    return b->box + (size_t)i * 2 * b->n;
}

static void warm_push(warm_boxes *b, const double *box, unsigned long long history)
{
    if (!warm_reserve(b, b->count + 1)) return;
    memcpy(warm_box(b, b->count), box, 2 * (size_t)b->n * sizeof *box);
    b->history[b->count++] = history;
}

/* Order of boxes: by lower corner, then widths (exact: dyadic). */
static int warm_n_sort;
static int warm_box_order(const void *a, const void *b)
{
    const double *x = a, *y = b;
    for (int d = 0; d < 2 * warm_n_sort; d++)
        if (x[d] != y[d]) return x[d] < y[d] ? -1 : 1;
    return 0;
}

/* Sorted indices of a list's boxes, for lookups. */
static long long *warm_sorted;
static const warm_boxes *warm_sorted_of;
static int warm_index_order(const void *a, const void *b)
{
    return warm_box_order(warm_box(warm_sorted_of, *(const long long *)a),
                          warm_box(warm_sorted_of, *(const long long *)b));
}
static int warm_key_order(const void *key, const void *b)
{
    return warm_box_order(key, warm_box(warm_sorted_of, *(const long long *)b));
}
static void warm_sort(const warm_boxes *b)
{
    free(warm_sorted);
    warm_sorted = malloc((size_t)(b->count ? b->count : 1) * sizeof *warm_sorted);
    if (!warm_sorted) {
        warm_failed = 1;
        return;
    }
    for (long long i = 0; i < b->count; i++) warm_sorted[i] = i;
    warm_sorted_of = b;
    warm_n_sort = b->n;
    qsort(warm_sorted, (size_t)b->count, sizeof *warm_sorted, warm_index_order);
}
/* The index in the sorted list of a box, or -1. */
static long long warm_find(const double *box)
{
    const long long *hit;
    if (!warm_sorted) return -1;
    hit = bsearch(box, warm_sorted, (size_t)warm_sorted_of->count,
                  sizeof *warm_sorted, warm_key_order);
    return hit ? *hit : -1;
}

/* The backend's list (count regions) into boxes, histories unset;
 * `pairs`: the list holds a split's children (a device backend exports
 * them with their parents' values, one row of count / 2 for a scalar
 * integrand, which are not kept here). */
static int warm_export(void *s, long long count, int pairs, warm_boxes *into)
{
    const int n = warm_n;
    const size_t most = (size_t)(count ? count : 1);
    double *lo = malloc(most * n * sizeof *lo), *w = malloc(most * n * sizeof *w);
    double *parents = pairs ? malloc(most * sizeof *parents) : NULL;
    int rc = lo && w && (parents || !pairs)
                 ? warm_real->export_regions(s, 0, count, lo, w, parents)
                 : PAGANI_ERR_NO_MEMORY;
    into->n = n;
    into->count = 0;
    for (long long i = 0; rc == PAGANI_OK && i < count; i++) {
        double box[2 * PAGANI_MAX_DIM];
        for (int d = 0; d < n; d++) {
            box[d] = lo[(size_t)d * count + i];
            box[n + d] = w[(size_t)d * count + i];
        }
        warm_push(into, box, 0);
    }
    free(lo);
    free(w);
    free(parents);
    return warm_failed ? PAGANI_ERR_NO_MEMORY : rc;
}

/* After a split: the old list's regions that are neither a new pair's
 * parent nor held join the leaves; the new list takes its histories. */
static int warm_after_split(void *s, long long new_count)
{
    const int n = warm_n;
    warm_boxes next = {0};
    unsigned char *kept = calloc((size_t)(warm_list.count ? warm_list.count : 1), 1);
    int rc = kept ? warm_export(s, new_count, 1, &next) : PAGANI_ERR_NO_MEMORY;

    warm_sort(&warm_list);
    for (long long i = 0; rc == PAGANI_OK && i < next.count; i++) {
        double *box = warm_box(&next, i), parent[2 * PAGANI_MAX_DIM];
        long long old = warm_find(box);
        int axis = 0;
        if (old >= 0) { /* held: the same box */
            kept[old] = 1;
            next.history[i] = warm_list.history[old];
            continue;
        }
        /* children come in pairs 2j, 2j + 1, before the held regions */
        const double *other = warm_box(&next, i ^ 1);
        while (axis < n && box[axis] == other[axis]) axis++;
        memcpy(parent, box, 2 * (size_t)n * sizeof *box);
        if (axis < n) {
            parent[axis] = box[axis] < other[axis] ? box[axis] : other[axis];
            parent[n + axis] = 2 * box[n + axis];
        }
        old = warm_find(parent);
        if (old < 0) { /* not a child of the old list: cannot happen */
            rc = PAGANI_ERR_SYSTEM;
            break;
        }
        kept[old] = 1;
        next.history[i] = warm_list.history[old] << 8 | (unsigned)(axis + 1);
    }
    for (long long i = 0; rc == PAGANI_OK && i < warm_list.count; i++)
        if (!kept[i]) warm_push(&warm_leaves, warm_box(&warm_list, i), warm_list.history[i]);
    free(kept);
    warm_boxes_free(&warm_list);
    warm_list = next;
    warm_count = new_count;
    return warm_failed ? PAGANI_ERR_NO_MEMORY : rc;
}

/* Loads the uniform split (a device backend learns the initial widths
 * from it) and, with a warm start, puts the partition in its place with
 * import_regions (no parents: the first iteration's errors are raw, as
 * after the split). */
static int warm_load(void *s, const double *lower, const double *width,
                     const long long *counts)
{
    const warm_boxes *from = warm_start;
    const long long m = from ? from->count : counts[0];
    double *lo = NULL, *w = NULL, t0;
    int rc = warm_real->load(s, lower, width, counts);

    t0 = warm_now();
    warm_boxes_free(&warm_list);
    warm_list.n = warm_leaves.n = warm_n;
    warm_leaves.count = 0;
    warm_uniform = counts[0];
    warm_count = m;
    if (rc == PAGANI_OK && !from) rc = warm_export(s, m, 0, &warm_list);
    if (rc != PAGANI_OK || !from) {
        warm_overhead += warm_now() - t0;
        return rc;
    }
    lo = malloc((size_t)m * warm_n * sizeof *lo);
    w = malloc((size_t)m * warm_n * sizeof *w);
    for (long long i = 0; lo && w && i < m; i++) {
        warm_push(&warm_list, warm_box(from, i), from->history[i]);
        for (int d = 0; d < warm_n; d++) {
            lo[(size_t)d * m + i] = warm_box(from, i)[d];
            w[(size_t)d * m + i] = warm_box(from, i)[warm_n + d];
        }
    }
    warm_overhead += warm_now() - t0;
    rc = lo && w && !warm_failed
             ? warm_real->import_regions(s, &m, 0, m, lo, w, NULL)
             : PAGANI_ERR_NO_MEMORY;
    free(lo);
    free(w);
    return rc;
}

static int warm_filter_split(void *s, const double *t, long long *nc, double *dropped)
{
    int rc = warm_real->filter_split(s, t, nc, dropped);
    double t0 = warm_now();
    if (rc == PAGANI_OK) rc = warm_after_split(s, nc[0]);
    warm_overhead += warm_now() - t0;
    return rc;
}

static int warm_hold_split(void *s, const double *t, const double *above,
                           const double *largest, long long *nc, long long *checked)
{
    int rc = warm_real->hold_split(s, t, above, largest, nc, checked);
    double t0 = warm_now();
    if (rc == PAGANI_OK) rc = warm_after_split(s, nc[0]);
    warm_overhead += warm_now() - t0;
    return rc;
}

/* Wraps ctx's cubature operations for integrands of n coordinates (a
 * batch of one integral; on a backend with export_regions). */
static void warm_on(pagani_context *ctx, int n)
{
    warm_n = n;
    warm_real = ctx->backend->cubature;
    warm_ops = *warm_real;
    warm_ops.load = warm_load;
    warm_ops.filter_split = warm_filter_split;
    if (warm_real->hold_split) warm_ops.hold_split = warm_hold_split;
    warm_saved = ctx->backend;
    warm_backend = *ctx->backend;
    warm_backend.cubature = &warm_ops;
    ctx->backend = &warm_backend;
}

static void warm_off(pagani_context *ctx)
{
    ctx->backend = warm_saved;
    warm_boxes_free(&warm_list);
    warm_boxes_free(&warm_leaves);
    free(warm_sorted);
    warm_sorted = NULL;
}

/* Volume of a box of n coordinates (lower corner, then widths). */
static double warm_volume(const double *box, int n)
{
    double v = 1.0;
    for (int d = 0; d < n; d++) v *= box[n + d];
    return v;
}

static int warm_larger_first(const void *a, const void *b)
{
    double va = warm_volume(a, warm_n_sort), vb = warm_volume(b, warm_n_sort);
    if (va != vb) return va > vb ? -1 : 1;
    return warm_box_order(a, b);
}

/* The last run's final partition coarsened `up` splits (as far as each
 * leaf's history goes) into *out: the largest of the leaves' ancestors.
 * Box i's lower corner and widths within [lower, lower + widths) of the
 * box's own grid: a halving of width w at lower l + k w. */
static int warm_partition(int up, const double *lower, warm_boxes *out)
{
    const int n = warm_n, row = 2 * n + 1; /* box, then its history */
    const long long m = warm_leaves.count;
    double *cand = malloc((size_t)(m ? m : 1) * row * sizeof *cand);
    long long kept = 0;

    if (!cand) return PAGANI_ERR_NO_MEMORY;
    out->n = n;
    out->count = 0;
    for (long long i = 0; i < m; i++) {
        double *c = cand + (size_t)i * row;
        unsigned long long h = warm_leaves.history[i];
        memcpy(c, warm_box(&warm_leaves, i), 2 * (size_t)n * sizeof *c);
        for (int level = 0; level < up && (h & 0xff); level++, h >>= 8) {
            int a = (int)(h & 0xff) - 1;
            double w = 2 * c[n + a];
            c[a] = lower[a] + floor((c[a] - lower[a]) / w) * w;
            c[n + a] = w;
        }
        memcpy(c + 2 * n, &h, sizeof h);
    }
    warm_n_sort = n;
    qsort(cand, (size_t)m, (size_t)row * sizeof *cand, warm_larger_first);
    for (long long i = 0; i < m; i++) {
        const double *c = cand + (size_t)i * row;
        int inside = 0;
        unsigned long long h;
        if (kept && !warm_box_order(c, warm_box(out, kept - 1))) continue;
        for (long long j = 0; j < kept && !inside; j++) {
            const double *a = warm_box(out, j);
            if (warm_volume(a, n) <= warm_volume(c, n)) break;
            inside = 1;
            for (int d = 0; d < n && inside; d++)
                inside = c[d] >= a[d] && c[d] + c[n + d] <= a[d] + a[n + d];
        }
        if (inside) continue;
        memcpy(&h, c + 2 * n, sizeof h);
        warm_push(out, c, h);
        kept++;
    }
    free(cand);
    return warm_failed ? PAGANI_ERR_NO_MEMORY : PAGANI_OK;
}

#endif /* PAGANI_WARM_PARTITION_H */
