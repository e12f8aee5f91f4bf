/*
 * backend.h - the interface between the algorithm drivers (src/cubature,
 * src/vegas, src/qmc) and the backends that own the arrays (src/cpu:
 * OpenMP; gpu: CUDA).
 *
 * A driver is the algorithm of its paper in plain C; a backend supplies the
 * bulk operations over arrays it owns. Each operation returns a pagani_error
 * code and at most a few numbers to the host, once per call.
 */
#ifndef PAGANI_BACKEND_H
#define PAGANI_BACKEND_H

#include <stddef.h>
#include "pagani.h"
#include "rules/rules.h"

struct pagani_context;
struct pagani_integrand;
struct vegas_ops;
struct qmc_ops;

/* What one cubature run needs set up: sizes are fixed for the whole run. */
typedef struct cubature_job {
    const struct pagani_integrand *integrand;
    const pagani_rule *rule;
    int n;
    long long capacity;   /* most regions held at once (one buffer) */
} cubature_job;

/* Sums over the regions of one iteration, returned by classify. "Active"
 * regions are those the relative-error test did not finish. */
typedef struct cubature_sums {
    double value;          /* sum of V */
    double error;          /* sum of E (two-level) */
    double active_value;   /* sum of V over active regions */
    double active_error;   /* sum of E over active regions */
    long long active;      /* number of active regions */
    double min_error;      /* min of E over active regions (0 if none) */
    double max_error;      /* max of E over active regions (0 if none) */
    long long nonfinite_region; /* first region with a NaN/Inf value, or -1 */
    int nonfinite_point;        /* its first such rule point */
} cubature_sums;

/* Over the active regions with E <= threshold: how many, and their sums. */
typedef struct threshold_stats {
    long long count;
    double value;
    double error;
} threshold_stats;

/* Bulk operations of PAGANI (DESIGN.md section 5). Regions live in the
 * backend as SoA: lower[d*capacity + i], width[d*capacity + i]; after a
 * split the children of active region j sit at 2j and 2j+1. */
typedef struct cubature_ops {
    /* Allocates (once, or when a larger job comes) and binds the job. */
    int (*setup)(void *state, const cubature_job *job);
    /* Copies `count` regions from host SoA arrays (stride count). */
    int (*load)(void *state, const double *lower, const double *width,
                long long count);
    /* Evaluates every region: V, raw E and split axis K; then probes
     * (rules/probe.h) the regions with E <= probe_below or E <=
     * probe_relative * |V|, those that could be finished this iteration
     * (probe_below < 0 and probe_relative 0: none). */
    int (*evaluate)(void *state, long long count, double probe_below,
                    double probe_relative);
    /* Two-level error (when has_parents), then classification: a region
     * stays active iff E > negligible and, when relerr_filter, also
     * E > epsrel*|V|; with the sums. */
    int (*classify)(void *state, long long count, int has_parents,
                    int relerr_filter, double epsrel, double negligible,
                    cubature_sums *sums);
    /* Statistics of the active regions under one candidate threshold. */
    int (*threshold_stats)(void *state, long long count, double threshold,
                           threshold_stats *stats);
    /* Keeps the active regions with E > threshold (threshold < 0 keeps all
     * active), writes their children into the other buffer along K and
     * remembers each parent's V for the next two-level error. */
    int (*filter_split)(void *state, long long count, double threshold,
                        long long *new_count);
    /* Coordinates of rule point `point` of region `region` (for reports). */
    int (*region_point)(void *state, long long region, int point, double *x);
    /* Bytes of backend memory one region costs (both buffers, all lists). */
    size_t (*bytes_per_region)(int n);
} cubature_ops;

/* A backend: how to open it on a context, prepare integrands, and its ops. */
typedef struct backend_ops {
    pagani_backend kind;
    /* Opens the backend for ctx; *state is its private state. Returns
     * PAGANI_ERR_BACKEND_UNAVAILABLE (with a message) when it cannot run. */
    int (*open)(struct pagani_context *ctx, void **state);
    void (*close)(void *state);
    /* Free device memory in bytes, for the default budget (0: unknown). */
    size_t (*free_memory)(void *state);
    /* Makes the integrand runnable here (e.g. NVRTC); may be NULL. */
    int (*prepare_integrand)(void *state, struct pagani_integrand *f);
    /* Frees what prepare_integrand made; may be NULL. */
    void (*release_integrand)(void *state, struct pagani_integrand *f);
    const cubature_ops *cubature;
    const struct vegas_ops *vegas;   /* src/vegas_backend.h; may be NULL */
    const struct qmc_ops *qmc;       /* src/qmc_backend.h; may be NULL */
} backend_ops;

extern const backend_ops pagani_cpu_backend;
/* Defined in gpu/ when built with CUDA, NULL-free stub otherwise. */
const backend_ops *pagani_cuda_backend(void);

#endif /* PAGANI_BACKEND_H */
