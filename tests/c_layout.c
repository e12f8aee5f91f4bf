/*
 * c_layout.c - prints the size of each struct and enum of pagani.h that
 * the Fortran module copies, and the offset of every field, one "name
 * value" a line; tests/fortran_layout.f90 prints the same lines from the
 * module's bind(C) types and tests/test_fortran.sh compares the two.
 */
#include <stddef.h>
#include <stdio.h>
#include "pagani.h"

#define SIZE(type) printf("sizeof %s %zu\n", #type, sizeof(type))
#define FIELD(type, field) \
    printf("offset %s.%s %zu\n", #type, #field, offsetof(type, field))

int main(void)
{
    SIZE(pagani_error);
    SIZE(pagani_backend);
    SIZE(pagani_method);
    SIZE(pagani_status);
    SIZE(pagani_norm);

    SIZE(pagani_integrand_def);
    FIELD(pagani_integrand_def, function);
    FIELD(pagani_integrand_def, source);

    SIZE(pagani_vector_integrand_def);
    FIELD(pagani_vector_integrand_def, ncomp);
    FIELD(pagani_vector_integrand_def, function);
    FIELD(pagani_vector_integrand_def, source);

    SIZE(pagani_options);
    FIELD(pagani_options, method);
    FIELD(pagani_options, epsrel);
    FIELD(pagani_options, epsabs);
    FIELD(pagani_options, max_evaluations);
    FIELD(pagani_options, max_iterations);
    FIELD(pagani_options, flags);
    FIELD(pagani_options, seed);
    FIELD(pagani_options, rule_degree);
    FIELD(pagani_options, initial_splits);
    FIELD(pagani_options, vegas_calls);
    FIELD(pagani_options, vegas_adjust_iterations);
    FIELD(pagani_options, vegas_bins);
    FIELD(pagani_options, vegas_alpha);
    FIELD(pagani_options, vegas_beta);
    FIELD(pagani_options, chi2_max);
    FIELD(pagani_options, qmc_shifts);
    FIELD(pagani_options, qmc_initial_points);
    FIELD(pagani_options, qmc_transform);
    FIELD(pagani_options, progress);
    FIELD(pagani_options, progress_data);
    FIELD(pagani_options, norm);
    FIELD(pagani_options, domain_scale);
    FIELD(pagani_options, breaks);
    FIELD(pagani_options, break_counts);
    FIELD(pagani_options, domain_map);
    FIELD(pagani_options, domain_centers);
    FIELD(pagani_options, domain_scales);
    FIELD(pagani_options, state_path);
    FIELD(pagani_options, state_interval);
    FIELD(pagani_options, strategy);
    FIELD(pagani_options, vegas_grid_in);
    FIELD(pagani_options, vegas_grid_out);
    FIELD(pagani_options, batch_warm_stride);

    SIZE(pagani_result);
    FIELD(pagani_result, value);
    FIELD(pagani_result, error);
    FIELD(pagani_result, status);
    FIELD(pagani_result, evaluations);
    FIELD(pagani_result, regions);
    FIELD(pagani_result, iterations);
    FIELD(pagani_result, chi2_dof);
    FIELD(pagani_result, method);
    FIELD(pagani_result, backend);
    FIELD(pagani_result, rule_degree);
    FIELD(pagani_result, seconds);
    FIELD(pagani_result, by_epsabs);
    FIELD(pagani_result, auto_reason);
    return 0;
}
