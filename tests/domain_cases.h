/*
 * domain_cases.h - host integrands over unbounded domains with analytic
 * integrals, and the check that a batch's result is the single call's,
 * shared by test_domains.c and test_domain_families.c.
 */
#ifndef PAGANI_TEST_DOMAIN_CASES_H
#define PAGANI_TEST_DOMAIN_CASES_H

#include <math.h>
#include "pagani.h"

/* prod exp(-p[i] |x_i - p[n + i]|): over [p[n+i], inf) or (-inf,
 * p[n+i]] each axis gives 1 / p[i]. */
static double laplace(const double *x, int n, const void *params)
{
    const double *p = params;
    double s = 0.0;
    for (int i = 0; i < n; i++) s += p[i] * fabs(x[i] - p[n + i]);
    return exp(-s);
}

/* (1 + r^2)^-p[0]: over R^3, pi^(3/2) Gamma(p[0] - 3/2) / Gamma(p[0]),
 * pi^2 for p[0] = 2. */
static double power_tail(const double *x, int n, const void *params)
{
    const double *p = params;
    double r2 = 0.0;
    for (int i = 0; i < n; i++) r2 += x[i] * x[i];
    return pow(1.0 + r2, -p[0]);
}

/* Whether integral `batch` of a batch of f equals, value and error bit
 * for bit, the single call with f's parameter block set to params. */
static int same_as_single(pagani_context *ctx, pagani_integrand *f,
                          const double *params, size_t size,
                          const double *lower, const double *upper,
                          const pagani_options *o, const pagani_result *batch)
{
    pagani_result one;
    return pagani_integrand_set_params(f, params, size) == PAGANI_OK &&
           pagani_integrate(ctx, f, lower, upper, o, &one) == PAGANI_OK &&
           one.value == batch->value && one.error == batch->error;
}

#endif /* PAGANI_TEST_DOMAIN_CASES_H */
