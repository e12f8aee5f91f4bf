/*
 * methods.h - the three method drivers behind pagani_integrate. Each gets
 * validated arguments (n within the method's range, finite bounds with
 * lower < upper, sane tolerances, a prepared integrand) and fills *result
 * except its timing and backend fields, which api.c sets.
 */
#ifndef PAGANI_METHODS_H
#define PAGANI_METHODS_H

#include "internal.h"

int pagani_cubature_integrate(pagani_context *ctx, pagani_integrand *f,
                              const double *lower, const double *upper,
                              const pagani_options *opt, pagani_result *result);
int pagani_vegas_integrate(pagani_context *ctx, pagani_integrand *f,
                           const double *lower, const double *upper,
                           const pagani_options *opt, pagani_result *result);
int pagani_qmc_integrate(pagani_context *ctx, pagani_integrand *f,
                         const double *lower, const double *upper,
                         const pagani_options *opt, pagani_result *result);

#endif /* PAGANI_METHODS_H */
