/*
 * vegas_args.h - the argument block of the Vegas sampling kernels
 * (gpu/vegas/vegas_kernel.cuh), passed by value, the table of the
 * integrals a pass samples (its members) and the per-block partial sums
 * they exchange. The host side (gpu/vegas/cuda_vegas.c) fills them; the
 * layout is the same in C and in NVRTC's C++ (no headers there).
 */
#ifndef PAGANI_GPU_VEGAS_ARGS_H
#define PAGANI_GPU_VEGAS_ARGS_H

/* Work mappings of a pass. */
#define PAGANI_VEGAS_MAP_UNITS 0   /* thread t: units t*per_thread .. */
#define PAGANI_VEGAS_MAP_OFFSETS 1 /* thread t: the cubes whose first sample
                                      lies in [t*per_thread, (t+1)*per_thread) */

typedef struct pagani_vegas_args {
    unsigned keys[20];           /* the seed's Philox round keys (pagani_vegas_keys) */
    long long g;                 /* intervals per axis */
    long long cubes;
    long long pieces;            /* per cube (1 with counts) */
    long long samples;           /* per piece, when counts is NULL */
    long long first;             /* MAP_UNITS: first unit (piece index) */
    long long stride;            /* MAP_UNITS: unit u is piece first + u * stride */
    long long units;             /* MAP_UNITS: how many units */
    long long per_thread;        /* units, or samples (MAP_OFFSETS), per thread */
    long long key_stride;        /* fault key = cube * key_stride + sample */
    double nb_per_g;
    double inv_count, var_weight, inv_pieces;  /* pagani_vegas_weights */
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
    int members;                 /* integrals in this pass */
    unsigned long long params_stride; /* bytes between parameter blocks */
    /* device arrays of all K integrals, integral by integral */
    const void *params;          /* parameter blocks (stride 0: one) */
    const double *lower, *width; /* boxes, n each */
    const double *grids;         /* grid_cells each */
    long long *counts, *offsets; /* Vegas+: cubes + 1 each */
    double *sigma;               /* Vegas+: cubes each */
    unsigned long long *bins;    /* 2 * bin_cells each: low, high words */
    unsigned *done;              /* a block counter each */
    /* vector integrands (ncomp components): each block's sums of every
     * component's mean and variance, 2 ncomp doubles a block, and each
     * member's, 2 ncomp doubles a member (NULL for a scalar integrand) */
    double *component_partials;
    double *component_out;
} pagani_vegas_args;

/* One integral of a pass: its blocks are block_start .. the next
 * member's block_start - 1 of the launch (the last member's end is the
 * entry after it); its partial sums come back in the pass's out[i]. */
typedef struct pagani_vegas_member {
    long long block_start;
    long long total;             /* MAP_OFFSETS: its samples in all */
    double bin_scale;
    int integral;                /* k, its index in the job */
    int pad;
} pagani_vegas_member;

/* What a block (and, merged, the grid) returns. */
typedef struct pagani_vegas_partial {
    double value, variance, vmax, term_max, beta_sum, fault_value;
    long long evaluations, nonzero;
    unsigned long long fault_key;  /* ~0: none */
    long long overflow;
    int fault_component;           /* of a vector integrand's fault */
    int pad;
} pagani_vegas_partial;

#endif /* PAGANI_GPU_VEGAS_ARGS_H */
