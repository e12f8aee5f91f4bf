/*
 * methods.h - the three method drivers behind pagani_integrate and
 * pagani_integrate_batch. Each gets validated arguments (n within the
 * method's range, finite boxes with lower < upper, sane tolerances, a
 * prepared integrand, parameter blocks that cover what its source reads)
 * and fills results[0..count-1] except their timing and backend fields,
 * which api.c sets, and for a vector integrand (f->ncomp components,
 * options->norm checked against them) batch->values and batch->errors.
 * A single integral is a batch of one.
 */
#ifndef PAGANI_METHODS_H
#define PAGANI_METHODS_H

#include "internal.h"

/* The integrals of one call: integral k has the parameter block
 * params + k * params_stride (bytes) and the box lower + k * box_stride,
 * upper + k * box_stride. */
typedef struct pagani_batch {
    int count;                /* K >= 1 */
    const void *params;       /* K blocks, zero-padded to whole doubles and
                                 params_stride bytes apart (a multiple of
                                 8); NULL when the integrand has none */
    size_t params_stride;     /* 0: every integral has the block params */
    const double *lower;      /* the boxes: n doubles each */
    const double *upper;
    size_t box_stride;        /* 0: one box for all, else >= n */
    double *values;           /* vector integrands: integral k's component
                                 c estimate at values[k * ncomp + c] and */
    double *errors;           /* its error at errors[k * ncomp + c]; NULL
                                 for pagani_integrate (ncomp 1: results
                                 only) */
    const unsigned char *mapped; /* per integral, 1 where the domain layer
                                 maps an axis of its box (unbounded, or
                                 cut by break points): cubature then
                                 starts from the original's first split;
                                 NULL: none is */
} pagani_batch;

/* Parameter block of integral k (NULL when there are none). */
static inline const void *pagani_batch_params(const pagani_batch *b, int k)
{
    return b->params ? (const char *)b->params + (size_t)k * b->params_stride : NULL;
}

/* Lower and upper corners of integral k's box. */
static inline const double *pagani_batch_lower(const pagani_batch *b, int k)
{
    return b->lower + (size_t)k * b->box_stride;
}

static inline const double *pagani_batch_upper(const pagani_batch *b, int k)
{
    return b->upper + (size_t)k * b->box_stride;
}

/* Runs a checked batch on opt->method (not PAGANI_AUTO): the driver of
 * that method, which fills the results (api.c). */
int pagani_run_method(pagani_context *ctx, pagani_integrand *f,
                      const pagani_batch *batch, const pagani_options *opt,
                      pagani_result *results);

/* pagani_run_method through the context's layer, if any (the MPI
 * layer's collective run), as every integration runs (api.c). */
int pagani_run_layered(pagani_context *ctx, pagani_integrand *f,
                       const pagani_batch *batch, const pagani_options *opt,
                       pagani_result *results);

/* PAGANI_AUTO (auto_method.c): sets opt->method from f's dimension and,
 * above 12 dimensions, a pilot QMC sample of integral 0 of the batch;
 * *reason says why, *pilot_evaluations what the pilot cost. Returns
 * PAGANI_OK or the pilot's error (PAGANI_ERR_NONFINITE: f was NaN or
 * infinite at a pilot point, named in the message). */
int pagani_auto_choose(pagani_context *ctx, pagani_integrand *f,
                       const pagani_batch *batch, pagani_options *opt,
                       pagani_auto_reason *reason, long long *pilot_evaluations);

/* Parts per axis of cubature's first uniform split of an n-dimensional
 * box, for options' initial_splits (0: the original's choice, 4 below 5
 * dimensions, 2 up to 10, 1 above). */
int pagani_cubature_initial_parts(int n, int requested);

int pagani_cubature_integrate(pagani_context *ctx, pagani_integrand *f,
                              const pagani_batch *batch,
                              const pagani_options *opt, pagani_result *results);
int pagani_vegas_integrate(pagani_context *ctx, pagani_integrand *f,
                           const pagani_batch *batch,
                           const pagani_options *opt, pagani_result *results);
int pagani_qmc_integrate(pagani_context *ctx, pagani_integrand *f,
                         const pagani_batch *batch,
                         const pagani_options *opt, pagani_result *results);

/* The tolerances a Monte Carlo estimate's one-standard-deviation error
 * must meet: the options' over mc_sigmas (0: 1), so that converged means
 * mc_sigmas * error <= max(epsabs, epsrel |value|). */
static inline void pagani_mc_tolerances(const pagani_options *o, double *epsrel,
                                        double *epsabs)
{
    const double sigmas = o->mc_sigmas > 0.0 ? o->mc_sigmas : 1.0;
    *epsrel = o->epsrel / sigmas;
    *epsabs = o->epsabs / sigmas;
}

#endif /* PAGANI_METHODS_H */
