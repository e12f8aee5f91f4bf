/*
 * cuda_fail.c - the one place a CUDA error becomes a libpagani code and a
 * context message (CUDA_TRY in cuda_internal.h). Every file of gpu/ uses
 * it; it uses none of them.
 */
#include "gpu/cuda_internal.h"

int cuda_fail(pagani_context *ctx, cudaError_t err, const char *call)
{
    (void)cudaGetLastError(); /* clear what is not sticky */
    if (err == cudaErrorMemoryAllocation)
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "%s failed: %s", call,
                           cudaGetErrorString(err));
    /* A sticky error fails every later call: say that the context is lost. */
    if (cudaDeviceSynchronize() != cudaSuccess)
        return pagani_fail(ctx, PAGANI_ERR_CUDA,
                           "%s failed: %s (%s); the GPU context is no longer "
                           "usable, destroy this pagani context", call,
                           cudaGetErrorName(err), cudaGetErrorString(err));
    return pagani_fail(ctx, PAGANI_ERR_CUDA, "%s failed: %s (%s)", call,
                       cudaGetErrorName(err), cudaGetErrorString(err));
}
