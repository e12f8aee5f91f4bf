/*
 * cuda_internal.h - private to the CUDA backend (gpu/): its state, the
 * error helper every CUDA call goes through, and what its files offer each
 * other. Included from C (cuda_backend.c, cuda_module.c) and CUDA C++
 * (cuda_cubature.cu).
 */
#ifndef PAGANI_GPU_CUDA_INTERNAL_H
#define PAGANI_GPU_CUDA_INTERNAL_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "internal.h"

typedef struct cuda_cubature cuda_cubature;

/* One opened CUDA backend: one device, one stream, its buffers. */
typedef struct cuda_state {
    pagani_context *ctx;         /* where messages go */
    int device;                  /* CUDA device ordinal */
    int sharers;                 /* the MPI ranks of this node on this
                                    device (1 outside MPI) */
    int cc;                      /* compute capability, 10 * major + minor */
    int sm_count;
    cudaStream_t stream;         /* every operation runs on it */
    void *pinned;                /* small page-locked buffer for results */
    void *pinned_dev;            /* its device address (mapped), or NULL:
                                    then results come by cudaMemcpy */
    int eval_threads;            /* PAGANI_CUDA_EVAL_THREADS, 0: by rule */
    cuda_cubature *cubature;     /* region lists, made by the first setup */
} cuda_state;

/* Sets ctx's message to "CALL failed: reason" and returns the code:
 * PAGANI_ERR_NO_MEMORY for an allocation failure, else PAGANI_ERR_CUDA
 * (saying so when the error left the CUDA context unusable). */
int cuda_fail(pagani_context *ctx, cudaError_t err, const char *call);

/* Runs a CUDA runtime call; on failure returns from the calling function
 * with cuda_fail's code. Never exits. */
#define CUDA_TRY(ctx, call)                                                 \
    do {                                                                    \
        cudaError_t cuda_try_err_ = (call);                                 \
        if (cuda_try_err_ != cudaSuccess)                                   \
            return cuda_fail((ctx), cuda_try_err_, #call);                  \
    } while (0)

/* ---- cubature (cuda_cubature.cu) ---- */
extern const cubature_ops pagani_cuda_cubature_ops;
/* Whether the library's own kernels run on this device. */
int cuda_cubature_check(cuda_state *st);
/* NVRTC-compiles f's evaluate kernels into
 * f->device_module[mapped][PAGANI_CUBATURE] (mapped: the entry that reads
 * the domain map's header, cuda_integrand.h). */
int cuda_cubature_prepare(cuda_state *st, pagani_integrand *f, int mapped);
/* Frees the region lists and rule tables. */
void cuda_cubature_free(cuda_state *st);
/* Device bytes the cubature buffers hold now (counted as free memory). */
size_t cuda_cubature_bytes_held(const cuda_state *st);

#ifdef __cplusplus
}
#endif

#endif /* PAGANI_GPU_CUDA_INTERNAL_H */
