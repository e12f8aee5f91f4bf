/*
 * vegas_sinsum.h - m-Cubes' f_A: sin(x_1 + ... + x_n) over (0,10)^n, and
 * its true value, for the Vegas tests and benchmark.
 */
#ifndef PAGANI_TEST_VEGAS_SINSUM_H
#define PAGANI_TEST_VEGAS_SINSUM_H

#include <complex.h>
#include <math.h>
#include "pagani.h"

PAGANI_INTEGRAND(vegas_sinsum, {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += x[i];
    return sin(s);
})

/* Im prod_i (e^{10i} - 1)/i: the integral over (0,10)^n. */
static inline double vegas_sinsum_truth(int n)
{
    double complex z = sin(10.0) + I * (1.0 - cos(10.0)), r = 1.0;
    for (int i = 0; i < n; i++) r *= z;
    return cimag(r);
}

#endif /* PAGANI_TEST_VEGAS_SINSUM_H */
