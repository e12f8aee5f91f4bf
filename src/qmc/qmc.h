/*
 * qmc.h - PAGANI_QMC's shared pieces (private to the library): the job of
 * a run from the public arguments, the estimate over random shifts, the
 * fault report, and work splitting for distributed runs.
 *
 * Work splitting (Hofbauer, Uhl, Zinterhof, "Zinterhof sequences in
 * GRID-based numerical integration"): point k of every shift is computable
 * on its own, so the indices 1..N can be cut into blocks [a, b) or leaps
 * (s, s+L, s+2L, ...) summed anywhere. Sums are exact (exact_sum.h): the
 * pieces merge to the bits of the sequential sum whatever the cut. A run
 * that lost pieces estimates from what it has, each shift's mean weighted
 * by the points present (the paper's I'_N = sum_i (c_i / N) I'^i, which is
 * the sum over the present points over their number), and says it is
 * partial.
 *
 * pagani.h publishes the split as "QMC in parts" (qmc_parts.c), with
 * pagani_xsum's layout (its bins and load as 64-bit words) as the format
 * of a part's sums; the MPI layer (src/mpi/mpi_qmc.c) cuts every block
 * over the ranks the same way.
 */
#ifndef PAGANI_QMC_H
#define PAGANI_QMC_H

#include "methods.h"
#include "qmc_backend.h"

#define PAGANI_QMC_DEFAULT_SHIFTS 16
#define PAGANI_QMC_MAX_SHIFTS 4096
#define PAGANI_QMC_DEFAULT_POINTS (1LL << 14)
/* Blocks summed by default: N doubles 15 times, to 2^29 points per shift
 * from the default start (8.6e9 evaluations with 16 shifts, about a second
 * on an H100 for a cheap integrand), so that a run that cannot meet its
 * tolerance still ends. */
#define PAGANI_QMC_DEFAULT_ITERATIONS 16

typedef struct pagani_qmc_estimate {
    double value;                /* mean over shifts of the shift estimates */
    double error;                /* their standard error */
    unsigned long long points;   /* points per shift behind the estimate */
    int partial;                 /* 1: fewer points than the run planned */
} pagani_qmc_estimate;

/* Checks the QMC options (0 in qmc_shifts / qmc_initial_points means the
 * default; transform 0..2; shifts 2..PAGANI_QMC_MAX_SHIFTS) and fills *job
 * for the batch's integrals (the job points into the batch's arrays).
 * Arguments otherwise as validated by pagani_integrate_batch. */
int pagani_qmc_batch_job(pagani_context *ctx, pagani_integrand *f,
                         const pagani_batch *batch, const pagani_options *opt,
                         qmc_job *job);

/* The job of one integral over [lower, upper] with f's parameter block
 * (pagani_qmc_batch_job of a batch of one). */
int pagani_qmc_job(pagani_context *ctx, pagani_integrand *f,
                   const double *lower, const double *upper,
                   const pagani_options *opt, qmc_job *job);

/* The estimate of integral k from its exact per-shift sums (job->shifts of
 * them) over `points` points each. Sums beyond the range of a double are
 * scaled, so the value or error is infinite only when it leaves that range
 * itself. */
void pagani_qmc_estimate_sums(const qmc_job *job, int k,
                              const pagani_xsum *sums,
                              unsigned long long points,
                              pagani_qmc_estimate *est);

/* Whether every one of the `shifts` sums is exactly zero. */
int pagani_qmc_all_zero(const pagani_xsum *sums, int shifts);

/* Sets the context's message for a fault (the value, the point, its index
 * and shift, and in a batch of more than one the integral) and returns
 * PAGANI_ERR_NONFINITE. */
int pagani_qmc_fault(pagani_context *ctx, const qmc_job *job,
                     const qmc_fault *fault);

/* One piece of a split run, on ctx's backend: sums[r] (opt's shifts of
 * them) = exact sums of shift r over the indices first + j * leap, j <
 * count (a block [a, b) is first = a, count = b - a, leap = 1). first >= 1,
 * leap >= 1, and the last index must stay below 2^63. */
int pagani_qmc_sum_piece(pagani_context *ctx, pagani_integrand *f,
                         const double *lower, const double *upper,
                         const pagani_options *opt, unsigned long long first,
                         unsigned long long count, unsigned long long leap,
                         pagani_xsum *sums);

/* Combines the pieces of a one-integral job that arrived: sums[p *
 * job->shifts + r] and points[p] (points per shift of piece p), p <
 * pieces. The estimate weights by the points present and is partial when
 * they fall short of `planned`. */
int pagani_qmc_combine(const qmc_job *job, int pieces, const pagani_xsum *sums,
                       const unsigned long long *points,
                       unsigned long long planned, pagani_qmc_estimate *est);

#endif /* PAGANI_QMC_H */
