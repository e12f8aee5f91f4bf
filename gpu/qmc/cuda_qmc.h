/*
 * cuda_qmc.h - the CUDA backend's QMC operation (gpu/qmc/cuda_qmc.c): the ops
 * table, and what the backend calls to build and free an integrand's QMC
 * kernels (device_module[mapped][PAGANI_QMC]).
 */
#ifndef PAGANI_GPU_CUDA_QMC_H
#define PAGANI_GPU_CUDA_QMC_H

#include "gpu/cuda_internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* NVRTC-compiles f's QMC kernels into f->device_module[mapped][PAGANI_QMC]
 * (once; the qmc setup calls it on first use; mapped: the entry that
 * reads the domain map's header, cuda_integrand.h). Expensive on a cache
 * miss. */
int cuda_qmc_prepare(cuda_state *st, pagani_integrand *f, int mapped);

#ifdef __cplusplus
}
#endif

#endif /* PAGANI_GPU_CUDA_QMC_H */
