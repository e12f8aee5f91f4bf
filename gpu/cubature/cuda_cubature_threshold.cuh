/*
 * cuda_cubature_threshold.cuh - THRESHOLD_STATS on the GPU: the sorted
 * copy for integrals of up to HOST_STATS_MAX regions (cubature_sorted.cuh's
 * kernels, CUB's radix sort; each candidate threshold is then a binary
 * search on the host), a reduction on the device per candidate for larger
 * ones. Included by cuda_cubature.cu only, after the state and the
 * per-integral buffers' helpers.
 */

/* ---- THRESHOLD_STATS ------------------------------------------------- */

/* Pinned host memory for `doubles` doubles of the sorted copy, grown to
 * at least twice its size (a batch's list grows for several iterations,
 * and pinning memory is slow). */
static int host_sorted_buffer(cuda_state *st, size_t doubles)
{
    cuda_cubature *c = st->cubature;
    if (doubles <= c->host_sorted_doubles) return PAGANI_OK;
    if (doubles < 2 * c->host_sorted_doubles) doubles = 2 * c->host_sorted_doubles;
    if (c->host_sorted) cudaFreeHost(c->host_sorted);
    c->host_sorted = NULL;
    c->host_sorted_doubles = 0;
    CUDA_TRY(st->ctx, cudaMallocHost((void **)&c->host_sorted, doubles * sizeof(double)));
    c->host_sorted_doubles = doubles;
    return PAGANI_OK;
}

/* The order of the sorted copy in `*sorted_index`: by ranking for short
 * lists, else by the radix sort on the key and then (several integrals)
 * on the integral, both stable. */
static int sort_order(cuda_state *st, double *keys, size_t pitch, int *spare,
                      int **sorted_index)
{
    cuda_cubature *c = st->cubature;
    pagani_context *ctx = st->ctx;
    const long long count = c->count;
    const int K = c->integrals;
    size_t bytes = c->temp_bytes;

    if (count <= SMALL_SORT_MAX) {
        rank_kernel<<<(unsigned)((count + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK),
                      RED_THREADS, 0, st->stream>>>(c->offsets, K, c->error, c->active,
                                                    count, spare);
        CUDA_TRY(ctx, cudaGetLastError());
        *sorted_index = spare;
        return PAGANI_OK;
    }
    {
        const unsigned blocks = (unsigned)((count + RED_THREADS - 1) / RED_THREADS);
        double *other = (double *)((char *)keys + pitch);
        cub::DoubleBuffer<double> by_error(keys, other);
        cub::DoubleBuffer<int> index(c->scan, spare);
        sort_keys_kernel<<<blocks, RED_THREADS, 0, st->stream>>>(c->error, c->active, count,
                                                                 keys, c->scan);
        CUDA_TRY(ctx, cudaGetLastError());
        CUDA_TRY(ctx, cub::DeviceRadixSort::SortPairs(c->temp, bytes, by_error, index,
                                                      (int)count, 0, 64, st->stream));
        if (K > 1) {
            int bits = 1;
            cub::DoubleBuffer<int> by_integral((int *)keys, (int *)other);
            while (bits < 31 && (1LL << bits) < K) bits++;
            integral_keys_kernel<<<blocks, RED_THREADS, 0, st->stream>>>(
                c->offsets, K, index.Current(), count, by_integral.Current());
            CUDA_TRY(ctx, cudaGetLastError());
            bytes = c->temp_bytes;
            CUDA_TRY(ctx, cub::DeviceRadixSort::SortPairs(c->temp, bytes, by_integral, index,
                                                          (int)count, 0, bits,
                                                          st->stream));
        }
        *sorted_index = index.Current();
    }
    return PAGANI_OK;
}

/* Queues the sorted copy for the host (cubature_sorted.cuh): the sorted
 * errors, the tiles' prefix sums of V and E and the tiles' carries, into
 * host_sorted once the stream gets there; the caller waits. */
static int queue_sorted_copy(cuda_state *st)
{
    cuda_cubature *c = st->cubature;
    pagani_context *ctx = st->ctx;
    const long long count = c->count;
    const int K = c->integrals;
    const long long tiles = host_row(c, 1)[K];
    double *rows, *tile_value = (double *)c->partials[0];
    double *tile_error = tile_value + c->most_tiles;
    double *carry_value = tile_value + 2 * c->most_tiles;
    double *carry_error = tile_value + 3 * c->most_tiles;
    size_t pitch;
    int *spare, *sorted_index = NULL;
    tiling tl = all_tiles(c, 0);
    int rc;

    sort_pointers(c, &rows, &pitch, &spare);
    if ((rc = ensure_layout(st)) != PAGANI_OK ||
        (rc = host_sorted_buffer(st, 3 * (size_t)count + 2 * (size_t)tiles)) != PAGANI_OK ||
        (rc = sort_order(st, rows, pitch, spare, &sorted_index)) != PAGANI_OK)
        return rc;
    tl.final = 0;
    sorted_prefix_kernel<<<tile_blocks(tiles), RED_THREADS, 0, st->stream>>>(
        tl, sorted_index, c->value, c->error, c->active, rows,
        (double *)((char *)rows + pitch), (double *)((char *)rows + 2 * pitch), tile_value,
        tile_error);
    CUDA_TRY(ctx, cudaGetLastError());
    carry_kernel<<<(unsigned)((K + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK), RED_THREADS, 0,
                   st->stream>>>(device_row(c, 1), K, tile_value, tile_error, carry_value,
                                 carry_error);
    CUDA_TRY(ctx, cudaGetLastError());
    CUDA_TRY(ctx, cudaMemcpy2DAsync(c->host_sorted, (size_t)count * sizeof(double), rows,
                                    pitch, (size_t)count * sizeof(double), 3,
                                    cudaMemcpyDeviceToHost, st->stream));
    CUDA_TRY(ctx, cudaMemcpy2DAsync(c->host_sorted + 3 * count, (size_t)tiles * sizeof(double),
                                    carry_value, (size_t)c->most_tiles * sizeof(double),
                                    (size_t)tiles * sizeof(double), 2,
                                    cudaMemcpyDeviceToHost, st->stream));
    return PAGANI_OK;
}

/* The sorted copy made on demand, once per classify (unless classify
 * made it ahead): one wait. */
static int sort_for_host(cuda_state *st)
{
    int rc = queue_sorted_copy(st);
    if (rc != PAGANI_OK) return rc;
    CUDA_TRY(st->ctx, cudaStreamSynchronize(st->stream));
    st->cubature->sorted_valid = 1;
    return PAGANI_OK;
}

/* Statistics of integral k from the sorted copy: its active regions with
 * E <= t are the first `count` of its stretch (exactly those filter_split
 * finishes), their sums the prefix sums there, each a tile's carry plus
 * the prefix within the tile. */
static void sorted_stats(const cuda_cubature *c, int k, double t, threshold_stats *stats)
{
    const long long count = c->count, tiles = host_row(c, 1)[c->integrals];
    const double *e = c->host_sorted, *prefix_value = e + count;
    const double *prefix_error = e + 2 * count, *carry_value = e + 3 * count;
    const double *carry_error = carry_value + tiles;
    const long long first = host_row(c, 0)[k];
    long long lo = first, hi = host_row(c, 0)[k + 1]; /* first index with e > t */

    while (lo < hi) { /* the inactive regions' NaN keys are never <= t */
        long long mid = lo + (hi - lo) / 2;
        if (e[mid] <= t) lo = mid + 1;
        else hi = mid;
    }
    stats->count = lo - first;
    if (lo > first) {
        const long long tile = host_row(c, 1)[k] + (lo - 1 - first) / TILE;
        stats->value = carry_value[tile] + prefix_value[lo - 1];
        stats->error = carry_error[tile] + prefix_error[lo - 1];
    }
}

/* Statistics of integral k counted on the device (one launch over its
 * tiles, one wait). */
static int device_stats(cuda_state *st, int k, double t, threshold_stats *stats)
{
    cuda_cubature *c = st->cubature;
    const tsum *r = (const tsum *)c->results_host;
    tiling tl = all_tiles(c, 0);
    int rc;

    tl.first = host_row(c, 1)[k];
    tl.tiles = host_row(c, 1)[k + 1] - tl.first;
    tl.only = k;
    threshold_kernel<<<tile_blocks(tl.tiles), RED_THREADS, 0, st->stream>>>(
        tl, c->value, c->error, c->active, t, (tsum *)c->partials[0], c->ticket,
        (tsum *)c->results_dev);
    CUDA_TRY(st->ctx, cudaGetLastError());
    if ((rc = fetch_results(st, sizeof(tsum))) != PAGANI_OK) return rc;
    stats->count = r->c;
    stats->value = r->v;
    stats->error = r->e;
    c->device_thresholds[k] = t;
    c->device_counts[k] = r->c;
    return PAGANI_OK;
}

static int cu_threshold_stats(void *state, int k, double threshold, threshold_stats *stats)
{
    cuda_state *st = (cuda_state *)state;
    cuda_cubature *c = st->cubature;
    int rc;

    memset(stats, 0, sizeof *stats);
    if (k < 0 || k >= c->integrals)
        return pagani_fail(st->ctx, PAGANI_ERR_OPTION, "threshold statistics of "
                           "integral %d of %d", k, c->integrals);
    if (c->counts[k] == 0) return PAGANI_OK;
    if (c->counts[k] > HOST_STATS_MAX) return device_stats(st, k, threshold, stats);
    c->sorted_wanted = 1;
    if (!c->sorted_valid && (rc = sort_for_host(st)) != PAGANI_OK) return rc;
    sorted_stats(c, k, threshold, stats);
    return PAGANI_OK;
}
