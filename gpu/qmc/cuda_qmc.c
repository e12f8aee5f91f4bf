/*
 * cuda_qmc.c - the CUDA backend's QMC operation (src/qmc_backend.h). The
 * kernels (gpu/qmc/qmc_kernel.cuh) are compiled per integrand by NVRTC
 * (gpu/jit/cuda_integrand.h) with the integrand inlined, and cached in the
 * integrand (device_module[mapped][PAGANI_QMC]); this file only launches
 * them, so it is plain C against the CUDA runtime API.
 *
 * Per call of sums: one copy of the running integrals' ids to the device,
 * one launch for all of them, one copy of their shifts' exact sums,
 * fault indices and largest |f w| back to the host (live * R * (544 ncomp +
 * 16) bytes, ncomp
 * components of a vector integrand, else 1). Device buffers
 * (the boxes, the parameter blocks, the sums of every integral) belong to
 * the state of one run (setup .. release); nothing is allocated per call.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "gpu/cuda_internal.h"
#include "gpu/jit/cuda_integrand.h"
#include "gpu/jit/cuda_module.h"
#include "gpu/qmc/cuda_qmc.h"
#include "gpu/qmc/qmc_args.h"
#include "gpu/qmc/qmc_kernel_src.h" /* generated: pagani_qmc_kernel_src */
#include "qmc_backend.h"
#include "sampling/zinterhof_table.h"

#define QMC_THREADS PAGANI_QMC_THREADS
#define QMC_MIN_PER_THREAD 16ULL
#define QMC_MAX_PER_THREAD 4096ULL

/* An integrand's compiled QMC kernels (device_module[mapped][PAGANI_QMC]). */
typedef struct cuda_qmc_integrand {
    cuda_module *module; /* first: cuda_integrand_release frees it */
    cudaKernel_t sums;
    cudaKernel_t points;
} cuda_qmc_integrand;

typedef struct cuda_qmc {
    cuda_state *st;
    qmc_job job;
    cuda_qmc_integrand *kernels;
    int ncomp;                   /* sums per point: f's components */
    int group_max;               /* most integrals a block sums */
    unsigned long long *acc;     /* live * ncomp * shifts * BINS, then live *
                                    shifts fault words, then live * shifts
                                    peak words (the bits of a double >= 0;
                                    room for every integral) */
    unsigned long long *host;    /* the same, on the host */
    void *params;                /* the parameter blocks */
    double *box;                 /* integral k: lower[n], then width[n] */
    int *ids;                    /* the running integrals of one call */
    double *points;              /* for points(): grown on demand */
    size_t points_bytes;
} cuda_qmc;

int cuda_qmc_prepare(cuda_state *st, pagani_integrand *f, int mapped)
{
    static const char *const names[2] = {"pagani_qmc_sums", "pagani_qmc_points"};
    cudaKernel_t kernels[2];
    cuda_qmc_integrand *ci;
    int rc;

    if (f->device_module[mapped][PAGANI_QMC]) return PAGANI_OK;
    if (!(ci = calloc(1, sizeof *ci)))
        return pagani_fail(st->ctx, PAGANI_ERR_NO_MEMORY, "QMC kernels");
    rc = cuda_integrand_kernels(st->ctx, f, pagani_qmc_kernel_src, "qmc", mapped,
                                names, kernels, 2, &ci->module);
    if (rc != PAGANI_OK) {
        free(ci);
        return rc;
    }
    ci->sums = kernels[0];
    ci->points = kernels[1];
    f->device_module[mapped][PAGANI_QMC] = ci;
    return PAGANI_OK;
}

static void cq_release(void *qmc_state)
{
    cuda_qmc *q = qmc_state;
    if (!q) return;
    cudaFree(q->acc);
    cudaFree(q->params);
    cudaFree(q->box);
    cudaFree(q->ids);
    cudaFree(q->points);
    free(q->host);
    free(q);
}

/* Bytes of the job's parameter blocks: K blocks params_stride apart, or
 * the one block of f (zero-padded to whole doubles) when the stride is 0;
 * 0 when there are none. */
static size_t params_bytes(const qmc_job *job)
{
    if (!job->params) return 0;
    if (job->params_stride)
        return (size_t)job->integrals * job->params_stride;
    return pagani_params_padded(job->integrand->params_size);
}

/* Copies the boxes (lower corner and widths, upper - lower as the single
 * call has them) and the parameter blocks of the job to the device. */
static int upload_job(cuda_qmc *q)
{
    const qmc_job *job = &q->job;
    pagani_context *ctx = q->st->ctx;
    size_t n = (size_t)job->n, bytes = params_bytes(job);
    double *box = malloc((size_t)job->integrals * 2 * n * sizeof *box);
    cudaError_t err;

    if (!box)
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "QMC boxes of %d "
                           "integrals", job->integrals);
    for (int k = 0; k < job->integrals; k++) {
        const double *lower = qmc_job_lower(job, k);
        const double *upper = qmc_job_upper(job, k);
        for (size_t i = 0; i < n; i++) {
            box[2 * n * k + i] = lower[i];
            box[2 * n * k + n + i] = upper[i] - lower[i];
        }
    }
    err = cudaMemcpyAsync(q->box, box, (size_t)job->integrals * 2 * n *
                          sizeof *box, cudaMemcpyHostToDevice, q->st->stream);
    if (err == cudaSuccess && bytes)
        err = cudaMemcpyAsync(q->params, job->params, bytes,
                              cudaMemcpyHostToDevice, q->st->stream);
    if (err == cudaSuccess) err = cudaStreamSynchronize(q->st->stream);
    free(box);
    return err == cudaSuccess ? PAGANI_OK
                              : cuda_fail(ctx, err, "copying the QMC boxes and "
                                          "parameter blocks");
}

/* The state of a job: its kernels, the device copies of the boxes and
 * parameter blocks, and room for the sums of every integral. */
static int cq_setup(void *backend_state, const qmc_job *job, void **qmc_state)
{
    cuda_state *st = backend_state;
    pagani_context *ctx = st->ctx;
    pagani_integrand *f = job->integrand;
    size_t K = (size_t)job->integrals;
    size_t words = K * (size_t)job->shifts *
                   ((size_t)job->ncomp * PAGANI_XSUM_BINS + 2);
    size_t bytes = params_bytes(job);
    const int mapped = cuda_integrand_mapped(job->params);
    cuda_qmc *q;
    int rc;

    *qmc_state = NULL;
    CUDA_TRY(ctx, cudaSetDevice(st->device));
    if ((rc = cuda_qmc_prepare(st, f, mapped)) != PAGANI_OK) return rc;
    if (!(q = calloc(1, sizeof *q)) || !(q->host = malloc(words * 8))) {
        free(q);
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "QMC state: the sums "
                           "of %zu integrals x %d shifts", K, job->shifts);
    }
    q->st = st;
    q->job = *job;
    q->kernels = f->device_module[mapped][PAGANI_QMC];
    q->ncomp = job->ncomp;
    /* a vector integrand's kernel sums one integral a block */
    q->group_max = q->ncomp > 1 ? 1 : PAGANI_QMC_GROUP_MAX;
    *qmc_state = q;
    CUDA_TRY(ctx, cudaMalloc((void **)&q->acc, words * 8));
    CUDA_TRY(ctx, cudaMalloc(&q->params, bytes ? bytes : 8));
    CUDA_TRY(ctx, cudaMalloc((void **)&q->box,
                             K * 2 * (size_t)job->n * sizeof(double)));
    CUDA_TRY(ctx, cudaMalloc((void **)&q->ids, K * sizeof(int)));
    return upload_job(q);
}

/* The argument block for a launch (the sums kernel's shape apart). */
static void fill_args(const cuda_qmc *q, pagani_qmc_args *a, int first_shift,
                      unsigned long long first, unsigned long long count,
                      unsigned long long leap)
{
    unsigned long long tile = PAGANI_QMC_TILE_POINTS(q->job.n, q->ncomp);

    memset(a, 0, sizeof *a);
    a->seed = q->job.seed;
    a->first = first;
    a->count = count;
    a->leap = leap;
    a->params_stride = q->job.params_stride;
    a->first_shift = first_shift;
    a->transform = q->job.transform;
    for (int i = 0; i < q->job.n; i++) {
        pagani_u128 theta = {pagani_zinterhof_theta[i][0],
                             pagani_zinterhof_theta[i][1]};
        pagani_u128 step = pagani_u128_mul(tile, pagani_u128_mul(leap, theta));
        a->theta[i][0] = theta.hi;
        a->theta[i][1] = theta.lo;
        a->tile_step[i][0] = step.hi;
        a->tile_step[i][1] = step.lo;
    }
}

/* The shape of a sums launch, into a: integrals per block (the power of 2
 * that covers `live`, at most q->group_max) and points per block
 * (whole tiles): enough blocks to fill the device (about 8 per
 * multiprocessor over the shifts x groups of integrals), each thread
 * evaluating at least QMC_MIN_PER_THREAD points (its final reduction costs
 * about as much as 16) and at most QMC_MAX_PER_THREAD. Returns the blocks
 * along x; *groups is the groups of integrals. The sums do not depend on
 * the shape. */
static unsigned long long launch_shape(const cuda_qmc *q, int live, int shifts,
                                       unsigned long long count,
                                       pagani_qmc_args *a, unsigned *groups)
{
    unsigned long long tile = PAGANI_QMC_TILE_POINTS(q->job.n, q->ncomp);
    unsigned long long tiles = (count + tile - 1) / tile;
    unsigned long long want = (unsigned long long)q->st->sm_count * 8;
    unsigned long long along_x, per_tile, lo, hi, per_block;
    int group = 1;

    while (group < live && group < q->group_max) group *= 2;
    *groups = (unsigned)((live + group - 1) / group);
    along_x = want / ((unsigned long long)shifts * *groups) + 1;
    per_tile = tile * (unsigned long long)group;  /* evaluations per tile */
    lo = (QMC_MIN_PER_THREAD * QMC_THREADS + per_tile - 1) / per_tile;
    hi = QMC_MAX_PER_THREAD * QMC_THREADS / per_tile;
    per_block = tiles / along_x;                  /* tiles per block */
    if (per_block > hi) per_block = hi;
    if (per_block < lo) per_block = lo;
    if (per_block < 1) per_block = 1;
    a->group = group;
    a->per_block = per_block * tile;
    return (count + a->per_block - 1) / a->per_block;
}

/* The component of a fault and what the integrand returned there, from
 * the values f[0..ncomp-1] at its point: the first value that is not
 * finite; if none is (the product with the Jacobian overflowed), the
 * largest in magnitude. */
static void fault_component(qmc_fault *fault, const double *f, int ncomp)
{
    int c = 0;
    while (c < ncomp && isfinite(f[c])) c++;
    if (c == ncomp) {
        c = 0;
        for (int i = 1; i < ncomp; i++)
            if (fabs(f[i]) > fabs(f[c])) c = i;
    }
    fault->component = c;
    fault->value = f[c];
}

/* Fills fault's value and component, for the report (best effort: NaN
 * and component 0 when they cannot be had): the points kernel at that one
 * point. */
static void fault_value(cuda_qmc *q, qmc_fault *fault)
{
    cuda_state *st = q->st;
    const int ncomp = q->ncomp;
    double *x = NULL, *fx = NULL, value[PAGANI_MAX_COMPONENTS];
    pagani_qmc_args a;
    void *args[5];

    fill_args(q, &a, fault->shift, fault->k, 1, 1);
    a.integral = fault->integral;
    for (int c = 0; c < ncomp; c++) value[c] = NAN;
    if (cudaMalloc((void **)&x, (size_t)(q->job.n + ncomp) * sizeof(double)) ==
        cudaSuccess) {
        dim3 one = {1, 1, 1}, block = {QMC_THREADS, 1, 1};
        fx = x + q->job.n;
        args[0] = &a;
        args[1] = &q->params;
        args[2] = &q->box;
        args[3] = &x;
        args[4] = &fx;
        if (cudaLaunchKernel((const void *)q->kernels->points, one, block,
                             args, 0, st->stream) != cudaSuccess ||
            cudaMemcpyAsync(value, fx, (size_t)ncomp * sizeof *value,
                            cudaMemcpyDeviceToHost,
                            st->stream) != cudaSuccess ||
            cudaStreamSynchronize(st->stream) != cudaSuccess)
            for (int c = 0; c < ncomp; c++) value[c] = NAN;
        cudaFree(x);
    }
    (void)cudaGetLastError();
    fault_component(fault, value, ncomp);
}

/* qmc_ops.sums: one launch over (point blocks, shifts, integrals), see
 * qmc_kernel.cuh; the sums (integral m's component c for shift r in
 * slot (m * ncomp + c) * shifts + r) and fault words (slot m * shifts + r)
 * of the running integrals come back in one copy. */
static int cq_sums(void *qmc_state, const int *ids, int live, int first_shift,
                   int shifts, unsigned long long first,
                   unsigned long long count, unsigned long long leap,
                   pagani_xsum *out, qmc_fault *faults, double *peaks)
{
    cuda_qmc *q = qmc_state;
    cuda_state *st = q->st;
    pagani_context *ctx = st->ctx;
    size_t slots = (size_t)live * (size_t)shifts;
    size_t sums = slots * (size_t)q->ncomp, bins = sums * PAGANI_XSUM_BINS;
    unsigned long long *dev_faults = q->acc + bins, *hf = q->host + bins;
    unsigned long long *dev_peaks = dev_faults + slots, *hp = hf + slots;
    unsigned long long blocks;
    unsigned groups;
    int any = 0;
    pagani_qmc_args a;
    void *args[7];

    memset(faults, 0, (size_t)live * sizeof *faults);
    if (live < 1) return PAGANI_OK;
    if (ctx->stop_requested) return pagani_stop_point(ctx); /* between launches */
    fill_args(q, &a, first_shift, first, count, leap);
    a.live = live;
    blocks = launch_shape(q, live, shifts, count, &a, &groups);
    if (shifts > q->job.shifts || live > q->job.integrals ||
        blocks > 0x7fffffffULL)
        return pagani_fail(ctx, PAGANI_ERR_OPTION, "QMC sums: %d integrals x "
                           "%d shifts of %llu points is beyond this launch",
                           live, shifts, count);
    args[0] = &a;
    args[1] = &q->params;
    args[2] = &q->box;
    args[3] = &q->ids;
    args[4] = &q->acc;
    args[5] = &dev_faults;
    args[6] = &dev_peaks;
    CUDA_TRY(ctx, cudaSetDevice(st->device));
    CUDA_TRY(ctx, cudaMemcpyAsync(q->ids, ids, (size_t)live * sizeof *ids,
                                  cudaMemcpyHostToDevice, st->stream));
    CUDA_TRY(ctx, cudaMemsetAsync(q->acc, 0, bins * 8, st->stream));
    CUDA_TRY(ctx, cudaMemsetAsync(dev_faults, 0xff, slots * 8, st->stream));
    CUDA_TRY(ctx, cudaMemsetAsync(dev_peaks, 0, slots * 8, st->stream));
    if (count > 0) {
        dim3 grid = {(unsigned)blocks, (unsigned)shifts,
                     groups < 65535 ? groups : 65535};
        dim3 block = {QMC_THREADS, 1, 1};
        CUDA_TRY(ctx, cudaLaunchKernel((const void *)q->kernels->sums, grid, block,
                                       args, 0, st->stream));
    }
    CUDA_TRY(ctx, cudaMemcpyAsync(q->host, q->acc, (bins + 2 * slots) * 8,
                                  cudaMemcpyDeviceToHost, st->stream));
    CUDA_TRY(ctx, cudaStreamSynchronize(st->stream));

    for (size_t j = 0; j < sums; j++) {
        for (int b = 0; b < PAGANI_XSUM_BINS; b++)
            out[j].bin[b] = (long long)q->host[j * PAGANI_XSUM_BINS + b];
        out[j].load = PAGANI_XSUM_MAX_LOAD - 1;
        pagani_xsum_normalize(&out[j]);
    }
    for (size_t j = 0; j < slots; j++) {
        qmc_fault *fault = &faults[j / (size_t)shifts];
        if (hf[j] != ~0ULL && (fault->k == 0 || hf[j] < fault->k)) {
            fault->k = hf[j];
            fault->shift = first_shift + (int)(j % (size_t)shifts);
            fault->integral = ids[j / (size_t)shifts];
        }
    }
    for (size_t j = 0; peaks && j < slots; j++) memcpy(&peaks[j], &hp[j], 8);
    for (int m = 0; m < live; m++)
        if (faults[m].k) {
            fault_value(q, &faults[m]);
            any = 1;
        }
    return any ? PAGANI_ERR_NONFINITE : PAGANI_OK;
}

/* qmc_ops.points: the points of one shift in integral 0's box. */
static int cq_points(void *qmc_state, int shift, unsigned long long first,
                     unsigned long long count, unsigned long long leap, double *x)
{
    cuda_qmc *q = qmc_state;
    cuda_state *st = q->st;
    pagani_context *ctx = st->ctx;
    size_t bytes = (size_t)count * (size_t)q->job.n * sizeof(double);
    double *none = NULL;
    pagani_qmc_args a;
    void *args[5];

    if (count == 0) return PAGANI_OK;
    CUDA_TRY(ctx, cudaSetDevice(st->device));
    if (bytes > q->points_bytes) {
        cudaFree(q->points);
        q->points = NULL;
        q->points_bytes = 0;
        CUDA_TRY(ctx, cudaMalloc((void **)&q->points, bytes));
        q->points_bytes = bytes;
    }
    fill_args(q, &a, shift, first, count, leap);
    args[0] = &a;
    args[1] = &q->params;
    args[2] = &q->box;
    args[3] = &q->points;
    args[4] = &none;
    {
        dim3 grid = {(unsigned)((count + QMC_THREADS - 1) / QMC_THREADS), 1, 1};
        dim3 block = {QMC_THREADS, 1, 1};
        CUDA_TRY(ctx, cudaLaunchKernel((const void *)q->kernels->points, grid, block,
                                       args, 0, st->stream));
    }
    CUDA_TRY(ctx, cudaMemcpyAsync(x, q->points, bytes, cudaMemcpyDeviceToHost, st->stream));
    CUDA_TRY(ctx, cudaStreamSynchronize(st->stream));
    return PAGANI_OK;
}

const qmc_ops pagani_cuda_qmc_ops = {
    cq_setup,
    cq_sums,
    cq_points,
    cq_release,
};
