/*
 * cubature_tiles.cuh - the kernels of CLASSIFY, THRESHOLD_STATS (counted
 * on the device) and FILTER_SPLIT's marking, over the segment-local tiles
 * of batch_layout.h. Included by cuda_cubature.cu only (nvcc).
 *
 * One warp takes one tile: up to PAGANI_GPU_TILE items of one integral.
 * Lane l sums its items in a fixed order and a fixed shuffle tree combines
 * the lanes; lane 0 writes the tile's partial, an item of the next level,
 * or, on the last level (every integral down to one tile), the integral's
 * total. The last warp or block to finish (a ticket) may add the partials
 * of the next level in the same launch, in the same order. No
 * floating-point atomics and no dependence on the other integrals of the
 * list: the sums of an integral are the same bits whether it runs alone
 * or in a batch, on any GPU and in any run.
 */

#define TILE PAGANI_GPU_TILE
#define WARPS_PER_BLOCK (RED_THREADS / 32)

/* ---- sums ------------------------------------------------------------ */

/* Classify sums of a set of regions ("active": not finished), and over
 * all of them E by what is known of its sign (cubature_sums' parts, all
 * doubles: PARTS_DOUBLES of them). */
#define PARTS_DOUBLES ((int)(sizeof(pagani_error_parts) / sizeof(double)))
struct csum {
    double v, e, av, ae, mn, mx;
    long long na;
    pagani_error_parts parts;
};

/* Threshold statistics: active regions with E <= t. */
struct tsum {
    long long c;
    double v, e;
};

/* What classify hands back per integral: its sums, the evaluation's
 * first NaN report (region << 21 | point, or all ones) and f's calls in
 * the evaluation's graded pass. */
struct integral_sums {
    csum cls;
    unsigned long long nonfinite;
    unsigned long long graded_calls;
};

__host__ __device__ __forceinline__ csum csum_zero()
{
    csum s = {0.0, 0.0, 0.0, 0.0, HUGE_VAL, -HUGE_VAL, 0, {0.0}};
    return s;
}

struct csum_add {
    __device__ csum operator()(const csum &a, const csum &b) const
    {
        csum r;
        r.v = a.v + b.v;
        r.e = a.e + b.e;
        r.av = a.av + b.av;
        r.ae = a.ae + b.ae;
        r.mn = fmin(a.mn, b.mn);
        r.mx = fmax(a.mx, b.mx);
        r.na = a.na + b.na;
        r.parts = a.parts;
        pagani_error_parts_merge(&r.parts, &b.parts);
        return r;
    }
};

struct tsum_add {
    __device__ tsum operator()(const tsum &a, const tsum &b) const
    {
        tsum r = {a.c + b.c, a.v + b.v, a.e + b.e};
        return r;
    }
};

/* The value of lane (this lane + off) of the warp. */
__device__ __forceinline__ csum shfl_down(const csum &s, int off)
{
    csum r;
    r.v = __shfl_down_sync(0xffffffffu, s.v, off);
    r.e = __shfl_down_sync(0xffffffffu, s.e, off);
    r.av = __shfl_down_sync(0xffffffffu, s.av, off);
    r.ae = __shfl_down_sync(0xffffffffu, s.ae, off);
    r.mn = __shfl_down_sync(0xffffffffu, s.mn, off);
    r.mx = __shfl_down_sync(0xffffffffu, s.mx, off);
    r.na = __shfl_down_sync(0xffffffffu, s.na, off);
    /* the parts are doubles only */
#pragma unroll
    for (int j = 0; j < PARTS_DOUBLES; j++)
        ((double *)&r.parts)[j] =
            __shfl_down_sync(0xffffffffu, ((const double *)&s.parts)[j], off);
    return r;
}

__device__ __forceinline__ tsum shfl_down(const tsum &s, int off)
{
    tsum r;
    r.c = __shfl_down_sync(0xffffffffu, s.c, off);
    r.v = __shfl_down_sync(0xffffffffu, s.v, off);
    r.e = __shfl_down_sync(0xffffffffu, s.e, off);
    return r;
}

/* A fixed-shape tree over the warp's 32 values (lane 0 gets the total):
 * deterministic. Every lane of the warp must call it. */
template <typename S, typename Op>
__device__ __forceinline__ S warp_reduce(S v, Op op)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v = op(v, shfl_down(v, off));
    return v;
}

/* ---- tiles ----------------------------------------------------------- */

/* One launch over the tiles of one level (batch_layout.h): tiles first ..
 * first + tiles - 1 of the next level, a warp each. With one integral the
 * offsets are not read (items says where its items end), so that a
 * single integral needs no layout on the device. */
struct tiling {
    const int *in_off;  /* K + 1: where integral k's items of this level start */
    const int *out_off; /* K + 1: where its tiles (the next level's items) start */
    int integrals;      /* K */
    long long items;    /* items of this level in all */
    int first, tiles;
    int only;           /* the integral of every tile, or -1: searched */
    int final;          /* the tiles are the integrals' totals */
};

/* The calling warp's tile: its index t, integral k and items [start,
 * end); false for a warp past the launch's tiles. Every lane of the warp
 * must call it. */
__device__ __forceinline__ bool tile_of(const tiling &tl, int &t, int &k, long long &start,
                                        long long &end)
{
    const long long w = ((long long)blockIdx.x * RED_THREADS + threadIdx.x) / 32;
    if (w >= tl.tiles) return false;
    t = tl.first + (int)w;
    if (tl.integrals == 1) {
        k = 0;
        start = (long long)t * TILE;
        end = tl.items;
    } else {
        k = tl.only >= 0 ? tl.only
                         : pagani_gpu_warp_integral_of(tl.out_off, tl.integrals, t);
        start = tl.in_off[k] + (long long)(t - tl.out_off[k]) * TILE;
        end = tl.in_off[k + 1];
    }
    if (end > start + TILE) end = start + TILE;
    return true;
}

/* Blocks of a launch over `tiles` tiles. */
static unsigned tile_blocks(long long tiles)
{
    return (unsigned)((tiles + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK);
}

/* Where a classify tile's sums go: the next level's partials, or, on the
 * last level, integral k's results (total), with its NaN report
 * (re-armed) and graded calls (as they stand: every classify of an
 * iteration reports them, as the CPU's sum over its regions does). */
struct csum_sink {
    csum *out;
    integral_sums *res;
    unsigned long long *nonfinite;
    unsigned long long *graded_calls;
    __device__ void total(int k, csum s) const
    {
        if (s.na == 0) s.mn = s.mx = 0.0;
        res[k].cls = s;
        res[k].nonfinite = nonfinite[k];
        nonfinite[k] = ~0ULL;
        res[k].graded_calls = graded_calls[k];
    }
    __device__ void operator()(const tiling &tl, int t, int k, csum s) const
    {
        if (tl.final) total(k, s);
        else out[t] = s;
    }
};

/* A partial written by another block (loaded bypassing L1). */
__device__ __forceinline__ csum load_partial(const csum *p)
{
    csum s;
    s.v = __ldcg(&p->v);
    s.e = __ldcg(&p->e);
    s.av = __ldcg(&p->av);
    s.ae = __ldcg(&p->ae);
    s.mn = __ldcg(&p->mn);
    s.mx = __ldcg(&p->mx);
    s.na = __ldcg(&p->na);
#pragma unroll
    for (int j = 0; j < PARTS_DOUBLES; j++)
        ((double *)&s.parts)[j] = __ldcg((const double *)&p->parts + j);
    return s;
}

/* The sum of partials [start, end) by the calling warp (every lane calls
 * it; lane 0 gets the sum): lane l adds items l, l + 32, ... in order,
 * then warp_reduce; a lone item passes unchanged. */
__device__ __forceinline__ csum combine_items(const csum *in, long long start, long long end)
{
    csum acc = csum_zero();
    if (end - start == 1) return load_partial(in + start);
    for (long long i = start + (threadIdx.x & 31); i < end; i += 32)
        acc = csum_add()(acc, load_partial(in + i));
    return warp_reduce(acc, csum_add());
}

/* ---- CLASSIFY -------------------------------------------------------- */

/* The regions' randomized checks (rules/random_check.h): V - M and its
 * variance, read where a region's sign byte says it was checked. */
struct check_arrays {
    const double *diff, *var;
};

__device__ __forceinline__ void classify_one(csum &acc, unsigned char *active,
                                             long long i, double v, double e,
                                             unsigned char sign, const check_arrays &check,
                                             const classify_request &q)
{
    const bool act = pagani_classify_active(&q, v, e);
    const bool checked = (sign & PAGANI_SIGN_CHECKED) != 0;
    active[i] = act;
    acc.v += v;
    acc.e += e;
    pagani_error_parts_add(&acc.parts, sign, v, e, checked ? check.diff[i] : 0.0,
                           checked ? check.var[i] : 0.0);
    if (act) {
        acc.av += v;
        acc.ae += e;
        acc.mn = fmin(acc.mn, e);
        acc.mx = fmax(acc.mx, e);
        acc.na++;
    }
}

/*
 * Level 0 of classify: one warp per tile of regions; tiles of integrals
 * whose request (requests[k], or `single` when there is one integral and
 * requests is NULL) says classify = 0 are left alone. Lane l takes the sibling
 * pairs (2u, 2u + 1) u = l, l + 32, ... of the tile (a tile starts at an
 * even offset of its integral, whose regions are pairs when it has
 * parents). With parents it updates both errors (Berntsen: diff =
 * |V_L + V_R - V_P| / 4, E *= 1 + 2 diff / (E_L + E_R), E += diff; the
 * parent's value at parent[u]) and, when both signs of their errors are
 * known, takes V_L + V_R - V_P as their parent's estimate of that sign
 * (rules/error_sign.h); then it classifies both regions (active iff E >
 * negligible and, with relerr_filter, also E > epsrel |V| or |V| >
 * relerr_largest when that is not 0) and adds them
 * to its sums, which warp_reduce combines.
 *
 * With `tickets` (a sum of two levels: no integral has more than TILE
 * tiles), the tiles' partials are combined here too: each warp takes a
 * ticket of its integral after writing its partial, and the last one
 * adds the integral's partials as combine_kernel would (the same bits)
 * and resets the ticket. An integral of one tile has its total at once.
 */
__global__ void __launch_bounds__(RED_THREADS)
classify_kernel(tiling tl, const classify_request *__restrict__ requests,
                classify_request single, const double *__restrict__ value,
                double *__restrict__ error, const double *__restrict__ parent,
                unsigned char *__restrict__ active, unsigned char *__restrict__ error_sign,
                check_arrays check, csum_sink sink, unsigned int *tickets)
{
    int t, k;
    long long start, end;
    if (!tile_of(tl, t, k, start, end)) return;
    const classify_request q = requests ? requests[k] : single;
    if (!q.classify) return; /* the whole warp */
    const int lane = threadIdx.x & 31;
    csum acc = csum_zero();

    for (int r = 0; r < TILE / 64; r++) {
        const long long i = start + 2 * (lane + 32 * r);
        if (i >= end) break;
        if (i + 1 < end) {
            const double vl = value[i], vr = value[i + 1];
            double el = error[i], er = error[i + 1];
            unsigned char sl = error_sign[i], sr = error_sign[i + 1];
            if (q.has_parents) {
                const double change = vl + vr - parent[i / 2], left = el;
                el = pagani_two_level_error(left, er, change);
                er = pagani_two_level_error(er, left, change);
                error[i] = el;
                error[i + 1] = er;
                pagani_error_sign_pair(&sl, &sr, change);
                error_sign[i] = sl;
                error_sign[i + 1] = sr;
            }
            classify_one(acc, active, i, vl, el, sl, check, q);
            classify_one(acc, active, i + 1, vr, er, sr, check, q);
        } else {
            classify_one(acc, active, i, value[i], error[i], error_sign[i], check, q);
        }
    }
    acc = warp_reduce(acc, csum_add());
    if (!tickets) {
        if (lane == 0) sink(tl, t, k, acc);
        return;
    }
    const int first = tl.integrals == 1 ? 0 : tl.out_off[k];
    const int tiles = tl.integrals == 1 ? tl.tiles : tl.out_off[k + 1] - first;
    unsigned int ticket = 0;
    if (tiles == 1) {
        if (lane == 0) sink.total(k, acc);
        return;
    }
    if (lane == 0) {
        sink.out[t] = acc;
        __threadfence();
        ticket = atomicAdd(tickets + k, 1u);
    }
    if (__shfl_sync(0xffffffffu, ticket, 0) != (unsigned int)tiles - 1) return;
    __threadfence();
    acc = combine_items(sink.out, first, first + tiles);
    if (lane == 0) {
        tickets[k] = 0;
        sink.total(k, acc);
    }
}

/*
 * Levels 1 and up of classify's sums: one warp per tile of the previous
 * level's partials, summed by combine_items. Integrals that requests
 * (when given) leave alone are skipped.
 */
__global__ void __launch_bounds__(RED_THREADS)
combine_kernel(tiling tl, const classify_request *__restrict__ requests,
               const csum *__restrict__ in, csum_sink sink)
{
    int t, k;
    long long start, end;
    if (!tile_of(tl, t, k, start, end) || (requests && !requests[k].classify)) return;
    const csum acc = combine_items(in, start, end);
    if ((threadIdx.x & 31) == 0) sink(tl, t, k, acc);
}

/* ---- THRESHOLD_STATS on the device ----------------------------------- */

/*
 * One integral's statistics under threshold `thr` in one launch: one warp
 * per tile of its regions (tl.only); lane l counts regions l, l + 32, ...
 * of the tile that are active with E <= thr and adds their V and E;
 * warp_reduce gives the tile's partial (partials[t - tl.first]). The block
 * that finishes last (a ticket from *ticket, reset for the next launch)
 * adds all partials: thread j takes partials j, j + RED_THREADS, ... in
 * order, then a fixed tree over the block. The order depends on the
 * integral's tile count alone, never on which block finishes last.
 */
__global__ void __launch_bounds__(RED_THREADS)
threshold_kernel(tiling tl, const double *__restrict__ value,
                 const double *__restrict__ error, const unsigned char *__restrict__ active,
                 double thr, tsum *partials, unsigned int *ticket, tsum *res)
{
    __shared__ tsum tree[RED_THREADS];
    __shared__ bool last;
    int t, k;
    long long start, end;
    const int lane = threadIdx.x & 31;

    if (tile_of(tl, t, k, start, end)) { /* the whole warp, or none of it */
        tsum acc = {0, 0.0, 0.0};
        for (long long i = start + lane; i < end; i += 32) {
            if (active[i] && error[i] <= thr) {
                acc.c++;
                acc.v += value[i];
                acc.e += error[i];
            }
        }
        acc = warp_reduce(acc, tsum_add());
        if (lane == 0) {
            partials[t - tl.first] = acc;
            __threadfence();
        }
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        last = atomicAdd(ticket, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last) return;
    __threadfence();
    tsum acc = {0, 0.0, 0.0};
#pragma unroll 8 /* loads in flight: a long list has tens of thousands of tiles */
    for (int j = threadIdx.x; j < tl.tiles; j += RED_THREADS) {
        const tsum *p = partials + j;
        tsum s = {__ldcg(&p->c), __ldcg(&p->v), __ldcg(&p->e)};
        acc = tsum_add()(acc, s);
    }
    tree[threadIdx.x] = acc;
    __syncthreads();
    for (int half = RED_THREADS / 2; half > 0; half >>= 1) {
        if (threadIdx.x < half)
            tree[threadIdx.x] = tsum_add()(tree[threadIdx.x], tree[threadIdx.x + half]);
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        *res = tree[0];
        *ticket = 0;
    }
}

/* ---- FILTER_SPLIT ---------------------------------------------------- */

/* With several integrals, one warp per tile of regions: a region stays
 * active (is kept) iff it is active and, for its integral's threshold
 * t >= 0, not E <= t (t < 0 keeps every active region, +infinity none).
 * (A single integral's threshold is applied by kept_flag.) */
__global__ void __launch_bounds__(RED_THREADS)
mark_kept_kernel(tiling tl, const double *__restrict__ thresholds,
                 const double *__restrict__ error, unsigned char *__restrict__ active)
{
    int t, k;
    long long start, end;
    if (!tile_of(tl, t, k, start, end)) return;
    const double thr = thresholds[k];
    for (long long i = start + (threadIdx.x & 31); i < end; i += 32)
        if (active[i]) active[i] = thr < 0 || !(error[i] <= thr);
}

/* One thread per integral k = 0 .. K: where its regions start after the
 * split, 2 * (kept regions before it), from the exclusive scan of the
 * kept flags (scan[count] is their total). */
__global__ void __launch_bounds__(RED_THREADS)
split_offsets_kernel(const int *__restrict__ offsets, int integrals,
                     const int *__restrict__ scan, long long *__restrict__ next)
{
    const int k = blockIdx.x * RED_THREADS + threadIdx.x;
    if (k <= integrals) next[k] = 2 * (long long)scan[offsets[k]];
}
