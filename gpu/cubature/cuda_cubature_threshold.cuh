/*
 * cuda_cubature_threshold.cuh - THRESHOLD_STATS on the GPU. The integrals
 * of up to HOST_STATS_MAX regions read the sorted copy (cubature_sorted.cuh's
 * kernels, CUB's radix sort), made once per classify: for a list of up to
 * HOST_STATS_MAX regions in all it goes to the host, and each candidate
 * threshold is a binary search there; in a longer list (a batch) it stays
 * on the device, and a search step's candidates are binary searches there,
 * one launch and one wait a step for every integral. Larger integrals get
 * a reduction on the device per candidate, in the same wait. Included by
 * cuda_cubature.cu only, after the state and the per-integral buffers'
 * helpers.
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

/* Where the sorted copy lies on the device: the sorted errors and the
 * prefix sums of V and E (the sort's arrays, pitch apart), then the tiles'
 * carries of V and E (in partials[0], after the tiles' sums). */
struct sorted_arrays {
    double *error, *prefix_value, *prefix_error;
    double *tile_value, *tile_error, *carry_value, *carry_error;
    size_t pitch;
    int *spare;
};

static sorted_arrays sorted_arrays_of(const cuda_cubature *c)
{
    sorted_arrays a;
    double *rows;

    sort_pointers(c, &rows, &a.pitch, &a.spare);
    a.error = rows;
    a.prefix_value = (double *)((char *)rows + a.pitch);
    a.prefix_error = (double *)((char *)rows + 2 * a.pitch);
    a.tile_value = (double *)c->partials[0];
    a.tile_error = a.tile_value + c->most_tiles;
    a.carry_value = a.tile_value + 2 * c->most_tiles;
    a.carry_error = a.tile_value + 3 * c->most_tiles;
    return a;
}

/* Queues the sorted copy on the device (cubature_sorted.cuh): the sorted
 * errors, the tiles' prefix sums of V and E and the tiles' carries. */
static int queue_sort(cuda_state *st)
{
    cuda_cubature *c = st->cubature;
    pagani_context *ctx = st->ctx;
    const int K = c->integrals;
    const long long tiles = host_row(c, 1)[K];
    const sorted_arrays a = sorted_arrays_of(c);
    int *sorted_index = NULL;
    tiling tl = all_tiles(c, 0);
    int rc;

    if ((rc = ensure_layout(st)) != PAGANI_OK ||
        (rc = sort_order(st, a.error, a.pitch, a.spare, &sorted_index)) != PAGANI_OK)
        return rc;
    tl.final = 0;
    sorted_prefix_kernel<<<tile_blocks(tiles), RED_THREADS, 0, st->stream>>>(
        tl, sorted_index, c->value, c->error, c->active, a.error, a.prefix_value,
        a.prefix_error, a.tile_value, a.tile_error);
    CUDA_TRY(ctx, cudaGetLastError());
    carry_kernel<<<(unsigned)((K + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK), RED_THREADS, 0,
                   st->stream>>>(device_row(c, 1), K, a.tile_value, a.tile_error,
                                 a.carry_value, a.carry_error);
    CUDA_TRY(ctx, cudaGetLastError());
    return PAGANI_OK;
}

/* Queues the sorted copy for the host: made on the device, then copied
 * into host_sorted once the stream gets there; the caller waits. */
static int queue_sorted_copy(cuda_state *st)
{
    cuda_cubature *c = st->cubature;
    pagani_context *ctx = st->ctx;
    const long long count = c->count;
    const long long tiles = host_row(c, 1)[c->integrals];
    const sorted_arrays a = sorted_arrays_of(c);
    int rc;

    if ((rc = host_sorted_buffer(st, 3 * (size_t)count + 2 * (size_t)tiles)) != PAGANI_OK ||
        (rc = queue_sort(st)) != PAGANI_OK)
        return rc;
    CUDA_TRY(ctx, cudaMemcpy2DAsync(c->host_sorted, (size_t)count * sizeof(double), a.error,
                                    a.pitch, (size_t)count * sizeof(double), 3,
                                    cudaMemcpyDeviceToHost, st->stream));
    CUDA_TRY(ctx, cudaMemcpy2DAsync(c->host_sorted + 3 * count, (size_t)tiles * sizeof(double),
                                    a.carry_value, (size_t)c->most_tiles * sizeof(double),
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
    st->cubature->sorted_at = SORTED_ON_HOST;
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

/* A step's queries in a list of more than HOST_STATS_MAX regions, in one
 * wait: the integrals of up to HOST_STATS_MAX regions by binary searches
 * on the device's sorted copy (made once per classify), each larger one
 * by a reduction over its tiles; results[q] on the device gets query q's
 * (an integral without regions keeps the zeros of stats[q]). The counts
 * are remembered for filter_split (known_kept). */
static int device_queries(cuda_state *st, int queries, const int *integrals,
                          const double *thresholds, threshold_stats *stats)
{
    cuda_cubature *c = st->cubature;
    pagani_context *ctx = st->ctx;
    tsum *results = (tsum *)c->results_dev;
    const tsum *got = (const tsum *)c->results_host;
    int searched = 0, rc;

    for (int q = 0; q < queries; q++) {
        const long long regions = c->counts[integrals[q]];
        searched |= regions > 0 && regions <= HOST_STATS_MAX;
    }
    if (searched) {
        const sorted_arrays a = sorted_arrays_of(c);
        if (c->sorted_at == SORTED_NONE) {
            if ((rc = queue_sort(st)) != PAGANI_OK) return rc;
            c->sorted_at = SORTED_ON_DEVICE;
        }
        CUDA_TRY(ctx, cudaMemcpyAsync(c->query_integrals, integrals,
                                      (size_t)queries * sizeof *integrals,
                                      cudaMemcpyHostToDevice, st->stream));
        CUDA_TRY(ctx, cudaMemcpyAsync(c->query_thresholds, thresholds,
                                      (size_t)queries * sizeof *thresholds,
                                      cudaMemcpyHostToDevice, st->stream));
        sorted_query_kernel<<<(unsigned)((queries + RED_THREADS - 1) / RED_THREADS),
                              RED_THREADS, 0, st->stream>>>(
            queries, c->query_integrals, c->query_thresholds, device_row(c, 0),
            device_row(c, 1), HOST_STATS_MAX, a.error, a.prefix_value, a.prefix_error,
            a.carry_value, a.carry_error, results);
        CUDA_TRY(ctx, cudaGetLastError());
    }
    for (int q = 0; q < queries; q++) {
        const int k = integrals[q];
        tiling tl = all_tiles(c, 0);
        if (c->counts[k] <= HOST_STATS_MAX) continue;
        tl.first = host_row(c, 1)[k];
        tl.tiles = host_row(c, 1)[k + 1] - tl.first;
        tl.only = k;
        threshold_kernel<<<tile_blocks(tl.tiles), RED_THREADS, 0, st->stream>>>(
            tl, c->value, c->error, c->active, thresholds[q], (tsum *)c->partials[1],
            c->ticket, results + q);
        CUDA_TRY(ctx, cudaGetLastError());
    }
    if ((rc = fetch_results(st, (size_t)queries * sizeof(tsum))) != PAGANI_OK) return rc;
    for (int q = 0; q < queries; q++) {
        const int k = integrals[q];
        if (c->counts[k] == 0) continue;
        stats[q].count = got[q].c;
        stats[q].value = got[q].v;
        stats[q].error = got[q].e;
        c->device_thresholds[k] = thresholds[q];
        c->device_counts[k] = got[q].c;
    }
    return PAGANI_OK;
}

static int cu_threshold_stats(void *state, int queries, const int *integrals,
                              const double *thresholds, threshold_stats *stats)
{
    cuda_state *st = (cuda_state *)state;
    cuda_cubature *c = st->cubature;
    int regions = 0, rc;

    memset(stats, 0, (size_t)queries * sizeof *stats);
    for (int q = 0; q < queries; q++) {
        if (integrals[q] < 0 || integrals[q] >= c->integrals)
            return pagani_fail(st->ctx, PAGANI_ERR_OPTION, "threshold statistics of "
                               "integral %d of %d", integrals[q], c->integrals);
        regions |= c->counts[integrals[q]] > 0;
    }
    if (!regions) return PAGANI_OK;
    if (c->count > HOST_STATS_MAX)
        return device_queries(st, queries, integrals, thresholds, stats);
    c->sorted_wanted = 1;
    if (c->sorted_at != SORTED_ON_HOST && (rc = sort_for_host(st)) != PAGANI_OK) return rc;
    for (int q = 0; q < queries; q++)
        if (c->counts[integrals[q]] > 0)
            sorted_stats(c, integrals[q], thresholds[q], &stats[q]);
    return PAGANI_OK;
}
