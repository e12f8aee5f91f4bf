/*
 * cpu_cubature.h - private to the OpenMP backend's cubature operations
 * (cpu_cubature.c: lists and bulk passes; cpu_cubature_eval.c: the rule
 * and the probes on one region): the region lists and their tiles.
 *
 * The list holds the regions of K integrals, integral by integral. Sums
 * are formed tile by tile, a tile being up to CPU_TILE regions of one
 * integral starting at its first region or a multiple of CPU_TILE past
 * it, and a tile's results are merged in tile order: so every sum over an
 * integral's regions depends on those regions alone, not on the thread
 * count nor on the other integrals of the list.
 */
#ifndef PAGANI_CPU_CUBATURE_H
#define PAGANI_CPU_CUBATURE_H

#include "cpu/cpu_backend.h"

#define CPU_TILE 1024

struct cpu_cubature {
    int n;
    long long capacity;
    size_t allocated_regions;    /* what the buffers hold: regions, and */
    size_t allocated_coords;     /* doubles in each lower/width buffer */
    const pagani_rule *rule;
    const pagani_integrand *f;
    int integrals;               /* K */
    const char *params;          /* K blocks, params_stride bytes apart */
    size_t params_stride;
    double *lower[2], *width[2]; /* SoA [d*capacity + i], current: cur */
    int *owner[2];               /* the integral of region i */
    int cur;
    double *value, *error;       /* V, E per region */
    double *parent_value;        /* V of the parent of pair j */
    int *axis;                   /* split axis K */
    int *bad_point;              /* first rule point with NaN/Inf, or -1 */
    unsigned char *active;       /* A */
    /* Per integral (K): its regions and its first tile (K + 1 entries). */
    long long *counts;
    long long *first_region;
    long long *first_tile;
    /* Per tile: its first region; tile t ends where tile t + 1 starts,
     * except the last tile of an integral, which ends at its last region. */
    long long tiles;
    long long *tile_start;
    int *tile_owner;             /* its integral */
    long long *tile_kept;        /* filter_split's scan scratch */
    cubature_sums *tile_sums;    /* classify's per-tile sums */
    threshold_stats *tile_stats; /* threshold_stats' per-tile sums */
};

/* Region i's integral's parameter block (NULL when there are none). */
static inline const void *cpu_region_params(const cpu_cubature *c, long long i)
{
    return c->params ? c->params + (size_t)c->owner[c->cur][i] * c->params_stride
                     : NULL;
}

/* The end of tile t (one past its last region). */
static inline long long cpu_tile_end(const cpu_cubature *c, long long t, int k)
{
    long long end = c->first_region[k] + c->counts[k];
    long long next = t + 1 < c->tiles ? c->tile_start[t + 1] : end;
    return next < end ? next : end;
}

/* Doubles of cpu_evaluate_region's scratch, for any cubature dimension. */
#define CPU_EVAL_SCRATCH (7 * PAGANI_MAX_CUBATURE_DIM + 1)

/* Applies the rule to region i: V, raw E, split axis, first bad point;
 * then the probes when E <= probe_below or E <= probe_relative * |V|.
 * scratch: 7n + 1 doubles. */
void cpu_evaluate_region(cpu_cubature *c, long long i, double probe_below,
                         double probe_relative, double *scratch);

/* Gathers region i's corner and widths from the SoA lists. */
void cpu_region_box(const cpu_cubature *c, long long i, double *lo, double *w);

#endif /* PAGANI_CPU_CUBATURE_H */
