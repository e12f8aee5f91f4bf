/*
 * singular_cases.h - the singular family of issue 33 for the tests
 * (tests/test_singular.c) and the comparison with hcubature (measured
 * outside make check): products over the axes of x_i^-a (on the first m
 * axes: m = 1, singular on the face x_0 = 0; m = n, at the corner 0)
 * times a smooth factor per axis, exp(c x_i) or (1 + c x_i)^-2, whose
 * parameters come from a fixed seed. The integral over [0,1]^n is the
 * product of the 1-D integrals, each a series summed to round-off.
 */
#ifndef PAGANI_SINGULAR_CASES_H
#define PAGANI_SINGULAR_CASES_H

#include <math.h>
#include "pagani.h"

#define SINGULAR_MAX_DIM 4
/* params: m, a, then per axis its factor's kind (0: exp(c x), 1:
 * (1 + c x)^-2) and c */
#define SINGULAR_PARAMS (2 + 2 * SINGULAR_MAX_DIM)

typedef struct singular_case {
    int n, m;           /* dimension, singular axes (the first m) */
    double a;           /* the exponent: x^-a */
    double epsrel;
    double params[SINGULAR_PARAMS];
    double truth;
} singular_case;

/* f, one body for the host (singular_f_host, which hcubature calls in
 * the comparison) and source. */
PAGANI_INTEGRAND(singular_f, {
    double v = 1.0;
    for (int i = 0; i < n; i++) {
        const double c = p[3 + 2 * i];
        double g = p[2 + 2 * i] == 0.0 ? exp(c * x[i])
                                        : 1.0 / ((1.0 + c * x[i]) * (1.0 + c * x[i]));
        if (i < (int)p[0]) g *= pow(x[i], -p[1]);
        v *= g;
    }
    return v;
})

/* int_0^1 x^-a g(x) dx, a = 0 for a regular axis: for exp(c x) the sum
 * over k of c^k / (k! (k + 1 - a)); for (1 + c x)^-2, |c| <= 1/2, of
 * (-1)^k (k + 1) c^k / (k + 1 - a). */
static inline double singular_axis_integral(int kind, double c, double a)
{
    double term = 1.0, sum = 0.0;
    for (int k = 0; k < 400; k++) {
        if (kind == 0) {
            if (k > 0) term *= c / k;
            sum += term / (k + 1 - a);
        } else {
            if (k > 0) term *= -c;
            sum += (k + 1) * term / (k + 1 - a);
        }
    }
    return sum;
}

/* splitmix64: the cases' parameters, from a fixed seed */
static inline double singular_uniform(unsigned long long *state)
{
    unsigned long long z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-53;
}

/* The case of dimension n, m singular axes, exponent a, tolerance epsrel,
 * its smooth factors drawn from *state: exp(c x) with c in [-2, 1], or
 * (1 + c x)^-2 with c in [0, 1/2]. */
static inline singular_case singular_make(int n, int m, double a, double epsrel,
                                          unsigned long long *state)
{
    singular_case s = {n, m, a, epsrel, {0}, 1.0};
    s.params[0] = m;
    s.params[1] = a;
    for (int i = 0; i < n; i++) {
        const int kind = singular_uniform(state) < 0.5 ? 0 : 1;
        const double u = singular_uniform(state);
        const double c = kind == 0 ? -2.0 + 3.0 * u : 0.5 * u;
        s.params[2 + 2 * i] = kind;
        s.params[3 + 2 * i] = c;
        s.truth *= singular_axis_integral(kind, c, i < m ? a : 0.0);
    }
    return s;
}

#endif /* PAGANI_SINGULAR_CASES_H */
