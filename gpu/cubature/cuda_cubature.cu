/*
 * cuda_cubature.cu - the cubature operations of backend.h on the GPU
 * (DESIGN.md section 5): EVALUATE is the NVRTC kernels of
 * cubature_evaluate.cuh and cubature_probe.cuh, compiled per integrand;
 * CLASSIFY, THRESHOLD_STATS and FILTER_SPLIT are the kernels below, with
 * CUB's scan and radix sort.
 *
 * Memory: one device allocation (the slab) holds the region lists, carved
 * anew by every setup and reallocated only when a larger job comes. After
 * the first split a list holds the PARENTS of the regions (box and split
 * axis): region i is half i & 1 of parent i / 2, derived where it is read.
 * That halves the boxes stored. A box is its lower corner and, per axis, a
 * 16-bit count of halvings of the initial width (widths are the initial
 * ones over powers of two): 10n + 32 bytes a region in all (was 16n + 32
 * with widths stored as doubles; 1.43 times the regions at n = 8). Small
 * fixed buffers hold reduction partials; each operation's few results go
 * to the host once (written by the kernel into mapped pinned memory).
 * Nothing is allocated per iteration.
 *
 * Round trips: classify one per iteration; threshold_stats, during the
 * driver's threshold search, one sorted copy per iteration for lists of
 * up to SORT_STATS_MAX regions (ranked in one kernel up to SMALL_SORT_MAX;
 * then each candidate is a binary search on the host), else one per
 * candidate; filter_split none when the kept count is known from those
 * (the usual case).
 *
 * Determinism: every sum is a fixed tree over fixed block partials (no
 * floating-point atomics), the grid size a function of the region count
 * alone, so a run repeated on the same device gives the same bits.
 */
#include <climits>
#include <cstddef>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include "gpu/cuda_internal.h"
#include "gpu/jit/cuda_integrand.h"
#include "gpu/jit/cuda_module.h"
#include "gpu/cubature/rule_pack.h"
#include "gpu/cubature/cubature_kernel_src.h" /* generated: pagani_cubature_kernel_src */

#define RED_THREADS 256   /* threads of the reduction and split kernels */
#define RED_BLOCKS 1024   /* most blocks of a reduction (partials kept) */
#define EVAL_BLOCK 128    /* threads of an evaluate block (at least) */
#define PROBE_REGIONS 8   /* regions (warps) of a probe block */
#define STRIDE_ALIGN 32   /* region stride: a multiple of this */
#define SORT_STATS_MAX 131072 /* threshold statistics from a sorted copy up to
                                 this many regions, else a reduction each */
#define SMALL_SORT_MAX 4096   /* sorted statistics by ranking up to this many */

/* ---- sums ------------------------------------------------------------ */

/* Classify sums of a set of regions ("active": not finished). */
struct csum {
    double v, e, av, ae, mn, mx;
    long long na;
};

/* Threshold statistics: active regions with E <= t. */
struct tsum {
    long long c;
    double v, e;
};

/* What the reduction kernels hand back (to mapped pinned memory). */
struct cuda_results {
    csum cls;
    unsigned long long nonfinite;  /* region << 21 | point, or all ones */
    tsum thr;
    long long kept;
};
static_assert(sizeof(cuda_results) <= 512, "results fit their slot");
static_assert(sizeof(tsum) <= sizeof(csum), "threshold partials fit");
static_assert(PAGANI_GPU_MAX_DIM == PAGANI_MAX_CUBATURE_DIM, "region boxes hold every axis");

__device__ __forceinline__ csum csum_zero()
{
    csum s = {0.0, 0.0, 0.0, 0.0, HUGE_VAL, -HUGE_VAL, 0};
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

/* Loads of other blocks' partials, bypassing L1. */
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
    return s;
}

__device__ __forceinline__ tsum load_partial(const tsum *p)
{
    tsum s;
    s.c = __ldcg(&p->c);
    s.v = __ldcg(&p->v);
    s.e = __ldcg(&p->e);
    return s;
}

/* A fixed-shape tree over the block's RED_THREADS values: deterministic. */
template <typename S, typename Op>
__device__ S block_reduce(S *buf, S v, Op op)
{
    buf[threadIdx.x] = v;
    __syncthreads();
    for (int s = RED_THREADS / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) buf[threadIdx.x] = op(buf[threadIdx.x], buf[threadIdx.x + s]);
        __syncthreads();
    }
    v = buf[0];
    __syncthreads();
    return v;
}

/*
 * Grid-wide reduction ending in the last block: each block writes its
 * partial, the block that finishes last (a ticket from *counter) sums all
 * partials in index order and returns true with the total, resetting the
 * counter for the next launch. Deterministic: the order depends on the
 * grid size only, never on which block finishes last.
 */
template <typename S, typename Op>
__device__ bool grid_reduce(S *buf, S mine, S zero, Op op, S *partials,
                            unsigned int *counter, S *total)
{
    __shared__ bool last;
    S b = block_reduce(buf, mine, op);
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = b;
        __threadfence();
        last = atomicAdd(counter, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last) return false;
    __threadfence();
    S acc = zero;
    for (unsigned int k = threadIdx.x; k < gridDim.x; k += RED_THREADS)
        acc = op(acc, load_partial(partials + k));
    *total = block_reduce(buf, acc, op);
    if (threadIdx.x == 0) *counter = 0;
    return true;
}

/* ---- CLASSIFY -------------------------------------------------------- */

__device__ __forceinline__ void classify_one(csum &acc, unsigned char *active,
                                             long long i, double v, double e,
                                             int relerr, double epsrel,
                                             double negligible)
{
    const bool act = e > negligible && (!relerr || e > epsrel * fabs(v));
    active[i] = act;
    acc.v += v;
    acc.e += e;
    if (act) {
        acc.av += v;
        acc.ae += e;
        acc.mn = fmin(acc.mn, e);
        acc.mx = fmax(acc.mx, e);
        acc.na++;
    }
}

/*
 * Two-level error and relative-error classification, fused with the sums.
 * With parents one thread takes a sibling pair (2u, 2u+1): it reads both
 * values and the parent's value (parent[u]), updates both errors (Berntsen:
 * diff = |V_L + V_R - V_P| / 4, E *= 1 + 2 diff / (E_L + E_R), E += diff)
 * and classifies both (active iff E > negligible and, when relerr, also
 * E > epsrel |V|). Without
 * parents one thread takes one region. Threads stride over the units by
 * the grid; the sums go through grid_reduce; the last block also moves the
 * evaluate kernel's NaN report into the results and re-arms it.
 */
__global__ void __launch_bounds__(RED_THREADS)
classify_kernel(const double *__restrict__ value, double *__restrict__ error,
                const double *__restrict__ parent, unsigned char *__restrict__ active,
                long long count, int has_parents, int relerr, double epsrel,
                double negligible, csum *partials, unsigned int *counter, cuda_results *res,
                unsigned long long *nonfinite)
{
    __shared__ csum buf[RED_THREADS];
    csum acc = csum_zero(), total;
    const long long units = has_parents ? (count + 1) / 2 : count;
    const long long step = (long long)gridDim.x * RED_THREADS;

    for (long long u = (long long)blockIdx.x * RED_THREADS + threadIdx.x; u < units;
         u += step) {
        if (has_parents && 2 * u + 1 < count) {
            const long long i = 2 * u;
            const double vl = value[i], vr = value[i + 1];
            double el = error[i], er = error[i + 1];
            const double diff = fabs(vl + vr - parent[u]) / 4;
            const double sum = el + er;
            if (sum > 0) {
                el *= 1 + 2 * diff / sum;
                er *= 1 + 2 * diff / sum;
            }
            el += diff;
            er += diff;
            error[i] = el;
            error[i + 1] = er;
            classify_one(acc, active, i, vl, el, relerr, epsrel, negligible);
            classify_one(acc, active, i + 1, vr, er, relerr, epsrel, negligible);
        } else {
            const long long i = has_parents ? 2 * u : u;
            classify_one(acc, active, i, value[i], error[i], relerr, epsrel, negligible);
        }
    }
    if (grid_reduce(buf, acc, csum_zero(), csum_add(), partials, counter, &total) &&
        threadIdx.x == 0) {
        if (total.na == 0) total.mn = total.mx = 0.0;
        res->cls = total;
        res->nonfinite = *nonfinite;
        *nonfinite = ~0ULL;
    }
}

/* ---- THRESHOLD_STATS ------------------------------------------------- */

/* Count, value and error of the active regions with E <= t: one thread per
 * region (grid-strided), sums through grid_reduce. */
__global__ void __launch_bounds__(RED_THREADS)
threshold_kernel(const double *__restrict__ value, const double *__restrict__ error,
                 const unsigned char *__restrict__ active, long long count, double t,
                 tsum *partials, unsigned int *counter, cuda_results *res)
{
    __shared__ tsum buf[RED_THREADS];
    tsum acc = {0, 0.0, 0.0}, total;
    const long long step = (long long)gridDim.x * RED_THREADS;

    for (long long i = (long long)blockIdx.x * RED_THREADS + threadIdx.x; i < count;
         i += step) {
        if (active[i] && error[i] <= t) {
            acc.c++;
            acc.v += value[i];
            acc.e += error[i];
        }
    }
    if (grid_reduce(buf, acc, tsum{0, 0.0, 0.0}, tsum_add(), partials, counter, &total) &&
        threadIdx.x == 0)
        res->thr = total;
}

/* The sort key of region i: an active region's E, an inactive one's a NaN
 * (sorted after every number, +inf included). */
__device__ __forceinline__ double sort_key(const double *error, const unsigned char *active,
                                           long long i)
{
    return active[i] ? error[i] : __longlong_as_double(0x7ff8000000000000LL);
}

/*
 * The sorted statistics of a list of at most SMALL_SORT_MAX regions in one
 * launch, by ranking instead of sorting: one warp per region i, its lanes
 * striding over all regions j, counts the active regions ordered before or
 * at i (by E, ties by index, as a stable sort orders them) and sums their V
 * and E; a fixed shuffle tree combines the lanes. Lane 0 writes, at i's
 * rank, E_i and the two prefix sums (pitch SORT_STATS_MAX). Inactive
 * regions are left out. Quadratic work, but spread over the whole GPU: at
 * these sizes far quicker than a sort, which would run on one SM or take
 * several launches.
 */
__global__ void __launch_bounds__(RED_THREADS)
rank_stats_kernel(const double *__restrict__ value, const double *__restrict__ error,
                  const unsigned char *__restrict__ active, long long count,
                  double *__restrict__ sorted)
{
    const int lane = threadIdx.x & 31;
    const long long i = (long long)blockIdx.x * (RED_THREADS / 32) + threadIdx.x / 32;
    if (i >= count || !active[i]) return; /* the whole warp */
    const double ei = error[i];
    long long before = 0;
    double sv = 0.0, se = 0.0;
    for (long long j = lane; j < count; j += 32) {
        const double ej = error[j];
        if (active[j] && (ej < ei || (ej == ei && j <= i))) {
            before++;
            sv += value[j];
            se += ej;
        }
    }
    for (int offset = 16; offset > 0; offset >>= 1) {
        before += __shfl_down_sync(0xffffffffu, before, offset);
        sv += __shfl_down_sync(0xffffffffu, sv, offset);
        se += __shfl_down_sync(0xffffffffu, se, offset);
    }
    if (lane == 0) {
        sorted[before - 1] = ei;
        sorted[SORT_STATS_MAX + before - 1] = sv;
        sorted[2 * SORT_STATS_MAX + before - 1] = se;
    }
}

/* Keys (sort_key) and values (V) for the device sort of larger lists. One
 * thread per region. */
__global__ void __launch_bounds__(RED_THREADS)
sort_keys_kernel(const double *__restrict__ value, const double *__restrict__ error,
                 const unsigned char *__restrict__ active, long long count,
                 double *__restrict__ keys, double *__restrict__ values)
{
    const long long i = (long long)blockIdx.x * RED_THREADS + threadIdx.x;
    if (i >= count) return;
    keys[i] = sort_key(error, active, i);
    values[i] = value[i];
}

/* ---- FILTER_SPLIT ---------------------------------------------------- */

/* Whether region i stays: active, and (with a threshold t >= 0) not among
 * those threshold_stats counts (E <= t), so kept = active - that count. */
struct keep_op {
    const unsigned char *active;
    const double *error;
    double t;
    __host__ __device__ int operator()(int i) const
    {
        return active[i] && (t < 0 || !(error[i] <= t));
    }
};

typedef thrust::transform_iterator<keep_op, thrust::counting_iterator<int>, int> keep_iter;

/*
 * One thread per region: a kept region i (scan[i] = j, its rank among the
 * kept) becomes parent j of the next list: its box (lower corner and
 * halving levels, read, or derived from its own parent when the list is
 * implicit) goes to slot j of the other buffer with its split axis, and
 * its value to parent[j] for the next two-level error. Its halves,
 * regions 2j and 2j+1, are never stored.
 */
__global__ void __launch_bounds__(RED_THREADS)
split_kernel(int n, long long stride, long long count, int implicit, pagani_gpu_widths widths,
             const double *__restrict__ lower, const short *__restrict__ level,
             const signed char *__restrict__ parent_axis,
             double *__restrict__ next_lower, short *__restrict__ next_level,
             signed char *__restrict__ next_parent_axis,
             const signed char *__restrict__ axis, const double *__restrict__ value,
             double *__restrict__ parent, const int *__restrict__ scan, keep_op keep)
{
    const long long i = (long long)blockIdx.x * RED_THREADS + threadIdx.x;
    if (i >= count || !keep((int)i)) return;
    const long long j = scan[i];
    const long long src = implicit ? i >> 1 : i;
    const int split = implicit ? parent_axis[src] : -1, side = (int)(i & 1);
    for (int d = 0; d < n; d++) {
        const int k = level[d * stride + src];
        double l = lower[d * stride + src], w;
        pagani_gpu_child_box(d, split, side, widths.initial[d], k, &l, &w);
        next_lower[d * stride + j] = l;
        next_level[d * stride + j] = (short)pagani_gpu_child_level(d, split, k);
    }
    next_parent_axis[j] = axis[i];
    parent[j] = value[i];
}

/* One thread: the number of kept regions, from the scan's last entry. */
__global__ void kept_kernel(const int *scan, long long count, keep_op keep,
                            cuda_results *res)
{
    res->kept = (long long)scan[count - 1] + keep((int)(count - 1));
}

/* ---- state ----------------------------------------------------------- */

/* An integrand's compiled evaluate and probe kernels
 * (device_module[PAGANI_CUBATURE]). */
typedef struct cuda_integrand {
    cuda_module *module;
    cudaKernel_t kernels[2];   /* evaluate, probe */
} cuda_integrand;

struct cuda_cubature {
    /* the slab and what setup carved from it */
    void *slab;
    size_t slab_bytes;
    int n;
    long long capacity;        /* regions */
    long long stride;          /* entries of a box list: >= capacity / 2 */
    double *lower[2];          /* lower corners, and per axis how often */
    short *level[2];           /* the initial width was halved */
    pagani_gpu_widths widths;  /* the initial widths (from load) */
    signed char *parent_axis[2];
    int cur;
    int implicit;              /* list cur holds parents (after a split) */
    double *value, *error, *parent;
    signed char *axis;
    unsigned char *active;
    int *scan;
    void *scan_temp;
    size_t scan_temp_bytes;
    /* fixed small buffers */
    csum *partials;            /* RED_BLOCKS partials (tsum fits too) */
    unsigned int *counter;
    cuda_results *results;
    unsigned long long *nonfinite;
    double *consts;            /* PAGANI_EVC_SIZE */
    double *dense;             /* the dense offset table, then the tuples */
    int *tuples;
    size_t points_bytes;
    void *params;
    size_t params_bytes;
    /* the job */
    pagani_packed_rule packed;
    int have_packed;
    const pagani_rule *rule;
    cudaKernel_t evaluate, probe;
    /* Threshold statistics of a list of at most SORT_STATS_MAX regions:
     * the active errors sorted on the device, with prefix sums of V and E
     * in that order, copied once per classify to the host, where each
     * candidate threshold is a binary search. */
    double *sort_buf;          /* device: 6 arrays of SORT_STATS_MAX: keys,
                                  values, sorted values, then as on the host */
    void *sort_temp, *psum_temp;
    size_t sort_temp_bytes, psum_temp_bytes;
    double *host_sorted;       /* pinned: sorted E, prefix V, prefix E */
    long long sorted_count;    /* active regions in host_sorted, -1: stale */
    /* counts known on the host: filter_split then needs no transfer */
    long long active_count;    /* from the last classify, -1: unknown */
    int have_threshold;
    double threshold;
    long long threshold_count;
};

static size_t align_up(size_t x)
{
    return (x + 255) & ~(size_t)255;
}

/* Lays the region lists out from base (NULL: only measures): two box lists
 * of `stride` entries (parents), and per region of the capacity its value,
 * error, axis, flag and scan slot, and per pair the parent's value. */
static size_t carve(cuda_cubature *c, char *base, int n, long long capacity,
                    long long stride, size_t scan_temp)
{
    size_t at = 0, entries = (size_t)n * (size_t)stride;
#define CARVE(ptr, type, bytes)                                              \
    do {                                                                     \
        if (base) (ptr) = (type)(base + at);                                 \
        at += align_up(bytes);                                               \
    } while (0)
    for (int b = 0; b < 2; b++) {
        CARVE(c->lower[b], double *, entries * sizeof(double));
        CARVE(c->level[b], short *, entries * sizeof(short));
        CARVE(c->parent_axis[b], signed char *, (size_t)stride);
    }
    CARVE(c->value, double *, (size_t)capacity * sizeof(double));
    CARVE(c->error, double *, (size_t)capacity * sizeof(double));
    CARVE(c->parent, double *, (size_t)stride * sizeof(double));
    CARVE(c->axis, signed char *, (size_t)capacity);
    CARVE(c->active, unsigned char *, (size_t)capacity);
    CARVE(c->scan, int *, (size_t)capacity * sizeof(int));
    CARVE(c->scan_temp, void *, scan_temp);
#undef CARVE
    return at;
}

static size_t cu_bytes_per_region(int n)
{
    return (size_t)n * (sizeof(double) + sizeof(short)) /* parents' lower and
                                                           levels; 2 lists */
           + 1                              /* parents' split axis */
           + 2 * sizeof(double)             /* value, error */
           + sizeof(double) / 2             /* parent value per pair */
           + 2 + sizeof(int)                /* axis, active, scan */
           + 5;                             /* alignment and CUB scratch */
}

size_t cuda_cubature_bytes_held(const cuda_state *st)
{
    return st->cubature ? st->cubature->slab_bytes : 0;
}

void cuda_cubature_free(cuda_state *st)
{
    cuda_cubature *c = st->cubature;
    if (!c) return;
    cudaFree(c->slab);
    cudaFree(c->partials);
    cudaFree(c->dense);
    cudaFree(c->params);
    cudaFree(c->sort_buf);
    if (c->host_sorted) cudaFreeHost(c->host_sorted);
    pagani_packed_rule_free(&c->packed);
    free(c);
    st->cubature = NULL;
}

/* The fixed small buffers, in one allocation. */
static int make_state(cuda_state *st)
{
    pagani_context *ctx = st->ctx;
    cuda_cubature *c = (cuda_cubature *)calloc(1, sizeof *c);
    char *small;
    size_t at = 0;

    cudaError_t err;

    if (!c) return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "CUDA cubature state");
    err = cudaMalloc((void **)&small, align_up(RED_BLOCKS * sizeof(csum)) + 4 * 256 +
                                          align_up(PAGANI_EVC_SIZE * sizeof(double)));
    if (err != cudaSuccess) {
        free(c);
        return cuda_fail(ctx, err, "cudaMalloc (reduction buffers)");
    }
    st->cubature = c;
    c->active_count = -1;
    c->sorted_count = -1;
    c->partials = (csum *)small;
    at = align_up(RED_BLOCKS * sizeof(csum));
    c->counter = (unsigned int *)(small + at);
    c->nonfinite = (unsigned long long *)(small + at + 256);
    c->results = (cuda_results *)(small + at + 512);
    c->consts = (double *)(small + at + 1024);
    CUDA_TRY(ctx, cudaMemsetAsync(c->counter, 0, sizeof(unsigned int), st->stream));
    return PAGANI_OK;
}

/* Threads per region: 32 (the fastest per point when the GPU is full), more
 * while the regions alone would leave it idle (first iterations), up to 256
 * and to 4 points a thread. PAGANI_CUDA_EVAL_THREADS overrides. A region's
 * sums depend on it, and it depends on the region count only: the results
 * stay deterministic. */
static int threads_per_region(const cuda_state *st, long long count, int npoints)
{
    const long long fill = (long long)st->sm_count * 1024;
    int t = 32;
    if (st->eval_threads) return st->eval_threads;
    while (t < 256 && t * count < fill && t * 4 <= npoints) t *= 2;
    return t;
}

/* Packs and uploads the job's rule unless the same (n, degree) is there. */
static int upload_rule(cuda_state *st, const pagani_rule *rule)
{
    cuda_cubature *c = st->cubature;
    pagani_context *ctx = st->ctx;
    size_t bytes;
    int rc;

    if (c->have_packed && c->packed.n == rule->n && c->packed.degree == rule->degree)
        return PAGANI_OK;
    if (c->have_packed) pagani_packed_rule_free(&c->packed);
    c->have_packed = 0;
    rc = pagani_packed_rule_make(rule, &c->packed);
    if (rc == -2) return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "packed rule");
    if (rc != 0)
        return pagani_fail(ctx, PAGANI_ERR_OPTION, "the degree-%d rule for n = %d "
                           "does not fit the CUDA backend's rule layout",
                           rule->degree, rule->n);
    {
        size_t ne = (size_t)c->packed.shape.nexplicit;
        size_t dense = align_up(ne * (size_t)rule->n * sizeof(double));
        bytes = dense + ne * sizeof(int);
        if (bytes > c->points_bytes) {
            cudaFree(c->dense);
            c->dense = NULL;
            c->points_bytes = 0;
            CUDA_TRY(ctx, cudaMalloc((void **)&c->dense, bytes));
            c->points_bytes = bytes;
        }
        c->tuples = (int *)((char *)c->dense + dense);
        if (ne) {
            CUDA_TRY(ctx, cudaMemcpyAsync(c->dense, c->packed.dense,
                                          ne * (size_t)rule->n * sizeof(double),
                                          cudaMemcpyHostToDevice, st->stream));
            CUDA_TRY(ctx, cudaMemcpyAsync(c->tuples, c->packed.tuples, ne * sizeof(int),
                                          cudaMemcpyHostToDevice, st->stream));
        }
    }
    /* From pageable memory these copies return once the data is staged. */
    CUDA_TRY(ctx, cudaMemcpyAsync(c->consts, c->packed.consts, sizeof c->packed.consts,
                                  cudaMemcpyHostToDevice, st->stream));
    c->have_packed = 1;
    return PAGANI_OK;
}

/* ---- the operations -------------------------------------------------- */

static int cu_setup(void *state, const cubature_job *job)
{
    cuda_state *st = (cuda_state *)state;
    pagani_context *ctx = st->ctx;
    pagani_integrand *f = (pagani_integrand *)job->integrand;
    cuda_integrand *ci;
    cuda_cubature *c;
    long long stride;
    size_t need, temp = 0, psize;
    int rc;

    CUDA_TRY(ctx, cudaSetDevice(st->device));
    if (!f->device_module[PAGANI_CUBATURE] && f->source && job->n <= 20 &&
        (rc = cuda_cubature_prepare(st, f)) != PAGANI_OK)
        return rc;
    if (!(ci = (cuda_integrand *)f->device_module[PAGANI_CUBATURE]))
        return pagani_fail(ctx, PAGANI_ERR_NO_FORM, "the integrand has no CUDA "
                           "evaluation kernel (it needs source)");
    if (!st->cubature && (rc = make_state(st)) != PAGANI_OK) return rc;
    c = st->cubature;
    if (job->capacity < 2 || job->capacity > INT_MAX - STRIDE_ALIGN)
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "a region capacity of %lld "
                           "is outside what the CUDA backend indexes (2 to 2^31 - "
                           "64): set a smaller memory budget", job->capacity);
    stride = (job->capacity / 2 + 1 + STRIDE_ALIGN - 1) / STRIDE_ALIGN * STRIDE_ALIGN;
    {
        keep_iter it(thrust::counting_iterator<int>(0), keep_op{NULL, NULL, -1.0});
        CUDA_TRY(ctx, cub::DeviceScan::ExclusiveSum(NULL, temp, it, (int *)NULL,
                                                    (int)job->capacity, st->stream));
    }
    need = carve(c, NULL, job->n, job->capacity, stride, temp);
    if (need > c->slab_bytes) {
        cudaFree(c->slab);
        c->slab = NULL;
        c->slab_bytes = 0;
        CUDA_TRY(ctx, cudaMalloc(&c->slab, need));
        c->slab_bytes = need;
    }
    carve(c, (char *)c->slab, job->n, job->capacity, stride, temp);
    c->scan_temp_bytes = temp;
    c->n = job->n;
    c->capacity = job->capacity;
    c->stride = stride;
    c->cur = 0;
    c->implicit = 0;
    c->rule = job->rule;
    c->evaluate = ci->kernels[0];
    c->probe = ci->kernels[1];
    c->active_count = -1;
    c->have_threshold = 0;
    c->sorted_count = -1;
    if ((rc = upload_rule(st, job->rule)) != PAGANI_OK) return rc;

    psize = f->params_size > 0 ? f->params_size : 8;
    if (psize > c->params_bytes) {
        cudaFree(c->params);
        c->params = NULL;
        c->params_bytes = 0;
        CUDA_TRY(ctx, cudaMalloc(&c->params, psize));
        c->params_bytes = psize;
    }
    if (f->params_size > 0)
        CUDA_TRY(ctx, cudaMemcpyAsync(c->params, f->params, f->params_size,
                                      cudaMemcpyHostToDevice, st->stream));
    CUDA_TRY(ctx, cudaMemsetAsync(c->nonfinite, 0xff, sizeof *c->nonfinite, st->stream));
    return PAGANI_OK;
}

static int cu_load(void *state, const double *lower, const double *width,
                   long long count)
{
    cuda_state *st = (cuda_state *)state;
    cuda_cubature *c = st->cubature;
    size_t row = (size_t)count * sizeof(double), pitch = (size_t)c->stride * sizeof(double);

    if (count > c->stride)
        return pagani_fail(st->ctx, PAGANI_ERR_NO_MEMORY, "%lld regions loaded into "
                           "a list of %lld", count, c->stride);
    if (count == 0) return PAGANI_OK;
    /* The list stores levels of one initial width per axis: the regions
     * loaded are those initial regions, all of one width per axis. */
    for (int d = 0; d < c->n; d++) {
        c->widths.initial[d] = width[(size_t)d * count];
        for (long long i = 1; i < count; i++)
            if (width[(size_t)d * count + i] != c->widths.initial[d])
                return pagani_fail(st->ctx, PAGANI_ERR_OPTION, "the CUDA backend "
                                   "loads initial regions of one width per axis");
    }
    CUDA_TRY(st->ctx, cudaMemcpy2DAsync(c->lower[c->cur], pitch, lower, row, row, c->n,
                                        cudaMemcpyHostToDevice, st->stream));
    CUDA_TRY(st->ctx, cudaMemset2DAsync(c->level[c->cur], (size_t)c->stride * sizeof(short),
                                        0, (size_t)count * sizeof(short), c->n, st->stream));
    CUDA_TRY(st->ctx, cudaStreamSynchronize(st->stream));
    c->implicit = 0;
    c->active_count = -1;
    c->sorted_count = -1;
    return PAGANI_OK;
}

static int cu_evaluate(void *state, long long count, double probe_below, double probe_relative)
{
    cuda_state *st = (cuda_state *)state;
    cuda_cubature *c = st->cubature;
    pagani_eval_shape shape = c->packed.shape;
    const int tpr = threads_per_region(st, count, shape.npoints);
    const int block = tpr > EVAL_BLOCK ? tpr : EVAL_BLOCK;
    const int groups = block / tpr;
    const double *lower = c->lower[c->cur];
    const short *level = c->level[c->cur];
    const signed char *parent_axis = c->parent_axis[c->cur];
    const double *dense = c->dense, *consts = c->consts;
    const int *tuples = c->tuples;
    const void *params = c->params;
    long long stride = c->stride;
    size_t shared;

    if (count <= 0) return PAGANI_OK;
    shape.tpr = tpr;
    shape.implicit = c->implicit;
    shape.widths = c->widths;
    /* The rule's largest |f| per region waits in the scan buffer for the
     * probe kernel (filter_split's scan comes later). */
    float *rule_max = (float *)c->scan;

    shared = sizeof(double) * (5 * (size_t)shape.nweights + (size_t)groups * (4 * c->n + 1) +
                               (size_t)groups * (tpr / 32) * 6);
    void *args[] = {&lower, &level, &parent_axis, &stride, &count, &dense, &tuples, &consts,
                    &shape, &params, &c->value, &c->error, &c->axis, &c->nonfinite,
                    &rule_max};
    CUDA_TRY(st->ctx, cudaLaunchKernel((const void *)c->evaluate,
                                       dim3((unsigned)((count + groups - 1) / groups)),
                                       dim3(block), args, shared, st->stream));
    if (shape.nprobes > 0 && (probe_below >= 0.0 || probe_relative > 0.0)) {
        void *probe_args[] = {&lower, &level, &parent_axis, &stride, &count, &shape,
                              &probe_below, &probe_relative, &params, &c->value,
                              &rule_max, &c->error, &c->axis, &c->nonfinite};
        CUDA_TRY(st->ctx, cudaLaunchKernel((const void *)c->probe,
                                           dim3((unsigned)((count + PROBE_REGIONS - 1) /
                                                           PROBE_REGIONS)),
                                           dim3(32 * PROBE_REGIONS), probe_args, 0,
                                           st->stream));
    }
    c->sorted_count = -1;
    return PAGANI_OK;
}

/* Where kernels put their results: the mapped pinned buffer itself, else
 * the device block (then fetch_results copies it). */
static cuda_results *results_target(const cuda_state *st)
{
    return st->pinned_dev ? (cuda_results *)st->pinned_dev : st->cubature->results;
}

/* Waits for the stream and makes the results readable in st->pinned. */
static int fetch_results(cuda_state *st, size_t offset, size_t bytes)
{
    if (!st->pinned_dev)
        CUDA_TRY(st->ctx, cudaMemcpyAsync((char *)st->pinned + offset,
                                          (char *)st->cubature->results + offset, bytes,
                                          cudaMemcpyDeviceToHost, st->stream));
    CUDA_TRY(st->ctx, cudaStreamSynchronize(st->stream));
    return PAGANI_OK;
}

/* Blocks of a reduction over `units` items: fixed by the count alone. */
static unsigned reduce_blocks(long long units)
{
    long long b = (units + RED_THREADS - 1) / RED_THREADS;
    return (unsigned)(b < 1 ? 1 : b > RED_BLOCKS ? RED_BLOCKS : b);
}

static int cu_classify(void *state, long long count, int has_parents, int relerr_filter,
                       double epsrel, double negligible, cubature_sums *sums)
{
    cuda_state *st = (cuda_state *)state;
    cuda_cubature *c = st->cubature;
    cuda_results *r = (cuda_results *)st->pinned;
    long long units = has_parents ? (count + 1) / 2 : count;
    int rc;

    memset(sums, 0, sizeof *sums);
    sums->nonfinite_region = -1;
    if (count <= 0) return PAGANI_OK;
    classify_kernel<<<reduce_blocks(units), RED_THREADS, 0, st->stream>>>(
        c->value, c->error, c->parent, c->active, count, has_parents, relerr_filter,
        epsrel, negligible, c->partials, c->counter, results_target(st), c->nonfinite);
    CUDA_TRY(st->ctx, cudaGetLastError());
    if ((rc = fetch_results(st, 0, sizeof *r)) != PAGANI_OK) return rc;
    sums->value = r->cls.v;
    sums->error = r->cls.e;
    sums->active_value = r->cls.av;
    sums->active_error = r->cls.ae;
    sums->active = r->cls.na;
    sums->min_error = r->cls.mn;
    sums->max_error = r->cls.mx;
    if (r->nonfinite != ~0ULL) {
        sums->nonfinite_region = (long long)(r->nonfinite >> 21);
        sums->nonfinite_point = (int)(r->nonfinite & ((1ULL << 21) - 1));
    }
    c->active_count = r->cls.na;
    c->have_threshold = 0;
    c->sorted_count = -1;
    return PAGANI_OK;
}

/* The sorted copy of the active errors (see sort_buf), made once per
 * classify: ranks for small lists, else CUB's device sort and scans; one
 * transfer either way. Scratch is allocated on first use, once per
 * context. */
static int sort_errors(cuda_state *st, long long count)
{
    cuda_cubature *c = st->cubature;
    pagani_context *ctx = st->ctx;
    const long long m = SORT_STATS_MAX;
    double *keys, *values, *values_out, *sorted;
    const long long na = c->active_count;

    if (!c->host_sorted)
        CUDA_TRY(ctx, cudaMallocHost((void **)&c->host_sorted, 3 * m * sizeof(double)));
    if (!c->sort_buf) {
        size_t sort_bytes = 0, psum_bytes = 0;
        CUDA_TRY(ctx, cub::DeviceRadixSort::SortPairs(NULL, sort_bytes, (double *)NULL,
                                                      (double *)NULL, (double *)NULL,
                                                      (double *)NULL, (int)m, 0, 64,
                                                      st->stream));
        CUDA_TRY(ctx, cub::DeviceScan::InclusiveSum(NULL, psum_bytes, (double *)NULL,
                                                    (double *)NULL, (int)m, st->stream));
        sort_bytes = align_up(sort_bytes);
        psum_bytes = align_up(psum_bytes);
        CUDA_TRY(ctx, cudaMalloc((void **)&c->sort_buf,
                                 6 * m * sizeof(double) + sort_bytes + psum_bytes));
        c->sort_temp = (char *)c->sort_buf + 6 * m * sizeof(double);
        c->psum_temp = (char *)c->sort_temp + sort_bytes;
        c->sort_temp_bytes = sort_bytes;
        c->psum_temp_bytes = psum_bytes;
    }
    keys = c->sort_buf;
    values = keys + m;
    values_out = keys + 2 * m;
    sorted = keys + 3 * m; /* sorted E, prefix V, prefix E: pitch m, as on the host */
    if (count <= SMALL_SORT_MAX) {
        const long long warps_per_block = RED_THREADS / 32;
        rank_stats_kernel<<<(unsigned)((count + warps_per_block - 1) / warps_per_block),
                            RED_THREADS, 0, st->stream>>>(c->value, c->error, c->active,
                                                          count, sorted);
        CUDA_TRY(ctx, cudaGetLastError());
    } else {
        size_t bytes = c->sort_temp_bytes;
        sort_keys_kernel<<<(unsigned)((count + RED_THREADS - 1) / RED_THREADS), RED_THREADS,
                           0, st->stream>>>(c->value, c->error, c->active, count, keys, values);
        CUDA_TRY(ctx, cudaGetLastError());
        CUDA_TRY(ctx, cub::DeviceRadixSort::SortPairs(c->sort_temp, bytes, keys, sorted,
                                                      values, values_out, (int)count, 0, 64,
                                                      st->stream));
        if (na > 0) {
            bytes = c->psum_temp_bytes;
            CUDA_TRY(ctx, cub::DeviceScan::InclusiveSum(c->psum_temp, bytes, values_out,
                                                        sorted + m, (int)na, st->stream));
            bytes = c->psum_temp_bytes;
            CUDA_TRY(ctx, cub::DeviceScan::InclusiveSum(c->psum_temp, bytes, sorted,
                                                        sorted + 2 * m, (int)na, st->stream));
        }
    }
    if (na > 0)
        CUDA_TRY(ctx, cudaMemcpy2DAsync(c->host_sorted, m * sizeof(double), sorted,
                                        m * sizeof(double), na * sizeof(double), 3,
                                        cudaMemcpyDeviceToHost, st->stream));
    CUDA_TRY(ctx, cudaStreamSynchronize(st->stream));
    c->sorted_count = na;
    return PAGANI_OK;
}

/* Statistics from the sorted copy: the active regions with E <= t are the
 * first `pos` of it (exactly those filter_split finishes), their sums the
 * prefix sums there. */
static void sorted_stats(const cuda_cubature *c, double t, threshold_stats *stats)
{
    const double *e = c->host_sorted;
    long long lo = 0, hi = c->sorted_count; /* first index with e > t */
    while (lo < hi) {
        long long mid = lo + (hi - lo) / 2;
        if (e[mid] <= t) lo = mid + 1;
        else hi = mid;
    }
    stats->count = lo;
    stats->value = lo ? c->host_sorted[SORT_STATS_MAX + lo - 1] : 0.0;
    stats->error = lo ? c->host_sorted[2 * SORT_STATS_MAX + lo - 1] : 0.0;
}

static int cu_threshold_stats(void *state, long long count, double threshold,
                              threshold_stats *stats)
{
    cuda_state *st = (cuda_state *)state;
    cuda_cubature *c = st->cubature;
    cuda_results *r = (cuda_results *)st->pinned;
    int rc;

    memset(stats, 0, sizeof *stats);
    if (count <= 0) return PAGANI_OK;
    if (count <= SORT_STATS_MAX && c->active_count >= 0) {
        if (c->sorted_count < 0 && (rc = sort_errors(st, count)) != PAGANI_OK) return rc;
        sorted_stats(c, threshold, stats);
    } else {
        threshold_kernel<<<reduce_blocks(count), RED_THREADS, 0, st->stream>>>(
            c->value, c->error, c->active, count, threshold, (tsum *)c->partials,
            c->counter, results_target(st));
        CUDA_TRY(st->ctx, cudaGetLastError());
        rc = fetch_results(st, offsetof(cuda_results, thr), sizeof r->thr);
        if (rc != PAGANI_OK) return rc;
        stats->count = r->thr.c;
        stats->value = r->thr.v;
        stats->error = r->thr.e;
    }
    c->have_threshold = 1;
    c->threshold = threshold;
    c->threshold_count = stats->count;
    return PAGANI_OK;
}

static int cu_filter_split(void *state, long long count, double threshold,
                           long long *new_count)
{
    cuda_state *st = (cuda_state *)state;
    cuda_cubature *c = st->cubature;
    pagani_context *ctx = st->ctx;
    cuda_results *r = (cuda_results *)st->pinned;
    keep_op keep = {c->active, c->error, threshold};
    long long kept = -1;
    size_t temp = c->scan_temp_bytes;
    const int nxt = 1 - c->cur;

    *new_count = 0;
    if (count <= 0) return PAGANI_OK;
    /* The kept count is known from classify (and threshold_stats) when the
     * threshold is the one counted: then no transfer is needed. */
    if (c->active_count >= 0 && threshold < 0)
        kept = c->active_count;
    else if (c->active_count >= 0 && c->have_threshold && c->threshold == threshold)
        kept = c->active_count - c->threshold_count;
    if (kept >= 0 && 2 * kept > c->capacity)
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "split of %lld regions exceeds "
                           "the capacity %lld", kept, c->capacity);
    {
        keep_iter it(thrust::counting_iterator<int>(0), keep);
        CUDA_TRY(ctx, cub::DeviceScan::ExclusiveSum(c->scan_temp, temp, it, c->scan,
                                                    (int)count, st->stream));
    }
    if (kept < 0) {
        int rc;
        kept_kernel<<<1, 1, 0, st->stream>>>(c->scan, count, keep, results_target(st));
        CUDA_TRY(ctx, cudaGetLastError());
        rc = fetch_results(st, offsetof(cuda_results, kept), sizeof r->kept);
        if (rc != PAGANI_OK) return rc;
        kept = r->kept;
        if (2 * kept > c->capacity)
            return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "split of %lld regions "
                               "exceeds the capacity %lld", kept, c->capacity);
    }
    split_kernel<<<(unsigned)((count + RED_THREADS - 1) / RED_THREADS), RED_THREADS, 0,
                   st->stream>>>(c->n, c->stride, count, c->implicit, c->widths,
                                 c->lower[c->cur], c->level[c->cur], c->parent_axis[c->cur],
                                 c->lower[nxt], c->level[nxt], c->parent_axis[nxt], c->axis,
                                 c->value, c->parent, c->scan, keep);
    CUDA_TRY(ctx, cudaGetLastError());
    c->cur = nxt;
    c->implicit = 1;
    c->active_count = -1;
    c->have_threshold = 0;
    c->sorted_count = -1;
    *new_count = 2 * kept;
    return PAGANI_OK;
}

static int cu_region_point(void *state, long long region, int point, double *x)
{
    cuda_state *st = (cuda_state *)state;
    cuda_cubature *c = st->cubature;
    double lo[PAGANI_MAX_DIM], w[PAGANI_MAX_DIM];
    long long src = c->implicit ? region >> 1 : region;
    signed char split = -1;

    if (c->implicit)
        CUDA_TRY(st->ctx, cudaMemcpy(&split, c->parent_axis[c->cur] + src, 1,
                                     cudaMemcpyDeviceToHost));
    for (int d = 0; d < c->n; d++) {
        short level;
        CUDA_TRY(st->ctx, cudaMemcpy(&lo[d], c->lower[c->cur] + d * c->stride + src,
                                     sizeof(double), cudaMemcpyDeviceToHost));
        CUDA_TRY(st->ctx, cudaMemcpy(&level, c->level[c->cur] + d * c->stride + src,
                                     sizeof level, cudaMemcpyDeviceToHost));
        pagani_gpu_child_box(d, split, (int)(region & 1), c->widths.initial[d], level,
                             &lo[d], &w[d]);
    }
    pagani_rule_point(c->rule, point, lo, w, x);
    return PAGANI_OK;
}

extern "C" const cubature_ops pagani_cuda_cubature_ops = {
    cu_setup,
    cu_load,
    cu_evaluate,
    cu_classify,
    cu_threshold_stats,
    cu_filter_split,
    cu_region_point,
    cu_bytes_per_region,
};

/* ---- integrands and device checks ------------------------------------ */

int cuda_cubature_prepare(cuda_state *st, pagani_integrand *f)
{
    static const char *const names[2] = {"pagani_cubature_evaluate",
                                         "pagani_cubature_probe"};
    pagani_context *ctx = st->ctx;
    const char *env = getenv("PAGANI_CUDA_EVAL_OPTIONS");
    size_t len = strlen(pagani_cubature_kernel_src);
    char *text, *end, words[256];
    cuda_integrand *ci;
    int rc;

    if (!(text = (char *)malloc(len + 4 * sizeof words + 1)) ||
        !(ci = (cuda_integrand *)calloc(1, sizeof *ci))) {
        free(text);
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "cubature kernel text");
    }
    /* Kernel variants for benchmarks (cubature_evaluate.cuh's knobs): the
     * words -DNAME=VALUE of PAGANI_CUDA_EVAL_OPTIONS become #defines. */
    end = text;
    if (env && strlen(env) < sizeof words) {
        char *save = NULL;
        strcpy(words, env);
        for (char *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
            char *eq = strchr(w, '=');
            if (strncmp(w, "-D", 2) != 0) continue;
            if (eq) *eq = ' ';
            end += sprintf(end, "#define %s\n", w + 2);
        }
    }
    memcpy(end, pagani_cubature_kernel_src, len + 1);
    rc = cuda_integrand_kernels(ctx, f, text, "cubature", names, ci->kernels, 2,
                                &ci->module);
    free(text);
    if (rc != PAGANI_OK) {
        free(ci);
        return rc;
    }
    f->device_module[PAGANI_CUBATURE] = ci;
    return PAGANI_OK;
}

void cuda_cubature_release(cuda_state *st, pagani_integrand *f)
{
    cuda_integrand *ci = (cuda_integrand *)f->device_module[PAGANI_CUBATURE];
    (void)st;
    if (!ci) return;
    cuda_module_destroy(ci->module);
    free(ci);
    f->device_module[PAGANI_CUBATURE] = NULL;
}

int cuda_cubature_check(cuda_state *st)
{
    cudaFuncAttributes attr;
    cudaError_t err = cudaFuncGetAttributes(&attr, classify_kernel);
    if (err != cudaSuccess) {
        (void)cudaGetLastError();
        return pagani_fail(st->ctx, PAGANI_ERR_BACKEND_UNAVAILABLE,
                           "libpagani's CUDA kernels do not run on this GPU (compute "
                           "capability %d.%d): %s; rebuild with --with-cuda-arch=%d",
                           st->cc / 10, st->cc % 10, cudaGetErrorString(err), st->cc);
    }
    return PAGANI_OK;
}
