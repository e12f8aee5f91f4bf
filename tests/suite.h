/*
 * suite.h - the PAGANI paper's test integrands (Sakiotis et al., SC21,
 * section 4.1) over the unit cube, with their true values. Each integrand
 * is a PAGANI_INTEGRAND, so one body serves the CPU and the GPU.
 */
#ifndef PAGANI_TEST_SUITE_H
#define PAGANI_TEST_SUITE_H

#include <math.h>
#include "pagani.h"

/* f1: cos(sum i x_i); sign-changing (the paper runs it without the
 * relative-error filter in 8D). */
PAGANI_INTEGRAND(suite_f1, {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += (i + 1) * x[i];
    return cos(s);
})

/* f2: product peak prod (1/50^2 + (x_i - 1/2)^2)^-1. */
PAGANI_INTEGRAND(suite_f2, {
    double r = 1.0;
    for (int i = 0; i < n; i++) r /= 1.0 / 2500.0 + (x[i] - 0.5) * (x[i] - 0.5);
    return r;
})

/* f3: corner peak (1 + sum i x_i)^(-n-1). */
PAGANI_INTEGRAND(suite_f3, {
    double s = 1.0;
    for (int i = 0; i < n; i++) s += (i + 1) * x[i];
    return pow(s, -n - 1.0);
})

/* f4: Gaussian exp(-625 sum (x_i - 1/2)^2). */
PAGANI_INTEGRAND(suite_f4, {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += (x[i] - 0.5) * (x[i] - 0.5);
    return exp(-625.0 * s);
})

/* f5: C0 exp(-10 sum |x_i - 1/2|). */
PAGANI_INTEGRAND(suite_f5, {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += fabs(x[i] - 0.5);
    return exp(-10.0 * s);
})

/* f6: discontinuous: exp(sum (i+4) x_i) where every x_i < (3+i)/10. */
PAGANI_INTEGRAND(suite_f6, {
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        if (x[i] >= (4.0 + i) / 10.0) return 0.0;
        s += (i + 5) * x[i];
    }
    return exp(s);
})

/* f7: (sum x_i^2)^11. */
PAGANI_INTEGRAND(suite_f7, {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += x[i] * x[i];
    return pow(s, 11.0);
})

/* f8: (sum x_i^2)^7.5. */
PAGANI_INTEGRAND(suite_f8, {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += x[i] * x[i];
    return pow(s, 7.5);
})

/* f1's value: the real part of prod_k (e^{ik} - 1) / (ik), k = 1 .. n. */
static inline double suite_f1_truth(int n)
{
    double re = 1.0, im = 0.0;
    for (int k = 1; k <= n; k++) {
        double a = sin(k) / k, b = (1.0 - cos(k)) / k, t = re * a - im * b;
        im = re * b + im * a;
        re = t;
    }
    return re;
}

/* True values over [0,1]^n. f3, f7, f8 from anchors.md for the dimensions
 * given there (NAN otherwise); the rest are products of one-dimensional
 * integrals. */
static inline double suite_truth(int which, int n)
{
    switch (which) {
    case 1: return suite_f1_truth(n);
    case 2: return pow(100.0 * atan(25.0), n);
    case 3: return n == 3 ? 0.010846560846560846561
                 : n == 8 ? 2.2751965817917756076e-10 : NAN;
    case 4: return pow(sqrt(M_PI) / 25.0 * erf(12.5), n);
    case 5: return pow(0.2 * (1.0 - exp(-5.0)), n);
    case 6: {
        double r = 1.0;
        for (int i = 1; i <= n; i++) r *= (exp((i + 4) * (3.0 + i) / 10.0) - 1.0) / (i + 4);
        return r;
    }
    case 7: return n == 8 ? 1495369.283757217694 : NAN;
    case 8: return n == 8 ? 8879.851175413485 : NAN;
    default: return NAN;
    }
}

static inline const pagani_integrand_def *suite_integrand(int which)
{
    static const pagani_integrand_def *all[] = {
        NULL, &suite_f1, &suite_f2, &suite_f3, &suite_f4,
        &suite_f5, &suite_f6, &suite_f7, &suite_f8,
    };
    return which >= 1 && which <= 8 ? all[which] : NULL;
}

/* The suite's benchmark rows: each integrand at the dimensions the paper
 * measures (those with a true value), with the cubature flags it runs
 * under (f1 changes sign: no relative-error filter in 8D). */
typedef struct suite_row {
    const char *name;
    int which, n;
    unsigned flags;
} suite_row;

/* The rows; *count is set to their number. */
static inline const suite_row *suite_rows(int *count)
{
    static const suite_row rows[] = {
        {"f1_8", 1, 8, PAGANI_FLAG_NO_RELERR_FILTER},
        {"f2_6", 2, 6, 0},
        {"f3_3", 3, 3, 0},
        {"f3_8", 3, 8, 0},
        {"f4_5", 4, 5, 0},
        {"f4_8", 4, 8, 0},
        {"f5_5", 5, 5, 0},
        {"f5_8", 5, 8, 0},
        {"f6_6", 6, 6, 0},
        {"f7_8", 7, 8, 0},
        {"f8_8", 8, 8, 0},
    };
    *count = (int)(sizeof rows / sizeof rows[0]);
    return rows;
}

#endif /* PAGANI_TEST_SUITE_H */
