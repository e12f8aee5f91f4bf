/*
 * far_field.h - a check of PAGANI_CUBATURE that runs on any backend,
 * shared by tests/test_cubature.c (CPU) and tests/test_gpu_cubature.c
 * (CUDA): one tap_ok.
 */
#ifndef PAGANI_TEST_FAR_FIELD_H
#define PAGANI_TEST_FAR_FIELD_H

#include <math.h>
#include "pagani.h"
#include "suite.h"
#include "tap.h"

/* epsabs 0 refines a peak's far field no more than a tiny epsabs does: the
 * classifications' share keeps the estimate's round-off while the error
 * still exceeds the value (f4 5D at 1e-6 took 794,272 regions with epsabs
 * 0 against 338,640 with 1e-40 before it did). */
static void check_far_field(pagani_context *ctx)
{
    const double truth = suite_truth(4, 5), eps[2] = {0.0, 1e-40};
    long long regions[2] = {0, 0};
    int converged = 1;

    for (int k = 0; k < 2; k++) {
        pagani_integrand *f = NULL;
        pagani_options opt = pagani_options_default(PAGANI_CUBATURE);
        double lo[5] = {0}, hi[5] = {1, 1, 1, 1, 1};
        pagani_result r;
        int rc = pagani_integrand_create(ctx, &f, 5, &suite_f4);

        opt.epsrel = 1e-6;
        opt.epsabs = eps[k];
        if (rc == PAGANI_OK) rc = pagani_integrate(ctx, f, lo, hi, &opt, &r);
        converged &= rc == PAGANI_OK && r.status == PAGANI_CONVERGED &&
                     fabs(r.value - truth) <= 1e-6 * truth;
        regions[k] = rc == PAGANI_OK ? r.regions : -1;
        pagani_integrand_destroy(f);
    }
    tap_ok(converged && regions[0] > 0 && regions[0] <= regions[1],
           "f4 5D at 1e-6: epsabs 0 converges within %lld regions, epsabs 1e-40 "
           "within %lld", regions[0], regions[1]);
}

#endif /* PAGANI_TEST_FAR_FIELD_H */
