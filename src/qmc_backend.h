/*
 * qmc_backend.h - the bulk operation of PAGANI_QMC (DESIGN.md section 4): for
 * a set of random shifts and the integrals of a batch, the exact sums of
 * f(x) * Jacobian over a block or a leap of Zinterhof sequence indices.
 * Implemented by the CPU (src/cpu/cpu_qmc.c, OpenMP) and CUDA
 * (gpu/qmc/cuda_qmc.c) backends; the driver is src/qmc/qmc_driver.c, the
 * points are those of src/sampling/qmc_point.h.
 */
#ifndef PAGANI_QMC_BACKEND_H
#define PAGANI_QMC_BACKEND_H

#include "internal.h"
#include "sampling/exact_sum.h"

/* Everything that fixes the points and the summands of one run: the
 * integrals of a batch (pagani_integrate_batch; 1 for pagani_integrate)
 * share the points of the unit cube, and integral k maps them to its own
 * box and evaluates f with its own parameter block. The arrays belong to
 * the caller and must outlive the run. */
typedef struct qmc_job {
    struct pagani_integrand *integrand;
    int n;
    int shifts;                  /* R, the random shifts 0..R-1 */
    int transform;               /* PAGANI_QMC_TRANSFORM_* (qmc_point.h) */
    unsigned long long seed;     /* fixes the shifts */
    int integrals;               /* K >= 1 */
    const double *lower;         /* integral k's box: lower + k * box_stride */
    const double *upper;         /* and upper + k * box_stride, n each */
    size_t box_stride;           /* 0: one box for all */
    const void *params;          /* integral k's block: params + k *
                                    params_stride bytes (zero-padded to
                                    whole doubles); NULL when f has none */
    size_t params_stride;        /* 0: one block for all */
    int ncomp;                   /* components of f, 1..64: each has its
                                    own sums over the same points */
} qmc_job;

/* Lower corner and parameter block of integral k. The width of axis i is
 * upper[i] - lower[i], computed where it is needed (the same bits). */
static inline const double *qmc_job_lower(const qmc_job *job, int k)
{
    return job->lower + (size_t)k * job->box_stride;
}

static inline const double *qmc_job_upper(const qmc_job *job, int k)
{
    return job->upper + (size_t)k * job->box_stride;
}

static inline const void *qmc_job_params(const qmc_job *job, int k)
{
    if (!job->params) return NULL;
    return (const char *)job->params + (size_t)k * job->params_stride;
}

/* Where the integrand first returned NaN or infinity (or a value whose
 * product with the Jacobian overflowed) in one integral: the smallest
 * index k, and at that k the smallest shift. k = 0 when there was none. */
typedef struct qmc_fault {
    unsigned long long k;
    int shift;
    int integral;                /* the integral (index in the batch) */
    int component;               /* the first such component there */
    double value;                /* what the integrand returned */
} qmc_fault;

typedef struct qmc_ops {
    /* Makes the operation's state for a job (the job, the boxes and the
     * parameter blocks as the backend needs them; on CUDA also the
     * compiled kernel, cached in the integrand). backend_state is the
     * backend's own state (backend_ops.open). */
    int (*setup)(void *backend_state, const qmc_job *job, void **qmc_state);
    /* For the `live` integrals ids[0..live-1] (ascending) and each shift r
     * in [first_shift, first_shift + shifts):
     *   out[(m * ncomp + c) * shifts + r - first_shift] = exact sum over
     *   j < count of f_c(x) * w (component c of f) at the point of index
     *   k = first + j * leap (first >= 1, leap >= 1) in integral ids[m]'s
     *   box, with its parameter block,
     * overwriting out. Every integral is summed over the same points of the
     * unit cube, in one pass (one launch) for all. Independent of threads,
     * launch shape and of the other integrals, bit for bit. When some
     * value (of any component) of integral ids[m] is not finite, faults[m] says where
     * (faults[m].k = 0 for the others), that integral's sums leave the
     * value out, and the call returns PAGANI_ERR_NONFINITE with no message
     * (the driver words it, with the point). When peaks is not NULL,
     *   peaks[m * shifts + r - first_shift] = the largest |f_c(x) * w| over
     *   those points and every component (0 when all are 0; finite values
     *   only),
     * exact whatever the schedule: the driver's heavy-tail guard
     * (qmc_tail.h) watches how it grows with N. */
    int (*sums)(void *qmc_state, const int *ids, int live, int first_shift,
                int shifts, unsigned long long first, unsigned long long count,
                unsigned long long leap, pagani_xsum *out, qmc_fault *faults,
                double *peaks);
    /* The coordinates of the points of one shift in integral 0's box,
     * x[j * n + i] (host memory), for tests and reports. */
    int (*points)(void *qmc_state, int shift, unsigned long long first,
                  unsigned long long count, unsigned long long leap,
                  double *x);
    void (*release)(void *qmc_state);
} qmc_ops;

extern const qmc_ops pagani_cpu_qmc_ops;
/* In gpu/qmc/cuda_qmc.c when built with CUDA. */
extern const qmc_ops pagani_cuda_qmc_ops;

#endif /* PAGANI_QMC_BACKEND_H */
