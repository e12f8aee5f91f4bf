/*
 * singular_cases.h - the singular family of issue 33 for the tests
 * (tests/test_singular.c) and the comparison with hcubature (measured
 * outside make check): products over the axes of x_i^-a (on the first m
 * axes: m = 1, singular on the face x_0 = 0; m = n, at the corner 0)
 * times a smooth factor per axis, exp(c x_i) or (1 + c x_i)^-2, whose
 * parameters come from a fixed seed; or (singular_corner_make) a corner
 * with an exponent a_i of its own on each axis. The integral over
 * [0,1]^n is the product of the 1-D integrals, each a series summed to
 * round-off.
 */
#ifndef PAGANI_SINGULAR_CASES_H
#define PAGANI_SINGULAR_CASES_H

#include <math.h>
#include "pagani.h"

#define SINGULAR_MAX_DIM 4
/* params: per axis its factor's kind (0: exp(c x), 1: (1 + c x)^-2),
 * c and its exponent a_i (0: not singular) */
#define SINGULAR_PARAMS (3 * SINGULAR_MAX_DIM)

typedef struct singular_case {
    int n, m;           /* dimension, singular axes (the first m) */
    double a;           /* the exponent: x^-a (the largest a_i) */
    double epsrel;
    double params[SINGULAR_PARAMS];
    double truth;
} singular_case;

/* f, one body for the host (singular_f_host, which hcubature calls in
 * the comparison) and source. */
PAGANI_INTEGRAND(singular_f, {
    double v = 1.0;
    for (int i = 0; i < n; i++) {
        const double c = p[3 * i + 1], a = p[3 * i + 2];
        double g = p[3 * i] == 0.0 ? exp(c * x[i])
                                    : 1.0 / ((1.0 + c * x[i]) * (1.0 + c * x[i]));
        if (a != 0.0) g *= pow(x[i], -a);
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

/* Axis i of case s: its smooth factor drawn from *state, exp(c x) with c
 * in [-2, 1], or (1 + c x)^-2 with c in [0, 1/2], and the exponent a;
 * its integral multiplies s->truth. */
static inline void singular_axis_make(singular_case *s, int i, double a,
                                      unsigned long long *state)
{
    const int kind = singular_uniform(state) < 0.5 ? 0 : 1;
    const double u = singular_uniform(state);
    const double c = kind == 0 ? -2.0 + 3.0 * u : 0.5 * u;
    s->params[3 * i] = kind;
    s->params[3 * i + 1] = c;
    s->params[3 * i + 2] = a;
    s->truth *= singular_axis_integral(kind, c, a);
}

/* The case of dimension n, m singular axes, exponent a, tolerance epsrel,
 * its smooth factors drawn from *state (singular_axis_make). */
static inline singular_case singular_make(int n, int m, double a, double epsrel,
                                          unsigned long long *state)
{
    singular_case s = {n, m, a, epsrel, {0}, 1.0};
    for (int i = 0; i < n; i++) singular_axis_make(&s, i, i < m ? a : 0.0, state);
    return s;
}

/* A corner of dimension n at tolerance epsrel whose exponent a_i on each
 * axis is drawn from *state, uniform in [least, most], as its smooth
 * factors are (singular_axis_make). */
static inline singular_case singular_corner_make(int n, double least, double most,
                                                 double epsrel,
                                                 unsigned long long *state)
{
    singular_case s = {n, n, 0.0, epsrel, {0}, 1.0};
    for (int i = 0; i < n; i++) {
        const double a = least + (most - least) * singular_uniform(state);
        singular_axis_make(&s, i, a, state);
        s.a = fmax(s.a, a);
    }
    return s;
}

#endif /* PAGANI_SINGULAR_CASES_H */
