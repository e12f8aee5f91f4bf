/*
 * cancellation.h - a check of PAGANI_CUBATURE's global error that runs on
 * any backend, shared by tests/test_cubature.c (CPU) and
 * tests/test_gpu_cubature.c (CUDA): one tap_ok.
 */
#ifndef PAGANI_TEST_CANCELLATION_H
#define PAGANI_TEST_CANCELLATION_H

#include <math.h>
#include "pagani.h"
#include "suite.h"
#include "tap.h"

/* The suite's f1, cos(sum i x_i), in 6-D at 1e-6 (no relative-error
 * filter, epsabs 0): its regions' errors have both signs and cancel, and
 * the reported error must stay above the true one and within 100 times
 * it. The sum of the regions' E reported 9,560 times the true error and
 * took 123,948 regions (CPU). */
static void check_cancellation(pagani_context *ctx)
{
    const double truth = suite_truth(1, 6), epsrel = 1e-6;
    double lo[6] = {0}, hi[6] = {1, 1, 1, 1, 1, 1}, true_error = NAN;
    pagani_integrand *f = NULL;
    pagani_options opt = pagani_options_default(PAGANI_CUBATURE);
    pagani_result r = {0};
    int rc = pagani_integrand_create(ctx, &f, 6, &suite_f1);

    opt.epsrel = epsrel;
    opt.epsabs = 0.0;
    opt.flags = PAGANI_FLAG_NO_RELERR_FILTER;
    if (rc == PAGANI_OK) rc = pagani_integrate(ctx, f, lo, hi, &opt, &r);
    if (rc == PAGANI_OK) true_error = fabs(r.value - truth);
    tap_ok(rc == PAGANI_OK && r.status == PAGANI_CONVERGED &&
               true_error <= epsrel * fabs(truth) && r.error >= true_error &&
               r.error <= 100.0 * true_error,
           "f1 6D at 1e-6: %s, reported %.3g, true %.3g (%.0f times), %lld regions",
           rc == PAGANI_OK ? pagani_status_name(r.status) : pagani_strerror(rc), r.error,
           true_error, r.error / true_error, r.regions);
    pagani_integrand_destroy(f);
}

#endif /* PAGANI_TEST_CANCELLATION_H */
