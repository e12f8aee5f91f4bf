/*
 * vegas_args.h - the argument block of the Vegas sampling kernels
 * (gpu/vegas/vegas_kernel.cuh), passed by value, and the per-block partial sums
 * they exchange. The host side (gpu/vegas/cuda_vegas.c) fills the block; the
 * layout is the same in C and in NVRTC's C++ (no headers there).
 */
#ifndef PAGANI_GPU_VEGAS_ARGS_H
#define PAGANI_GPU_VEGAS_ARGS_H

#define PAGANI_VEGAS_ARGS_DIM 64   /* = PAGANI_MAX_DIM */

/* Work mappings of a pass. */
#define PAGANI_VEGAS_MAP_UNITS 0   /* thread t: units t*per_thread .. */
#define PAGANI_VEGAS_MAP_OFFSETS 1 /* thread t: the cubes whose first sample
                                      lies in [t*per_thread, (t+1)*per_thread) */

typedef struct pagani_vegas_args {
    unsigned long long seed;
    long long g;                 /* intervals per axis */
    long long cubes;
    long long pieces;            /* per cube (1 with counts) */
    long long samples;           /* per piece, when counts is NULL */
    long long first;             /* MAP_UNITS: first unit (piece index) */
    long long stride;            /* MAP_UNITS: unit u is piece first + u * stride */
    long long units;             /* MAP_UNITS: how many units */
    long long per_thread;        /* units, or samples (MAP_OFFSETS), per thread */
    long long total;             /* MAP_OFFSETS: samples in all */
    long long key_stride;        /* fault key = cube * key_stride + sample */
    double nb_per_g;
    double inv_count, var_weight, inv_pieces;  /* pagani_vegas_weights */
    double bin_scale;
    double beta;
    unsigned iteration;
    int mapping;
    int nb;
    int row_stride;              /* nb + 1, or 0 (one row for all axes) */
    int grid_cells;              /* rows * (nb + 1) */
    int bin_cells;               /* rows * nb */
    int grid_shared;             /* the grid is copied to shared memory */
    int bins_shared;             /* bins are counted in shared memory first */
    int stratify;                /* write sigma_c^beta per cube */
    int pad;
    double lower[PAGANI_VEGAS_ARGS_DIM];
    double width[PAGANI_VEGAS_ARGS_DIM];
} pagani_vegas_args;

/* What a block (and, merged, the grid) returns. */
typedef struct pagani_vegas_partial {
    double value, variance, vmax, beta_sum, fault_value;
    long long evaluations, nonzero;
    unsigned long long fault_key;  /* ~0: none */
    long long overflow;
} pagani_vegas_partial;

#endif /* PAGANI_GPU_VEGAS_ARGS_H */
