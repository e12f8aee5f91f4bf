/*
 * cuda_vegas.c - the CUDA backend's Vegas operations (src/vegas_backend.h).
 * The sampling kernels (gpu/vegas/vegas_kernel.cuh) are compiled per integrand
 * by NVRTC (gpu/jit/cuda_module.h) with the integrand inlined and cached in
 * the integrand (device_module[PAGANI_VEGAS]); the Vegas+ counts and their CUB
 * scan are in gpu/vegas/vegas_scan.cu. This file only allocates and launches,
 * so it is plain C against the CUDA runtime API.
 *
 * Per pass: one launch (the last block merges the blocks' sums), one copy of
 * the sums back and, in grid-adjusting iterations, one of the bin totals
 * (2 * rows * nb words). Device buffers belong to the state of one run
 * (setup .. release); nothing is allocated per pass.
 *
 * Launch shape: 256 threads a block; each thread takes about T samples,
 * T = clamp(max(N / 2^19, 2 * cells / 256, 8), .., 4096) for N samples per
 * pass and `cells` grid or bin cells a block loads or flushes, so that big
 * passes run about 2^19 threads and a block's set-up (a grid or bin cell
 * per thread for every 2 samples of n axes each) stays a small part of its
 * work; at most 256 when bins are counted in shared memory (2^16 samples a
 * block). Small passes thus still spread over the whole GPU: 1e6 samples in
 * 4D run on 245 blocks (with 16 * cells, they ran on 32 and a pass took as
 * long as one of 1e5). It depends on the job alone (not on the device), and
 * so do the sums.
 */
#include <stdlib.h>
#include <string.h>
#include "gpu/cuda_internal.h"
#include "gpu/jit/cuda_integrand.h"
#include "gpu/jit/cuda_module.h"
#include "gpu/vegas/cuda_vegas.h"
#include "gpu/vegas/vegas_args.h"
#include "gpu/vegas/vegas_kernel_src.h" /* generated: pagani_vegas_kernel_src */
#include "vegas_backend.h"
#include "sampling/vegas_grid.h"
#include "sampling/vegas_piece.h"

#define VEGAS_THREADS 256            /* = PAGANI_VEGAS_THREADS of the kernel */
#define VEGAS_TARGET_THREADS (1LL << 19)
#define VEGAS_MAX_PER_THREAD 4096LL
#define VEGAS_SMEM_BUDGET (100 * 1024)

/* An integrand's compiled Vegas kernels (device_module[PAGANI_VEGAS]). */
typedef struct cuda_vegas_integrand {
    cuda_module *module;
    cudaKernel_t adjust;
    cudaKernel_t plain;
} cuda_vegas_integrand;

typedef struct cuda_vegas {
    cuda_state *st;
    vegas_job job;
    cuda_vegas_integrand *kernels;
    int grid_cells, bin_cells;
    int adjust_grid_shared, adjust_bins_shared, plain_grid_shared;
    size_t adjust_smem, plain_smem;
    long long per_thread_units;      /* MAP_UNITS */
    long long adjust_units;          /* MAP_UNITS with shared bins */
    long long per_thread_samples;    /* MAP_OFFSETS */
    long long plus_total;            /* Vegas+: samples of a full pass */
    double *grid;
    unsigned long long *bins;        /* low words, then high words */
    unsigned long long *host_bins;
    pagani_vegas_partial *partials, *out;
    unsigned *done;
    void *params;
    size_t params_bytes;
    double *sigma;                   /* Vegas+ */
    long long *counts, *offsets;
    void *scan_temp;
    size_t scan_bytes;
} cuda_vegas;

int cuda_vegas_prepare(cuda_state *st, pagani_integrand *f)
{
    static const char *const names[2] = {"pagani_vegas_adjust", "pagani_vegas_plain"};
    cudaKernel_t kernels[2];
    cuda_vegas_integrand *ci;
    int rc;

    if (f->device_module[PAGANI_VEGAS]) return PAGANI_OK;
    if (!(ci = calloc(1, sizeof *ci)))
        return pagani_fail(st->ctx, PAGANI_ERR_NO_MEMORY, "Vegas kernels");
    rc = cuda_integrand_kernels(st->ctx, f, pagani_vegas_kernel_src, "vegas",
                                names, kernels, 2, &ci->module);
    if (rc != PAGANI_OK) {
        free(ci);
        return rc;
    }
    ci->adjust = kernels[0];
    ci->plain = kernels[1];
    f->device_module[PAGANI_VEGAS] = ci;
    return PAGANI_OK;
}

void cuda_vegas_release(cuda_state *st, pagani_integrand *f)
{
    cuda_vegas_integrand *ci = f->device_module[PAGANI_VEGAS];
    (void)st;
    if (!ci) return;
    cuda_module_destroy(ci->module);
    free(ci);
    f->device_module[PAGANI_VEGAS] = NULL;
}

static void cv_release(void *vegas_state)
{
    cuda_vegas *v = vegas_state;
    if (!v) return;
    cudaFree(v->grid);
    cudaFree(v->bins);
    cudaFree(v->partials);
    cudaFree(v->out);
    cudaFree(v->done);
    cudaFree(v->params);
    cudaFree(v->sigma);
    cudaFree(v->counts);
    cudaFree(v->offsets);
    cudaFree(v->scan_temp);
    free(v->host_bins);
    free(v);
}

/* Which of grid and bins go to shared memory, and the launch shape. */
static int plan_launch(cuda_vegas *v, long long *max_blocks)
{
    const vegas_job *job = &v->job;
    cuda_state *st = v->st;
    size_t grid_bytes = (size_t)v->grid_cells * 8, bin_bytes = (size_t)v->bin_cells * 12;
    size_t budget = VEGAS_SMEM_BUDGET;
    long long units = job->plus ? job->cubes : job->cubes * job->pieces;
    long long all = units * job->samples, cells, t, threads, blocks;
    int optin = 0;

    CUDA_TRY(st->ctx, cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin,
                                             st->device));
    if ((size_t)optin < budget + 4096) budget = optin > 8192 ? (size_t)optin - 4096 : 0;
    v->adjust_bins_shared = !job->plus && bin_bytes <= budget;
    v->adjust_grid_shared = grid_bytes + (v->adjust_bins_shared ? bin_bytes : 0) <= budget;
    v->plain_grid_shared = grid_bytes <= budget;
    v->adjust_smem = (v->adjust_grid_shared ? grid_bytes : 0) +
                     (v->adjust_bins_shared ? bin_bytes : 0);
    v->plain_smem = v->plain_grid_shared ? grid_bytes : 0;
    if (v->adjust_smem > 48 * 1024)
        CUDA_TRY(st->ctx, cudaKernelSetAttributeForDevice(
                              v->kernels->adjust, cudaFuncAttributeMaxDynamicSharedMemorySize,
                              (int)v->adjust_smem, st->device));
    if (v->plain_smem > 48 * 1024)
        CUDA_TRY(st->ctx, cudaKernelSetAttributeForDevice(
                              v->kernels->plain, cudaFuncAttributeMaxDynamicSharedMemorySize,
                              (int)v->plain_smem, st->device));

    cells = v->grid_cells > v->bin_cells ? v->grid_cells : v->bin_cells;
    t = (all + VEGAS_TARGET_THREADS - 1) / VEGAS_TARGET_THREADS;
    if (t < 2 * cells / VEGAS_THREADS) t = 2 * cells / VEGAS_THREADS;
    if (t < 8) t = 8;
    if (t > VEGAS_MAX_PER_THREAD) t = VEGAS_MAX_PER_THREAD;
    v->per_thread_samples = t;
    v->per_thread_units = t / job->samples > 0 ? t / job->samples : 1;
    /* shared digit counters: at most VEGAS_BLOCK_SAMPLES a block */
    t = VEGAS_BLOCK_SAMPLES / VEGAS_THREADS < t ? VEGAS_BLOCK_SAMPLES / VEGAS_THREADS : t;
    v->adjust_units = t / job->samples > 0 ? t / job->samples : 1;
    threads = (units + v->adjust_units - 1) / v->adjust_units;
    blocks = (threads + VEGAS_THREADS - 1) / VEGAS_THREADS;
    if (job->plus) {   /* a Vegas+ pass holds at most 2 N + 2 m samples */
        long long most = 2 * all + 2 * job->cubes;
        long long b2 = ((most + t - 1) / t + VEGAS_THREADS - 1) / VEGAS_THREADS;
        if (b2 > blocks) blocks = b2;
    }
    *max_blocks = blocks > 0 ? blocks : 1;
    return PAGANI_OK;
}

static int cv_setup(void *backend_state, const vegas_job *job, void **vegas_state)
{
    cuda_state *st = backend_state;
    pagani_context *ctx = st->ctx;
    pagani_integrand *f = job->integrand;
    cuda_vegas *v;
    long long max_blocks = 1;
    double *uniform;
    int rc, rows = job->grid_axes;

    *vegas_state = NULL;
    CUDA_TRY(ctx, cudaSetDevice(st->device));
    if ((rc = cuda_vegas_prepare(st, f)) != PAGANI_OK) return rc;
    if (!(v = calloc(1, sizeof *v)))
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "Vegas state");
    *vegas_state = v;
    v->st = st;
    v->job = *job;
    v->kernels = f->device_module[PAGANI_VEGAS];
    v->grid_cells = rows * (job->bins + 1);
    v->bin_cells = rows * job->bins;
    v->plus_total = job->cubes * job->samples;
    if ((rc = plan_launch(v, &max_blocks)) != PAGANI_OK) return rc;
    v->host_bins = malloc(16 * (size_t)v->bin_cells);
    uniform = malloc(8 * (size_t)v->grid_cells);
    if (!v->host_bins || !uniform) {
        free(uniform);
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "Vegas host buffers");
    }
    pagani_vegas_grid_uniform(uniform, rows, job->bins);
    rc = PAGANI_OK;
    if (cudaMalloc((void **)&v->grid, 8 * (size_t)v->grid_cells) != cudaSuccess ||
        cudaMemcpy(v->grid, uniform, 8 * (size_t)v->grid_cells,
                   cudaMemcpyHostToDevice) != cudaSuccess)
        rc = cuda_fail(ctx, cudaGetLastError(), "cudaMalloc/cudaMemcpy (Vegas grid)");
    free(uniform);
    if (rc != PAGANI_OK) return rc;
    CUDA_TRY(ctx, cudaMalloc((void **)&v->bins, 16 * (size_t)v->bin_cells));
    CUDA_TRY(ctx, cudaMalloc((void **)&v->partials,
                             sizeof(pagani_vegas_partial) * (size_t)max_blocks));
    CUDA_TRY(ctx, cudaMalloc((void **)&v->out, sizeof(pagani_vegas_partial)));
    CUDA_TRY(ctx, cudaMalloc((void **)&v->done, sizeof(unsigned)));
    CUDA_TRY(ctx, cudaMemsetAsync(v->done, 0, sizeof(unsigned), st->stream));
    v->params_bytes = f->params_size > 8 ? f->params_size : 8;
    CUDA_TRY(ctx, cudaMalloc(&v->params, v->params_bytes));
    if (job->plus) {
        size_t m1 = (size_t)job->cubes + 1;
        CUDA_TRY(ctx, cudaMalloc((void **)&v->sigma, 8 * (size_t)job->cubes));
        CUDA_TRY(ctx, cudaMalloc((void **)&v->counts, 8 * m1));
        CUDA_TRY(ctx, cudaMalloc((void **)&v->offsets, 8 * m1));
        CUDA_TRY(ctx, cuda_vegas_scan_bytes(job->cubes, &v->scan_bytes));
        CUDA_TRY(ctx, cudaMalloc(&v->scan_temp, v->scan_bytes ? v->scan_bytes : 8));
        CUDA_TRY(ctx, cudaMemsetAsync(v->counts, 0, 8 * m1, st->stream));
        CUDA_TRY(ctx, cuda_vegas_stratify(st->stream, v->sigma, job->cubes, 0.0, 0,
                                          job->samples, job->max_per_cube, v->counts,
                                          v->offsets, v->scan_temp, v->scan_bytes));
    }
    CUDA_TRY(ctx, cudaStreamSynchronize(st->stream));
    return PAGANI_OK;
}

static int cv_set_grid(void *vegas_state, const double *grid)
{
    cuda_vegas *v = vegas_state;
    CUDA_TRY(v->st->ctx, cudaMemcpyAsync(v->grid, grid, 8 * (size_t)v->grid_cells,
                                         cudaMemcpyHostToDevice, v->st->stream));
    CUDA_TRY(v->st->ctx, cudaStreamSynchronize(v->st->stream));
    return PAGANI_OK;
}

/* The argument block of a pass; *threads the threads it needs. */
static void fill_args(const cuda_vegas *v, const vegas_pass *pass, int accumulate,
                      pagani_vegas_args *a, long long *threads)
{
    const vegas_job *job = &v->job;
    const long long stride = pass->stride > 1 ? pass->stride : 1;
    const long long units = job->plus ? job->cubes : job->cubes * job->pieces;

    memset(a, 0, sizeof *a);
    a->seed = job->seed;
    a->g = job->g;
    a->cubes = job->cubes;
    a->pieces = job->plus ? 1 : job->pieces;
    a->samples = job->samples;
    a->stride = stride;
    a->units = (units + stride - 1) / stride;
    a->key_stride = job->plus ? job->max_per_cube : job->pieces * job->samples;
    a->nb_per_g = (double)job->bins / (double)job->g;
    {
        pagani_vegas_kparams kp;
        pagani_vegas_weights(&kp, job->samples, a->pieces);
        a->inv_count = kp.inv_count;
        a->var_weight = kp.var_weight;
        a->inv_pieces = kp.inv_pieces;
    }
    a->bin_scale = pass->bin_scale;
    a->beta = job->beta;
    a->iteration = pass->iteration;
    a->nb = job->bins;
    a->row_stride = job->grid_axes > 1 ? job->bins + 1 : 0;
    a->grid_cells = v->grid_cells;
    a->bin_cells = v->bin_cells;
    a->grid_shared = accumulate ? v->adjust_grid_shared : v->plain_grid_shared;
    a->bins_shared = accumulate && v->adjust_bins_shared;
    a->stratify = pass->stratify && job->plus && stride == 1;
    for (int i = 0; i < job->n; i++) {
        a->lower[i] = job->lower[i];
        a->width[i] = job->width[i];
    }
    if (job->plus && stride == 1) {
        a->mapping = PAGANI_VEGAS_MAP_OFFSETS;
        a->total = v->plus_total;
        a->per_thread = v->per_thread_samples;
        *threads = (a->total + a->per_thread - 1) / a->per_thread;
    } else {
        a->mapping = PAGANI_VEGAS_MAP_UNITS;
        a->per_thread = a->bins_shared ? v->adjust_units : v->per_thread_units;
        *threads = (a->units + a->per_thread - 1) / a->per_thread;
    }
}

/* Copies the parameter block (it may change between passes). */
static int upload_params(cuda_vegas *v)
{
    const pagani_integrand *f = v->job.integrand;
    pagani_context *ctx = v->st->ctx;

    if (!f->params_size) return PAGANI_OK;
    if (f->params_size > v->params_bytes) {
        cudaFree(v->params);
        v->params = NULL;
        CUDA_TRY(ctx, cudaMalloc(&v->params, f->params_size));
        v->params_bytes = f->params_size;
    }
    CUDA_TRY(ctx, cudaMemcpyAsync(v->params, f->params, f->params_size,
                                  cudaMemcpyHostToDevice, v->st->stream));
    return PAGANI_OK;
}

static void to_sums(const cuda_vegas *v, const pagani_vegas_partial *p,
                    long long key_stride, vegas_sums *sums)
{
    memset(sums, 0, sizeof *sums);
    sums->value = p->value;
    sums->variance = p->variance;
    sums->evaluations = p->evaluations;
    sums->nonzero = p->nonzero;
    sums->vmax = p->vmax;
    sums->overflow = p->overflow != 0;
    sums->beta_sum = p->beta_sum;
    sums->fault_cube = sums->fault_sample = -1;
    if (p->fault_key != ~0ULL) {
        sums->fault_cube = (long long)(p->fault_key / (unsigned long long)key_stride);
        sums->fault_sample = (long long)(p->fault_key % (unsigned long long)key_stride);
        sums->fault_value = p->fault_value;
    }
    (void)v;
}

static int cv_sample(void *vegas_state, const vegas_pass *pass, vegas_sums *sums,
                     double *bins)
{
    cuda_vegas *v = vegas_state;
    cuda_state *st = v->st;
    pagani_context *ctx = st->ctx;
    const int accumulate = pass->accumulate && pass->stride <= 1;
    pagani_vegas_partial *host = (pagani_vegas_partial *)st->pinned;
    long long *counts = v->job.plus ? v->counts : NULL;
    pagani_vegas_args a;
    long long threads, blocks;
    void *args[10];
    int rc;

    CUDA_TRY(ctx, cudaSetDevice(st->device));
    fill_args(v, pass, accumulate, &a, &threads);
    blocks = (threads + VEGAS_THREADS - 1) / VEGAS_THREADS;
    if (blocks > 0x7fffffffLL)
        return pagani_fail(ctx, PAGANI_ERR_OPTION, "Vegas pass of %lld blocks is "
                           "beyond one launch", blocks);
    if ((rc = upload_params(v)) != PAGANI_OK) return rc;
    if (accumulate)
        CUDA_TRY(ctx, cudaMemsetAsync(v->bins, 0, 16 * (size_t)v->bin_cells, st->stream));
    args[0] = &a;
    args[1] = &v->params;
    args[2] = &v->grid;
    args[3] = &counts;
    args[4] = &v->offsets;
    args[5] = &v->sigma;
    args[6] = &v->bins;
    args[7] = &v->partials;
    args[8] = &v->done;
    args[9] = &v->out;
    if (blocks > 0) {
        dim3 grid = {(unsigned)blocks, 1, 1}, block = {VEGAS_THREADS, 1, 1};
        CUDA_TRY(ctx, cudaLaunchKernel(
                          (const void *)(accumulate ? v->kernels->adjust : v->kernels->plain),
                          grid, block, args, accumulate ? v->adjust_smem : v->plain_smem,
                          st->stream));
        CUDA_TRY(ctx, cudaMemcpyAsync(host, v->out, sizeof *host, cudaMemcpyDeviceToHost,
                                      st->stream));
    } else {
        memset(host, 0, sizeof *host);
        host->fault_key = ~0ULL;
    }
    if (accumulate && bins)
        CUDA_TRY(ctx, cudaMemcpyAsync(v->host_bins, v->bins, 16 * (size_t)v->bin_cells,
                                      cudaMemcpyDeviceToHost, st->stream));
    CUDA_TRY(ctx, cudaStreamSynchronize(st->stream));
    to_sums(v, host, a.key_stride, sums);
    if (accumulate && bins)
        for (int i = 0; i < v->bin_cells; i++)
            bins[i] = ((double)v->host_bins[v->bin_cells + i] * 18446744073709551616.0 +
                       (double)v->host_bins[i]) / pass->bin_scale;
    return PAGANI_OK;
}

static int cv_stratify(void *vegas_state, double beta_sum, long long target,
                       long long *total)
{
    cuda_vegas *v = vegas_state;
    cuda_state *st = v->st;
    const vegas_job *job = &v->job;
    long long *host = (long long *)st->pinned;

    CUDA_TRY(st->ctx, cuda_vegas_stratify(st->stream, v->sigma, job->cubes, beta_sum,
                                          target, job->samples, job->max_per_cube,
                                          v->counts, v->offsets, v->scan_temp,
                                          v->scan_bytes));
    CUDA_TRY(st->ctx, cudaMemcpyAsync(host, v->offsets + job->cubes, sizeof *host,
                                      cudaMemcpyDeviceToHost, st->stream));
    CUDA_TRY(st->ctx, cudaStreamSynchronize(st->stream));
    v->plus_total = *total = *host;
    return PAGANI_OK;
}

const vegas_ops pagani_cuda_vegas_ops = {
    cv_setup,
    cv_set_grid,
    cv_sample,
    cv_stratify,
    cv_release,
};
