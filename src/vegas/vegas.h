/*
 * vegas.h - private to PAGANI_VEGAS: the plan of one run (options read,
 * defaults applied, the stratification sized), shared by the driver
 * (vegas_driver.c) and the planner (vegas_plan.c).
 */
#ifndef PAGANI_VEGAS_H
#define PAGANI_VEGAS_H

#include "vegas_backend.h"

/* Vegas+ keeps per-cube arrays: at most this many cubes (2^26). */
#define VEGAS_PLUS_MAX_CUBES (1LL << 26)
/* Vegas+: the most samples one cube may get. */
#define VEGAS_PLUS_MAX_PER_CUBE 65536LL
/* Uniform mode: a cube of more samples is cut into pieces of at most this. */
#define VEGAS_MAX_PIECE 256LL
/* The pilot that sizes the first bin scale samples every 16th piece. */
#define VEGAS_PILOT_STRIDE 16
/* The bin scale puts the largest v^2 seen so far at 2^42, 2^6 below
 * VEGAS_Q_LIMIT. */
#define VEGAS_SCALE_TARGET 4398046511104.0

typedef struct vegas_plan {
    vegas_job job;
    double calls;            /* samples per iteration asked for */
    long long per_iteration; /* samples per iteration in uniform mode */
    int ita;                 /* grid-adjusting iterations */
    int itmax;
    int first_combined;      /* first iteration in the weighted average */
    double alpha;
    double chi2_max;
    double epsrel, epsabs;
    long long max_evaluations;
    double volume;
} vegas_plan;

/* Reads and checks the options (0 means the default for vegas_calls,
 * vegas_bins, vegas_alpha, vegas_beta, chi2_max and max_iterations) and
 * sizes the run. Returns PAGANI_OK or PAGANI_ERR_OPTION with a message. */
int pagani_vegas_plan(pagani_context *ctx, pagani_integrand *f,
                      const double *lower, const double *upper,
                      const pagani_options *opt, vegas_plan *plan);

#endif /* PAGANI_VEGAS_H */
