/*
 * gradient_api.c - the public entries of gradients (pagani.h,
 * "gradients"): the two constructors of gradient integrands and
 * pagani_integrate_gradient, which integrates one as the vector integrand
 * it is and splits its components into values and derivatives.
 */
#include <stdlib.h>
#include <string.h>
#include "gradient/gradient.h"

/* The descriptor of a source gradient: checks which[] (NULL: every whole
 * double of the block) against the block and the components' limit. */
static int source_gradient(pagani_context *ctx, int ncomp, size_t params_size,
                           const int *which, int nwhich,
                           struct pagani_gradient **out)
{
    long long doubles = (long long)(params_size / sizeof(double));
    int m = which ? nwhich : (int)(doubles < PAGANI_MAX_COMPONENTS ?
                                   doubles : PAGANI_MAX_COMPONENTS);
    int values = ncomp > 0 ? ncomp : 1;
    struct pagani_gradient *g;

    *out = NULL;
    if (ncomp < 0)
        return pagani_fail(ctx, PAGANI_ERR_COMPONENTS, "ncomp = %d is "
                           "negative (0: a scalar source)", ncomp);
    if (m < 1)
        return pagani_fail(ctx, PAGANI_ERR_PARAMS, "no parameter to "
                           "differentiate: nwhich = %d, parameter block of "
                           "%zu bytes", nwhich, params_size);
    if ((long long)values * (1 + m) > PAGANI_MAX_COMPONENTS)
        return pagani_fail(ctx, PAGANI_ERR_COMPONENTS, "%d value%s and %d "
                           "derivatives of each make %lld components, over "
                           "PAGANI_MAX_COMPONENTS (%d)", values,
                           values > 1 ? "s" : "", m,
                           (long long)values * (1 + m), PAGANI_MAX_COMPONENTS);
    for (int j = 0; which && j < m; j++) {
        if (which[j] < 0 || which[j] >= doubles)
            return pagani_fail(ctx, PAGANI_ERR_PARAMS, "which[%d] = %d is "
                               "outside the parameter block of %zu bytes "
                               "(p[0] to p[%lld])", j, which[j], params_size,
                               doubles - 1);
        for (int k = 0; k < j; k++)
            if (which[k] == which[j])
                return pagani_fail(ctx, PAGANI_ERR_PARAMS, "which[%d] and "
                                   "which[%d] are both p[%d]", k, j,
                                   which[j]);
    }
    if (!(g = calloc(1, sizeof *g)) ||
        !(g->which = malloc((size_t)m * sizeof *g->which))) {
        free(g);
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "out of memory");
    }
    g->values = values;
    g->params = m;
    g->source_ncomp = ncomp;
    g->params_doubles = (int)(pagani_params_padded(params_size) /
                              sizeof(double));
    for (int j = 0; j < m; j++) g->which[j] = which ? which[j] : j;
    *out = g;
    return PAGANI_OK;
}

int pagani_integrand_gradient_from_source(pagani_context *ctx,
                                          pagani_integrand **f, int n,
                                          int ncomp, const char *source,
                                          const void *params,
                                          size_t params_size,
                                          const int *which, int nwhich)
{
    struct pagani_gradient *g;
    int rc;
    if (!ctx) return PAGANI_ERR_NULL_POINTER;
    pagani_clear_message(ctx);
    if (!f) return pagani_fail(ctx, PAGANI_ERR_NULL_POINTER, "f is NULL");
    *f = NULL;
    rc = source_gradient(ctx, ncomp, params_size, which, nwhich, &g);
    if (rc != PAGANI_OK) return pagani_collective_end(ctx, rc);
    return pagani_integrand_with_gradient(ctx, f, n, source, NULL, params,
                                          params_size, g);
}

int pagani_integrand_gradient_from_function(pagani_context *ctx,
                                            pagani_integrand **f, int n,
                                            int ncomp, int nparams,
                                            pagani_vector_function function,
                                            const void *params,
                                            size_t params_size)
{
    struct pagani_gradient *g;
    if (!ctx) return PAGANI_ERR_NULL_POINTER;
    pagani_clear_message(ctx);
    if (!f) return pagani_fail(ctx, PAGANI_ERR_NULL_POINTER, "f is NULL");
    *f = NULL;
    if (ncomp < 1 || nparams < 1 ||
        (long long)ncomp * (1 + nparams) > PAGANI_MAX_COMPONENTS)
        return pagani_collective_end(ctx, pagani_fail(
            ctx, PAGANI_ERR_COMPONENTS, "ncomp = %d values and nparams = %d "
            "derivatives of each: both must be at least 1 and ncomp (1 + "
            "nparams) at most PAGANI_MAX_COMPONENTS (%d)", ncomp, nparams,
            PAGANI_MAX_COMPONENTS));
    if (!(g = calloc(1, sizeof *g)))
        return pagani_collective_end(ctx, pagani_fail(
            ctx, PAGANI_ERR_NO_MEMORY, "out of memory"));
    g->values = ncomp;
    g->params = nparams;
    return pagani_integrand_with_gradient(ctx, f, n, NULL, function, params,
                                          params_size, g);
}

int pagani_integrate_gradient(pagani_context *ctx, pagani_integrand *f,
                              const double *lower, const double *upper,
                              const pagani_options *options,
                              pagani_result *result, double *value,
                              double *error, double *gradient,
                              double *gradient_error)
{
    double *values, *errors;
    int rc, c;
    size_t m;

    if (!ctx) return PAGANI_ERR_NULL_POINTER;
    pagani_clear_message(ctx);
    if (!f || !value || !error || !gradient || !gradient_error)
        return pagani_collective_end(ctx, pagani_fail(
            ctx, PAGANI_ERR_NULL_POINTER, "pagani_integrate_gradient: f, "
            "value, error, gradient and gradient_error must not be NULL"));
    if (!f->gradient)
        return pagani_collective_end(ctx, pagani_fail(
            ctx, PAGANI_ERR_COMPONENTS, "pagani_integrate_gradient: the "
            "integrand has no gradient: make it with "
            "pagani_integrand_gradient_from_source or _from_function"));
    c = f->gradient->values;
    m = (size_t)c * (size_t)f->gradient->params;
    values = malloc((size_t)f->ncomp * sizeof *values);
    errors = malloc((size_t)f->ncomp * sizeof *errors);
    if (!values || !errors) {
        free(values);
        free(errors);
        return pagani_collective_end(ctx, pagani_fail(
            ctx, PAGANI_ERR_NO_MEMORY, "out of memory"));
    }
    rc = pagani_integrate_vector(ctx, f, lower, upper, options, result,
                                 values, errors);
    if (rc == PAGANI_OK || rc == PAGANI_ERR_NONFINITE) {
        memcpy(value, values, (size_t)c * sizeof *value);
        memcpy(error, errors, (size_t)c * sizeof *error);
        memcpy(gradient, values + c, m * sizeof *gradient);
        memcpy(gradient_error, errors + c, m * sizeof *gradient_error);
    }
    free(values);
    free(errors);
    return rc;
}
