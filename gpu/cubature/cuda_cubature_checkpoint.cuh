/*
 * cuda_cubature_checkpoint.cuh - the region list copied out to a
 * checkpoint and back (backend.h: export_regions, import_regions), a
 * chunk at a time through the state's pinned staging (chunk_make): the
 * device list's entries (lower corners, halving levels, parents' split
 * axes and values) are copied with one 2-D copy per array, a DMA at the
 * link's speed, and turned into the regions' boxes on the host, and
 * back. (A kernel could make the boxes on the device, but where a full
 * list leaves no room for them, and the copy would carry 16 n + 4
 * bytes a region where the entries carry 5 n + 4.5.) Included by
 * cuda_cubature.cu only, after new_layout.
 *
 * After a split the list holds parents (cuda_cubature.cu): pair j of the
 * chunk is entry first / 2 + j. Its children's boxes give it back
 * exactly: the lower child's corner is the parent's, the children's
 * levels are the parent's but one more along the split axis, and that
 * axis is the one along which their corners differ, or, when the upper
 * child's corner rounded to the lower's, one along which the lower's
 * corner plus its width rounds to that corner (any such axis gives the
 * same children's boxes: that is all the axis is used for).
 */

/* One chunk's entries' corners, levels and split axes in the staging. */
typedef struct chunk_entries {
    double *lower;      /* n x entries */
    short *level;       /* n x entries */
    signed char *axis;  /* entries */
    double *parent;     /* V per entry, then ncomp V_c per entry */
} chunk_entries;

/* Lays e out in the state's staging for `entries` entries: page-locked
 * host memory (cudaHostAlloc, freed with the state), allocated when the
 * first chunk comes and again only for a larger one, so that a chunk
 * costs no allocation and its copies no pass through the driver's
 * pageable staging. */
static int chunk_make(cuda_state *st, long long entries, chunk_entries *e)
{
    cuda_cubature *c = st->cubature;
    const size_t m = (size_t)entries, n = (size_t)c->n;
    const size_t rows = (size_t)pagani_parent_rows(c->vec.ncomp);
    const size_t lower = align_up(n * m * sizeof(double));
    const size_t level = align_up(n * m * sizeof(short)), axis = align_up(m);
    const size_t need = lower + level + axis + rows * m * sizeof(double);
    char *base;

    if (need > c->staging_bytes) {
        if (c->staging) cudaFreeHost(c->staging);
        c->staging = NULL;
        c->staging_bytes = 0;
        CUDA_TRY(st->ctx, cudaHostAlloc(&c->staging, need, cudaHostAllocDefault));
        c->staging_bytes = need;
    }
    base = (char *)c->staging;
    e->lower = (double *)base;
    e->level = (short *)(base + lower);
    e->axis = (signed char *)(base + lower + level);
    e->parent = (double *)(base + lower + level + axis);
    return PAGANI_OK;
}

/* Copies `bytes` per row of `rows` rows between a device array of
 * row pitch `pitch` bytes (from its element `at` of `size` bytes) and a
 * packed host array. */
static int copy_rows(cuda_state *st, void *host, void *device, size_t pitch,
                     long long at, size_t size, size_t bytes, int rows, int upload)
{
    char *dev = (char *)device + (size_t)at * size;
    if (bytes == 0 || rows == 0) return PAGANI_OK;
    if (upload)
        CUDA_TRY(st->ctx, cudaMemcpy2DAsync(dev, pitch, host, bytes, bytes, (size_t)rows,
                                            cudaMemcpyHostToDevice, st->stream));
    else
        CUDA_TRY(st->ctx, cudaMemcpy2DAsync(host, bytes, dev, pitch, bytes, (size_t)rows,
                                            cudaMemcpyDeviceToHost, st->stream));
    return PAGANI_OK;
}

/* Moves the entries [at, at + m) between the device list and e (parents:
 * also their split axes and values). */
static int move_entries(cuda_state *st, chunk_entries *e, long long at, long long m,
                        int parents, int upload)
{
    cuda_cubature *c = st->cubature;
    const size_t C = (size_t)c->vec.ncomp, M = (size_t)m;
    const size_t stride = (size_t)c->stride;
    int rc = copy_rows(st, e->lower, c->lower[c->cur], stride * sizeof(double), at,
                       sizeof(double), M * sizeof(double), c->n, upload);
    if (rc == PAGANI_OK)
        rc = copy_rows(st, e->level, c->level[c->cur], stride * sizeof(short), at,
                       sizeof(short), M * sizeof(short), c->n, upload);
    if (rc == PAGANI_OK && parents)
        rc = copy_rows(st, e->axis, c->parent_axis[c->cur], M, at, 1, M, 1, upload);
    if (rc == PAGANI_OK && parents)
        rc = copy_rows(st, e->parent, c->parent, M * sizeof(double), at,
                       sizeof(double), M * sizeof(double), 1, upload);
    if (rc == PAGANI_OK && parents && C > 1)
        rc = copy_rows(st, e->parent + M, c->vec.parent, M * C * sizeof(double), at,
                       C * sizeof(double), M * C * sizeof(double), 1, upload);
    if (rc == PAGANI_OK) CUDA_TRY(st->ctx, cudaStreamSynchronize(st->stream));
    return rc;
}

/* The integral of region i, walking from *k (regions ascend). */
static int integral_at(const cuda_cubature *c, long long i, int *k, long long *end)
{
    while (i >= *end) *end += c->counts[++*k];
    return *k;
}

/* The integral of the chunk's first region, and where it ends. */
static void integral_start(const cuda_cubature *c, long long first, int *k, long long *end)
{
    *k = 0;
    *end = c->counts[0];
    integral_at(c, first, k, end);
}

/* Powers 2^-i of the export's widths: w0 2^-level is one product, exact
 * as ldexp (2^-i is a normal double; the product rounds once, as ldexp
 * does), several times faster; ldexp beyond. */
#define POWERS 1023

/* The boxes of the regions [first, first + count) (pagani_gpu_child_box
 * of their entries), axis by axis: a row of the corners and widths at a
 * time, not every row at once (whose power-of-two strides the cache
 * cannot hold). */
static int cu_export_regions(void *state, long long first, long long count, double *lower,
                             double *width, double *parents)
{
    cuda_state *st = (cuda_state *)state;
    cuda_cubature *c = st->cubature;
    const int n = c->n, rows = pagani_parent_rows(c->vec.ncomp);
    const int implicit = parents != NULL;
    const long long entries = implicit ? count / 2 : count;
    const size_t M = (size_t)entries, C = (size_t)c->vec.ncomp;
    double power[POWERS];
    chunk_entries e;
    long long end;
    int rc, k;

    if (count <= 0) return PAGANI_OK;
    if (implicit != c->implicit)
        return pagani_fail(st->ctx, PAGANI_ERR_OPTION, "checkpoint: the list %s parents",
                           c->implicit ? "holds" : "holds no");
    if ((rc = chunk_make(st, entries, &e)) != PAGANI_OK) return rc;
    rc = move_entries(st, &e, implicit ? first / 2 : first, entries, implicit, 0);
    for (int i = 0; i < POWERS; i++) power[i] = ldexp(1.0, -i);
    for (int d = 0; rc == PAGANI_OK && d < n; d++) { /* row by row */
        integral_start(c, first, &k, &end);
        for (long long r = 0; r < count; r++) {
            const long long j = implicit ? r / 2 : r;
            const int split = implicit ? e.axis[j] : -1;
            const int level = pagani_gpu_child_level(d, split, e.level[(size_t)d * M + j]);
            const double w0 = c->initial_host[(size_t)integral_at(c, first + r, &k, &end) * n + d];
            double l = e.lower[(size_t)d * M + j];
            const double w = (unsigned)level < POWERS ? w0 * power[level] : ldexp(w0, -level);
            if (d == split && (r & 1)) l += w; /* pagani_gpu_child_box's */
            lower[(size_t)d * count + r] = l;
            width[(size_t)d * count + r] = w;
        }
    }
    for (long long j = 0; implicit && j < entries; j++) {
        parents[j] = e.parent[j];
        for (size_t comp = 0; rows > 1 && comp < C; comp++)
            parents[(1 + comp) * M + j] = e.parent[M + (size_t)j * C + comp];
    }
    return rc;
}

/* The split axis of the parent of the pair whose lower child has corner
 * lo and widths w (stride R) and levels `level` (stride M), the upper
 * child corner hi (see above). */
static int pair_axis(int n, const double *lo, const double *hi, const double *w,
                     const short *level, size_t R, size_t M)
{
    for (int d = 0; d < n; d++)
        if (lo[(size_t)d * R] != hi[(size_t)d * R]) return d;
    for (int d = 0; d < n; d++)
        if (level[(size_t)d * M] > 0 && lo[(size_t)d * R] + w[(size_t)d * R] == lo[(size_t)d * R])
            return d;
    return 0;
}

/* The level of width w of initial width w0 (w = w0 / 2^level exactly). */
static short level_of(double w0, double w)
{
    int e;
    frexp(w0 / w, &e);
    return (short)(e - 1);
}

static int cu_import_regions(void *state, const long long *counts, long long first,
                             long long count, const double *lower, const double *width,
                             const double *parents)
{
    cuda_state *st = (cuda_state *)state;
    cuda_cubature *c = st->cubature;
    const int n = c->n, K = c->integrals, rows = pagani_parent_rows(c->vec.ncomp);
    const int implicit = parents != NULL;
    const long long entries = implicit ? count / 2 : count;
    const size_t M = (size_t)entries, C = (size_t)c->vec.ncomp, R = (size_t)count;
    long long total = 0, end;
    chunk_entries e;
    int rc, k;

    for (int j = 0; j < K; j++) total += counts[j];
    if (total > c->capacity || (implicit ? total / 2 : total) > c->stride)
        return pagani_fail(st->ctx, PAGANI_ERR_NO_MEMORY, "a list of %lld regions "
                           "exceeds the capacity %lld", total, c->capacity);
    if (first == 0) {
        memcpy(c->counts, counts, (size_t)K * sizeof *counts);
        c->implicit = implicit;
        if ((rc = new_layout(st)) != PAGANI_OK) return rc;
    }
    if (count <= 0) return PAGANI_OK;
    if ((rc = chunk_make(st, entries, &e)) != PAGANI_OK) return rc;
    integral_start(c, first, &k, &end);
    for (long long j = 0; j < entries; j++) {
        const long long r = implicit ? 2 * j : j; /* its (lower) region */
        int axis;
        integral_at(c, first + r, &k, &end);
        for (int d = 0; d < n; d++) {
            e.level[(size_t)d * M + j] = level_of(c->initial_host[(size_t)k * n + d],
                                                  width[(size_t)d * R + r]);
            e.lower[(size_t)d * M + j] = lower[(size_t)d * R + r];
        }
        if (!implicit) continue;
        /* the parent's: one level less along its split axis */
        axis = pair_axis(n, lower + r, lower + r + 1, width + r, e.level + j, R, M);
        e.level[(size_t)axis * M + j]--;
        e.axis[j] = (signed char)axis;
        e.parent[j] = parents[j];
        for (size_t comp = 0; rows > 1 && comp < C; comp++)
            e.parent[M + (size_t)j * C + comp] = parents[(1 + comp) * M + j];
    }
    return move_entries(st, &e, implicit ? first / 2 : first, entries, implicit, 1);
}
