/*
 * cuda_qmc.c - the CUDA backend's QMC operation (src/qmc_backend.h). The
 * kernels (gpu/qmc/qmc_kernel.cuh) are compiled per integrand by NVRTC
 * (gpu/jit/cuda_integrand.h) with the integrand inlined, and cached in the
 * integrand (device_module[PAGANI_QMC]); this file only launches them, so
 * it is plain C against the CUDA runtime API.
 *
 * Per call of sums: one launch, one copy of the shifts' exact sums and
 * fault indices back to the host (R * 552 bytes). Device buffers belong to
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

#define QMC_THREADS 128        /* = PAGANI_QMC_THREADS of the kernel */
#define QMC_MIN_PER_THREAD 16ULL
#define QMC_MAX_PER_THREAD 4096ULL

/* An integrand's compiled QMC kernels (device_module[PAGANI_QMC]). */
typedef struct cuda_qmc_integrand {
    cuda_module *module;
    cudaKernel_t sums;
    cudaKernel_t points;
} cuda_qmc_integrand;

typedef struct cuda_qmc {
    cuda_state *st;
    qmc_job job;
    cuda_qmc_integrand *kernels;
    unsigned long long *acc;     /* shifts * BINS, then shifts fault words */
    unsigned long long *host;    /* the same, on the host */
    void *params;                /* the integrand's parameter block */
    double *points;              /* for points(): grown on demand */
    size_t points_bytes;
} cuda_qmc;

int cuda_qmc_prepare(cuda_state *st, pagani_integrand *f)
{
    static const char *const names[2] = {"pagani_qmc_sums", "pagani_qmc_points"};
    cudaKernel_t kernels[2];
    cuda_qmc_integrand *ci;
    int rc;

    if (f->device_module[PAGANI_QMC]) return PAGANI_OK;
    if (!(ci = calloc(1, sizeof *ci)))
        return pagani_fail(st->ctx, PAGANI_ERR_NO_MEMORY, "QMC kernels");
    rc = cuda_integrand_kernels(st->ctx, f, pagani_qmc_kernel_src, "qmc",
                                names, kernels, 2, &ci->module);
    if (rc != PAGANI_OK) {
        free(ci);
        return rc;
    }
    ci->sums = kernels[0];
    ci->points = kernels[1];
    f->device_module[PAGANI_QMC] = ci;
    return PAGANI_OK;
}

void cuda_qmc_release(cuda_state *st, pagani_integrand *f)
{
    cuda_qmc_integrand *ci = f->device_module[PAGANI_QMC];
    (void)st;
    if (!ci) return;
    cuda_module_destroy(ci->module);
    free(ci);
    f->device_module[PAGANI_QMC] = NULL;
}

static void cq_release(void *qmc_state)
{
    cuda_qmc *q = qmc_state;
    if (!q) return;
    cudaFree(q->acc);
    cudaFree(q->params);
    cudaFree(q->points);
    free(q->host);
    free(q);
}

static int cq_setup(void *backend_state, const qmc_job *job, void **qmc_state)
{
    cuda_state *st = backend_state;
    pagani_context *ctx = st->ctx;
    pagani_integrand *f = job->integrand;
    size_t words = (size_t)job->shifts * (PAGANI_XSUM_BINS + 1);
    cuda_qmc *q;
    int rc;

    *qmc_state = NULL;
    CUDA_TRY(ctx, cudaSetDevice(st->device));
    if ((rc = cuda_qmc_prepare(st, f)) != PAGANI_OK) return rc;
    if (!(q = calloc(1, sizeof *q)) || !(q->host = malloc(words * 8))) {
        free(q);
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "QMC state");
    }
    q->st = st;
    q->job = *job;
    q->kernels = f->device_module[PAGANI_QMC];
    *qmc_state = q;
    CUDA_TRY(ctx, cudaMalloc((void **)&q->acc, words * 8));
    CUDA_TRY(ctx, cudaMalloc(&q->params, f->params_size ? f->params_size : 8));
    if (f->params_size)
        CUDA_TRY(ctx, cudaMemcpyAsync(q->params, f->params, f->params_size,
                                      cudaMemcpyHostToDevice, st->stream));
    return PAGANI_OK;
}

/* The argument block for a launch. */
static void fill_args(const cuda_qmc *q, pagani_qmc_args *a, int first_shift,
                      unsigned long long first, unsigned long long count,
                      unsigned long long leap, unsigned long long per_thread)
{
    memset(a, 0, sizeof *a);
    a->seed = q->job.seed;
    a->first = first;
    a->count = count;
    a->leap = leap;
    a->per_thread = per_thread;
    a->first_shift = first_shift;
    a->transform = q->job.transform;
    for (int i = 0; i < q->job.n; i++) {
        pagani_u128 theta = {pagani_zinterhof_theta[i][0], pagani_zinterhof_theta[i][1]};
        pagani_u128 step = pagani_u128_mul(leap, theta);
        a->theta[i][0] = theta.hi;
        a->theta[i][1] = theta.lo;
        a->step[i][0] = step.hi;
        a->step[i][1] = step.lo;
        a->lower[i] = q->job.lower[i];
        a->width[i] = q->job.width[i];
    }
}

/* Points per thread: enough threads to fill the device (about 8 blocks of
 * 128 per multiprocessor over all shifts), at least QMC_MIN_PER_THREAD (a
 * thread's final reduction of its accumulator costs about as much as 16
 * points) and at most QMC_MAX_PER_THREAD. The sums do not depend on it. */
static unsigned long long per_thread(const cuda_qmc *q, int shifts,
                                     unsigned long long count)
{
    unsigned long long want = (unsigned long long)q->st->sm_count * 8 * QMC_THREADS;
    unsigned long long per_shift = want / (unsigned long long)shifts + 1;
    unsigned long long p = count / per_shift;
    return p < QMC_MIN_PER_THREAD ? QMC_MIN_PER_THREAD
           : p > QMC_MAX_PER_THREAD ? QMC_MAX_PER_THREAD : p;
}

static int cq_sums(void *qmc_state, int first_shift, int shifts,
                   unsigned long long first, unsigned long long count,
                   unsigned long long leap, pagani_xsum *out, qmc_fault *fault)
{
    cuda_qmc *q = qmc_state;
    cuda_state *st = q->st;
    pagani_context *ctx = st->ctx;
    size_t bins = (size_t)shifts * PAGANI_XSUM_BINS;
    unsigned long long *faults = q->acc + bins, *hf = q->host + bins;
    unsigned long long p = per_thread(q, shifts, count);
    unsigned long long blocks = (count + p * QMC_THREADS - 1) / (p * QMC_THREADS);
    pagani_qmc_args a;
    void *args[4];

    memset(fault, 0, sizeof *fault);
    if (shifts > q->job.shifts || blocks > 0x7fffffffULL)
        return pagani_fail(ctx, PAGANI_ERR_OPTION, "QMC sums: %d shifts of %llu "
                           "points is beyond this launch", shifts, count);
    fill_args(q, &a, first_shift, first, count, leap, p);
    args[0] = &a;
    args[1] = &q->params;
    args[2] = &q->acc;
    args[3] = &faults;
    CUDA_TRY(ctx, cudaSetDevice(st->device));
    CUDA_TRY(ctx, cudaMemsetAsync(q->acc, 0, bins * 8, st->stream));
    CUDA_TRY(ctx, cudaMemsetAsync(faults, 0xff, (size_t)shifts * 8, st->stream));
    if (count > 0) {
        dim3 grid = {(unsigned)blocks, (unsigned)shifts, 1}, block = {QMC_THREADS, 1, 1};
        CUDA_TRY(ctx, cudaLaunchKernel((const void *)q->kernels->sums, grid, block,
                                       args, 0, st->stream));
    }
    CUDA_TRY(ctx, cudaMemcpyAsync(q->host, q->acc, (bins + (size_t)shifts) * 8,
                                  cudaMemcpyDeviceToHost, st->stream));
    CUDA_TRY(ctx, cudaStreamSynchronize(st->stream));

    for (int r = 0; r < shifts; r++) {
        for (int b = 0; b < PAGANI_XSUM_BINS; b++)
            out[r].bin[b] = (long long)q->host[(size_t)r * PAGANI_XSUM_BINS + b];
        out[r].load = PAGANI_XSUM_MAX_LOAD - 1;
        pagani_xsum_normalize(&out[r]);
        if (hf[r] != ~0ULL && (fault->k == 0 || hf[r] < fault->k)) {
            fault->k = hf[r];
            fault->shift = first_shift + r;
        }
    }
    if (!fault->k) return PAGANI_OK;

    /* the raw value at the fault, for the report */
    {
        double *x = NULL, *fx = NULL, value = NAN;
        fault->value = NAN;
        fill_args(q, &a, fault->shift, fault->k, 1, 1, 1);
        if (cudaMalloc((void **)&x, (size_t)(q->job.n + 1) * sizeof(double)) == cudaSuccess) {
            dim3 one = {1, 1, 1}, block = {QMC_THREADS, 1, 1};
            fx = x + q->job.n;
            args[2] = &x;
            args[3] = &fx;
            if (cudaLaunchKernel((const void *)q->kernels->points, one, block, args, 0,
                                 st->stream) == cudaSuccess &&
                cudaMemcpyAsync(&value, fx, sizeof value, cudaMemcpyDeviceToHost,
                                st->stream) == cudaSuccess &&
                cudaStreamSynchronize(st->stream) == cudaSuccess)
                fault->value = value;
            cudaFree(x);
        }
        (void)cudaGetLastError();   /* the report is best effort */
    }
    return PAGANI_ERR_NONFINITE;
}

static int cq_points(void *qmc_state, int shift, unsigned long long first,
                     unsigned long long count, unsigned long long leap, double *x)
{
    cuda_qmc *q = qmc_state;
    cuda_state *st = q->st;
    pagani_context *ctx = st->ctx;
    size_t bytes = (size_t)count * (size_t)q->job.n * sizeof(double);
    double *none = NULL;
    pagani_qmc_args a;
    void *args[4];

    if (count == 0) return PAGANI_OK;
    CUDA_TRY(ctx, cudaSetDevice(st->device));
    if (bytes > q->points_bytes) {
        cudaFree(q->points);
        q->points = NULL;
        q->points_bytes = 0;
        CUDA_TRY(ctx, cudaMalloc((void **)&q->points, bytes));
        q->points_bytes = bytes;
    }
    fill_args(q, &a, shift, first, count, leap, 1);
    args[0] = &a;
    args[1] = &q->params;
    args[2] = &q->points;
    args[3] = &none;
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
