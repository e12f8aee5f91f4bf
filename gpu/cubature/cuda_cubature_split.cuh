/*
 * cuda_cubature_split.cuh - FILTER_SPLIT on the GPU (the host side of
 * cubature_split.cuh): the kept counts, the scan and the split into the
 * next list; and region_point, a point of one region for an error
 * message. Included by cuda_cubature.cu only, after the threshold
 * statistics (known_kept reads what they counted).
 */

/* ---- FILTER_SPLIT ---------------------------------------------------- */

/* Regions of integral k that a split at threshold t keeps, when the host
 * knows it (from classify, the sorted copy or the last count on the
 * device), else -1. */
static long long known_kept(const cuda_cubature *c, int k, double t)
{
    const long long active = c->active_counts[k];
    threshold_stats below;

    if (c->counts[k] == 0 || t == HUGE_VAL) return 0;
    if (active < 0) return -1;
    if (t < 0) return active;
    if (c->counts[k] <= HOST_STATS_MAX && c->sorted_at == SORTED_ON_HOST) {
        sorted_stats(c, k, t, &below);
        return active - below.count;
    }
    if (c->device_counts[k] >= 0 && c->device_thresholds[k] == t)
        return active - c->device_counts[k];
    return -1;
}

/* The new region counts from the kept flags' scan on the device (one
 * wait), when the host does not know them. */
static int fetch_kept(cuda_state *st, long long *new_counts)
{
    cuda_cubature *c = st->cubature;
    const int K = c->integrals;
    const long long *next = (const long long *)c->results_host;
    int rc = ensure_layout(st);

    if (rc != PAGANI_OK) return rc;
    split_offsets_kernel<<<(unsigned)((K + RED_THREADS) / RED_THREADS), RED_THREADS, 0,
                           st->stream>>>(c->offsets, K, c->scan,
                                         (long long *)c->results_dev);
    CUDA_TRY(st->ctx, cudaGetLastError());
    if ((rc = fetch_results(st, ((size_t)K + 1) * sizeof(long long))) != PAGANI_OK)
        return rc;
    for (int k = 0; k < K; k++) new_counts[k] = next[k + 1] - next[k];
    return PAGANI_OK;
}

static int cu_filter_split(void *state, const double *thresholds, long long *new_counts,
                           double *finished)
{
    cuda_state *st = (cuda_state *)state;
    cuda_cubature *c = st->cubature;
    pagani_context *ctx = st->ctx;
    const int K = c->integrals, nxt = 1 - c->cur;
    const long long count = c->count;
    tiling tl = all_tiles(c, 0);
    long long kept = 0;
    size_t temp = c->temp_bytes;
    int known = 1, rc;

    c->sort_ahead = c->sorted_wanted; /* for the next iteration's classify */
    c->sorted_wanted = 0;
    for (int k = 0; k < K; k++) {
        long long mine = known_kept(c, k, thresholds[k]);
        known &= mine >= 0;
        new_counts[k] = 2 * mine;
        kept += mine;
    }
    /* several components: the dropped regions' sums while the active flags
     * are classify's */
    if (c->vec.ncomp > 1 && finished &&
        (rc = vector_finished_sums(st, thresholds, finished)) != PAGANI_OK)
        return rc;
    if (count > 0) {
        const kept_flag keep = {c->active, c->error, K > 1 ? -1.0 : thresholds[0], count};
        const split_args args = {c->n, c->stride, c->implicit, c->offsets, K, c->initial,
                                 c->lower[c->cur], c->level[c->cur], c->parent_axis[c->cur],
                                 c->lower[nxt], c->level[nxt], c->parent_axis[nxt], c->axis,
                                 c->value, c->parent};
        /* A short list's scan and split in one launch, unless the host
         * must read the counts (capacity) or a vector integrand's parents
         * come first. */
        const int one_launch = count + 1 <= SHORT_SPLIT_MAX && known && c->vec.ncomp <= 1;
        kept_iter it(thrust::counting_iterator<int>(0), keep);
        if (known && 2 * kept > c->capacity)
            return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "split of %lld regions exceeds "
                               "the capacity %lld", kept, c->capacity);
        if (K > 1) {
            CUDA_TRY(ctx, cudaMemcpyAsync(c->thresholds, thresholds,
                                          (size_t)K * sizeof(double),
                                          cudaMemcpyHostToDevice, st->stream));
            mark_kept_kernel<<<tile_blocks(tl.tiles), RED_THREADS, 0, st->stream>>>(
                tl, c->thresholds, c->error, c->active);
            CUDA_TRY(ctx, cudaGetLastError());
        }
        if (count + 1 <= SHORT_SPLIT_MAX) {
            short_split_kernel<<<(unsigned)((count + RED_THREADS) / RED_THREADS), RED_THREADS,
                                 0, st->stream>>>(args, keep, (int)count + 1, c->scan,
                                                  one_launch);
            CUDA_TRY(ctx, cudaGetLastError());
        } else {
            CUDA_TRY(ctx, cub::DeviceScan::ExclusiveSum(c->temp, temp, it, c->scan,
                                                        (int)count + 1, st->stream));
        }
        if (!known) {
            if ((rc = fetch_kept(st, new_counts)) != PAGANI_OK) return rc;
            kept = 0;
            for (int k = 0; k < K; k++) kept += new_counts[k] / 2;
            if (2 * kept > c->capacity)
                return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "split of %lld regions "
                                   "exceeds the capacity %lld", kept, c->capacity);
        }
        if (c->vec.ncomp > 1 && (rc = vector_parents(st, keep)) != PAGANI_OK) return rc;
        if (!one_launch) {
            split_kernel<<<(unsigned)((count + RED_THREADS - 1) / RED_THREADS), RED_THREADS, 0,
                           st->stream>>>(args, count, c->scan, keep);
            CUDA_TRY(ctx, cudaGetLastError());
        }
        c->cur = nxt;
        c->implicit = 1;
    }
    memcpy(c->counts, new_counts, (size_t)K * sizeof *new_counts);
    return new_layout(st);
}

static int cu_region_point(void *state, long long region, int point, double *x)
{
    cuda_state *st = (cuda_state *)state;
    cuda_cubature *c = st->cubature;
    double lo[PAGANI_MAX_DIM], w[PAGANI_MAX_DIM];
    long long src = c->implicit ? region >> 1 : region;
    const int k = pagani_gpu_integral_of(c->layout, c->integrals, region);
    signed char split = -1;

    if (region < 0 || region >= c->count)
        return pagani_fail(st->ctx, PAGANI_ERR_OPTION, "region %lld of a list of %lld",
                           region, c->count);
    if (c->implicit)
        CUDA_TRY(st->ctx, cudaMemcpy(&split, c->parent_axis[c->cur] + src, 1,
                                     cudaMemcpyDeviceToHost));
    for (int d = 0; d < c->n; d++) {
        short level;
        CUDA_TRY(st->ctx, cudaMemcpy(&lo[d], c->lower[c->cur] + d * c->stride + src,
                                     sizeof(double), cudaMemcpyDeviceToHost));
        CUDA_TRY(st->ctx, cudaMemcpy(&level, c->level[c->cur] + d * c->stride + src,
                                     sizeof level, cudaMemcpyDeviceToHost));
        pagani_gpu_child_box(d, split, (int)(region & 1), c->initial_host[k * c->n + d],
                             level, &lo[d], &w[d]);
    }
    pagani_rule_point(c->rule, point, lo, w, x);
    return PAGANI_OK;
}
