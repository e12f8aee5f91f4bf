/*
 * qmc_args.h - the argument block of the QMC kernels (gpu/qmc/qmc_kernel.cuh),
 * passed by value: the host side (gpu/qmc/cuda_qmc.c) fills it, the kernel
 * reads it from the constant parameter bank. Included from C and pasted
 * into the NVRTC source, so plain C with no headers. 2.1 KB, below the
 * 4 KB that every kernel parameter list may take. The boxes and parameter
 * blocks of a batch's integrals are in device memory (kernel arguments).
 */
#ifndef PAGANI_GPU_QMC_ARGS_H
#define PAGANI_GPU_QMC_ARGS_H

#define PAGANI_QMC_ARGS_DIM 64     /* = PAGANI_MAX_DIM */
#define PAGANI_QMC_THREADS 128     /* threads of a block */
#define PAGANI_QMC_GROUP_MAX 32    /* most integrals of a block */

/* Points of one tile of the sums kernel, in dimension n, for an integrand
 * of ncomp components: one per thread; a scalar integrand's (ncomp 1)
 * fewer where their unit coordinates would not fit in 24 KB of shared
 * memory (a vector integrand's kernel keeps them in registers). */
#define PAGANI_QMC_TILE_POINTS(n, ncomp) \
    ((ncomp) > 1 || (n) < 24 ? PAGANI_QMC_THREADS : 3072 / ((n) + 1))

typedef struct pagani_qmc_args {
    unsigned long long seed;       /* fixes the shifts */
    unsigned long long first;      /* the first index k, >= 1 */
    unsigned long long count;      /* indices per shift */
    unsigned long long leap;       /* k = first + j * leap */
    unsigned long long per_block;  /* consecutive j of one block (sums:
                                      whole tiles) */
    unsigned long long params_stride; /* bytes between integrals' blocks
                                         (0: one block for all) */
    int first_shift;               /* shift of blockIdx.y == 0 */
    int transform;                 /* PAGANI_QMC_TRANSFORM_* */
    int live;                      /* integrals summed: ids[0..live-1] */
    int group;                     /* integrals per block: a power of 2,
                                      <= PAGANI_QMC_GROUP_MAX (1 for a
                                      vector integrand) */
    int integral;                  /* the points kernel's integral */
    unsigned long long theta[PAGANI_QMC_ARGS_DIM][2]; /* frac(theta_i) */
    /* the sums kernel's step from a tile to the next: tile * leap * theta_i */
    unsigned long long tile_step[PAGANI_QMC_ARGS_DIM][2];
} pagani_qmc_args;

#endif /* PAGANI_GPU_QMC_ARGS_H */
