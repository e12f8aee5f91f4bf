/*
 * hard_families.h - the families of issue 33, integrals users have that
 * are hard for a cubature rule, with random parameters from a seed and
 * their true values:
 *
 *   corner    prod_i x_i^-1/2 e^(-b.x) on [0,1]^n: singular at the corner 0
 *   face      x_0^-0.9 e^(-b.x) on [0,1]^n: singular on the face x_0 = 0
 *   diagonal  e^(b.x) where x_0 + x_1 < t, else 0, on [0,1]^n: a jump
 *             across a diagonal plane
 *   gauss     e^(-sum k_i^2 (x_i - c_i)^2 / 2) over R^n
 *   exp       prod_i (1 + x_i) e^(-b_i x_i) over [0, inf)^n
 *
 * Each is a PAGANI_INTEGRAND reading its parameters from p (so the same
 * body runs on the CPU and in CUDA source); the parameters come from
 * (family, n, seed) through genz.h's splitmix64, never from the clock.
 */
#ifndef PAGANI_TESTS_HARD_FAMILIES_H
#define PAGANI_TESTS_HARD_FAMILIES_H

#include <math.h>
#include "pagani.h"
#include "genz.h"

#define HARD_FAMILIES 5
#define HARD_MAX_DIM 5
#define HARD_MAX_PARAMS (2 * HARD_MAX_DIM)

/* p = (b_0 .. b_n-1) */
PAGANI_INTEGRAND(hard_corner, {
    double s = 0.0, r = 1.0;
    for (int i = 0; i < n; i++) {
        s += p[i] * x[i];
        r *= x[i];
    }
    return exp(-s) / sqrt(r);
})

/* p = (b_0 .. b_n-1) */
PAGANI_INTEGRAND(hard_face, {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += p[i] * x[i];
    return exp(-s) * pow(x[0], -0.9);
})

/* p = (b_0 .. b_n-1, t) */
PAGANI_INTEGRAND(hard_diagonal, {
    double s = 0.0;
    if (x[0] + x[1] >= p[n]) return 0.0;
    for (int i = 0; i < n; i++) s += p[i] * x[i];
    return exp(s);
})

/* p = (k_0 .. k_n-1, c_0 .. c_n-1) */
PAGANI_INTEGRAND(hard_gauss, {
    double s = 0.0;
    for (int i = 0; i < n; i++) {
        double d = p[i] * (x[i] - p[n + i]);
        s += d * d;
    }
    return exp(-0.5 * s);
})

/* p = (b_0 .. b_n-1) */
PAGANI_INTEGRAND(hard_exp, {
    double s = 0.0, r = 1.0;
    for (int i = 0; i < n; i++) {
        s += p[i] * x[i];
        r *= 1.0 + x[i];
    }
    return r * exp(-s);
})

/* One family: its integrand, dimensions, domain and parameter ranges. */
typedef struct hard_family {
    const char *name;
    const pagani_integrand_def *def;
    int min_dim, max_dim;
    double lower, upper; /* every axis; +-INFINITY for the unbounded */
} hard_family;

static inline const hard_family *hard_family_get(int family)
{
    static const hard_family all[HARD_FAMILIES] = {
        {"corner", &hard_corner, 3, 4, 0.0, 1.0},
        {"face", &hard_face, 1, 4, 0.0, 1.0},
        {"diagonal", &hard_diagonal, 2, 5, 0.0, 1.0},
        {"gauss", &hard_gauss, 1, 4, -INFINITY, INFINITY},
        {"exp", &hard_exp, 1, 4, 0.0, INFINITY},
    };
    return family >= 0 && family < HARD_FAMILIES ? &all[family] : NULL;
}

/* An instance: the family's index, n and its parameter block. */
typedef struct hard_instance {
    int family, n;
    double p[HARD_MAX_PARAMS];
} hard_instance;

/* A uniform double in (lo, hi) from the generator's state. */
static inline double hard_uniform(uint64_t *state, double lo, double hi)
{
    return lo + (hi - lo) * genz_uniform(state);
}

/* Fills *h with the instance (family, n, seed): decay rates b in (0.5, 3)
 * (corner, face, exp), slopes b in (-1, 1) and the threshold t in
 * (0.3, 1.7) (diagonal), inverse widths k in (1/3, 3) and centres in
 * (-2, 2) (gauss). */
static inline void hard_generate(hard_instance *h, int family, int n,
                                 uint64_t seed)
{
    uint64_t state = seed ^ ((uint64_t)(family + 101) << 56) ^ ((uint64_t)n << 48);

    h->family = family;
    h->n = n;
    for (int i = 0; i < HARD_MAX_PARAMS; i++) h->p[i] = 0.0;
    for (int i = 0; i < n; i++) {
        switch (family) {
        case 2: h->p[i] = hard_uniform(&state, -1.0, 1.0); break;
        case 3:
            h->p[i] = hard_uniform(&state, 1.0 / 3.0, 3.0);
            h->p[n + i] = hard_uniform(&state, -2.0, 2.0);
            break;
        default: h->p[i] = hard_uniform(&state, 0.5, 3.0); break;
        }
    }
    if (family == 2) h->p[n] = hard_uniform(&state, 0.3, 1.7);
}

/* The parameter block's size in bytes. */
static inline size_t hard_params_size(const hard_instance *h)
{
    return (size_t)(h->family == 3 ? 2 * h->n : h->n + (h->family == 2)) *
           sizeof(double);
}

/* ---- true values ----------------------------------------------------- */

/* int_0^1 x^-a e^(-b x) dx for 0 <= a < 1, b >= 0: with s = 1 - a, the
 * lower incomplete gamma b^-s gamma(s, b) = e^-b sum_k b^k / (s (s+1) ..
 * (s+k)), every term positive, summed in long double until it stops
 * changing. */
static inline long double hard_singular_axis(double a, double b)
{
    long double s = 1.0L - a, term = 1.0L / s, sum = term;

    for (int k = 1; k < 1000 && term > 1e-22L * sum; k++) {
        term *= (long double)b / (s + k);
        sum += term;
    }
    return expl(-(long double)b) * sum;
}

/* int_L^U e^(c x) dx, without cancellation for small c. */
static inline long double hard_exp_segment(long double c, long double lo,
                                           long double hi)
{
    return c == 0.0L ? hi - lo : expl(c * lo) * expm1l(c * (hi - lo)) / c;
}

/* int_0^1 int_0^1 [x_0 + x_1 < t] e^(b_0 x_0 + b_1 x_1): over x_1 first,
 * e^(b_0 x_0) int_0^m e^(b_1 x_1) with m = min(1, t - x_0), analytic on
 * each side of x_0 = t - 1; the side where m = 1 is closed form, the other
 * summed by 20-point Gauss-Legendre on 16 panels in long double (an
 * entire function of x_0 there: far below 1e-14). */
static inline double hard_diagonal_pair(double b0, double b1, double t)
{
    long double x[20], w[20], sum;
    long double split = t > 1.0 ? t - 1.0 : 0.0, end = t < 1.0 ? t : 1.0;
    long double width = (end - split) / 16.0L;

    sum = hard_exp_segment(b0, 0.0L, split) * hard_exp_segment(b1, 0.0L, 1.0L);
    genz_gauss_legendre(20, x, w);
    for (int panel = 0; panel < 16; panel++) {
        long double mid = split + (panel + 0.5L) * width;
        for (int q = 0; q < 20; q++) {
            long double x0 = mid + 0.5L * width * x[q];
            sum += 0.5L * width * w[q] * expl(b0 * x0) *
                   hard_exp_segment(b1, 0.0L, t - x0);
        }
    }
    return (double)sum;
}

/* The instance's integral over its domain. */
static inline double hard_truth(const hard_instance *h)
{
    const double *p = h->p;
    long double r = 1.0L;
    int n = h->n;

    switch (h->family) {
    case 0:
        for (int i = 0; i < n; i++) r *= hard_singular_axis(0.5, p[i]);
        return (double)r;
    case 1:
        r = hard_singular_axis(0.9, p[0]);
        for (int i = 1; i < n; i++) r *= hard_exp_segment(-p[i], 0.0L, 1.0L);
        return (double)r;
    case 2:
        for (int i = 2; i < n; i++) r *= hard_exp_segment(p[i], 0.0L, 1.0L);
        return (double)(r * hard_diagonal_pair(p[0], p[1], p[n]));
    case 3: /* sqrt(2 pi) = 2.5066... */
        for (int i = 0; i < n; i++) r *= 2.50662827463100050242L / p[i];
        return (double)r;
    case 4:
        for (int i = 0; i < n; i++) r *= (1.0L + p[i]) / ((long double)p[i] * p[i]);
        return (double)r;
    default:
        return NAN;
    }
}

#endif /* PAGANI_TESTS_HARD_FAMILIES_H */
