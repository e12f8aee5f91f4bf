/*
 * cuda_vegas.c - the CUDA backend's Vegas operations (src/vegas_backend.h).
 * The sampling kernels (gpu/vegas/vegas_kernel.cuh) are compiled per integrand
 * by NVRTC (gpu/jit/cuda_module.h) with the integrand inlined and cached in
 * the integrand (device_module[mapped][PAGANI_VEGAS]); the Vegas+ counts
 * and their CUB scan are in gpu/vegas/vegas_scan.cu. This file only
 * allocates and launches, so it is plain C against the CUDA runtime API.
 *
 * Per pass: one launch for all its integrals (each gets the blocks it would
 * get alone; its last block merges their sums), one copy of the sums back
 * and, in grid-adjusting iterations, one of the bin totals (2 * rows * nb
 * words an integral). Device buffers belong to the state of one run
 * (setup .. release); nothing is allocated per pass but a larger
 * parameter buffer when a single call's block grows.
 *
 * Device memory per integral: its grid (rows * (nb + 1) doubles), bin
 * totals (16 bytes a bin), box, parameter block, the block partials of a
 * pass (80 bytes a block, and 16 ncomp more for a vector integrand of
 * ncomp components), and for Vegas+ 24 bytes a sub-cube (sigma, counts,
 * offsets; a checkpoint copies the counts a slice at a time through the
 * host: cv_counts_out, cv_counts_in); a run that cannot have them is
 * PAGANI_ERR_NO_MEMORY. A vector
 * integrand's component sums come back with the partials (16 ncomp bytes
 * a member).
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
#include <math.h>
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

/* An integrand's compiled Vegas kernels (device_module[mapped][PAGANI_VEGAS]). */
typedef struct cuda_vegas_integrand {
    cuda_module *module; /* first: cuda_integrand_release frees it */
    cudaKernel_t adjust;
    cudaKernel_t plain;
} cuda_vegas_integrand;

/* Arrays named per integral hold the job's K integrals one after the
 * other. */
typedef struct cuda_vegas {
    cuda_state *st;
    vegas_job job;
    cuda_vegas_integrand *kernels;   /* use_kernels' choice, and */
    int mapped;                      /* whether they read the map's header */
    int grid_cells, bin_cells;
    int adjust_grid_shared, adjust_bins_shared, plain_grid_shared;
    size_t adjust_smem, plain_smem;
    long long per_thread_units;      /* MAP_UNITS */
    long long adjust_units;          /* MAP_UNITS with shared bins */
    long long per_thread_samples;    /* MAP_OFFSETS */
    long long max_blocks;            /* the most blocks of one integral */
    long long *plus_total;           /* Vegas+: samples of a full pass, per
                                        integral (host) */
    double *grids;                   /* per integral */
    double *lower, *width;           /* per integral, n each */
    unsigned long long *bins;        /* per integral: low words, then high */
    unsigned long long *host_bins;   /* the same, on the host */
    pagani_vegas_partial *partials;  /* K * max_blocks */
    pagani_vegas_partial *out, *host_out;  /* per member of a pass */
    pagani_vegas_member *members, *host_members; /* K + 1 */
    unsigned *done;                  /* per integral */
    long long *host_totals;          /* Vegas+: per integral */
    void *params;
    size_t params_bytes;
    const void *params_from;         /* the batch's blocks, once copied */
    double *component_partials;      /* vector integrands: K * max_blocks *
                                        2 ncomp, and */
    double *component_out;           /* 2 ncomp per member (else NULL) */
    void *exact_host;                /* the MPI layer's passes: the block
                                        partials on the host, grown */
    size_t exact_host_bytes;
    double *sigma;                   /* Vegas+, per integral */
    long long *counts, *offsets;     /* Vegas+, cubes + 1 per integral */
    void *scan_temp;
    size_t scan_bytes;
} cuda_vegas;

int cuda_vegas_prepare(cuda_state *st, pagani_integrand *f, int mapped)
{
    static const char *const names[2] = {"pagani_vegas_adjust", "pagani_vegas_plain"};
    cudaKernel_t kernels[2];
    cuda_vegas_integrand *ci;
    char *text;
    int rc;

    if (f->device_module[mapped][PAGANI_VEGAS]) return PAGANI_OK;
    /* Kernel variants for benchmarks (vegas_kernel.cuh's knob) */
    if (!(text = cuda_kernel_variant("PAGANI_CUDA_VEGAS_OPTIONS", pagani_vegas_kernel_src)) ||
        !(ci = calloc(1, sizeof *ci))) {
        free(text);
        return pagani_fail(st->ctx, PAGANI_ERR_NO_MEMORY, "Vegas kernels");
    }
    rc = cuda_integrand_kernels(st->ctx, f, text, "vegas", mapped, names, kernels, 2,
                                &ci->module);
    free(text);
    if (rc != PAGANI_OK) {
        free(ci);
        return rc;
    }
    ci->adjust = kernels[0];
    ci->plain = kernels[1];
    f->device_module[mapped][PAGANI_VEGAS] = ci;
    return PAGANI_OK;
}

static void cv_release(void *vegas_state)
{
    cuda_vegas *v = vegas_state;
    if (!v) return;
    cudaFree(v->grids);
    cudaFree(v->lower);
    cudaFree(v->width);
    cudaFree(v->bins);
    cudaFree(v->partials);
    cudaFree(v->out);
    cudaFree(v->members);
    cudaFree(v->done);
    cudaFree(v->params);
    cudaFree(v->component_partials);
    cudaFree(v->component_out);
    free(v->exact_host);
    cudaFree(v->sigma);
    cudaFree(v->counts);
    cudaFree(v->offsets);
    cudaFree(v->scan_temp);
    free(v->plus_total);
    free(v->host_bins);
    free(v->host_out);
    free(v->host_members);
    free(v->host_totals);
    free(v);
}

/* Which of grid and bins go to shared memory, and the launch shape; sets
 * v->max_blocks, the most blocks one integral's pass launches. */
static int plan_launch(cuda_vegas *v)
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
    v->max_blocks = blocks > 0 ? blocks : 1;
    return PAGANI_OK;
}

/* Copies the first `bytes` of dst (device) into the K - 1 stretches of
 * `bytes` after it, doubling the copied stretch each time. */
static int replicate(cuda_state *st, void *dst, size_t bytes, int k)
{
    for (size_t have = 1; have < (size_t)k; have *= 2) {
        size_t take = have < (size_t)k - have ? have : (size_t)k - have;
        CUDA_TRY(st->ctx, cudaMemcpyAsync((char *)dst + have * bytes, dst, take * bytes,
                                          cudaMemcpyDeviceToDevice, st->stream));
    }
    return PAGANI_OK;
}

/* The K uniform grids and boxes, on the device. */
static int upload_start(cuda_vegas *v)
{
    const vegas_job *job = &v->job;
    const size_t k = (size_t)job->integrals, box = 8 * k * (size_t)job->n;
    pagani_context *ctx = v->st->ctx;
    double *uniform = malloc(8 * (size_t)v->grid_cells);
    int rc;

    if (!uniform) return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "Vegas host grid");
    pagani_vegas_grid_uniform(uniform, job->grid_axes, job->bins);
    /* from pageable memory: staged before the call returns */
    rc = cudaMemcpyAsync(v->grids, uniform, 8 * (size_t)v->grid_cells,
                         cudaMemcpyHostToDevice, v->st->stream) == cudaSuccess
             ? replicate(v->st, v->grids, 8 * (size_t)v->grid_cells, job->integrals)
             : cuda_fail(ctx, cudaGetLastError(), "cudaMemcpyAsync (Vegas grid)");
    free(uniform);
    if (rc != PAGANI_OK) return rc;
    CUDA_TRY(ctx, cudaMemcpyAsync(v->lower, job->lower, box, cudaMemcpyHostToDevice,
                                  v->st->stream));
    CUDA_TRY(ctx, cudaMemcpyAsync(v->width, job->width, box, cudaMemcpyHostToDevice,
                                  v->st->stream));
    return PAGANI_OK;
}

/* Vegas+: the per-cube arrays, every count at job->samples. */
static int setup_plus(cuda_vegas *v)
{
    const vegas_job *job = &v->job;
    cuda_state *st = v->st;
    pagani_context *ctx = st->ctx;
    const size_t k = (size_t)job->integrals, m1 = (size_t)job->cubes + 1;

    CUDA_TRY(ctx, cudaMalloc((void **)&v->sigma, 8 * (size_t)job->cubes * k));
    CUDA_TRY(ctx, cudaMalloc((void **)&v->counts, 8 * m1 * k));
    CUDA_TRY(ctx, cudaMalloc((void **)&v->offsets, 8 * m1 * k));
    CUDA_TRY(ctx, cuda_vegas_scan_bytes(job->cubes, &v->scan_bytes));
    CUDA_TRY(ctx, cudaMalloc(&v->scan_temp, v->scan_bytes ? v->scan_bytes : 8));
    CUDA_TRY(ctx, cudaMemsetAsync(v->counts, 0, 8 * m1, st->stream));
    CUDA_TRY(ctx, cuda_vegas_stratify(st->stream, v->sigma, job->cubes, 0.0, 0,
                                      job->samples, job->max_per_cube, v->counts,
                                      v->offsets, v->scan_temp, v->scan_bytes));
    {
        int rc = replicate(st, v->counts, 8 * m1, job->integrals);
        return rc == PAGANI_OK ? replicate(st, v->offsets, 8 * m1, job->integrals) : rc;
    }
}

static int cv_setup(void *backend_state, const vegas_job *job, void **vegas_state)
{
    cuda_state *st = backend_state;
    pagani_context *ctx = st->ctx;
    const size_t k = (size_t)job->integrals;
    cuda_vegas *v;
    int rc;

    *vegas_state = NULL;
    CUDA_TRY(ctx, cudaSetDevice(st->device));
    if (!(v = calloc(1, sizeof *v)))
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "Vegas state");
    *vegas_state = v;
    v->st = st;
    v->job = *job;
    v->grid_cells = job->grid_axes * (job->bins + 1);
    v->bin_cells = job->grid_axes * job->bins;
    if ((rc = plan_launch(v)) != PAGANI_OK) return rc;
    v->plus_total = malloc(sizeof(long long) * k);
    v->host_bins = malloc(16 * (size_t)v->bin_cells * k);
    v->host_out = malloc(sizeof(pagani_vegas_partial) * k);
    v->host_members = malloc(sizeof(pagani_vegas_member) * (k + 1));
    v->host_totals = malloc(sizeof(long long) * k);
    if (!v->plus_total || !v->host_bins || !v->host_out || !v->host_members ||
        !v->host_totals)
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "Vegas host buffers for %d "
                           "integrals", job->integrals);
    for (size_t i = 0; i < k; i++) v->plus_total[i] = job->cubes * job->samples;
    CUDA_TRY(ctx, cudaMalloc((void **)&v->grids, 8 * (size_t)v->grid_cells * k));
    CUDA_TRY(ctx, cudaMalloc((void **)&v->lower, 8 * (size_t)job->n * k));
    CUDA_TRY(ctx, cudaMalloc((void **)&v->width, 8 * (size_t)job->n * k));
    CUDA_TRY(ctx, cudaMalloc((void **)&v->bins, 16 * (size_t)v->bin_cells * k));
    CUDA_TRY(ctx, cudaMalloc((void **)&v->partials, sizeof(pagani_vegas_partial) *
                                                        (size_t)v->max_blocks * k));
    CUDA_TRY(ctx, cudaMalloc((void **)&v->out, sizeof(pagani_vegas_partial) * k));
    CUDA_TRY(ctx, cudaMalloc((void **)&v->members, sizeof(pagani_vegas_member) * (k + 1)));
    CUDA_TRY(ctx, cudaMalloc((void **)&v->done, sizeof(unsigned) * k));
    CUDA_TRY(ctx, cudaMemsetAsync(v->done, 0, sizeof(unsigned) * k, st->stream));
    if (job->ncomp > 1) {  /* the kernels' component sums (vegas_kernel.cuh) */
        const size_t per = 2 * sizeof(double) * (size_t)job->ncomp;
        CUDA_TRY(ctx, cudaMalloc((void **)&v->component_partials,
                                 per * (size_t)v->max_blocks * k));
        CUDA_TRY(ctx, cudaMalloc((void **)&v->component_out, per * k));
    }
    if ((rc = upload_start(v)) != PAGANI_OK) return rc;
    if (job->plus && (rc = setup_plus(v)) != PAGANI_OK) return rc;
    CUDA_TRY(ctx, cudaStreamSynchronize(st->stream));
    return PAGANI_OK;
}

static int cv_set_grids(void *vegas_state, int first, int count, const double *grids)
{
    cuda_vegas *v = vegas_state;
    const size_t at = (size_t)first * v->grid_cells;
    CUDA_TRY(v->st->ctx, cudaMemcpyAsync(v->grids + at, grids + at,
                                         8 * (size_t)v->grid_cells * count,
                                         cudaMemcpyHostToDevice, v->st->stream));
    CUDA_TRY(v->st->ctx, cudaStreamSynchronize(v->st->stream));
    return PAGANI_OK;
}

/* The argument block of a pass, but for the work of each member. */
static void fill_args(const cuda_vegas *v, const vegas_pass *pass, int accumulate,
                      pagani_vegas_args *a)
{
    const vegas_job *job = &v->job;
    const long long stride = pass->stride > 1 ? pass->stride : 1;
    const long long units = job->plus ? job->cubes : job->cubes * job->pieces;

    const pagani_philox_keys keys = pagani_vegas_keys(job->seed);

    memset(a, 0, sizeof *a);
    memcpy(a->keys, keys.k, sizeof a->keys);
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
    a->beta = job->beta;
    a->iteration = pass->iteration;
    a->nb = job->bins;
    a->row_stride = job->grid_axes > 1 ? job->bins + 1 : 0;
    a->grid_cells = v->grid_cells;
    a->bin_cells = v->bin_cells;
    a->grid_shared = accumulate ? v->adjust_grid_shared : v->plain_grid_shared;
    a->bins_shared = accumulate && v->adjust_bins_shared;
    a->stratify = pass->stratify && job->plus && stride == 1;
    a->members = pass->count;
    a->params_stride = pass->params_stride;
    a->params = pass->params ? v->params : NULL;
    a->lower = v->lower;
    a->width = v->width;
    a->grids = v->grids;
    a->counts = job->plus ? v->counts : NULL;
    a->offsets = v->offsets;
    a->sigma = v->sigma;
    a->bins = v->bins;
    a->done = v->done;
    a->component_partials = v->component_partials;
    a->component_out = v->component_out;
    if (job->plus && stride == 1) {
        a->mapping = PAGANI_VEGAS_MAP_OFFSETS;
        a->per_thread = v->per_thread_samples;
    } else {
        a->mapping = PAGANI_VEGAS_MAP_UNITS;
        a->per_thread = a->bins_shared ? v->adjust_units : v->per_thread_units;
    }
}

/* A pass's part (pass->parts > 1, uniform mode): the units of the whole
 * blocks of the part's share of the blocks the whole pass would launch,
 * into the argument block as the part's first piece and its units. A
 * block then samples the units it samples in the whole pass, so its
 * partial sums are the same. */
static void part_of_pass(const vegas_pass *pass, pagani_vegas_args *a)
{
    const long long per_block = a->per_thread * VEGAS_THREADS;
    const long long blocks = (a->units + per_block - 1) / per_block;
    const long long parts = pass->parts, p = pass->part;
    long long b0, b1, u0, u1;

    if (pass->parts <= 1 || a->mapping != PAGANI_VEGAS_MAP_UNITS) return;
    b0 = p * (blocks / parts) + (p < blocks % parts ? p : blocks % parts);
    b1 = b0 + blocks / parts + (p < blocks % parts);
    u0 = b0 * per_block;
    u1 = b1 * per_block < a->units ? b1 * per_block : a->units;
    a->first = u0 * a->stride;
    a->units = u1 > u0 ? u1 - u0 : 0;
}

/* The member table of a pass (into table, count + 1 entries): each
 * member's integral, bin scale and blocks (those its pass alone would
 * launch). Returns the blocks in all. */
static long long fill_members(cuda_vegas *v, const vegas_pass *pass,
                              const pagani_vegas_args *a,
                              pagani_vegas_member *table)
{
    long long start = 0;

    for (int i = 0; i < pass->count; i++) {
        pagani_vegas_member *m = &table[i];
        const int k = pass->members[i];
        long long threads;

        m->integral = k;
        m->pad = 0;
        m->bin_scale = pass->bin_scale[i];
        m->total = a->mapping == PAGANI_VEGAS_MAP_OFFSETS ? v->plus_total[k] : 0;
        threads = a->mapping == PAGANI_VEGAS_MAP_OFFSETS
                      ? (m->total + a->per_thread - 1) / a->per_thread
                      : (a->units + a->per_thread - 1) / a->per_thread;
        m->block_start = start;
        start += (threads + VEGAS_THREADS - 1) / VEGAS_THREADS;
    }
    memset(&table[pass->count], 0, sizeof *table);
    table[pass->count].block_start = start;
    return start;
}

/* Copies the pass's parameter blocks: a batch's K blocks once a run (they
 * stay as they are), a single call's own block every pass (the progress
 * callback may change it with pagani_integrand_set_params). */
static int upload_params(cuda_vegas *v, const vegas_pass *pass)
{
    const pagani_integrand *f = v->job.integrand;
    pagani_context *ctx = v->st->ctx;
    size_t bytes = pass->params_stride ? pass->params_stride * (size_t)v->job.integrals
                                       : pagani_params_padded(f->params_size);

    if (!pass->params || !bytes) return PAGANI_OK;
    if (pass->params_stride && v->params_from == pass->params) return PAGANI_OK;
    if (bytes > v->params_bytes) {
        cudaFree(v->params);
        v->params = NULL;
        v->params_bytes = 0;
        CUDA_TRY(ctx, cudaMalloc(&v->params, bytes));
        v->params_bytes = bytes;
    }
    CUDA_TRY(ctx, cudaMemcpyAsync(v->params, pass->params, bytes,
                                  cudaMemcpyHostToDevice, v->st->stream));
    v->params_from = pass->params_stride ? pass->params : NULL;
    return PAGANI_OK;
}

/* A member's merged partial as the driver's sums; the fault key becomes
 * (cube, sample). */
static void to_sums(const pagani_vegas_partial *p, long long key_stride,
                    vegas_sums *sums)
{
    memset(sums, 0, sizeof *sums);
    sums->value = p->value;
    sums->variance = p->variance;
    sums->evaluations = p->evaluations;
    sums->nonzero = p->nonzero;
    sums->vmax = p->vmax;
    sums->term_max = p->term_max;
    sums->overflow = p->overflow != 0;
    sums->beta_sum = p->beta_sum;
    sums->fault_cube = sums->fault_sample = -1;
    if (p->fault_key != ~0ULL) {
        sums->fault_cube = (long long)(p->fault_key / (unsigned long long)key_stride);
        sums->fault_sample = (long long)(p->fault_key % (unsigned long long)key_stride);
        sums->fault_value = p->fault_value;
        sums->fault_component = p->fault_component;
    }
}

/* v->exact_host with room for `bytes` bytes (grown, kept for the next
 * passes); PAGANI_ERR_NO_MEMORY when it cannot be had. */
static int exact_host(cuda_vegas *v, size_t bytes)
{
    void *grown;
    if (bytes <= v->exact_host_bytes) return PAGANI_OK;
    if (!(grown = realloc(v->exact_host, bytes)))
        return pagani_fail(v->st->ctx, PAGANI_ERR_NO_MEMORY, "Vegas: %zu bytes "
                           "of block partials", bytes);
    v->exact_host = grown;
    v->exact_host_bytes = bytes;
    return PAGANI_OK;
}

/* Each member's value and variance, and with several components every
 * component's, as exact sums of its blocks' partials (the blocks of
 * table, copied from the device after the pass, in the stream) into
 * exact[2 C i + 2 c] and [... + 1] (C components; component 0's from the
 * value and variance). A partial that is not finite is left out: the
 * pass's sums are then not finite, and the device's stand. */
static int exact_sums(cuda_vegas *v, int count, const pagani_vegas_member *table,
                      pagani_xsum *exact)
{
    const size_t blocks = (size_t)table[count].block_start;
    const size_t C2 = 2 * (size_t)v->job.ncomp;
    const size_t partial_bytes = blocks * sizeof(pagani_vegas_partial);
    const size_t comp_bytes = C2 > 2 ? blocks * C2 * sizeof(double) : 0;
    const pagani_vegas_partial *host;
    const double *comp;
    int rc = exact_host(v, partial_bytes + comp_bytes);

    if (rc != PAGANI_OK) return rc;
    host = (const pagani_vegas_partial *)v->exact_host;
    comp = (const double *)((char *)v->exact_host + partial_bytes);
    CUDA_TRY(v->st->ctx, cudaMemcpyAsync(v->exact_host, v->partials,
                                         partial_bytes, cudaMemcpyDeviceToHost,
                                         v->st->stream));
    if (comp_bytes)
        CUDA_TRY(v->st->ctx, cudaMemcpyAsync((char *)v->exact_host + partial_bytes,
                                             v->component_partials, comp_bytes,
                                             cudaMemcpyDeviceToHost,
                                             v->st->stream));
    CUDA_TRY(v->st->ctx, cudaStreamSynchronize(v->st->stream));
    for (int i = 0; i < count; i++) {
        pagani_xsum *x = exact + C2 * (size_t)i;
        for (size_t j = 0; j < C2; j++) pagani_xsum_zero(&x[j]);
        for (long long b = table[i].block_start; b < table[i + 1].block_start;
             b++) {
            if (isfinite(host[b].value) && isfinite(host[b].variance)) {
                pagani_xsum_add(&x[0], host[b].value);
                pagani_xsum_add(&x[1], host[b].variance);
            }
            for (size_t j = 2; comp_bytes && j < C2; j++)
                if (isfinite(comp[C2 * (size_t)b + j]))
                    pagani_xsum_add(&x[j], comp[C2 * (size_t)b + j]);
        }
    }
    return PAGANI_OK;
}

/* The pass's sums from the exact sums of its blocks (exact_sums), where
 * they are finite: a pass cut into parts over processes (the MPI layer)
 * then adds up to the bits of the whole pass on one process of the
 * layer. */
static void take_exact(const cuda_vegas *v, int count, const pagani_xsum *exact,
                       vegas_sums *sums, double *components)
{
    const size_t C2 = 2 * (size_t)v->job.ncomp;
    for (int i = 0; i < count; i++) {
        const pagani_xsum *x = exact + C2 * (size_t)i;
        if (isfinite(sums[i].value) && isfinite(sums[i].variance)) {
            sums[i].value = pagani_xsum_value(&x[0]);
            sums[i].variance = pagani_xsum_value(&x[1]);
        }
        for (size_t j = 0; components && j < C2; j++)
            if (isfinite(components[C2 * i + j]))
                components[C2 * i + j] =
                    j < 2 ? (j ? sums[i].variance : sums[i].value)
                          : pagani_xsum_value(&x[j]);
    }
}

/* Integral k's 128-bit bin totals (host_bins) as they are, low and high
 * word per cell, into totals. */
static void totals_out(const cuda_vegas *v, int k, unsigned long long *totals)
{
    const unsigned long long *t = v->host_bins + 2 * (size_t)v->bin_cells * k;
    unsigned long long *out = totals + 2 * (size_t)v->bin_cells * k;
    for (int i = 0; i < v->bin_cells; i++) {
        out[2 * i] = t[i];
        out[2 * i + 1] = t[v->bin_cells + i];
    }
}

/* Integral k's 128-bit bin totals (host_bins) as doubles / scale. */
static void bins_out(const cuda_vegas *v, int k, double scale, double *bins)
{
    const unsigned long long *t = v->host_bins + 2 * (size_t)v->bin_cells * k;
    for (int i = 0; i < v->bin_cells; i++)
        bins[i] = pagani_vegas_bin_value(t[i], t[v->bin_cells + i], scale);
}

/* The sums of a part with no units: nothing sampled, bins 0. */
static int empty_part(const cuda_vegas *v, const vegas_pass *pass,
                      vegas_sums *sums)
{
    for (int i = 0; i < pass->count; i++) {
        const size_t k = (size_t)pass->members[i];
        memset(&sums[i], 0, sizeof sums[i]);
        sums[i].fault_cube = sums[i].fault_sample = -1;
        if (pass->exact) {
            pagani_xsum_zero(&pass->exact[2 * i]);
            pagani_xsum_zero(&pass->exact[2 * i + 1]);
        }
        if (pass->totals)
            memset(pass->totals + 2 * (size_t)v->bin_cells * k, 0,
                   16 * (size_t)v->bin_cells);
    }
    return PAGANI_OK;
}

/* The kernels for passes whose parameter blocks do (mapped) or do not
 * carry the domain map's header (cuda_integrand_mapped: only a pass knows
 * its blocks), compiled on first use, with the shared memory plan_launch
 * planned. */
static int use_kernels(cuda_vegas *v, int mapped)
{
    cuda_state *st = v->st;
    pagani_integrand *f = v->job.integrand;
    int rc;

    if (v->kernels && v->mapped == mapped) return PAGANI_OK;
    if ((rc = cuda_vegas_prepare(st, f, mapped)) != PAGANI_OK) return rc;
    v->kernels = (cuda_vegas_integrand *)f->device_module[mapped][PAGANI_VEGAS];
    v->mapped = mapped;
    if (v->adjust_smem > 48 * 1024)
        CUDA_TRY(st->ctx, cudaKernelSetAttributeForDevice(
                              v->kernels->adjust, cudaFuncAttributeMaxDynamicSharedMemorySize,
                              (int)v->adjust_smem, st->device));
    if (v->plain_smem > 48 * 1024)
        CUDA_TRY(st->ctx, cudaKernelSetAttributeForDevice(
                              v->kernels->plain, cudaFuncAttributeMaxDynamicSharedMemorySize,
                              (int)v->plain_smem, st->device));
    return PAGANI_OK;
}

/* vegas_ops.sample: one launch for the pass's members (vegas_kernel.cuh);
 * their sums, bins and component sums come back in one synchronisation. */
static int cv_sample(void *vegas_state, const vegas_pass *pass, vegas_sums *sums,
                     double *bins, double *components)
{
    cuda_vegas *v = vegas_state;
    cuda_state *st = v->st;
    pagani_context *ctx = st->ctx;
    const int accumulate = pass->accumulate && pass->stride <= 1;
    const int first = pass->members[0], last = pass->members[pass->count - 1];
    const size_t span = 2 * (size_t)v->bin_cells * (size_t)(last - first + 1);
    const size_t out_bytes = sizeof(pagani_vegas_partial) * (size_t)pass->count;
    const size_t table_bytes =
        sizeof(pagani_vegas_member) * (size_t)(pass->count + 1);
    /* the page-locked buffer (4096 bytes) when they fit, for fast copies:
     * the sums in its first half, the member table in the second */
    pagani_vegas_partial *host = out_bytes <= 2048
                                     ? (pagani_vegas_partial *)st->pinned
                                     : v->host_out;
    pagani_vegas_member *table = table_bytes <= 2048
                                     ? (pagani_vegas_member *)((char *)st->pinned +
                                                               2048)
                                     : v->host_members;
    pagani_vegas_args a;
    long long blocks;
    void *args[4];
    int rc;

    if (ctx->stop_requested) return pagani_stop_point(ctx); /* between launches */
    CUDA_TRY(ctx, cudaSetDevice(st->device));
    if ((rc = use_kernels(v, cuda_integrand_mapped(pass->params))) != PAGANI_OK) return rc;
    /* first: it may move v->params, which fill_args passes on */
    if ((rc = upload_params(v, pass)) != PAGANI_OK) return rc;
    fill_args(v, pass, accumulate, &a);
    part_of_pass(pass, &a);
    blocks = fill_members(v, pass, &a, table);
    if (blocks == 0) /* a part with nothing to sample */
        return empty_part(v, pass, sums);
    if (blocks > 0x7fffffffLL)
        return pagani_fail(ctx, PAGANI_ERR_OPTION, "Vegas pass of %lld blocks is "
                           "beyond one launch", blocks);
    if (accumulate)
        CUDA_TRY(ctx, cudaMemsetAsync(v->bins + 2 * (size_t)v->bin_cells * first, 0,
                                      8 * span, st->stream));
    CUDA_TRY(ctx, cudaMemcpyAsync(v->members, table, table_bytes,
                                  cudaMemcpyHostToDevice, st->stream));
    args[0] = &a;
    args[1] = &v->members;
    args[2] = &v->partials;
    args[3] = &v->out;
    {
        dim3 grid = {(unsigned)blocks, 1, 1}, block = {VEGAS_THREADS, 1, 1};
        CUDA_TRY(ctx, cudaLaunchKernel(
                          (const void *)(accumulate ? v->kernels->adjust : v->kernels->plain),
                          grid, block, args, accumulate ? v->adjust_smem : v->plain_smem,
                          st->stream));
    }
    CUDA_TRY(ctx, cudaMemcpyAsync(host, v->out, out_bytes, cudaMemcpyDeviceToHost,
                                  st->stream));
    if (components && v->component_out)
        CUDA_TRY(ctx, cudaMemcpyAsync(components, v->component_out,
                                      2 * sizeof(double) * (size_t)v->job.ncomp *
                                          (size_t)pass->count,
                                      cudaMemcpyDeviceToHost, st->stream));
    if (accumulate && (bins || pass->totals))
        CUDA_TRY(ctx, cudaMemcpyAsync(v->host_bins + 2 * (size_t)v->bin_cells * first,
                                      v->bins + 2 * (size_t)v->bin_cells * first,
                                      8 * span, cudaMemcpyDeviceToHost, st->stream));
    CUDA_TRY(ctx, cudaStreamSynchronize(st->stream));
    for (int i = 0; i < pass->count; i++) {
        const int k = pass->members[i];
        to_sums(&host[i], a.key_stride, &sums[i]);
        if (accumulate && pass->totals)
            totals_out(v, k, pass->totals);
        else if (accumulate && bins)
            bins_out(v, k, pass->bin_scale[i], bins + (size_t)v->bin_cells * k);
    }
    /* only when asked (the MPI layer): the host's exact sum of the blocks
     * costs a copy and a pass over them, a quarter of a small pass */
    if (!pass->exact) return PAGANI_OK;
    rc = exact_sums(v, pass->count, table, pass->exact);
    if (rc == PAGANI_OK)
        take_exact(v, pass->count, pass->exact, sums, components);
    return rc;
}

static int cv_stratify(void *vegas_state, const int *members, int count,
                       const double *beta_sums, long long target, long long *totals)
{
    cuda_vegas *v = vegas_state;
    cuda_state *st = v->st;
    const vegas_job *job = &v->job;
    const size_t m1 = (size_t)job->cubes + 1;
    const int first = members[0], last = members[count - 1];

    for (int i = 0; i < count; i++) {
        const size_t k = (size_t)members[i];
        CUDA_TRY(st->ctx, cuda_vegas_stratify(st->stream, v->sigma + k * job->cubes,
                                              job->cubes, beta_sums[i], target,
                                              job->samples, job->max_per_cube,
                                              v->counts + k * m1, v->offsets + k * m1,
                                              v->scan_temp, v->scan_bytes));
    }
    /* offsets[cubes] of integrals first..last: their totals */
    CUDA_TRY(st->ctx, cudaMemcpy2DAsync(v->host_totals + first, sizeof(long long),
                                        v->offsets + (size_t)first * m1 + job->cubes,
                                        8 * m1, sizeof(long long),
                                        (size_t)(last - first + 1),
                                        cudaMemcpyDeviceToHost, st->stream));
    CUDA_TRY(st->ctx, cudaStreamSynchronize(st->stream));
    for (int i = 0; i < count; i++) {
        v->plus_total[members[i]] = v->host_totals[members[i]];
        totals[i] = v->host_totals[members[i]];
    }
    return PAGANI_OK;
}

/* vegas_ops.counts_out: integral k's counts of cubes first .. first +
 * count - 1, copied to the host (synchronously). */
static int cv_counts_out(void *vegas_state, int k, long long first, long long count,
                         long long *counts)
{
    cuda_vegas *v = vegas_state;
    const size_t m1 = (size_t)v->job.cubes + 1;
    CUDA_TRY(v->st->ctx, cudaSetDevice(v->st->device));
    CUDA_TRY(v->st->ctx, cudaMemcpyAsync(counts, v->counts + (size_t)k * m1 + first,
                                         8 * (size_t)count, cudaMemcpyDeviceToHost,
                                         v->st->stream));
    CUDA_TRY(v->st->ctx, cudaStreamSynchronize(v->st->stream));
    return PAGANI_OK;
}

/* vegas_ops.counts_in: the slice to the device; the slice that ends at
 * the last cube scans the integral's offsets and takes its total. */
static int cv_counts_in(void *vegas_state, int k, long long first, long long count,
                        const long long *counts)
{
    cuda_vegas *v = vegas_state;
    cuda_state *st = v->st;
    const long long cubes = v->job.cubes;
    const size_t m1 = (size_t)cubes + 1;
    long long *at = v->counts + (size_t)k * m1, total;

    CUDA_TRY(st->ctx, cudaSetDevice(st->device));
    CUDA_TRY(st->ctx, cudaMemcpyAsync(at + first, counts, 8 * (size_t)count,
                                      cudaMemcpyHostToDevice, st->stream));
    CUDA_TRY(st->ctx, cudaStreamSynchronize(st->stream)); /* counts reused */
    if (first + count < cubes) return PAGANI_OK;
    CUDA_TRY(st->ctx, cuda_vegas_scan(st->stream, at, cubes, v->offsets + (size_t)k * m1,
                                      v->scan_temp, v->scan_bytes));
    CUDA_TRY(st->ctx, cudaMemcpyAsync(&total, v->offsets + (size_t)k * m1 + cubes,
                                      sizeof total, cudaMemcpyDeviceToHost, st->stream));
    CUDA_TRY(st->ctx, cudaStreamSynchronize(st->stream));
    v->plus_total[k] = total;
    return PAGANI_OK;
}

const vegas_ops pagani_cuda_vegas_ops = {
    cv_setup,
    cv_set_grids,
    cv_sample,
    cv_stratify,
    cv_release,
    1, /* parts: whole blocks of the pass (part_of_pass) */
    cv_counts_out,
    cv_counts_in,
};
