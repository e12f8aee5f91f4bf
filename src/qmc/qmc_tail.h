/*
 * qmc_tail.h - PAGANI_QMC's heavy-tail guard (issue 33): whether the
 * spread over the shifts can be trusted as an error.
 *
 * The spread of R shift estimates is an error only where f J (f times the
 * periodising transform's Jacobian) has a finite variance. Where f J is
 * unbounded, as at an integrable singularity on a face or corner that the
 * transform leaves in place (x^-0.9 or prod x_i^-1/2 with the tent), the
 * shift estimates miss the region next to the singularity by different
 * amounts, which their spread can hide at one N and show at the next
 * (issue 33: prod x_i^-1/2 converged 2 sigma beyond its tolerance).
 *
 * What is watched: the largest |f J| of each shift over all its points so
 * far (the backends return each block's, qmc_backend.h). For a bounded
 * f J it settles at the bound as N doubles; where f J behaves as t^-a
 * next to a face or corner (volume V(t) ~ t of the domain within t of
 * it), the point nearest the singularity is at about 1/N and the largest
 * value grows as N^a. The guard measures a as the mean over the shifts
 * of log2 of that growth over the last QMC_TAIL_WINDOW doublings (fewer
 * in the first blocks; none after the first block). f J is taken for
 * unbounded when a >= QMC_TAIL_GROWTH (its variance is infinite from
 * a = 1/2 on).
 *
 * What is done then: the error is raised to the tail error
 * QMC_TAIL_SCALE * volume * M / (R N), M the largest |f J| of all R N
 * points. The largest point stands for the region beyond it that the
 * points have not resolved: where f J ~ t^-a, the mass there and the
 * fluctuation of the points that fall near it are a few times volume *
 * M / (R N) (1 / (1 - a) times for the mass). Measured on prod x_i^-1/2
 * e^(-b.x) in 3-D with the tent (tests/test_qmc_tail.c), the runs that
 * had converged falsely were 2.8 to 3.4 times that off; QMC_TAIL_SCALE
 * leaves a margin. For x^-0.9 the tail error falls as N^-0.1: such a
 * run does not converge. Smooth integrands' largest values settle
 * (growth below 0.25 on the QMC suite), so nothing changes for them.
 */
#ifndef PAGANI_QMC_TAIL_H
#define PAGANI_QMC_TAIL_H

/* Doublings of N over which the growth of the largest |f J| is measured. */
#define QMC_TAIL_WINDOW 4
/* The growth exponent from which f J counts as unbounded. */
#define QMC_TAIL_GROWTH 0.3
/* The tail error in units of volume * M / (R N). */
#define QMC_TAIL_SCALE 8.0
/* Blocks a run can sum: indices stay below 2^62 (qmc_driver.c). */
#define QMC_TAIL_BLOCKS 64

typedef struct qmc_tail {
    int integrals, shifts;       /* K, R */
    double *peak;                /* peak[k * R + r]: shift r's largest |f J|
                                    so far */
    double *level;               /* level[k * QMC_TAIL_BLOCKS + b - 1]: mean
                                    over the shifts of log2 peak after
                                    block b */
    double *growth;              /* growth[k]: the exponent measured at
                                    integral k's last block (0: none) */
    int *held;                   /* held[k]: at its last block the spread
                                    met the tolerance, the tail error not */
} qmc_tail;

/* Allocates the guard of K integrals over R shifts, nothing seen; returns
 * 0 when out of memory (qmc_tail_free frees what was made). */
int qmc_tail_open(qmc_tail *t, int integrals, int shifts);

void qmc_tail_free(qmc_tail *t);

/* Adds block b's largest |f J| of integral k, block_peaks[r] per shift
 * (b = 1 for the first block), and measures the growth. */
void qmc_tail_add(qmc_tail *t, int k, int b, const double *block_peaks);

/* Whether integral k's f J counts as unbounded at its last block. */
int qmc_tail_unbounded(const qmc_tail *t, int k);

/* Integral k's tail error over N points per shift in a box of `volume`
 * when its f J counts as unbounded, else 0. */
double qmc_tail_error(const qmc_tail *t, int k, double volume,
                      unsigned long long N);

#endif /* PAGANI_QMC_TAIL_H */
