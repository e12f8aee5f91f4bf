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
#include "hostdevice.h"
#include "rules/error_sign.h"
#include "rules/rules.h"

struct pagani_context;
struct pagani_integrand;
struct vegas_ops;
struct qmc_ops;

/* What one cubature run needs set up: sizes are fixed for the whole run.
 * The list holds the regions of `integrals` integrals (a batch; 1 for
 * pagani_integrate) of one integrand, integral by integral: those of
 * integral k follow those of k - 1, and every operation keeps that order
 * (the children of a region stay in its integral's stretch). */
typedef struct cubature_job {
    const struct pagani_integrand *integrand;
    const pagani_rule *rule;
    int n;
    long long capacity;   /* most regions held at once (one buffer) */
    int integrals;        /* K >= 1 */
    const void *params;   /* K parameter blocks params_stride bytes apart
                             (zero-padded doubles; the driver owns them for
                             the run); NULL when f has none */
    size_t params_stride; /* a multiple of 8 */
    int ncomp;            /* components of f: 1 (scalar) .. 64 */
    int norm;             /* pagani_norm: how components form groups
                             (rules/component_norm.h); ncomp > 1 only */
    int probes;           /* 1: every region gets the axial probes
                             (rules/probe.h) and the regions evaluate's
                             bounds name get the vertex probes; 0:
                             PAGANI_FLAG_NO_PROBES, none */
} cubature_job;

/* Vector integrands (ncomp > 1). Every region holds each component's
 * estimate V_c and error E_c (the raw null-rule error, made two-level by
 * classify), and the scalar pair the driver decides with, formed from
 * them by rules/component_norm.h with the integral's group weights and
 * reference group (set_weights): V = the reference group's value, E = the
 * largest weighted group error. With ncomp = 1, V and E are the
 * component's own and none of this applies. Below, "V" and "E" are that
 * scalar pair. */

/* Sums over the regions of one integral in one iteration, returned by
 * classify. "Active" regions are those the relative-error test did not
 * finish. */
typedef struct cubature_sums {
    double value;          /* sum of V */
    double error;          /* sum of E (two-level) */
    double active_value;   /* sum of V over active regions */
    double active_error;   /* sum of E over active regions */
    long long active;      /* number of active regions */
    double min_error;      /* min of E over active regions (0 if none) */
    double max_error;      /* max of E over active regions (0 if none) */
    /* E over all its regions by what is known of the sign of each one's
     * error (rules/error_sign.h; a vector integrand's is never known) */
    pagani_error_parts parts;
    long long nonfinite_region; /* first region (index in the whole list)
                                   with a NaN/Inf value, or -1 */
    int nonfinite_point;        /* its first such rule point */
} cubature_sums;

/* How classify treats one integral's regions. */
typedef struct classify_request {
    int classify;          /* 0: leave its regions and its sums alone */
    int has_parents;       /* apply the two-level error first */
    int relerr_filter;     /* finish regions with E <= epsrel * |V| */
    double epsrel;
    double negligible;     /* finish regions with E <= negligible */
    double relerr_largest; /* relerr_filter finishes no region with |V|
                              above this (0: no limit) */
} classify_request;

/* Whether classify keeps a region of value v and error e active: the
 * rule of classify below, one copy for every backend. */
PAGANI_HD int pagani_classify_active(const classify_request *q, double v, double e)
{
    return e > q->negligible &&
           (!q->relerr_filter || e > q->epsrel * fabs(v) ||
            (q->relerr_largest > 0 && fabs(v) > q->relerr_largest));
}

/* Over one integral's active regions with E <= threshold: how many, and
 * their sums. */
typedef struct threshold_stats {
    long long count;
    double value;
    double error;
} threshold_stats;

/* Bulk operations of PAGANI (DESIGN.md section 5). Regions live in the
 * backend as SoA: lower[d*capacity + i], width[d*capacity + i]; after a
 * split the children of the j-th kept region sit at 2j and 2j+1. Arrays
 * named per integral have job->integrals entries. Every sum over an
 * integral's regions is formed in an order that depends on its own
 * regions only, never on the other integrals of the list. */
typedef struct cubature_ops {
    /* Allocates (once, or when a larger job comes) and binds the job. */
    int (*setup)(void *state, const cubature_job *job);
    /* Copies the first regions from host SoA arrays (stride: the total of
     * counts): counts[k] of them belong to integral k. */
    int (*load)(void *state, const double *lower, const double *width,
                const long long *counts);
    /* Vector integrands only: the group weights (weights[k * groups + g],
     * groups = ncomp / group size) and the reference group (reference[k])
     * of each integral, used by evaluate and classify until the next call.
     * Until the first call every weight is 1 and every reference 0. */
    int (*set_weights)(void *state, const double *weights,
                       const int *reference);
    /* Evaluates every region: V, raw E and split axis K (for a vector
     * integrand: every V_c and raw E_c, and K from the fourth differences
     * of the component with the largest weighted raw error); then probes
     * (rules/probe.h) the regions of integral k with E <= probe_below[k]
     * or E <= probe_relative[k] * |V|, those that could be finished this
     * iteration (probe_below[k] < 0 and probe_relative[k] 0: none). A
     * vector integrand's probes compare, component by component, the
     * largest |f_c| at the probes with that at the rule's points, raise
     * E_c of each component they caught to volume * max |f_c(probe)|, and
     * take the split axis from the weighted largest |f_c| at each probe.
     * Last, for a scalar integrand, the randomized check
     * (rules/random_check.h) of integral k's regions whose error's sign
     * is unknown and whose two-level E (with its sibling, once the list
     * holds split regions' children) exceeds check_above[k], marked
     * PAGANI_SIGN_CHECKED (every check_above[k] infinite: the pass may
     * be skipped). */
    int (*evaluate)(void *state, const double *probe_below,
                    const double *probe_relative, const double *check_above);
    /* For each integral k with requests[k].classify: the two-level error
     * (when has_parents), then classification: a region stays active iff
     * E > negligible and, when relerr_filter, also E > epsrel*|V| or
     * |V| > relerr_largest (when that is not 0); its
     * sums in sums[k]. Other integrals' flags and sums stay as they are.
     * Vector integrands: the two-level error is applied to every E_c, V
     * and E are formed anew, and components (else NULL) receives for each
     * classified integral k and component c: components[2 * (k * ncomp +
     * c)] = sum of V_c and [... + 1] = sum of E_c over its regions. */
    int (*classify)(void *state, const classify_request *requests,
                    cubature_sums *sums, double *components);
    /* Statistics of `queries` thresholds at once (a step of every
     * integral's threshold search): stats[q] of integral integrals[q]'s
     * active regions with E <= thresholds[q], for q < queries (at most
     * one query per integral; each the same numbers, to the bit, as a
     * query of its own). */
    int (*threshold_stats)(void *state, int queries, const int *integrals,
                           const double *thresholds, threshold_stats *stats);
    /* Keeps the active regions of integral k with E > thresholds[k]
     * (thresholds[k] < 0 keeps all its active ones, +infinity none), writes
     * their children into the other buffer along K, remembers each
     * parent's V (every V_c) for the next two-level error, and returns
     * the regions each integral now has in new_counts[k]. Vector
     * integrands: finished (else NULL) receives, laid out as classify's
     * components, the sums of V_c and E_c over the regions of integral k
     * that the split drops (those not active, or with E <= thresholds[k]);
     * for an integral with thresholds[k] = +infinity they are not
     * needed and may be left unset. */
    int (*filter_split)(void *state, const double *thresholds,
                        long long *new_counts, double *finished);
    /* Coordinates of rule point `point` of region `region` (an index in
     * the whole list, as in cubature_sums; for reports). */
    int (*region_point)(void *state, long long region, int point, double *x);
    /* Bytes of the memory budget one region of the list costs (both
     * buffers, all lists) for f of n coordinates and ncomp components
     * (the MPI layer: a rank's bytes over the ranks that share the
     * list). */
    size_t (*bytes_per_region)(void *state, int n, int ncomp);
    /* Worst-first refinement (pagani_strategy; NULL where a backend has
     * none: the driver then refines breadth-first, or refuses
     * PAGANI_STRATEGY_WORST_FIRST). filter_split for a scalar integrand,
     * except that a kept region of integral k (active, E > thresholds[k])
     * with E <= split_above[k] is held: it moves to the other buffer
     * unsplit, after the children of its integral, with its V, E, sign
     * byte and check, and the next evaluate and classify leave it as it
     * is (no rule, no probes, no check, no second two-level error). A
     * region that the evaluation did not vertex-probe (when the job has
     * probes) or whose |V| exceeds hold_largest[k] (when that is not 0)
     * is split whatever its E, and so is the last held region of an
     * integral that would hold an odd number (the pairs of children stay
     * aligned). new_counts[k]: 2 x split + held; held_checked[k]:
     * how many of its held regions carry a check (PAGANI_SIGN_CHECKED),
     * which the next classify counts in parts.checked again. */
    int (*hold_split)(void *state, const double *thresholds,
                      const double *split_above, const double *hold_largest,
                      long long *new_counts, long long *held_checked);
    /* Worst-first's choice of what it holds (NULL where hold_split is):
     * copies the E of integral k's active regions with E > above (the
     * kept ones, with above its threshold) into errors, in any order,
     * and their number into *count; errors has room for that many (the
     * count classify and threshold_stats give). */
    int (*kept_errors)(void *state, int integral, double above, double *errors,
                       long long *count);
    /* Checkpoints (src/cubature/cubature_checkpoint.c), between
     * iterations; NULL where the backend has none. export_regions copies
     * the regions [first, first + count) of the list to host arrays:
     * lower and width laid out as load takes them (SoA, stride count)
     * and, with parents (not NULL: the list holds split regions'
     * children; first and count even), the values the next two-level
     * error takes of the count / 2 pairs' parents: V, then for a vector
     * integrand every V_c (pagani_parent_rows rows of count / 2).
     * The caller goes over the list in chunks, so that a backend on a
     * device needs no host copy of the whole list. */
    int (*export_regions)(void *state, long long first, long long count,
                          double *lower, double *width, double *parents);
    /* The reverse, after load of the integrals' initial regions (a
     * device backend keeps their widths, and stores a width as that over
     * a power of 2): makes the list hold counts[k] regions of integral k
     * (the same counts in every call of one import) and sets the regions
     * [first, first + count) from arrays laid out as export_regions';
     * parents NULL: the list holds no children (the first iteration's
     * classify takes no two-level error). */
    int (*import_regions)(void *state, const long long *counts,
                          long long first, long long count,
                          const double *lower, const double *width,
                          const double *parents);
} cubature_ops;

/* Rows of export_regions' parents: V, and V_c of each of ncomp > 1. */
static inline int pagani_parent_rows(int ncomp)
{
    return ncomp > 1 ? 1 + ncomp : 1;
}

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
