/*
 * cubature_sorted.cuh - the sorted copy behind THRESHOLD_STATS, and the
 * binary searches on it on the device. Included by cuda_cubature.cu only
 * (nvcc).
 *
 * Within each integral's stretch of the list the regions are ordered by
 * key (E for an active region; inactive ones after all of them), ties by
 * index: by ranking (short lists) or by CUB's stable radix sort on the key
 * and then, with several integrals, on the integral. The sorted E go to
 * the host with prefix sums of V and E, formed per tile of the stretch
 * (batch_layout.h) plus each tile's carry, the sum of the tiles before it
 * in its integral; whoever searches adds the two: the host, or for a
 * long list sorted_query_kernel. Every number depends on the integral's
 * own regions only.
 */

/* Whether region j sorts before region i (both of one integral): active
 * ones first, by E, then by index. */
__device__ __forceinline__ bool sorts_before(bool aj, double ej, long long j, bool ai,
                                             double ei, long long i)
{
    if (aj != ai) return aj;
    if (!aj) return j < i;
    return ej < ei || (ej == ei && j < i);
}

/*
 * The sorted order of a short list by ranking instead of sorting: one warp
 * per region i, its lanes striding over the regions j of i's integral,
 * counts those that sort before i; lane 0 writes i at that rank. Quadratic
 * work, but spread over the whole GPU: at these sizes far quicker than a
 * sort, which would run on one SM or take several launches.
 */
__global__ void __launch_bounds__(RED_THREADS)
rank_kernel(const int *__restrict__ offsets, int integrals, const double *__restrict__ error,
            const unsigned char *__restrict__ active, long long count,
            int *__restrict__ sorted_index)
{
    const int lane = threadIdx.x & 31;
    const long long i = (long long)blockIdx.x * WARPS_PER_BLOCK + threadIdx.x / 32;
    if (i >= count) return; /* the whole warp */
    const int k = pagani_gpu_warp_integral_of(offsets, integrals, i);
    const bool ai = active[i];
    const double ei = error[i];
    int before = 0;
    for (long long j = offsets[k] + lane; j < offsets[k + 1]; j += 32)
        before += sorts_before(active[j], error[j], j, ai, ei, i);
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) before += __shfl_down_sync(0xffffffffu, before, off);
    if (lane == 0) sorted_index[offsets[k] + before] = (int)i;
}

/* One thread per region: the sort key (E when active, else a NaN, which
 * the radix sort puts after every number) and the region's index. */
__global__ void __launch_bounds__(RED_THREADS)
sort_keys_kernel(const double *__restrict__ error, const unsigned char *__restrict__ active,
                 long long count, double *__restrict__ keys, int *__restrict__ index)
{
    const long long i = (long long)blockIdx.x * RED_THREADS + threadIdx.x;
    if (i >= count) return;
    keys[i] = active[i] ? error[i] : __longlong_as_double(0x7ff8000000000000LL);
    index[i] = (int)i;
}

/* One thread per sorted position j: the integral of region index[j], the
 * key of the second (stable) sort. */
__global__ void __launch_bounds__(RED_THREADS)
integral_keys_kernel(const int *__restrict__ offsets, int integrals,
                     const int *__restrict__ index, long long count, int *__restrict__ keys)
{
    const long long j = (long long)blockIdx.x * RED_THREADS + threadIdx.x;
    if (j < count) keys[j] = pagani_gpu_integral_of(offsets, integrals, index[j]);
}

/* A fixed shuffle scan (Kogge-Stone) over the warp of two sums per lane:
 * each lane's (v, e) becomes the sum of the lanes before it (0 in lane 0)
 * and (total_v, total_e) the warp's totals. Every lane must call it. */
__device__ __forceinline__ void lanes_before(double &v, double &e, double &total_v,
                                             double &total_e)
{
    const int lane = threadIdx.x & 31;
    double iv = v, ie = e;
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
        const double ov = __shfl_up_sync(0xffffffffu, iv, off);
        const double oe = __shfl_up_sync(0xffffffffu, ie, off);
        if (lane >= off) {
            iv += ov;
            ie += oe;
        }
    }
    v = __shfl_up_sync(0xffffffffu, iv, 1);
    e = __shfl_up_sync(0xffffffffu, ie, 1);
    if (lane == 0) v = e = 0.0;
    total_v = __shfl_sync(0xffffffffu, iv, 31);
    total_e = __shfl_sync(0xffffffffu, ie, 31);
}

/*
 * One warp per tile of the sorted list (the tiles of classify): lane l
 * takes the 8 consecutive positions from 8l, gathers region index[j]'s
 * key (E, or a NaN when inactive) and V, and forms its running sums; a
 * fixed shuffle scan (lanes_before) gives each lane the sum of the lanes
 * before it, added to its running sums: the tile's inclusive prefix sums
 * of V and E. Lane 0 writes the tile's totals.
 */
__global__ void __launch_bounds__(RED_THREADS)
sorted_prefix_kernel(tiling tl, const int *__restrict__ index,
                     const double *__restrict__ value, const double *__restrict__ error,
                     const unsigned char *__restrict__ active,
                     double *__restrict__ sorted_error, double *__restrict__ prefix_value,
                     double *__restrict__ prefix_error, double *__restrict__ tile_value,
                     double *__restrict__ tile_error)
{
    int t, k;
    long long start, end;
    if (!tile_of(tl, t, k, start, end)) return;
    const int lane = threadIdx.x & 31;
    const long long first = start + 8 * lane;
    double run_v[8], run_e[8], sv = 0.0, se = 0.0;

#pragma unroll
    for (int r = 0; r < 8; r++) {
        const long long j = first + r;
        if (j < end) {
            const int i = index[j];
            const double e = active[i] ? error[i] : __longlong_as_double(0x7ff8000000000000LL);
            sorted_error[j] = e;
            sv += value[i];
            se += e;
        }
        run_v[r] = sv;
        run_e[r] = se;
    }
    double before_v = sv, before_e = se, total_v, total_e;
    lanes_before(before_v, before_e, total_v, total_e);
#pragma unroll
    for (int r = 0; r < 8; r++) {
        const long long j = first + r;
        if (j < end) {
            prefix_value[j] = before_v + run_v[r];
            prefix_error[j] = before_e + run_e[r];
        }
    }
    if (lane == 0) {
        tile_value[t] = total_v;
        tile_error[t] = total_e;
    }
}

#define CARRY_PER_LANE 16 /* tiles a lane of carry_kernel takes */

/*
 * One warp per integral k with at most 32 * CARRY_PER_LANE tiles (those
 * whose statistics the host looks up): lane l takes its consecutive tiles
 * from CARRY_PER_LANE * l, sums them, a fixed shuffle scan (lanes_before)
 * gives the sum of the lanes before it, and it writes each of its tiles'
 * carry: the sum of the tiles before that one in k.
 */
__global__ void __launch_bounds__(RED_THREADS)
carry_kernel(const int *__restrict__ tile_off, int integrals,
             const double *__restrict__ tile_value, const double *__restrict__ tile_error,
             double *__restrict__ carry_value, double *__restrict__ carry_error)
{
    const int lane = threadIdx.x & 31;
    const long long k = ((long long)blockIdx.x * RED_THREADS + threadIdx.x) / 32;
    if (k >= integrals) return;
    const int t0 = tile_off[k], tiles = tile_off[k + 1] - t0;
    if (tiles > 32 * CARRY_PER_LANE) return; /* the whole warp */
    const int mine = CARRY_PER_LANE * lane;
    double sv = 0.0, se = 0.0;
    for (int r = 0; r < CARRY_PER_LANE && mine + r < tiles; r++) {
        sv += tile_value[t0 + mine + r];
        se += tile_error[t0 + mine + r];
    }
    double cv = sv, ce = se, total_v, total_e;
    lanes_before(cv, ce, total_v, total_e);
    for (int r = 0; r < CARRY_PER_LANE && mine + r < tiles; r++) {
        carry_value[t0 + mine + r] = cv;
        carry_error[t0 + mine + r] = ce;
        cv += tile_value[t0 + mine + r];
        ce += tile_error[t0 + mine + r];
    }
}

/*
 * One thread per query q of a threshold search's step, on the sorted copy
 * kept on the device: for integral k = integrals[q] of at most `most`
 * regions (larger ones are counted by threshold_kernel, and left alone
 * here), a binary search of its stretch of sorted E for the first E
 * above thresholds[q] (the NaN keys of inactive regions are never at or
 * below it); the regions before it are those with E <= thresholds[q], and
 * their sums of V and E the prefix sums there: the tile's carry plus the
 * prefix within the tile, added as the host adds them (the same bits).
 */
__global__ void __launch_bounds__(RED_THREADS)
sorted_query_kernel(int queries, const int *__restrict__ integrals,
                    const double *__restrict__ thresholds, const int *__restrict__ offsets,
                    const int *__restrict__ tile_off, long long most,
                    const double *__restrict__ sorted_error,
                    const double *__restrict__ prefix_value,
                    const double *__restrict__ prefix_error,
                    const double *__restrict__ carry_value,
                    const double *__restrict__ carry_error, tsum *__restrict__ results)
{
    const int q = blockIdx.x * RED_THREADS + threadIdx.x;
    if (q >= queries) return;
    const int k = integrals[q];
    const long long first = offsets[k];
    const double t = thresholds[q];
    long long lo = first, hi = offsets[k + 1];
    tsum s = {0, 0.0, 0.0};

    if (hi - first > most) return;
    while (lo < hi) {
        const long long mid = lo + (hi - lo) / 2;
        if (sorted_error[mid] <= t) lo = mid + 1;
        else hi = mid;
    }
    s.c = lo - first;
    if (lo > first) {
        const long long tile = tile_off[k] + (lo - 1 - first) / TILE;
        s.v = carry_value[tile] + prefix_value[lo - 1];
        s.e = carry_error[tile] + prefix_error[lo - 1];
    }
    results[q] = s;
}
