/*
 * cuda_cubature.cu - the cubature operations of backend.h on the GPU
 * (DESIGN.md section 5): EVALUATE is the NVRTC kernel of
 * cubature_evaluate.cuh (with cubature_probe.cuh's vertex probes),
 * compiled per integrand;
 * CLASSIFY, THRESHOLD_STATS and FILTER_SPLIT are the kernels of
 * cubature_tiles.cuh, cubature_sorted.cuh and cubature_split.cuh, with
 * CUB's scan and radix sort.
 *
 * One translation unit for nvcc, in parts: this file holds setup, load,
 * evaluate and classify and the operations' table; it includes the state
 * (cuda_cubature_state.cuh), a vector integrand's steps
 * (cuda_cubature_vector.cuh), THRESHOLD_STATS
 * (cuda_cubature_threshold.cuh) and FILTER_SPLIT
 * (cuda_cubature_split.cuh), each after the helpers it uses.
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
 * An iteration on the device (cubature_driver.c's iterate), its launches,
 * copies and waits (a wait: the host blocks on the stream, a round trip):
 *  - evaluate: the evaluate kernel (which also zeroes the graded
 *    counts: no memset); with axial probes (a scalar integrand) the
 *    graded pass after it (the evaluate kernel's graded instance, over
 *    the regions it flagged where f is steep at a face: a grid of at most
 *    GRADED_BLOCKS_PER_SM blocks an SM that returns at once when none
 *    is; launched always, as the host learns the count only in
 *    classify's wait, after the pass must have run); the check kernel
 *    while some region's sign is unknown
 *    (check_above finite); K > 1 with probes or checks: one copy of the
 *    thresholds up. No wait.
 *  - classify: K > 1: one copy of the requests up; classify_kernel (up to
 *    65536 regions an integral it sums both levels itself, by tickets),
 *    then combine_kernel per further level; after an iteration that read
 *    the sorted copy, that copy too (sort_ahead, below); one WAIT (the
 *    sums in mapped pinned memory, else one copy down). The driver
 *    classifies again, a launch and a WAIT each, when finishing would
 *    overspend its share (halved criteria), or all regions active again
 *    when none is left: rare.
 *  - threshold_stats, when the driver searches (the estimate settled, or
 *    memory), every integral's search in step: for integrals of up to
 *    HOST_STATS_MAX regions the sorted copy once per classify,
 *    rank_kernel (up to SMALL_SORT_MAX regions) or sort_keys_kernel and
 *    CUB's radix sort (K > 1: and a second sort by integral),
 *    sorted_prefix_kernel, carry_kernel. A list of up to HOST_STATS_MAX
 *    regions: two copies down (pinned), one WAIT, unless classify made it
 *    in its own wait; then every candidate is a binary search on the
 *    host. A longer list (a batch): the copy stays on the device, and
 *    each step of the searches is two copies of the queries up,
 *    sorted_query_kernel and, per integral of more than HOST_STATS_MAX
 *    regions, threshold_kernel, then one WAIT (up to 40 steps, and 41
 *    more when memory decides).
 *  - filter_split: K > 1: one copy of the thresholds up and
 *    mark_kept_kernel; the scan of the kept flags and the split: a list
 *    of fewer than SHORT_SPLIT_MAX regions both in short_split_kernel,
 *    else CUB's two kernels and split_kernel; split_offsets_kernel and a
 *    WAIT (then the scan and the split apart) only when the host does
 *    not know the kept counts (the threshold chosen is not the last one
 *    counted on the device); K > 1: the new layout up. No wait.
 * So an iteration of one integral is 4 launches (evaluate, check,
 * classify, scan and split) on a short list, 6 on a long one, and one
 * wait, with axial probes a launch more (the graded pass);
 * 3 launches (a short list) and 2 copies more in the iterations
 * that search. A vector integrand adds its kernels
 * (cuda_cubature_vector.cuh). Per call: setup's reset_kernel and the
 * rule's and parameters' copies when they change, load's copies and
 * memset; neither waits.
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
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
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
#define GRADED_BLOCKS_PER_SM 4 /* blocks of the graded pass an SM, at most */
#define STRIDE_ALIGN 32   /* region stride: a multiple of this */
#define HOST_STATS_MAX 131072 /* threshold statistics of an integral of up to
                                 this many regions from the sorted copy on the
                                 host, else a reduction on the device each */
#define SMALL_SORT_MAX 4096   /* lists sorted by ranking up to this many */
#define SORTED_NONE 0         /* where the sorted copy is current */
#define SORTED_ON_DEVICE 1
#define SORTED_ON_HOST 2      /* and on the device */

#include "gpu/cubature/cubature_tiles.cuh"
#include "gpu/cubature/cubature_sorted.cuh"

static_assert(PAGANI_GPU_MAX_DIM == PAGANI_MAX_CUBATURE_DIM, "region boxes hold every axis");
static_assert(HOST_STATS_MAX <= 32 * CARRY_PER_LANE * TILE, "carry_kernel covers them");
static_assert(sizeof(integral_sums) >= sizeof(tsum) &&
              sizeof(integral_sums) >= 2 * sizeof(long long),
              "a result slot per integral holds the other results");

#include "gpu/cubature/cubature_split.cuh"
#include "gpu/cubature/cubature_vector.cuh"

#include "gpu/cubature/cuda_cubature_state.cuh"

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
    c->evaluate_thresholds_host = (double *)malloc(3 * k * sizeof(double));
    if (!c->counts || !c->active_counts || !c->device_thresholds || !c->device_counts ||
        !c->layout || !c->initial_host || !c->evaluate_thresholds_host) {
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
    CARVE(c->graded_calls, unsigned long long *, (k + 1) * sizeof(unsigned long long));
    if (base) c->graded_count = (unsigned int *)(c->graded_calls + k);
    CARVE(c->evaluate_thresholds, double *, 3 * k * sizeof(double));
    CARVE(c->thresholds, double *, k * sizeof(double));
    CARVE(c->query_integrals, int *, k * sizeof(int));
    CARVE(c->query_thresholds, double *, k * sizeof(double));
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
    c->sorted_at = SORTED_NONE;
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

/* One thread per integral k: arms its NaN report (all ones: none) and
 * zeroes its classify ticket and graded calls; thread 0 also
 * threshold_kernel's ticket and both graded counts. What four memsets
 * did, in one launch. */
__global__ void __launch_bounds__(RED_THREADS)
reset_kernel(int integrals, unsigned long long *__restrict__ nonfinite,
             unsigned int *__restrict__ tickets, unsigned int *__restrict__ ticket,
             unsigned long long *__restrict__ graded_calls,
             unsigned int *__restrict__ graded_count)
{
    const int k = blockIdx.x * RED_THREADS + threadIdx.x;
    if (k == 0) {
        *ticket = 0;
        graded_count[0] = graded_count[1] = 0;
    }
    if (k >= integrals) return;
    nonfinite[k] = ~0ULL;
    tickets[k] = 0;
    graded_calls[k] = 0;
}

static int cu_setup(void *state, const cubature_job *job)
{
    cuda_state *st = (cuda_state *)state;
    pagani_context *ctx = st->ctx;
    pagani_integrand *f = (pagani_integrand *)job->integrand;
    const int K = job->integrals;
    const void *params = job->params;
    const int mapped = cuda_integrand_mapped(params);
    cuda_integrand *ci;
    cuda_cubature *c;
    long long stride, most_tiles;
    size_t need, vector_bytes, temp = 0, block, params_bytes, params_stride;
    char *vector_base;
    int rc;

    CUDA_TRY(ctx, cudaSetDevice(st->device));
    if (!f->device_module[mapped][PAGANI_CUBATURE] && f->source && job->n <= 20 &&
        (rc = cuda_cubature_prepare(st, f, mapped)) != PAGANI_OK)
        return rc;
    if (!(ci = (cuda_integrand *)f->device_module[mapped][PAGANI_CUBATURE]))
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
    c->sorted_at = SORTED_NONE;
    c->sorted_wanted = 0;
    c->sort_ahead = 0;
    c->rule = job->rule;
    c->axial = job->probes && job->rule->nprobes > 0;
    c->evaluate = ci->kernel[0];
    c->check = ci->kernel[1];
    c->evaluate_graded = ci->kernel[2];
    c->graded_turn = 0;
    for (int k = 0; k < K; k++) c->counts[k] = 0;
    if ((rc = upload_rule(st, job->rule)) != PAGANI_OK ||
        (rc = vector_setup(st, job, vector_base, stride, most_tiles,
                           c->packed.shape.nweights, c->evaluate)) != PAGANI_OK)
        return rc;
    reset_kernel<<<(unsigned)((K + RED_THREADS - 1) / RED_THREADS), RED_THREADS, 0,
                   st->stream>>>(K, c->nonfinite, c->tickets, c->ticket, c->graded_calls,
                                 c->graded_count);
    CUDA_TRY(ctx, cudaGetLastError());
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
    /* No wait: copies from pageable memory return once the data is
     * staged, and the first classify waits for the rest. */
    return new_layout(st);
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
 * c->evaluate_thresholds_host (made here, in one copy, when some integral
 * probes or is checked), with one NULL (the kernels take them by
 * value). */
static int upload_evaluate_thresholds(cuda_state *st, int needed, const double **thresholds)
{
    cuda_cubature *c = st->cubature;
    *thresholds = NULL;
    if (c->integrals <= 1) return PAGANI_OK;
    *thresholds = c->evaluate_thresholds;
    if (needed)
        CUDA_TRY(st->ctx, cudaMemcpyAsync(c->evaluate_thresholds, c->evaluate_thresholds_host,
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
    const double *rows = c->rows, *consts = c->consts, *initial = c->initial;
    const double *probes;
    const int *offsets = c->offsets;
    const char *params = c->params;
    unsigned long long params_stride = c->params_stride;
    int integrals = c->integrals, probing = 0, checks = 0, vertex, rc;
    double single_below = probe_below[0], single_relative = probe_relative[0];
    long long stride = c->stride;
    unsigned long long *graded_list;
    unsigned int *graded_count, *graded_count_next;
    size_t shared;

    c->sorted_at = SORTED_NONE;
    if (count <= 0) return PAGANI_OK;
    for (int k = 0; k < integrals; k++) {
        c->evaluate_thresholds_host[2 * k] = probe_below[k];
        c->evaluate_thresholds_host[2 * k + 1] = probe_relative[k];
        c->evaluate_thresholds_host[2 * integrals + k] = check_above[k];
        probing |= c->counts[k] > 0 && (probe_below[k] >= 0.0 || probe_relative[k] > 0.0);
        checks |= c->counts[k] > 0 && !isinf(check_above[k]);
    }
    vertex = shape.nprobes > 0 && probing;
    checks &= c->vec.ncomp <= 1; /* a scalar integrand's check only */
    rc = upload_evaluate_thresholds(st, vertex || checks, &probes);
    if (rc != PAGANI_OK) return rc;
    shape.tpr = tpr;
    shape.implicit = c->implicit;
    if (c->vec.ncomp > 1) return vector_evaluate(st, shape, vertex, probes, single_below,
                                                 single_relative);

    shared = sizeof(double) * ((size_t)groups * (4 * c->n + 1) + (size_t)groups * (tpr / 32) * 7);
    /* the graded list: check_diff's room, which the check kernel writes
     * only after the graded pass read the list */
    graded_list = (unsigned long long *)c->check_diff;
    /* this iteration's count, which the last plain pass zeroed, and the
     * next one's, which this one zeroes (with the graded calls) */
    graded_count = c->graded_count + c->graded_turn;
    graded_count_next = c->graded_count + (1 - c->graded_turn);
    c->graded_turn = 1 - c->graded_turn;
    void *args[] = {&lower, &level, &parent_axis, &stride, &count, &offsets, &integrals,
                    &initial, &rows, &consts, &shape, &params, &params_stride,
                    &c->value, &c->error, &c->axis, &c->error_sign, &c->nonfinite,
                    &c->axial, &vertex,
                    &probes, &single_below, &single_relative,
                    &graded_list, &graded_count, &graded_count_next, &c->graded_calls};
    CUDA_TRY(st->ctx, cudaLaunchKernel((const void *)c->evaluate,
                                       dim3((unsigned)((count + groups - 1) / groups)),
                                       dim3(block), args, shared, st->stream));
    if (c->axial) {
        /* the graded pass: every vertex probe on (its instance ignores
         * the thresholds), a grid that strides over the flagged regions */
        long long blocks = (count + groups - 1) / groups;
        vertex = 1;
        if (blocks > (long long)st->sm_count * GRADED_BLOCKS_PER_SM)
            blocks = (long long)st->sm_count * GRADED_BLOCKS_PER_SM;
        CUDA_TRY(st->ctx, cudaLaunchKernel((const void *)c->evaluate_graded,
                                           dim3((unsigned)blocks), dim3(block), args,
                                           shared + (size_t)groups * sizeof(pagani_graded_slot),
                                           st->stream));
    }
    return checks ? launch_check(st, shape, probes ? probes + 2 * integrals : NULL,
                                 check_above[0])
                  : PAGANI_OK;
}

#include "gpu/cubature/cuda_cubature_threshold.cuh"

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
    s->parts.graded_calls = (double)r->graded_calls;
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
    csum_sink sink = {c->partials[0], (integral_sums *)c->results_dev, c->nonfinite,
                      c->graded_calls};
    tiling tl = all_tiles(c, 0);
    int rc;

    c->sorted_at = SORTED_NONE;
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
        /* After an iteration whose threshold search read the sorted copy
         * on the host, this one's comes in the same wait (the same bits as
         * on demand: nothing changes V, E or the flags from here to the
         * search), while the list still fits the host's copy. */
        const int ahead = c->sort_ahead && c->count <= HOST_STATS_MAX;
        if (ahead && (rc = queue_sorted_copy(st)) != PAGANI_OK) return rc;
        if ((rc = fetch_results(st, (size_t)K * sizeof(integral_sums))) != PAGANI_OK)
            return rc;
        c->sorted_at = ahead ? SORTED_ON_HOST : SORTED_NONE;
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

#include "gpu/cubature/cuda_cubature_split.cuh"
#include "gpu/cubature/cuda_cubature_checkpoint.cuh"

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
    NULL, /* hold_split: breadth-first only (the GPU's width wants it) */
    NULL, /* kept_errors: with hold_split */
    cu_export_regions,
    cu_import_regions,
};

/* ---- integrands and device checks ------------------------------------ */

int cuda_cubature_prepare(cuda_state *st, pagani_integrand *f, int mapped)
{
    static const char *const scalar[3] = {"pagani_cubature_evaluate",
                                           "pagani_cubature_check",
                                           "pagani_cubature_evaluate_graded"};
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
    rc = cuda_integrand_kernels(ctx, f, text, "cubature", mapped,
                                several ? vector : scalar,
                                ci->kernel, several ? 1 : 3, &ci->module);
    free(text);
    if (rc != PAGANI_OK) {
        free(ci);
        return rc;
    }
    f->device_module[mapped][PAGANI_CUBATURE] = ci;
    return PAGANI_OK;
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
