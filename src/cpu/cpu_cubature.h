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

#include <math.h>
#include "cpu/cpu_backend.h"
#include "rules/probe.h"        /* pagani_axial_fit */
#include "rules/null_error.h"   /* pagani_two_level_error */

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
    int probes;                  /* the job's: axial probes on every region */
    pagani_axial_fit axial_fit;  /* the rule's axial test (rules/probe.h) */
    double *lower[2], *width[2]; /* SoA [d*capacity + i], current: cur */
    int *owner[2];               /* the integral of region i */
    int cur;
    double *value, *error;       /* V, E per region */
    double *parent_value;        /* V of the parent of pair j */
    int *axis;                   /* split axis K */
    int *bad_point;              /* first rule point with NaN/Inf, or -1 */
    unsigned char *active;       /* A */
    unsigned char *error_sign;   /* rules/error_sign.h */
    int has_parents;             /* the list holds split regions'
                                    children (parent_value is theirs) */
    double *check_diff;          /* a checked region's V - M and its */
    double *check_var;           /* variance (rules/random_check.h) */
    /* Worst-first refinement (cpu_cubature_hold.c). */
    unsigned char *held;         /* region i waits unsplit: its results
                                    are those of an earlier list */
    unsigned char *probed;       /* its evaluation ran the vertex probes
                                    (or would have: E within their bound) */
    int *graded_calls;           /* f's calls of its graded evaluation
                                    (rules/graded.h), beyond its points */
    int job_probes;              /* the job's probes flag */
    struct cpu_held *stash;      /* hold_split's held regions in flight,
                                    grown on demand */
    size_t stash_size;
    /* Vector integrands (cpu_cubature_vector.c; ncomp 1: all unused). */
    int ncomp;                   /* components of f */
    int norm, group_size, groups;/* rules/component_norm.h */
    size_t allocated_components; /* doubles in each component array */
    double *comp_value;          /* V_c of region i at [c*capacity + i] */
    double *comp_error;          /* E_c, likewise */
    double *comp_parent;         /* V_c of pair j's parent at
                                    [c*(capacity/2 + 1) + j] */
    double *weights;             /* per integral: its groups' weights */
    int *reference;              /* per integral: its reference group */
    double *tile_components;     /* per tile: 2 ncomp sums */
    /* Per integral (K): its regions and its first tile (K + 1 entries). */
    long long *counts;
    long long *first_region;
    long long *first_tile;
    /* Per tile: its first region; tile t ends where tile t + 1 starts,
     * except the last tile of an integral, which ends at its last region. */
    long long tiles;
    long long *tile_start;
    int *tile_owner;             /* its integral */
    long long *tile_kept;        /* filter_split's and kept_errors' scan scratch */
    long long *tile_held;        /* hold_split's, of the held regions: */
    long long *tile_stash;       /* their places, and in the stash */
    long long *held_odd;         /* per integral: the held region that
                                    splits to keep the held count even */
    cubature_sums *tile_sums;    /* classify's per-tile sums */
    threshold_stats *tile_stats; /* threshold_stats' per-tile sums */
    /* A block integrand's job: each thread's values (cpu_cubature_block.c),
     * made once per job, not per pass. */
    struct cpu_values **block_values;
    int block_threads;
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

/* Replaces counts[first .. last) by their exclusive scan starting at
 * `start` (each entry becomes where its tile's items begin); returns the
 * place after the last. */
static inline long long cpu_tile_scan(long long *counts, long long first, long long last,
                                      long long start)
{
    for (long long t = first; t < last; t++) {
        long long n = counts[t];
        counts[t] = start;
        start += n;
    }
    return start;
}

/* Berntsen's two-level error for a sibling pair: values v[0], v[1] whose
 * parent had `parent`, errors e[0], e[1] refined in place; with `sign`
 * (else NULL), their sign bytes take the pair's change as their parent's
 * estimate when both are known (rules/error_sign.h). */
static inline void cpu_two_level(const double *v, double *e, double parent,
                                 unsigned char *sign)
{
    const double change = v[0] + v[1] - parent, left = e[0];
    if (sign) pagani_error_sign_pair(&sign[0], &sign[1], change);
    e[0] = pagani_two_level_error(left, e[1], change);
    e[1] = pagani_two_level_error(e[1], left, change);
}

/* The number (pagani_rule_point's) of a region's axial probe j, j < 2n:
 * after the rule's points and the 2^n vertex probes. */
static inline long long cpu_axial_point(const pagani_rule *r, int j)
{
    return r->npoints + (1LL << r->n) + j;
}

/* A block integrand's values at the points of a run of regions
 * (cpu_cubature_block.c); NULL where f is called one point at a time. */
typedef struct cpu_values cpu_values;

/* Point p of region i (at x) from values: its ncomp values into fx and 1
 * when they are there; else 0, x queued for the next block and region i
 * marked to run again once the block is evaluated (its results of this
 * run are not kept). */
int cpu_values_take(cpu_values *values, long long i, long long p,
                    const double *x, double *fx);

/* Whether region i asked values for a point that was not there. */
int cpu_values_missed(const cpu_values *values, long long i);

/* Doubles of cpu_evaluate_region's scratch, for any cubature dimension
 * and component count: 5n + ncomp (4n + 16). */
#define CPU_EVAL_SCRATCH                                                      \
    (5 * PAGANI_MAX_CUBATURE_DIM +                                            \
     PAGANI_MAX_COMPONENTS * (4 * PAGANI_MAX_CUBATURE_DIM + 16))

/* Applies the rule to region i: V, raw E (every component's), split axis,
 * first bad point, sign byte; the axial probes when the job has probes;
 * then the vertex probes when E <= probe_below or E <= probe_relative *
 * |V| (and its probed byte says whether); for a scalar integrand called
 * point by point where a probe raised E or f is steep at a face, the
 * rule and probes again on f graded toward the vertex where it may be
 * singular (rules/graded.h), whose result is taken when its error is
 * the smaller, their calls in its graded_calls. A held region is left
 * as it is. scratch: CPU_EVAL_SCRATCH doubles. f's values come from `values`
 * for a block integrand (then a run that missed some is run again), else
 * from calls (values NULL). */
void cpu_evaluate_region(cpu_cubature *c, long long i, double probe_below,
                         double probe_relative, double *scratch,
                         cpu_values *values);

/* The randomized check (rules/random_check.h) of region i of a scalar
 * integrand (not a held one), once every region is evaluated, when its error's sign is
 * unknown and its two-level error (with its sibling, when the list has
 * parents) exceeds check_above: V - M and its variance into check_diff
 * and check_var, and the sign byte PAGANI_SIGN_CHECKED; a NaN or infinity
 * there counts as 0 and is reported as the rule's points are. scratch:
 * 4n doubles (CPU_EVAL_SCRATCH is more). values: as cpu_evaluate_region's
 * (a region that missed some changes nothing). */
void cpu_check_region(cpu_cubature *c, long long i, double check_above,
                      double *scratch, cpu_values *values);

/* cpu_evaluate's passes for a block integrand (cpu_cubature_block.c):
 * the same results, f evaluated in blocks of a run of regions each;
 * `checks` says whether the randomized check runs. Returns PAGANI_OK,
 * PAGANI_STOP_REQUESTED, PAGANI_ERR_ABORTED or PAGANI_ERR_NO_MEMORY. */
int cpu_evaluate_blocks(cpu_state *s, const double *probe_below,
                        const double *probe_relative,
                        const double *check_above, int checks);
/* The job's values for `threads` threads, made by cpu_setup when f is a
 * block integrand (else none; PAGANI_ERR_NO_MEMORY), and their free. */
int cpu_block_values_make(cpu_cubature *c, int threads);
void cpu_block_values_free(cpu_cubature *c);

/* Stores region i's components' values and errors (ncomp of each): V and
 * E themselves for a scalar integrand, else V_c, E_c and the pair (V, E)
 * of rules/component_norm.h. (cpu_cubature_vector.c) */
void cpu_store_region(cpu_cubature *c, long long i, const double *value,
                      const double *error);

/* Sizes the component arrays for a job (none for ncomp 1). */
int cpu_vector_setup(cpu_state *s, const cubature_job *job);

/* Frees the component arrays. */
void cpu_vector_free(cpu_cubature *c);

/* Bytes of the component arrays per region. */
size_t cpu_vector_bytes_per_region(int ncomp);

/* cubature_ops.set_weights. */
int cpu_vector_set_weights(void *state, const double *weights,
                           const int *reference);

/* The two-level error of every component of the regions [start, end) of
 * integral k (start even), then their pairs (V, E) anew. */
void cpu_vector_two_level(cpu_cubature *c, long long start, long long end,
                          int k);

/* Tile t's sums of V_c and E_c (2 ncomp of them, into
 * c->tile_components) over its regions, or (threshold not NULL) over
 * those a split at *threshold drops. */
void cpu_vector_tile_sums(cpu_cubature *c, long long t, const double *threshold);

/* Integral k's tile sums merged in tile order into out (2 ncomp). */
void cpu_vector_merge(const cpu_cubature *c, int k, double *out);

/* Remembers region i's V_c as the parent of pair j. */
void cpu_vector_parent(cpu_cubature *c, long long i, long long j);

/* The regions in the list. */
long long cpu_total_regions(const cpu_cubature *c);

/* Lays out the integrals' stretches and tiles from c->counts. */
void cpu_make_tiles(cpu_cubature *c);

/* Writes the two halves of region i (split along its axis) to slots
 * 2j and 2j+1 of the other buffer, pair j's parent value its V. */
void cpu_split_region(cpu_cubature *c, long long i, long long j);

/* cubature_ops.hold_split (cpu_cubature_hold.c) and the free of its
 * stash. */
int cpu_hold_split(void *state, const double *thresholds,
                   const double *split_above, const double *hold_largest,
                   long long *new_counts, long long *held_checked);
void cpu_hold_free(cpu_cubature *c);

/* cubature_ops.kept_errors (cpu_cubature_hold.c). */
int cpu_kept_errors(void *state, int k, double above, double *errors,
                    long long *count);

/* cubature_ops.export_regions and import_regions
 * (cpu_cubature_state.c). */
int cpu_export_regions(void *state, long long first, long long count,
                       double *lower, double *width, double *parents);
int cpu_import_regions(void *state, const long long *counts, long long first,
                       long long count, const double *lower,
                       const double *width, const double *parents);

/* Gathers region i's corner and widths from the SoA lists. */
void cpu_region_box(const cpu_cubature *c, long long i, double *lo, double *w);

#endif /* PAGANI_CPU_CUBATURE_H */
