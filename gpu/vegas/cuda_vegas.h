/*
 * cuda_vegas.h - the CUDA backend's Vegas operations (gpu/vegas/cuda_vegas.c,
 * the ops table pagani_cuda_vegas_ops is declared in src/vegas_backend.h),
 * what the backend calls to build and free an integrand's Vegas kernels
 * (device_module[mapped][PAGANI_VEGAS]), and the Vegas+ scan
 * (gpu/vegas/vegas_scan.cu).
 */
#ifndef PAGANI_GPU_CUDA_VEGAS_H
#define PAGANI_GPU_CUDA_VEGAS_H

#include "gpu/cuda_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* NVRTC-compiles f's Vegas kernels into
 * f->device_module[mapped][PAGANI_VEGAS] (once; the first pass that needs
 * them calls it; mapped: the entry that reads the domain map's header,
 * cuda_integrand.h). Expensive on a cache miss. */
int cuda_vegas_prepare(cuda_state *st, pagani_integrand *f, int mapped);

/* Temporary bytes the scan of cubes + 1 counts needs. */
cudaError_t cuda_vegas_scan_bytes(long long cubes, size_t *bytes);
/* The exclusive scan of counts[0..cubes] into offsets[0..cubes]
 * (counts[cubes] must be 0, so offsets[cubes] is the total): the sample
 * offsets of counts set from a checkpoint. Asynchronous on stream. */
cudaError_t cuda_vegas_scan(cudaStream_t stream, const long long *counts,
                            long long cubes, long long *offsets, void *temp,
                            size_t temp_bytes);
/* Vegas+ counts from sigma (vegas_backend.h, stratify) and their exclusive
 * scan into offsets[0..cubes]; counts[cubes] must be 0, so offsets[cubes]
 * is the total. Asynchronous on stream. */
cudaError_t cuda_vegas_stratify(cudaStream_t stream, const double *sigma,
                                long long cubes, double beta_sum, long long target,
                                long long samples, long long cap, long long *counts,
                                long long *offsets, void *temp, size_t temp_bytes);

#ifdef __cplusplus
}
#endif

#endif /* PAGANI_GPU_CUDA_VEGAS_H */
