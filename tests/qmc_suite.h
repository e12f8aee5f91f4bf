/*
 * qmc_suite.h - the integrands of the QMC tests and benchmark, each as a
 * PAGANI_INTEGRAND (host function and source) with its exact value: the
 * test functions of Hofbauer, Uhl and Zinterhof (s = 10), a Genz
 * oscillatory and a Genz product peak (f1 of m-Cubes is in suite.h).
 */
#ifndef PAGANI_QMC_SUITE_H
#define PAGANI_QMC_SUITE_H

#include <math.h>
#include "pagani.h"

/* prod x_i^(-1/2): singular at the faces x_i = 0; exact 2^n. */
PAGANI_INTEGRAND(qmc_inv_sqrt, {
    double v = 1.0;
    for (int i = 0; i < n; i++) v /= sqrt(x[i]);
    return v;
})

/* sqrt(45/(4n)) (sum x_i^2 - n/3): mean 0, variance 1; exact 0. */
PAGANI_INTEGRAND(qmc_sum_sq, {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += x[i] * x[i];
    return sqrt(45.0 / (4.0 * n)) * (s - n / 3.0);
})

/* prod (x_i^3 + 3/4); exact 1. */
PAGANI_INTEGRAND(qmc_cubic, {
    double v = 1.0;
    for (int i = 0; i < n; i++) v *= x[i] * x[i] * x[i] + 0.75;
    return v;
})

/* Genz oscillatory cos(2 pi u + sum a_i x_i), a_i = 9 / (n + i) (so sum a_i
 * is about 6 for n = 10), u = 0.3; exact value below. */
PAGANI_INTEGRAND(qmc_genz_osc, {
    double s = 2.0 * M_PI * 0.3;
    for (int i = 0; i < n; i++) s += 9.0 / (n + i) * x[i];
    return cos(s);
})

/* Genz product peak prod 1 / (c^-2 + (x_i - w_i)^2), c = 2, w_i =
 * 0.3 + 0.4 i / n; exact value below. */
PAGANI_INTEGRAND(qmc_genz_peak, {
    double v = 1.0;
    for (int i = 0; i < n; i++) {
        double d = x[i] - (0.3 + 0.4 * i / n);
        v *= 1.0 / (0.25 + d * d);
    }
    return v;
})

/* The oscillatory integral over [lo, hi]^n: Re( e^(i 2 pi u) prod_j
 * (e^(i a_j hi) - e^(i a_j lo)) / (i a_j) ). */
static inline double qmc_genz_osc_exact(int n, double lo, double hi)
{
    double re = cos(2.0 * M_PI * 0.3), im = sin(2.0 * M_PI * 0.3);
    for (int j = 0; j < n; j++) {
        double a = 9.0 / (n + j);
        /* (e^(i a hi) - e^(i a lo)) / (i a) */
        double fr = (sin(a * hi) - sin(a * lo)) / a;
        double fi = -(cos(a * hi) - cos(a * lo)) / a;
        double r = re * fr - im * fi;
        im = re * fi + im * fr;
        re = r;
    }
    return re;
}

/* The product peak over the unit cube: prod_i c (atan(c (1 - w_i)) +
 * atan(c w_i)). */
static inline double qmc_genz_peak_exact(int n)
{
    double v = 1.0;
    for (int i = 0; i < n; i++) {
        double w = 0.3 + 0.4 * i / n;
        v *= 2.0 * (atan(2.0 * (1.0 - w)) + atan(2.0 * w));
    }
    return v;
}

#endif /* PAGANI_QMC_SUITE_H */
