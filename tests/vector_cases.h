/*
 * vector_cases.h - vector integrands with analytic components, for the
 * vector tests (test_vector.c, test_gpu_vector.c) and the benchmark
 * (bench_vector.c).
 *
 * Moments over [0,1]^n, s = x_0 + ... + x_{n-1}:
 *   f_0 = exp(-s)            I_0 = E^n,            E = 1 - 1/e
 *   f_1 = x_0 exp(-s)        I_1 = (1 - 2/e) E^(n-1)
 *   f_2 = 0                  I_2 = 0 (ended by epsabs)
 *   f_3 = 1e8 exp(-s)        I_3 = 1e8 E^n (10^8 above the others)
 * A complex exponential over [0,1]^n, k_i = 1 + i/2:
 *   f_0 + i f_1 = exp(i sum_i k_i x_i),  I = prod_i (e^(i k_i) - 1) / (i k_i)
 */
#ifndef PAGANI_VECTOR_CASES_H
#define PAGANI_VECTOR_CASES_H

#include <complex.h>
#include <math.h>
#include "pagani.h"

#define MOMENTS_NCOMP 4

PAGANI_VECTOR_INTEGRAND(moments, MOMENTS_NCOMP, {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += x[i];
    s = exp(-s);
    f[0] = s;
    f[1] = x[0] * s;
    f[2] = 0.0;
    f[3] = 1e8 * s;
})

/* The moments' exact values in n dimensions. */
static void moments_exact(int n, double *exact)
{
    const double e = 1.0 - exp(-1.0);
    exact[0] = pow(e, n);
    exact[1] = (1.0 - 2.0 * exp(-1.0)) * pow(e, n - 1);
    exact[2] = 0.0;
    exact[3] = 1e8 * exact[0];
}

PAGANI_VECTOR_INTEGRAND(phase, 2, {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += (1.0 + 0.5 * i) * x[i];
    f[0] = cos(s);
    f[1] = sin(s);
})

/* The complex exponential's exact value in n dimensions, as (real,
 * imaginary). */
static void phase_exact(int n, double *exact)
{
    double complex v = 1.0;
    for (int i = 0; i < n; i++) {
        double k = 1.0 + 0.5 * i;
        v *= (cexp(I * k) - 1.0) / (I * k);
    }
    exact[0] = creal(v);
    exact[1] = cimag(v);
}

#endif /* PAGANI_VECTOR_CASES_H */
