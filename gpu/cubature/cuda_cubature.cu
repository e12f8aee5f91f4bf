/*
 * cuda_cubature.cu - the cubature operations of backend.h on the GPU
 * (DESIGN.md section 5): EVALUATE is the NVRTC kernel of
 * cubature_evaluate.cuh (with cubature_probe.cuh's vertex probes),
 * compiled per integrand;
 * CLASSIFY, THRESHOLD_STATS and FILTER_SPLIT are the kernels of
 * cubature_tiles.cuh and cubature_sorted.cuh, with CUB's scan and radix
 * sort.
 *
 * Batches: the list holds the regions of K integrals, integral by
 * integral. The host keeps each integral's region count and, whenever the
 * counts change (load, filter_split), uploads the layout of batch_layout.h
 * in one copy: where each integral's regions start, and its tiles at every
 * level of a sum. A kernel that needs a region's integral (its parameter
 * block, initial widths, probe and split thresholds) finds it by a search
 * over the starts (a warp tests 32 candidates a step: log32 K cached
 * loads), which costs no memory per region; kernels that sum go tile by
 * tile and know it from the tile. Every sum of an integral depends on its
 * own regions only, so a batch gives each integral the bits it gets alone
 * (with the same threads per region, see threads_per_region). A single
 * integral gets its few per-integral numbers as kernel arguments: no
 * uploads per iteration.
 *
 * Memory: one device allocation (the slab) holds the region lists and
 * what grows with them (the tiles' partials, CUB's scratch, the sort's
 * arrays where a box list cannot hold them), carved anew by every setup
 * and reallocated only when a larger job comes; a second (the batch
 * block) what grows with K.
 * After the first split a list holds the PARENTS of the regions (box and
 * split axis): region i is half i & 1 of parent i / 2, derived where it is
 * read. That halves the boxes stored. A box is its lower corner and, per
 * axis, a 16-bit count of halvings of its integral's initial width
 * (widths are the initial ones over powers of two). Nothing is allocated
 * per iteration.
 *
 * Round trips: classify one per iteration (the K integrals' sums, one
 * transfer); threshold_stats one sorted copy per iteration for the
 * integrals of up to HOST_STATS_MAX regions (then each candidate is a
 * binary search on the host), one per candidate for larger ones;
 * filter_split none when every integral's kept count is known from those
 * (the usual case), else one.
 *
 * Determinism: every sum is a fixed tree over fixed tiles (no
 * floating-point atomics), so a run repeated on the same device gives the
 * same bits.
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
#include "gpu/cubature/batch_layout.h"
#include "gpu/cubature/rule_pack.h"
#include "gpu/cubature/cubature_kernel_src.h" /* generated: pagani_cubature_kernel_src */
#include "rules/component_norm.h"
#include "rules/probe.h"
#include "rules/null_error.h"   /* pagani_two_level_error */
#include "rules/random_check.h" /* PAGANI_CHECK_POINTS */

#define RED_THREADS 256   /* threads of the tile, sort and split kernels */
#define EVAL_BLOCK 128    /* threads of an evaluate block (at least) */
#define CHECK_BLOCK 256   /* threads of a check block: 16 regions at once */
#define CHECK_REGIONS_PER_BLOCK (CHECK_BLOCK / PAGANI_CHECK_POINTS)
#define CHECK_BLOCKS_PER_SM 8
#define STRIDE_ALIGN 32   /* region stride: a multiple of this */
#define HOST_STATS_MAX 131072 /* threshold statistics of an integral of up to
                                 this many regions from the sorted copy on the
                                 host, else a reduction on the device each */
#define SMALL_SORT_MAX 4096   /* lists sorted by ranking up to this many */

#include "gpu/cubature/cubature_tiles.cuh"
#include "gpu/cubature/cubature_sorted.cuh"

static_assert(PAGANI_GPU_MAX_DIM == PAGANI_MAX_CUBATURE_DIM, "region boxes hold every axis");
static_assert(HOST_STATS_MAX <= 32 * CARRY_PER_LANE * TILE, "carry_kernel covers them");
static_assert(sizeof(integral_sums) >= sizeof(tsum) &&
              sizeof(integral_sums) >= 2 * sizeof(long long),
              "a result slot per integral holds the other results");

/* ---- FILTER_SPLIT's split -------------------------------------------- */

/* The kept flag of item i of the scan over count + 1 items (the last, 0,
 * makes the scan's last entry the total): active, and with a threshold
 * t >= 0 not E <= t. With several integrals mark_kept_kernel has applied
 * theirs and t is -1; a single integral's is applied here, sparing that
 * pass. */
struct kept_flag {
    const unsigned char *active;
    const double *error;
    double t;
    long long count;
    __host__ __device__ int operator()(int i) const
    {
        return i < count && active[i] && (t < 0 || !(error[i] <= t));
    }
};

typedef thrust::transform_iterator<kept_flag, thrust::counting_iterator<int>, int> kept_iter;

/*
 * One thread per region: a kept region i (kept(i); scan[i] = j, its rank
 * among the kept) becomes parent j of the next
 * list: its box (lower corner and halving levels, read, or derived from
 * its own parent when the list is implicit, with its integral's initial
 * widths) goes to slot j of the other buffer with its split axis, and its
 * value to parent[j] for the next two-level error. Its halves, regions 2j
 * and 2j+1, are never stored.
 */
__global__ void __launch_bounds__(RED_THREADS)
split_kernel(int n, long long stride, long long count, int implicit,
             const int *__restrict__ offsets, int integrals, const double *__restrict__ initial,
             const double *__restrict__ lower, const short *__restrict__ level,
             const signed char *__restrict__ parent_axis,
             double *__restrict__ next_lower, short *__restrict__ next_level,
             signed char *__restrict__ next_parent_axis,
             const signed char *__restrict__ axis, const double *__restrict__ value,
             double *__restrict__ parent, const int *__restrict__ scan, kept_flag kept)
{
    const long long i = (long long)blockIdx.x * RED_THREADS + threadIdx.x;
    if (i >= count || !kept((int)i)) return;
    const long long j = scan[i];
    const long long src = implicit ? i >> 1 : i;
    const int split = implicit ? parent_axis[src] : -1, side = (int)(i & 1);
    const double *w0 = initial + (long long)pagani_gpu_integral_of(offsets, integrals, i) * n;
    for (int d = 0; d < n; d++) {
        const int k = level[d * stride + src];
        double l = lower[d * stride + src], w;
        pagani_gpu_child_box(d, split, side, w0[d], k, &l, &w);
        next_lower[d * stride + j] = l;
        next_level[d * stride + j] = (short)pagani_gpu_child_level(d, split, k);
    }
    next_parent_axis[j] = axis[i];
    parent[j] = value[i];
}

#include "gpu/cubature/cubature_vector.cuh"

/* ---- state ----------------------------------------------------------- */

/* An integrand's compiled kernels (device_module[PAGANI_CUBATURE]): the
 * evaluate kernel, which runs the probes too, cubature_evaluate.cuh's, or
 * cubature_evaluate_vector.cuh's for one of several components; and for
 * a scalar integrand the randomized check, cubature_check.cuh's. */
typedef struct cuda_integrand {
    cuda_module *module;
    cudaKernel_t kernel[2]; /* evaluate, check */
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
    signed char *parent_axis[2];
    int cur;
    int implicit;              /* list cur holds parents (after a split) */
    int axial;                 /* the job's probes: axial ones on every
                                  region (rules/probe.h) */
    double *value, *error, *parent;
    signed char *axis;
    unsigned char *active;
    unsigned char *error_sign; /* rules/error_sign.h */
    double *check_diff;        /* a checked region's V - M and its */
    double *check_var;         /* variance (rules/random_check.h) */
    int *scan;                 /* capacity + 1 */
    void *temp;                /* CUB's scratch: the scan, the sorts */
    size_t temp_bytes;
    csum *partials[2];         /* tile partials of alternate levels */
    long long most_tiles;      /* tiles of one level, at most */
    char *sort_scratch;        /* the sort's arrays (sort_pointers), or NULL:
                                  they overlay the free box list */
    /* the batch block: per integral (K = integrals) */
    void *batch;
    size_t batch_bytes;
    int integrals;
    int *offsets;              /* the layout's rows (batch_layout.h) */
    double *initial;           /* initial widths [k * n + d] */
    unsigned long long *nonfinite; /* NaN report per integral */
    double *probes;            /* probe_below, probe_relative per integral,
                                  then check_above per integral */
    double *thresholds;
    classify_request *requests;
    unsigned int *ticket;      /* threshold_kernel's, 0 between launches */
    unsigned int *tickets;     /* classify_kernel's per integral, likewise */
    char *params;              /* parameter blocks, params_stride apart */
    unsigned long long params_stride;
    /* per-integral results: mapped pinned memory (results_dev its device
     * address), else a device buffer copied to results_host */
    void *results_host, *results_dev;
    size_t results_bytes;
    int results_mapped;
    /* host, per integral */
    size_t host_integrals;     /* what these hold */
    long long *counts;         /* regions */
    long long *active_counts;  /* from classify, -1: unknown */
    double *device_thresholds; /* the last threshold counted on the device */
    long long *device_counts;  /* and its count, -1: none */
    int *layout;               /* the layout (batch_layout.h) */
    int levels;
    int layout_stale;          /* not yet on the device (one integral: kernels
                                  need it there only for a few steps) */
    double *initial_host;
    double *probes_host;
    long long count;           /* regions in the list */
    /* Threshold statistics of integrals of up to HOST_STATS_MAX regions:
     * the sorted errors, tile prefix sums and carries (pinned), made once
     * per classify. */
    double *host_sorted;
    size_t host_sorted_doubles;
    int sorted_valid;
    /* the rule */
    double *consts;            /* PAGANI_EVC_SIZE */
    double *dense;             /* the dense offset table, then the tuples */
    int *tuples;
    size_t points_bytes;
    pagani_packed_rule packed;
    int have_packed;
    const pagani_rule *rule;
    cudaKernel_t evaluate;
    cudaKernel_t check;        /* the randomized check (scalar integrands) */
    cubature_vector vec;       /* an integrand of several components */
};

static size_t align_up(size_t x)
{
    return (x + 255) & ~(size_t)255;
}

/* Bytes of one box list (lower corners, levels, split axes). */
static size_t box_list_bytes(int n, long long stride)
{
    size_t entries = (size_t)n * (size_t)stride;
    return align_up(entries * sizeof(double)) + align_up(entries * sizeof(short)) +
           align_up((size_t)stride);
}

/* Bytes of the sort's arrays: three of doubles and one of ints. */
static size_t sort_bytes(long long capacity)
{
    return 3 * align_up((size_t)capacity * sizeof(double)) +
           align_up((size_t)capacity * sizeof(int));
}

/* Lays the slab out from base (NULL: only measures): two box lists of
 * `stride` entries (parents), per region of the capacity its value, error,
 * axis, flag and scan slot, per pair the parent's value, the tile
 * partials, CUB's scratch, and the sort's arrays unless a box list can
 * hold them (sort_scratch NULL then). */
static size_t carve(cuda_cubature *c, char *base, int n, long long capacity,
                    long long stride, long long most_tiles, size_t temp)
{
    size_t at = 0, entries = (size_t)n * (size_t)stride;
    const int dedicated = box_list_bytes(n, stride) < sort_bytes(capacity);
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
    CARVE(c->error_sign, unsigned char *, (size_t)capacity);
    CARVE(c->check_diff, double *, (size_t)capacity * sizeof(double));
    CARVE(c->check_var, double *, (size_t)capacity * sizeof(double));
    CARVE(c->scan, int *, ((size_t)capacity + 1) * sizeof(int));
    CARVE(c->partials[0], csum *, (size_t)most_tiles * sizeof(csum));
    CARVE(c->partials[1], csum *, (size_t)most_tiles * sizeof(csum));
    CARVE(c->temp, void *, temp);
    if (base) c->sort_scratch = NULL;
    if (dedicated) CARVE(c->sort_scratch, char *, sort_bytes(capacity));
#undef CARVE
    return at;
}

/* The sort's arrays: three of doubles (keys, then the sorted errors and
 * the prefix sums, pitch *pitch bytes) and one of ints, in the dedicated
 * scratch or in the box list that is not current (free from classify to
 * filter_split, which writes it). */
static void sort_pointers(const cuda_cubature *c, double **rows, size_t *pitch, int **index)
{
    char *base = c->sort_scratch ? c->sort_scratch : (char *)c->lower[1 - c->cur];
    *pitch = align_up((size_t)c->capacity * sizeof(double));
    *rows = (double *)base;
    *index = (int *)(base + 3 * *pitch);
}

static size_t cu_bytes_per_region(void *state, int n, int ncomp)
{
    (void)state;
    return (size_t)n * (sizeof(double) + sizeof(short)) /* parents' lower and
                                                           levels; 2 lists */
           + 1                              /* parents' split axis */
           + 4 * sizeof(double)             /* value, error, check */
           + sizeof(double) / 2             /* parent value per pair */
           + 3 + sizeof(int)                /* axis, active, error sign,
                                               scan */
           + 1                              /* tile partials */
           + (n < 6 ? 3 * sizeof(double) + sizeof(int) : 0) /* the sort's
                                         arrays, unless a box list holds them */
           + 5                              /* alignment and CUB scratch */
           + vector_bytes_per_region(ncomp); /* several components */
}

size_t cuda_cubature_bytes_held(const cuda_state *st)
{
    return st->cubature ? st->cubature->slab_bytes + st->cubature->batch_bytes : 0;
}

/* The host's arrays per integral. */
static void free_host_integrals(cuda_cubature *c)
{
    free(c->counts);
    free(c->active_counts);
    free(c->device_thresholds);
    free(c->device_counts);
    free(c->layout);
    free(c->initial_host);
    free(c->probes_host);
    c->counts = c->active_counts = c->device_counts = NULL;
    c->device_thresholds = c->initial_host = c->probes_host = NULL;
    c->layout = NULL;
    c->host_integrals = 0;
}

/* The per-integral results buffer (both forms). */
static void free_results(cuda_cubature *c)
{
    if (c->results_host) cudaFreeHost(c->results_host);
    if (!c->results_mapped) cudaFree(c->results_dev);
    c->results_host = c->results_dev = NULL;
    c->results_bytes = 0;
}

void cuda_cubature_free(cuda_state *st)
{
    cuda_cubature *c = st->cubature;
    if (!c) return;
    cudaFree(c->slab);
    cudaFree(c->batch);
    cudaFree(c->consts);
    cudaFree(c->dense);
    vector_free(&c->vec);
    free_results(c);
    if (c->host_sorted) cudaFreeHost(c->host_sorted);
    free_host_integrals(c);
    pagani_packed_rule_free(&c->packed);
    free(c);
    st->cubature = NULL;
}

/* The state and its rule constants. */
static int make_state(cuda_state *st)
{
    cuda_cubature *c = (cuda_cubature *)calloc(1, sizeof *c);
    cudaError_t err;

    if (!c) return pagani_fail(st->ctx, PAGANI_ERR_NO_MEMORY, "CUDA cubature state");
    err = cudaMalloc((void **)&c->consts, PAGANI_EVC_SIZE * sizeof(double));
    if (err != cudaSuccess) {
        free(c);
        return cuda_fail(st->ctx, err, "cudaMalloc (rule constants)");
    }
    st->cubature = c;
    return PAGANI_OK;
}

/* Threads per region: 32 (the fastest per point when the GPU is full), more
 * while the regions alone would leave it idle (first iterations), up to 256
 * and to 4 points a thread. PAGANI_CUDA_EVAL_THREADS overrides. A region's
 * sums depend on it, and it depends on the region count only: the results
 * stay deterministic. Rules of fewer than 128 points (n <= 3 and the
 * degree-7 rules up to n = 5) always get 32: then a batch gives each
 * integral the bits it gets alone. */
static int threads_per_region(const cuda_state *st, long long count, int npoints)
{
    const long long fill = (long long)st->sm_count * 1024;
    int t = 32;
    if (st->eval_threads) return st->eval_threads;
    while (t < 256 && t * count < fill && t * 4 <= npoints) t *= 2;
    return t;
}

/* Reallocates the device buffer *buf of *bytes when it holds less than
 * `need` (its contents are not kept). */
static int grow(cuda_state *st, void **buf, size_t *bytes, size_t need)
{
    if (need <= *bytes) return PAGANI_OK;
    cudaFree(*buf);
    *buf = NULL;
    *bytes = 0;
    CUDA_TRY(st->ctx, cudaMalloc(buf, need));
    *bytes = need;
    return PAGANI_OK;
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
        if ((rc = grow(st, (void **)&c->dense, &c->points_bytes, bytes)) != PAGANI_OK)
            return rc;
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

/* ---- buffers per integral -------------------------------------------- */

/* Rows of the layout (batch_layout.h) for K integrals. */
static size_t layout_ints(int integrals)
{
    return (size_t)(PAGANI_GPU_MAX_LEVELS + 1) * ((size_t)integrals + 1);
}

/* The host's per-integral arrays for K integrals. */
static int host_integrals(cuda_state *st, int integrals)
{
    cuda_cubature *c = st->cubature;
    const size_t k = (size_t)integrals;

    if (c->host_integrals >= k) return PAGANI_OK;
    free_host_integrals(c);
    c->counts = (long long *)malloc(k * sizeof(long long));
    c->active_counts = (long long *)malloc(k * sizeof(long long));
    c->device_thresholds = (double *)malloc(k * sizeof(double));
    c->device_counts = (long long *)malloc(k * sizeof(long long));
    c->layout = (int *)malloc(layout_ints(integrals) * sizeof(int));
    c->initial_host = (double *)malloc(k * PAGANI_GPU_MAX_DIM * sizeof(double));
    c->probes_host = (double *)malloc(3 * k * sizeof(double));
    if (!c->counts || !c->active_counts || !c->device_thresholds || !c->device_counts ||
        !c->layout || !c->initial_host || !c->probes_host) {
        free_host_integrals(c);
        return pagani_fail(st->ctx, PAGANI_ERR_NO_MEMORY, "the host's lists of %d "
                           "integrals", integrals);
    }
    c->host_integrals = k;
    return PAGANI_OK;
}

/* Lays the batch block out from base (NULL: only measures). */
static size_t carve_batch(cuda_cubature *c, char *base, int integrals, int n,
                          size_t params_bytes)
{
    size_t at = 0, k = (size_t)integrals;
#define CARVE(ptr, type, bytes)                                              \
    do {                                                                     \
        if (base) (ptr) = (type)(base + at);                                 \
        at += align_up(bytes);                                               \
    } while (0)
    CARVE(c->offsets, int *, layout_ints(integrals) * sizeof(int));
    CARVE(c->initial, double *, k * (size_t)n * sizeof(double));
    CARVE(c->nonfinite, unsigned long long *, k * sizeof(unsigned long long));
    CARVE(c->probes, double *, 3 * k * sizeof(double));
    CARVE(c->thresholds, double *, k * sizeof(double));
    CARVE(c->requests, classify_request *, k * sizeof(classify_request));
    CARVE(c->ticket, unsigned int *, sizeof(unsigned int));
    CARVE(c->tickets, unsigned int *, k * sizeof(unsigned int));
    CARVE(c->params, char *, params_bytes);
#undef CARVE
    return at;
}

/* The results buffer for K integrals: mapped pinned memory where the
 * device can map it, so kernels write the results straight to the host. */
static int results_buffer(cuda_state *st, int integrals)
{
    cuda_cubature *c = st->cubature;
    size_t bytes = (size_t)integrals * sizeof(integral_sums);

    if (bytes <= c->results_bytes) return PAGANI_OK;
    free_results(c);
    CUDA_TRY(st->ctx, cudaHostAlloc(&c->results_host, bytes, cudaHostAllocMapped));
    c->results_mapped = cudaHostGetDevicePointer(&c->results_dev, c->results_host, 0) ==
                        cudaSuccess;
    if (!c->results_mapped) {
        (void)cudaGetLastError();
        c->results_dev = NULL;
        CUDA_TRY(st->ctx, cudaMalloc(&c->results_dev, bytes));
    }
    c->results_bytes = bytes;
    return PAGANI_OK;
}

/* Waits for the stream and makes the first `bytes` of the results
 * readable in results_host. */
static int fetch_results(cuda_state *st, size_t bytes)
{
    cuda_cubature *c = st->cubature;
    if (!c->results_mapped)
        CUDA_TRY(st->ctx, cudaMemcpyAsync(c->results_host, c->results_dev, bytes,
                                          cudaMemcpyDeviceToHost, st->stream));
    CUDA_TRY(st->ctx, cudaStreamSynchronize(st->stream));
    return PAGANI_OK;
}

/* Uploads the layout unless the device has it (one copy). */
static int ensure_layout(cuda_state *st)
{
    cuda_cubature *c = st->cubature;
    if (!c->layout_stale) return PAGANI_OK;
    CUDA_TRY(st->ctx, cudaMemcpyAsync(c->offsets, c->layout,
                                      (size_t)(c->levels + 1) * ((size_t)c->integrals + 1) *
                                          sizeof(int),
                                      cudaMemcpyHostToDevice, st->stream));
    c->layout_stale = 0;
    return PAGANI_OK;
}

/* Builds the layout from c->counts and, with several integrals, uploads it
 * (a single integral's kernels read their bounds from their arguments);
 * what the host knew of the old list is forgotten. */
static int new_layout(cuda_state *st)
{
    cuda_cubature *c = st->cubature;
    const int K = c->integrals;
    const int levels = pagani_gpu_layout(c->counts, K, c->layout);
    int rc;

    if (levels < 0)
        return pagani_fail(st->ctx, PAGANI_ERR_NO_MEMORY, "a list of more regions than "
                           "the CUDA backend indexes (2^31 - 2)");
    c->levels = levels;
    c->count = c->layout[K];
    c->layout_stale = 1;
    if (K > 1 && (rc = ensure_layout(st)) != PAGANI_OK) return rc;
    for (int k = 0; k < K; k++) {
        c->active_counts[k] = -1;
        c->device_counts[k] = -1;
    }
    c->sorted_valid = 0;
    return PAGANI_OK;
}

/* Row `level` of the layout: on the host, and where kernels read it. */
static const int *host_row(const cuda_cubature *c, int level)
{
    return c->layout + (size_t)level * ((size_t)c->integrals + 1);
}

static const int *device_row(const cuda_cubature *c, int level)
{
    return c->offsets + (size_t)level * ((size_t)c->integrals + 1);
}

/* The launch over all tiles of level `level` (reading its items). */
static tiling all_tiles(const cuda_cubature *c, int level)
{
    tiling tl;
    tl.in_off = device_row(c, level);
    tl.out_off = device_row(c, level + 1);
    tl.integrals = c->integrals;
    tl.items = host_row(c, level)[c->integrals];
    tl.first = 0;
    tl.tiles = host_row(c, level + 1)[c->integrals];
    tl.only = -1;
    tl.final = level + 1 == c->levels;
    return tl;
}

#include "gpu/cubature/cuda_cubature_vector.cuh"

/* ---- the operations -------------------------------------------------- */

/* CUB's scratch for the kept scan and the two sorts of `items` items. */
static int cub_temp_bytes(cuda_state *st, long long items, size_t *bytes)
{
    size_t scan = 0, by_error = 0, by_integral = 0;
    cub::DoubleBuffer<double> error_keys(NULL, NULL);
    cub::DoubleBuffer<int> integral_keys(NULL, NULL), index(NULL, NULL);
    kept_iter it(thrust::counting_iterator<int>(0), kept_flag{NULL, NULL, -1.0, 0});

    CUDA_TRY(st->ctx, cub::DeviceScan::ExclusiveSum(NULL, scan, it, (int *)NULL,
                                                    (int)items + 1, st->stream));
    CUDA_TRY(st->ctx, cub::DeviceRadixSort::SortPairs(NULL, by_error, error_keys, index,
                                                      (int)items, 0, 64, st->stream));
    CUDA_TRY(st->ctx, cub::DeviceRadixSort::SortPairs(NULL, by_integral, integral_keys,
                                                      index, (int)items, 0, 32,
                                                      st->stream));
    *bytes = scan > by_error ? scan : by_error;
    if (by_integral > *bytes) *bytes = by_integral;
    return PAGANI_OK;
}

/* Copies the parameter blocks to the batch block: K blocks `stride` bytes
 * apart, or one block of `block` bytes (stride 0) that all share. */
static int upload_params(cuda_state *st, int integrals, const void *params, size_t stride,
                         size_t block)
{
    cuda_cubature *c = st->cubature;
    size_t bytes = stride ? (size_t)integrals * stride : block;
    c->params_stride = stride;
    if (params && bytes)
        CUDA_TRY(st->ctx, cudaMemcpyAsync(c->params, params, bytes, cudaMemcpyHostToDevice,
                                          st->stream));
    return PAGANI_OK;
}

static int cu_setup(void *state, const cubature_job *job)
{
    cuda_state *st = (cuda_state *)state;
    pagani_context *ctx = st->ctx;
    pagani_integrand *f = (pagani_integrand *)job->integrand;
    const int K = job->integrals;
    const void *params = job->params;
    cuda_integrand *ci;
    cuda_cubature *c;
    long long stride, most_tiles;
    size_t need, vector_bytes, temp = 0, block, params_bytes, params_stride;
    char *vector_base;
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
    if (K < 1) return pagani_fail(ctx, PAGANI_ERR_OPTION, "a batch of %d integrals", K);
    stride = (job->capacity / 2 + 1 + STRIDE_ALIGN - 1) / STRIDE_ALIGN * STRIDE_ALIGN;
    most_tiles = job->capacity / TILE + K + 1;
    if ((rc = cub_temp_bytes(st, job->capacity, &temp)) != PAGANI_OK) return rc;
    /* one slab: the scalar lists, then a vector job's arrays */
    need = carve(c, NULL, job->n, job->capacity, stride, most_tiles, temp);
    vector_bytes = vector_measure(&c->vec, job, stride, most_tiles);
    if ((rc = grow(st, &c->slab, &c->slab_bytes, need + vector_bytes)) != PAGANI_OK)
        return rc;
    carve(c, (char *)c->slab, job->n, job->capacity, stride, most_tiles, temp);
    vector_base = (char *)c->slab + need;

    /* The parameter blocks: the job's, else f's own block for all. */
    params_stride = params ? job->params_stride : 0;
    if (!params && f->params_size > 0) params = f->params;
    block = params ? pagani_params_padded(f->params_size) : 0;
    params_bytes = params_stride ? (size_t)K * params_stride : block;
    if (params_bytes < 8) params_bytes = 8;
    need = carve_batch(c, NULL, K, job->n, params_bytes);
    if ((rc = grow(st, &c->batch, &c->batch_bytes, need)) != PAGANI_OK) return rc;
    carve_batch(c, (char *)c->batch, K, job->n, params_bytes);
    if ((rc = host_integrals(st, K)) != PAGANI_OK ||
        (rc = results_buffer(st, K)) != PAGANI_OK ||
        (rc = upload_params(st, K, params, params_stride, block)) != PAGANI_OK)
        return rc;

    c->temp_bytes = temp;
    c->most_tiles = most_tiles;
    c->n = job->n;
    c->capacity = job->capacity;
    c->stride = stride;
    c->integrals = K;
    c->cur = 0;
    c->implicit = 0;
    c->count = 0;
    c->levels = 0;
    c->sorted_valid = 0;
    c->rule = job->rule;
    c->axial = job->probes && job->rule->nprobes > 0;
    c->evaluate = ci->kernel[0];
    c->check = ci->kernel[1];
    for (int k = 0; k < K; k++) c->counts[k] = 0;
    if ((rc = upload_rule(st, job->rule)) != PAGANI_OK ||
        (rc = vector_setup(st, job, vector_base, stride, most_tiles,
                           c->packed.shape.nweights, c->evaluate)) != PAGANI_OK)
        return rc;
    CUDA_TRY(ctx, cudaMemsetAsync(c->nonfinite, 0xff, (size_t)K * sizeof *c->nonfinite,
                                  st->stream));
    CUDA_TRY(ctx, cudaMemsetAsync(c->ticket, 0, sizeof *c->ticket, st->stream));
    CUDA_TRY(ctx, cudaMemsetAsync(c->tickets, 0, (size_t)K * sizeof *c->tickets,
                                  st->stream));
    /* the sign of a vector integrand's pair (V, E) is never known: its
     * evaluate kernel leaves these bytes 0 for the whole run */
    if (c->vec.ncomp > 1)
        CUDA_TRY(ctx, cudaMemsetAsync(c->error_sign, 0, (size_t)job->capacity, st->stream));
    return PAGANI_OK;
}

static int cu_load(void *state, const double *lower, const double *width,
                   const long long *counts)
{
    cuda_state *st = (cuda_state *)state;
    cuda_cubature *c = st->cubature;
    const int K = c->integrals, n = c->n;
    long long count = 0, first = 0;
    size_t row, pitch = (size_t)c->stride * sizeof(double);

    for (int k = 0; k < K; k++) {
        if (counts[k] < 0)
            return pagani_fail(st->ctx, PAGANI_ERR_OPTION, "%lld regions loaded for "
                               "integral %d", counts[k], k);
        count += counts[k];
    }
    if (count > c->stride)
        return pagani_fail(st->ctx, PAGANI_ERR_NO_MEMORY, "%lld regions loaded into "
                           "a list of %lld", count, c->stride);
    /* The list stores levels of one initial width per axis and integral:
     * the regions loaded are those initial regions, all of one width per
     * axis in each integral. */
    for (int k = 0; k < K; first += counts[k], k++) {
        for (int d = 0; d < n; d++) {
            const double *w = width + (size_t)d * count + first;
            c->initial_host[(size_t)k * n + d] = counts[k] ? w[0] : 1.0;
            for (long long i = 1; i < counts[k]; i++)
                if (w[i] != w[0])
                    return pagani_fail(st->ctx, PAGANI_ERR_OPTION, "the CUDA backend "
                                       "loads initial regions of one width per axis "
                                       "in each integral");
        }
        c->counts[k] = counts[k];
    }
    row = (size_t)count * sizeof(double);
    CUDA_TRY(st->ctx, cudaMemcpyAsync(c->initial, c->initial_host,
                                      (size_t)K * n * sizeof(double),
                                      cudaMemcpyHostToDevice, st->stream));
    if (count > 0) {
        CUDA_TRY(st->ctx, cudaMemcpy2DAsync(c->lower[c->cur], pitch, lower, row, row, n,
                                            cudaMemcpyHostToDevice, st->stream));
        CUDA_TRY(st->ctx, cudaMemset2DAsync(c->level[c->cur],
                                            (size_t)c->stride * sizeof(short), 0,
                                            (size_t)count * sizeof(short), n, st->stream));
    }
    c->implicit = 0;
    {
        int rc = new_layout(st);
        if (rc != PAGANI_OK) return rc;
    }
    CUDA_TRY(st->ctx, cudaStreamSynchronize(st->stream));
    return PAGANI_OK;
}

/* The randomized check (cubature_check.cuh) of the regions whose sign
 * the evaluate kernel left unknown and whose two-level E exceeds their
 * integral's threshold (check_above on the device, with one integral NULL
 * and single_check_above): a half-warp a region, in a grid of at most
 * CHECK_BLOCKS_PER_SM blocks an SM that strides over the list. */
static int launch_check(cuda_state *st, pagani_eval_shape shape, const double *check_above,
                        double single_check_above)
{
    cuda_cubature *c = st->cubature;
    const double *lower = c->lower[c->cur];
    const short *level = c->level[c->cur];
    const signed char *parent_axis = c->parent_axis[c->cur];
    const int *offsets = c->offsets;
    const double *initial = c->initial;
    const char *params = c->params;
    unsigned long long params_stride = c->params_stride;
    long long stride = c->stride, count = c->count;
    long long blocks = (count + CHECK_REGIONS_PER_BLOCK - 1) / CHECK_REGIONS_PER_BLOCK;
    int integrals = c->integrals;
    void *args[] = {&lower, &level, &parent_axis, &stride, &count, &offsets, &integrals,
                    &initial, &shape, &params, &params_stride, &c->value, &c->error,
                    &c->parent, &c->error_sign, &check_above, &single_check_above,
                    &c->check_diff, &c->check_var, &c->nonfinite};

    if (blocks > (long long)st->sm_count * CHECK_BLOCKS_PER_SM)
        blocks = (long long)st->sm_count * CHECK_BLOCKS_PER_SM;
    CUDA_TRY(st->ctx, cudaLaunchKernel((const void *)c->check, dim3((unsigned)blocks),
                                       dim3(CHECK_BLOCK), args, 0, st->stream));
    return PAGANI_OK;
}

/* The vertex probes' and the check's thresholds for the evaluate and
 * check kernels: with several integrals the device copy of
 * c->probes_host (made here, in one copy, when some integral probes or
 * is checked), with one NULL (the kernels take them by value). */
static int upload_probes(cuda_state *st, int needed, const double **probes)
{
    cuda_cubature *c = st->cubature;
    *probes = NULL;
    if (c->integrals <= 1) return PAGANI_OK;
    *probes = c->probes;
    if (needed)
        CUDA_TRY(st->ctx, cudaMemcpyAsync(c->probes, c->probes_host,
                                          3 * (size_t)c->integrals * sizeof(double),
                                          cudaMemcpyHostToDevice, st->stream));
    return PAGANI_OK;
}

static int cu_evaluate(void *state, const double *probe_below, const double *probe_relative,
                       const double *check_above)
{
    cuda_state *st = (cuda_state *)state;
    if (st->ctx->stop_requested) return pagani_stop_point(st->ctx); /* between launches */
    cuda_cubature *c = st->cubature;
    pagani_eval_shape shape = c->packed.shape;
    long long count = c->count;
    const int tpr = threads_per_region(st, count, shape.npoints);
    const int block = tpr > EVAL_BLOCK ? tpr : EVAL_BLOCK;
    const int groups = block / tpr;
    const double *lower = c->lower[c->cur];
    const short *level = c->level[c->cur];
    const signed char *parent_axis = c->parent_axis[c->cur];
    const double *dense = c->dense, *consts = c->consts, *initial = c->initial;
    const double *probes;
    const int *tuples = c->tuples, *offsets = c->offsets;
    const char *params = c->params;
    unsigned long long params_stride = c->params_stride;
    int integrals = c->integrals, probing = 0, checks = 0, vertex, rc;
    double single_below = probe_below[0], single_relative = probe_relative[0];
    long long stride = c->stride;
    size_t shared;

    c->sorted_valid = 0;
    if (count <= 0) return PAGANI_OK;
    for (int k = 0; k < integrals; k++) {
        c->probes_host[2 * k] = probe_below[k];
        c->probes_host[2 * k + 1] = probe_relative[k];
        c->probes_host[2 * integrals + k] = check_above[k];
        probing |= c->counts[k] > 0 && (probe_below[k] >= 0.0 || probe_relative[k] > 0.0);
        checks |= c->counts[k] > 0 && !isinf(check_above[k]);
    }
    vertex = shape.nprobes > 0 && probing;
    checks &= c->vec.ncomp <= 1; /* a scalar integrand's check only */
    if ((rc = upload_probes(st, vertex || checks, &probes)) != PAGANI_OK) return rc;
    shape.tpr = tpr;
    shape.implicit = c->implicit;
    if (c->vec.ncomp > 1) return vector_evaluate(st, shape, vertex, probes, single_below,
                                                 single_relative);

    shared = sizeof(double) * (5 * (size_t)shape.nweights + (size_t)groups * (4 * c->n + 1) +
                               (size_t)groups * (tpr / 32) * 7);
    void *args[] = {&lower, &level, &parent_axis, &stride, &count, &offsets, &integrals,
                    &initial, &dense, &tuples, &consts, &shape, &params, &params_stride,
                    &c->value, &c->error, &c->axis, &c->error_sign, &c->nonfinite,
                    &c->axial, &vertex,
                    &probes, &single_below, &single_relative};
    CUDA_TRY(st->ctx, cudaLaunchKernel((const void *)c->evaluate,
                                       dim3((unsigned)((count + groups - 1) / groups)),
                                       dim3(block), args, shared, st->stream));
    return checks ? launch_check(st, shape, probes ? probes + 2 * integrals : NULL,
                                 check_above[0])
                  : PAGANI_OK;
}

/* Integral k's sums from its result slot (zero when it has no regions). */
static void read_sums(const cuda_cubature *c, int k, cubature_sums *s)
{
    const integral_sums *r = (const integral_sums *)c->results_host + k;
    memset(s, 0, sizeof *s);
    s->nonfinite_region = -1;
    if (c->counts[k] == 0) return;
    s->value = r->cls.v;
    s->error = r->cls.e;
    s->active_value = r->cls.av;
    s->active_error = r->cls.ae;
    s->active = r->cls.na;
    s->min_error = r->cls.mn;
    s->max_error = r->cls.mx;
    s->parts = r->cls.parts;
    if (r->nonfinite != ~0ULL) {
        s->nonfinite_region = (long long)(r->nonfinite >> 21);
        s->nonfinite_point = (int)(r->nonfinite & ((1ULL << 21) - 1));
    }
}

static int cu_classify(void *state, const classify_request *requests, cubature_sums *sums,
                       double *components)
{
    cuda_state *st = (cuda_state *)state;
    cuda_cubature *c = st->cubature;
    const int K = c->integrals;
    const classify_request *asked = requests;
    csum_sink sink = {c->partials[0], (integral_sums *)c->results_dev, c->nonfinite};
    tiling tl = all_tiles(c, 0);
    int rc;

    c->sorted_valid = 0;
    /* several components: their two-level errors first, then (V, E) are
     * classified as they stand */
    if (c->vec.ncomp > 1 && c->count > 0 &&
        (rc = vector_two_level(st, asked, &requests)) != PAGANI_OK)
        return rc;
    if (c->count > 0 && (K > 1 || requests[0].classify)) {
        /* One integral's request goes by value, K of them in one copy. */
        const classify_request *device_requests = K > 1 ? c->requests : NULL;
        if (device_requests)
            CUDA_TRY(st->ctx, cudaMemcpyAsync(c->requests, requests,
                                              (size_t)K * sizeof *requests,
                                              cudaMemcpyHostToDevice, st->stream));
        /* Two levels are summed in one launch (tickets), more by a launch
         * per level. */
        classify_kernel<<<tile_blocks(tl.tiles), RED_THREADS, 0, st->stream>>>(
            tl, device_requests, requests[0], c->value, c->error, c->parent, c->active,
            c->error_sign, check_arrays{c->check_diff, c->check_var}, sink,
            c->levels == 2 ? c->tickets : NULL);
        CUDA_TRY(st->ctx, cudaGetLastError());
        for (int level = 1; c->levels > 2 && level < c->levels; level++) {
            tl = all_tiles(c, level);
            sink.out = c->partials[level % 2];
            combine_kernel<<<tile_blocks(tl.tiles), RED_THREADS, 0, st->stream>>>(
                tl, device_requests, c->partials[(level - 1) % 2], sink);
            CUDA_TRY(st->ctx, cudaGetLastError());
        }
        if ((rc = fetch_results(st, (size_t)K * sizeof(integral_sums))) != PAGANI_OK)
            return rc;
    }
    for (int k = 0; k < K; k++) {
        if (!requests[k].classify) continue;
        read_sums(c, k, &sums[k]);
        c->active_counts[k] = sums[k].active;
        c->device_counts[k] = -1;
    }
    if (c->vec.ncomp > 1 && components)
        return vector_classify_sums(st, asked, components);
    return PAGANI_OK;
}

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

/* The sorted copy on the host (cubature_sorted.cuh), made once per
 * classify: the sorted errors, the tiles' prefix sums of V and E and the
 * tiles' carries; one wait. */
static int sort_for_host(cuda_state *st)
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
    CUDA_TRY(ctx, cudaStreamSynchronize(st->stream));
    c->sorted_valid = 1;
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
    if (!c->sorted_valid && (rc = sort_for_host(st)) != PAGANI_OK) return rc;
    sorted_stats(c, k, threshold, stats);
    return PAGANI_OK;
}

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
    if (c->counts[k] <= HOST_STATS_MAX && c->sorted_valid) {
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
        CUDA_TRY(ctx, cub::DeviceScan::ExclusiveSum(c->temp, temp, it, c->scan,
                                                    (int)count + 1, st->stream));
        if (!known) {
            if ((rc = fetch_kept(st, new_counts)) != PAGANI_OK) return rc;
            kept = 0;
            for (int k = 0; k < K; k++) kept += new_counts[k] / 2;
            if (2 * kept > c->capacity)
                return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "split of %lld regions "
                                   "exceeds the capacity %lld", kept, c->capacity);
        }
        if (c->vec.ncomp > 1 && (rc = vector_parents(st, keep)) != PAGANI_OK) return rc;
        split_kernel<<<(unsigned)((count + RED_THREADS - 1) / RED_THREADS), RED_THREADS, 0,
                       st->stream>>>(c->n, c->stride, count, c->implicit, c->offsets, K,
                                     c->initial, c->lower[c->cur], c->level[c->cur],
                                     c->parent_axis[c->cur], c->lower[nxt], c->level[nxt],
                                     c->parent_axis[nxt], c->axis, c->value, c->parent,
                                     c->scan, keep);
        CUDA_TRY(ctx, cudaGetLastError());
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

extern "C" const cubature_ops pagani_cuda_cubature_ops = {
    cu_setup,
    cu_load,
    cu_set_weights,
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
    static const char *const scalar[2] = {"pagani_cubature_evaluate",
                                           "pagani_cubature_check"};
    static const char *const vector[1] = {"pagani_cubature_evaluate_vector"};
    const int several = f->vector_form && f->ncomp > 1;
    pagani_context *ctx = st->ctx;
    cuda_integrand *ci;
    char *text;
    int rc;

    /* Kernel variants for benchmarks (cubature_evaluate.cuh's knobs) */
    if (!(text = cuda_kernel_variant("PAGANI_CUDA_EVAL_OPTIONS", pagani_cubature_kernel_src)) ||
        !(ci = (cuda_integrand *)calloc(1, sizeof *ci))) {
        free(text);
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "cubature kernel text");
    }
    rc = cuda_integrand_kernels(ctx, f, text, "cubature", several ? vector : scalar,
                                ci->kernel, several ? 1 : 2, &ci->module);
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
