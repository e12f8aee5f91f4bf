/*
 * cubature_vector.c - PAGANI for a vector integrand (backend.h, "Vector
 * integrands"): the driver decides with one pair (V, E) per region, as for
 * a scalar integrand, formed by the backend from the components with
 * group weights that put every group's error in units of the reference
 * group's tolerance (rules/component_norm.h); this file keeps what the
 * pairs do not tell: each component's estimate and error, summed from the
 * classify sums of the regions in the list and the sums of those each
 * split drops. Convergence is judged on these, by the norm, so that a
 * decision made on the pairs can cost work but never a false "converged".
 */
#include <math.h>
#include <stdlib.h>
#include "cubature/cubature_run.h"
#include "rules/component_norm.h"

int cubature_vector_start(batch_run *b, const pagani_batch *batch,
                          const pagani_options *opt)
{
    const size_t K = (size_t)b->integrals, C2 = 2 * (size_t)b->ncomp;

    b->groups = b->ncomp / pagani_group_size(opt->norm, b->ncomp);
    b->values = batch->values;
    b->errors = batch->errors;
    b->components = malloc(K * C2 * sizeof(double));
    b->dropped = malloc(K * C2 * sizeof(double));
    b->finished_components = calloc(K * C2, sizeof(double));
    b->weights = malloc(K * (size_t)b->groups * sizeof(double));
    b->reference = calloc(K, sizeof(int));
    if (!b->components || !b->dropped || !b->finished_components || !b->weights ||
        !b->reference)
        return pagani_fail(b->ctx, PAGANI_ERR_NO_MEMORY, "the components of "
                           "%d integrals (%d each)", b->integrals, b->ncomp);
    for (size_t g = 0; g < K * (size_t)b->groups; g++) b->weights[g] = 1.0;
    return PAGANI_OK;
}

void cubature_vector_free(batch_run *b)
{
    free(b->components);
    free(b->dropped);
    free(b->finished_components);
    free(b->weights);
    free(b->reference);
}

void cubature_vector_estimate(batch_run *b, int k)
{
    const int C = b->ncomp;
    const double *sum = b->components + 2 * (size_t)k * C;
    const double *done = b->finished_components + 2 * (size_t)k * C;
    double *value = b->values + (size_t)k * C, *error = b->errors + (size_t)k * C;
    pagani_result *res = b->runs[k].result;
    int reference;

    for (int c = 0; c < C; c++) {
        value[c] = done[2 * c] + sum[2 * c];
        error[c] = done[2 * c + 1] + sum[2 * c + 1] + ROUNDOFF * fabs(value[c]);
        if (!isfinite(value[c]) || !isfinite(error[c])) error[c] = INFINITY;
    }
    res->value = value[0];
    res->error = error[0];
    reference = pagani_group_weights(b->opt->norm, C, value, b->opt->epsrel,
                                     b->opt->epsabs,
                                     b->weights + (size_t)k * b->groups);
    /* the reference is chosen once, from the first estimate, so that the
     * pairs' values stay one quantity across iterations */
    if (b->runs[k].iteration == 0) b->reference[k] = reference;
}

int cubature_vector_met(const batch_run *b, int k)
{
    const size_t C = (size_t)b->ncomp;
    return pagani_components_met(b->opt->norm, b->ncomp, b->values + k * C,
                                 b->errors + k * C, b->opt->epsrel,
                                 b->opt->epsabs);
}

void cubature_vector_finish(batch_run *b)
{
    const size_t C2 = 2 * (size_t)b->ncomp;
    for (int k = 0; k < b->integrals; k++) {
        if (!isfinite(b->thresholds[k])) continue;
        for (size_t j = 0; j < C2; j++)
            b->finished_components[k * C2 + j] += b->dropped[k * C2 + j];
    }
}
