/*
 * qmc_args.h - the argument block of the QMC kernels (gpu/qmc/qmc_kernel.cuh),
 * passed by value: the host side (gpu/qmc/cuda_qmc.c) fills it, the kernel
 * reads it from the constant parameter bank. Included from C and pasted
 * into the NVRTC source, so plain C with no headers. 3.1 KB, below the
 * 4 KB that every kernel parameter list may take.
 */
#ifndef PAGANI_GPU_QMC_ARGS_H
#define PAGANI_GPU_QMC_ARGS_H

#define PAGANI_QMC_ARGS_DIM 64     /* = PAGANI_MAX_DIM */

typedef struct pagani_qmc_args {
    unsigned long long seed;       /* fixes the shifts */
    unsigned long long first;      /* the first index k, >= 1 */
    unsigned long long count;      /* indices per shift */
    unsigned long long leap;       /* k = first + j * leap */
    unsigned long long per_thread; /* consecutive j of one thread */
    int first_shift;               /* shift of blockIdx.y == 0 */
    int transform;                 /* PAGANI_QMC_TRANSFORM_* */
    unsigned long long theta[PAGANI_QMC_ARGS_DIM][2]; /* frac(theta_i) */
    unsigned long long step[PAGANI_QMC_ARGS_DIM][2];  /* leap * theta_i */
    double lower[PAGANI_QMC_ARGS_DIM];
    double width[PAGANI_QMC_ARGS_DIM];
} pagani_qmc_args;

#endif /* PAGANI_GPU_QMC_ARGS_H */
