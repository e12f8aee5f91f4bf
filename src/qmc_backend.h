/*
 * qmc_backend.h - the bulk operation of PAGANI_QMC (DESIGN.md section 4): for
 * a set of random shifts, the exact sums of f(x) * Jacobian over a block or a
 * leap of Zinterhof sequence indices. Implemented by the CPU
 * (src/cpu/cpu_qmc.c, OpenMP) and CUDA (gpu/qmc/cuda_qmc.c) backends; the
 * driver is src/qmc/qmc_driver.c, the points are those of
 * src/sampling/qmc_point.h.
 */
#ifndef PAGANI_QMC_BACKEND_H
#define PAGANI_QMC_BACKEND_H

#include "internal.h"
#include "sampling/exact_sum.h"

/* Everything that fixes the points and the summand of one run. */
typedef struct qmc_job {
    struct pagani_integrand *integrand;
    int n;
    int shifts;                  /* R, the random shifts 0..R-1 */
    int transform;               /* PAGANI_QMC_TRANSFORM_* (qmc_point.h) */
    unsigned long long seed;     /* fixes the shifts */
    double lower[PAGANI_MAX_DIM];
    double width[PAGANI_MAX_DIM];
} qmc_job;

/* Where the integrand first returned NaN or infinity (or a value whose
 * product with the Jacobian overflowed): the smallest index k, and at that
 * k the smallest shift. k = 0 when there was none. */
typedef struct qmc_fault {
    unsigned long long k;
    int shift;
    double value;                /* what the integrand returned */
} qmc_fault;

typedef struct qmc_ops {
    /* Makes the operation's state for a job (small: the job, the theta
     * table; on CUDA also the compiled kernel, cached in the integrand).
     * backend_state is the backend's own state (backend_ops.open). */
    int (*setup)(void *backend_state, const qmc_job *job, void **qmc_state);
    /* For each shift r in [first_shift, first_shift + shifts):
     *   out[r - first_shift] = exact sum over j < count of f(x) * w at the
     *   point of index k = first + j * leap (first >= 1, leap >= 1),
     * overwriting out. Independent of threads and launch shape, bit for
     * bit. When some value is not finite returns PAGANI_ERR_NONFINITE with
     * *fault filled and no message (the driver words it, with the point). */
    int (*sums)(void *qmc_state, int first_shift, int shifts,
                unsigned long long first, unsigned long long count,
                unsigned long long leap, pagani_xsum *out, qmc_fault *fault);
    /* The coordinates of the points of one shift, x[j * n + i] (host
     * memory), for tests and reports. */
    int (*points)(void *qmc_state, int shift, unsigned long long first,
                  unsigned long long count, unsigned long long leap,
                  double *x);
    void (*release)(void *qmc_state);
} qmc_ops;

extern const qmc_ops pagani_cpu_qmc_ops;
/* In gpu/qmc/cuda_qmc.c when built with CUDA. */
extern const qmc_ops pagani_cuda_qmc_ops;

#endif /* PAGANI_QMC_BACKEND_H */
