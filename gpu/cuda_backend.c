/*
 * cuda_backend.c - the CUDA backend: opening a device, preparing integrands,
 * and the table of operations (cuda_cubature.cu holds the cubature operations
 * and kernels).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu/cuda_internal.h"
#include "gpu/jit/cuda_integrand.h"
#include "gpu/jit/cuda_module.h"
#include "gpu/qmc/cuda_qmc.h"
#include "gpu/vegas/cuda_vegas.h"
#include "qmc_backend.h"
#include "vegas_backend.h"

/* The device: $PAGANI_CUDA_DEVICE when set, else on an MPI rank the
 * node-local rank modulo the count, else 0. */
static int pick_device(pagani_context *ctx, int count, int *device)
{
    const char *env = getenv("PAGANI_CUDA_DEVICE");
    char *end;
    long d;

    *device = ctx->node_rank >= 0 && count > 0 ? ctx->node_rank % count : 0;
    if (!env || !*env) return PAGANI_OK;
    d = strtol(env, &end, 10);
    if (*end || d < 0 || d >= count)
        return pagani_fail(ctx, PAGANI_ERR_BACKEND_UNAVAILABLE,
                           "PAGANI_CUDA_DEVICE=%s names no device (this machine "
                           "has %d)", env, count);
    *device = (int)d;
    return PAGANI_OK;
}

/* How many of a node's node_size ranks take the device (rank r takes r
 * modulo the count); 1 outside MPI or with PAGANI_CUDA_DEVICE's choice
 * alone counted. */
static int sharers(int node_size, int count, int device)
{
    int s;
    if (node_size <= 1 || count < 1) return 1;
    s = node_size / count + (device < node_size % count);
    return s > 1 ? s : 1;
}

static void cuda_close(void *state)
{
    cuda_state *st = state;
    if (!st) return;
    cudaSetDevice(st->device);
    cuda_cubature_free(st);
    if (st->pinned) cudaFreeHost(st->pinned);
    if (st->stream) cudaStreamDestroy(st->stream);
    free(st);
}

/* PAGANI_ERR_BACKEND_UNAVAILABLE when cudaGetDeviceCount found no device
 * (err, count), saying why: no NVIDIA driver at all, a driver older than
 * the CUDA runtime this library was built with, or a driver that sees no
 * device. The runtime says "CUDA driver version is insufficient" for the
 * first two alike; the driver's version tells them apart (0: none). */
static int fail_no_gpu(pagani_context *ctx, cudaError_t err, int count)
{
    int driver = 0, runtime = 0;

    (void)cudaGetLastError();
    if (cudaDriverGetVersion(&driver) != cudaSuccess) driver = 0;
    if (cudaRuntimeGetVersion(&runtime) != cudaSuccess) runtime = 0;
    (void)cudaGetLastError();
    if (driver == 0)
        return pagani_fail(ctx, PAGANI_ERR_BACKEND_UNAVAILABLE, "no usable "
                           "GPU: no NVIDIA driver is installed (libcuda.so "
                           "was not found)");
    if (err == cudaErrorInsufficientDriver)
        return pagani_fail(ctx, PAGANI_ERR_BACKEND_UNAVAILABLE, "no usable "
                           "GPU: the NVIDIA driver is too old for this build "
                           "of libpagani (the driver supports CUDA %d.%d, "
                           "the build needs %d.%d); update the driver",
                           driver / 1000, driver % 1000 / 10, runtime / 1000,
                           runtime % 1000 / 10);
    if (err == cudaErrorNoDevice || (err == cudaSuccess && count == 0))
        return pagani_fail(ctx, PAGANI_ERR_BACKEND_UNAVAILABLE, "no usable "
                           "GPU: the NVIDIA driver (CUDA %d.%d) sees no "
                           "device (none installed, or CUDA_VISIBLE_DEVICES "
                           "hides them all)", driver / 1000,
                           driver % 1000 / 10);
    return pagani_fail(ctx, PAGANI_ERR_BACKEND_UNAVAILABLE, "no usable GPU: "
                       "%s (%s)", cudaGetErrorString(err), cudaGetErrorName(err));
}

static int cuda_open(pagani_context *ctx, void **out)
{
    cuda_state *st;
    int count = 0, major = 0, minor = 0, rc;
    const char *env;
    cudaError_t err = cudaGetDeviceCount(&count);

    *out = NULL;
    if (err != cudaSuccess || count == 0) return fail_no_gpu(ctx, err, count);
    if (!(st = calloc(1, sizeof *st)))
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "CUDA backend state");
    st->ctx = ctx;
    if ((rc = pick_device(ctx, count, &st->device)) != PAGANI_OK) goto fail;
    st->sharers = sharers(ctx->node_size, count, st->device);
    err = cudaSetDevice(st->device);
    if (err == cudaSuccess)
        err = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, st->device);
    if (err == cudaSuccess)
        err = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, st->device);
    if (err == cudaSuccess)
        err = cudaDeviceGetAttribute(&st->sm_count, cudaDevAttrMultiProcessorCount,
                                     st->device);
    if (err == cudaSuccess) err = cudaStreamCreateWithFlags(&st->stream, cudaStreamNonBlocking);
    if (err == cudaSuccess) err = cudaHostAlloc(&st->pinned, 4096, cudaHostAllocMapped);
    /* Kernels write their few results straight into this buffer (no copy
     * command per round trip) where the device can map it. */
    if (err == cudaSuccess && cudaHostGetDevicePointer(&st->pinned_dev, st->pinned, 0) !=
                                  cudaSuccess) {
        (void)cudaGetLastError();
        st->pinned_dev = NULL;
    }
    if (err != cudaSuccess) {
        (void)cudaGetLastError();
        rc = pagani_fail(ctx, PAGANI_ERR_BACKEND_UNAVAILABLE, "CUDA device %d "
                         "cannot be used: %s", st->device, cudaGetErrorString(err));
        goto fail;
    }
    st->cc = 10 * major + minor;
    if ((rc = cuda_cubature_check(st)) != PAGANI_OK) goto fail;
    if ((rc = cuda_nvrtc_load(ctx)) != PAGANI_OK) goto fail;
    env = getenv("PAGANI_CUDA_EVAL_THREADS");
    if (env && (atoi(env) == 32 || atoi(env) == 64 || atoi(env) == 128 ||
                atoi(env) == 256))
        st->eval_threads = atoi(env);
    *out = st;
    return PAGANI_OK;
fail:
    cuda_close(st);
    return rc;
}

static size_t cuda_free_memory(void *state)
{
    cuda_state *st = state;
    size_t free_bytes = 0, total = 0;
    if (cudaSetDevice(st->device) != cudaSuccess ||
        cudaMemGetInfo(&free_bytes, &total) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    /* MPI ranks sharing the device share it equally, whatever each holds
     * at the moment (they start at once, each seeing it all free) */
    if (st->sharers > 1) return total / (size_t)st->sharers;
    /* What this backend already holds is as good as free for the next job. */
    return free_bytes + cuda_cubature_bytes_held(st);
}

static int cuda_prepare_integrand(void *state, pagani_integrand *f)
{
    cuda_state *st = state;
    if (!f->source)
        return pagani_fail(st->ctx, PAGANI_ERR_NO_FORM, "the CUDA backend runs "
                           "integrands given as source only");
    CUDA_TRY(st->ctx, cudaSetDevice(st->device));
    if (f->n <= PAGANI_MAX_CUBATURE_DIM && !f->device_module[0][PAGANI_CUBATURE])
        return cuda_cubature_prepare(st, f, 0);
    return PAGANI_OK;
}

static void cuda_release_integrand(void *state, pagani_integrand *f)
{
    cuda_state *st = state;
    cudaSetDevice(st->device);
    cuda_integrand_release(f);
}

static const backend_ops cuda_ops = {
    PAGANI_BACKEND_CUDA,
    cuda_open,
    cuda_close,
    cuda_free_memory,
    cuda_prepare_integrand,
    cuda_release_integrand,
    &pagani_cuda_cubature_ops,
    &pagani_cuda_vegas_ops,
    &pagani_cuda_qmc_ops,
};

const backend_ops *pagani_cuda_backend(void) { return &cuda_ops; }
