/*
 * genz.h - Genz's six test families over the unit cube (A. Genz, "A
 * package for testing multiple integration subroutines", 1987: TESTPACK),
 * the harness that error estimates are judged by: each family as a host
 * function of a parameter block and as integrand source for every backend,
 * its true value in closed form, and its parameters drawn from a seed.
 *
 * An instance has shifts u_i ~ U(0,1) and difficulties a_i ~ U(0,1)
 * rescaled so that sum a_i = h, Genz's difficulty of the family in n
 * dimensions (times a multiplier):
 *
 *   1 oscillatory    cos(2 pi u_1 + sum a_i x_i)              h = 110/n^1.5
 *   2 product peak   prod 1 / (a_i^-2 + (x_i - u_i)^2)        h = 600/n^2
 *   3 corner peak    (1 + sum a_i x_i)^-(n+1)                 h = 900/n^2
 *   4 Gaussian       exp(-sum a_i^2 (x_i - u_i)^2)            h = 100/n
 *   5 C0             exp(-sum a_i |x_i - u_i|)                h = 150/n^2
 *   6 discontinuous  0 where x_1 > u_1 or x_2 > u_2 (x_1 only in one
 *                    dimension), else exp(sum a_i x_i)        h = 100/n^2
 *
 * The parameters come from a seed through splitmix64, never from the
 * clock: (family, n, seed, multiplier) always gives the same instance.
 */
#ifndef PAGANI_TESTS_GENZ_H
#define PAGANI_TESTS_GENZ_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include "pagani.h"

#define GENZ_FAMILIES 6
#define GENZ_PI 3.14159265358979323846264338327950288L /* pi, long double */
#define GENZ_MAX_DIM PAGANI_MAX_CUBATURE_DIM

enum {
    GENZ_OSCILLATORY = 1,
    GENZ_PRODUCT_PEAK,
    GENZ_CORNER_PEAK,
    GENZ_GAUSSIAN,
    GENZ_C0,
    GENZ_DISCONTINUOUS
};

/* The parameter block of the host function. */
typedef struct genz_params {
    int family;             /* GENZ_OSCILLATORY .. GENZ_DISCONTINUOUS */
    int n;                  /* dimension, 1 .. GENZ_MAX_DIM */
    double a[GENZ_MAX_DIM]; /* difficulties */
    double u[GENZ_MAX_DIM]; /* shifts */
} genz_params;

/* The family's name, for tables ("?" outside 1 .. 6). */
static inline const char *genz_name(int family)
{
    static const char *const names[] = {
        "?",        "oscillatory", "product peak",  "corner peak",
        "Gaussian", "C0",          "discontinuous",
    };
    return family >= 1 && family <= GENZ_FAMILIES ? names[family] : names[0];
}

/* Genz's difficulty h of the family in n dimensions: sum a_i = h. */
static inline double genz_difficulty(int family, int n)
{
    static const double base[] = {0, 110, 600, 900, 100, 150, 100};
    static const double power[] = {0, 1.5, 2, 2, 1, 2, 2};
    return base[family] / pow(n, power[family]);
}

/* ---- parameters from a seed ------------------------------------------ */

/* splitmix64 (Steele, Lea, Flood 2014): the next 64 random bits. */
static inline uint64_t genz_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A uniform double in the open interval (0,1): (k + 1/2) / 2^53. */
static inline double genz_uniform(uint64_t *state)
{
    return ((double)(genz_splitmix64(state) >> 11) + 0.5) * 0x1p-53;
}

/* Fills *g with the instance (family, n, seed): u_1..u_n, then a_1..a_n
 * drawn uniform and rescaled to sum to multiplier * genz_difficulty. */
static inline void genz_generate(genz_params *g, int family, int n,
                                 uint64_t seed, double multiplier)
{
    uint64_t state = seed ^ ((uint64_t)family << 56) ^ ((uint64_t)n << 48);
    double sum = 0.0, h = multiplier * genz_difficulty(family, n);

    g->family = family;
    g->n = n;
    for (int i = 0; i < n; i++) g->u[i] = genz_uniform(&state);
    for (int i = 0; i < n; i++) sum += g->a[i] = genz_uniform(&state);
    for (int i = 0; i < n; i++) g->a[i] *= h / sum;
}

/* ---- the integrands -------------------------------------------------- */

/* The host form: f(x) of the instance params (a genz_params). */
static inline double genz_function(const double *x, int n, const void *params)
{
    const genz_params *g = (const genz_params *)params;
    const double *a = g->a, *u = g->u;
    double s = 0.0, r = 1.0;

    switch (g->family) {
    case GENZ_OSCILLATORY:
        s = 2.0 * M_PI * u[0];
        for (int i = 0; i < n; i++) s += a[i] * x[i];
        return cos(s);
    case GENZ_PRODUCT_PEAK:
        for (int i = 0; i < n; i++) {
            double d = x[i] - u[i];
            r /= 1.0 / (a[i] * a[i]) + d * d;
        }
        return r;
    case GENZ_CORNER_PEAK:
        s = 1.0;
        for (int i = 0; i < n; i++) s += a[i] * x[i];
        return pow(s, -(n + 1.0));
    case GENZ_GAUSSIAN:
        for (int i = 0; i < n; i++)
            s += a[i] * a[i] * (x[i] - u[i]) * (x[i] - u[i]);
        return exp(-s);
    case GENZ_C0:
        for (int i = 0; i < n; i++) s += a[i] * fabs(x[i] - u[i]);
        return exp(-s);
    case GENZ_DISCONTINUOUS:
        if (x[0] > u[0] || (n > 1 && x[1] > u[1])) return 0.0;
        for (int i = 0; i < n; i++) s += a[i] * x[i];
        return exp(s);
    default:
        return NAN;
    }
}

/* The source form of each family (for pagani_integrand_from_source, so
 * that CUDA can run it): the same function as genz_function, reading its
 * parameters from p = (a_1 .. a_n, u_1 .. u_n), as genz_pack lays them. */
static inline const char *genz_source(int family)
{
    static const char *const sources[] = {
        NULL,
        "const double *a = p, *u = p + n;\n"
        "double s = 2.0 * M_PI * u[0];\n"
        "for (int i = 0; i < n; i++) s += a[i] * x[i];\n"
        "return cos(s);\n",

        "const double *a = p, *u = p + n;\n"
        "double r = 1.0;\n"
        "for (int i = 0; i < n; i++) {\n"
        "    double d = x[i] - u[i];\n"
        "    r /= 1.0 / (a[i] * a[i]) + d * d;\n"
        "}\n"
        "return r;\n",

        "const double *a = p;\n"
        "double s = 1.0;\n"
        "for (int i = 0; i < n; i++) s += a[i] * x[i];\n"
        "return pow(s, -(n + 1.0));\n",

        "const double *a = p, *u = p + n;\n"
        "double s = 0.0;\n"
        "for (int i = 0; i < n; i++)\n"
        "    s += a[i] * a[i] * (x[i] - u[i]) * (x[i] - u[i]);\n"
        "return exp(-s);\n",

        "const double *a = p, *u = p + n;\n"
        "double s = 0.0;\n"
        "for (int i = 0; i < n; i++) s += a[i] * fabs(x[i] - u[i]);\n"
        "return exp(-s);\n",

        "const double *a = p, *u = p + n;\n"
        "double s = 0.0;\n"
        "for (int i = 0; i < n && i < 2; i++) if (x[i] > u[i]) return 0.0;\n"
        "for (int i = 0; i < n; i++) s += a[i] * x[i];\n"
        "return exp(s);\n",
    };
    return family >= 1 && family <= GENZ_FAMILIES ? sources[family] : NULL;
}

/* Lays out the parameters for the source form: p[0 .. 2n-1] =
 * (a_1 .. a_n, u_1 .. u_n). */
static inline void genz_pack(const genz_params *g, double *p)
{
    for (int i = 0; i < g->n; i++) {
        p[i] = g->a[i];
        p[g->n + i] = g->u[i];
    }
}

/* The integrand of instance g in the form a run needs: source (for CUDA,
 * or when sources is set) or the host function; or replaces the
 * parameters of *f when it exists (made by this function with the same
 * sources). */
static inline int genz_set_instance(pagani_context *ctx, int sources,
                                    const genz_params *g, pagani_integrand **f)
{
    double packed[2 * GENZ_MAX_DIM];
    size_t packed_size = 2 * g->n * sizeof(double);

    genz_pack(g, packed);
    if (*f && sources)
        return pagani_integrand_set_params(*f, packed, packed_size);
    if (*f) return pagani_integrand_set_params(*f, g, sizeof *g);
    if (sources)
        return pagani_integrand_from_source(
            ctx, f, g->n, genz_source(g->family), packed, packed_size);
    return pagani_integrand_from_function(ctx, f, g->n, genz_function, g,
                                          sizeof *g);
}

/* The cubature flags a user would pass: the oscillatory family changes
 * sign, which PAGANI_FLAG_NO_RELERR_FILTER is documented for. */
static inline unsigned genz_cubature_flags(int family)
{
    return family == GENZ_OSCILLATORY ? PAGANI_FLAG_NO_RELERR_FILTER : 0u;
}

/* ---- true values ----------------------------------------------------- */

/* The m-point Gauss-Legendre rule on [-1,1] (m <= 64), nodes x and
 * weights w, by Newton's method on the Legendre polynomial P_m. */
static inline void genz_gauss_legendre(int m, long double *x, long double *w)
{
    for (int k = 0; k < m; k++) {
        long double t = cosl(GENZ_PI * (k + 0.75L) / (m + 0.5L));
        long double dp = 1.0L;
        for (int it = 0; it < 100; it++) {
            long double p0 = 1.0L, p1 = t, step;
            for (int j = 2; j <= m; j++) {
                long double p2 = ((2 * j - 1) * t * p1 - (j - 1) * p0) / j;
                p0 = p1;
                p1 = p2;
            }
            dp = m * (t * p1 - p0) / (t * t - 1.0L);
            step = p1 / dp;
            t -= step;
            if (fabsl(step) <= 1e-19L * fabsl(t)) break;
        }
        x[k] = t;
        w[k] = 2.0L / ((1.0L - t * t) * dp * dp);
    }
}

/* The integral of e^{a x} over [0, c] (c when a = 0). */
static inline long double genz_exp_integral(double a, double c)
{
    return a == 0.0 ? (long double)c : expm1l((long double)a * c) / a;
}

/* (1 - e^{-z}) / z, 1 at z = 0: the Laplace transform of one axis of the
 * corner peak. */
static inline long double genz_corner_factor(long double z)
{
    return z == 0.0L ? 1.0L : -expm1l(-z) / z;
}

/* t^n e^{-t} prod_i (1 - e^{-a_i t}) / (a_i t): the corner peak's
 * integrand over t, positive everywhere. */
static inline long double genz_corner_laplace(const genz_params *g,
                                              long double t)
{
    long double r = powl(t, g->n) * expl(-t);
    for (int i = 0; i < g->n; i++) r *= genz_corner_factor(g->a[i] * t);
    return r;
}

/*
 * The corner peak's integral without cancellation. Inclusion-exclusion
 * (the sum over subsets S of (-1)^|S| / (1 + sum_S a_i), over n! prod a_i)
 * cancels badly when some a_i are small; instead, from
 * (1 + s)^-(n+1) = (1/n!) int_0^inf t^n e^{-t(1+s)} dt, integrating x first:
 *
 *   I = (1/n!) int_0^inf t^n e^{-t} prod_i (1 - e^{-a_i t}) / (a_i t) dt,
 *
 * a positive, entire integrand, summed in long double by 20-point
 * Gauss-Legendre on the panels [0, 2^-40], [2^-(k+1), 2^-k] (k < 40) and
 * [j, j+1] for 1 <= j <= 64 + 4n (beyond, t^n e^{-t} is below 1e-20 of
 * its peak). At worst a factor behaves like 1/(a t), whose pole at 0 lies
 * a panel width or more from the geometric panels: 20 points reach long
 * double precision there.
 */
static inline double genz_corner_truth(const genz_params *g)
{
    long double x[20], w[20], sum = 0.0L, factorial = 1.0L;
    int last = 64 + 4 * g->n;

    genz_gauss_legendre(20, x, w);
    for (int k = -1; k < 40 + last; k++) {
        long double lo, hi;
        if (k < 0) lo = 0.0L, hi = ldexpl(1.0L, -40);
        else if (k < 40) lo = ldexpl(1.0L, k - 40), hi = 2 * lo;
        else lo = k - 39, hi = lo + 1;
        for (int q = 0; q < 20; q++)
            sum += 0.5L * (hi - lo) * w[q] *
                   genz_corner_laplace(g, 0.5L * (hi + lo) +
                                              0.5L * (hi - lo) * x[q]);
    }
    for (int i = 2; i <= g->n; i++) factorial *= i;
    return (double)(sum / factorial);
}

/* The oscillatory family's complex integral exp(i phase) * amplitude:
 * int e^{i(2 pi u_1 + a.x)} = e^{i(2 pi u_1 + sum a_i/2)} prod sinc(a_i/2). */
static inline void genz_oscillatory_parts(const genz_params *g,
                                          long double *phase,
                                          long double *amplitude)
{
    *phase = 2.0L * GENZ_PI * g->u[0];
    *amplitude = 1.0L;
    for (int i = 0; i < g->n; i++) {
        long double half = 0.5L * g->a[i];
        *phase += half;
        if (half != 0.0L) *amplitude *= sinl(half) / half;
    }
}

/* The instance's integral over [0,1]^n, from the one-dimensional integrals
 * (all terms of one sign, in long double) or genz_corner_truth. */
static inline double genz_truth(const genz_params *g)
{
    const double *a = g->a, *u = g->u;
    long double r = 1.0L, phase;

    switch (g->family) {
    case GENZ_OSCILLATORY:
        genz_oscillatory_parts(g, &phase, &r);
        return (double)(cosl(phase) * r);
    case GENZ_PRODUCT_PEAK:
        for (int i = 0; i < g->n; i++)
            r *= a[i] * (atanl((long double)a[i] * (1.0L - u[i])) +
                         atanl((long double)a[i] * u[i]));
        return (double)r;
    case GENZ_CORNER_PEAK:
        return genz_corner_truth(g);
    case GENZ_GAUSSIAN: /* 0.886... = sqrt(pi) / 2 */
        for (int i = 0; i < g->n; i++)
            if (a[i] != 0.0)
                r *= 0.886226925452758013649083741671L / a[i] *
                     (erfl((long double)a[i] * (1.0L - u[i])) +
                      erfl((long double)a[i] * u[i]));
        return (double)r;
    case GENZ_C0:
        for (int i = 0; i < g->n; i++)
            if (a[i] != 0.0)
                r *= -(expm1l(-(long double)a[i] * u[i]) +
                       expm1l(-(long double)a[i] * (1.0L - u[i]))) /
                     a[i];
        return (double)r;
    case GENZ_DISCONTINUOUS:
        for (int i = 0; i < g->n; i++)
            r *= genz_exp_integral(a[i], i < 2 ? u[i] : 1.0);
        return (double)r;
    default:
        return NAN;
    }
}

/*
 * When a relative error means something. The oscillatory family's integral
 * is I = cos(phase) * M, M the amplitude above; where cos(phase) is near 0
 * the integral cancels and its relative error is ill-conditioned. The
 * rule: an instance with |I| < GENZ_MIN_CANCELLATION * |M| is not judged
 * by its relative error (the harness skips it, whatever the integrator
 * does; about 1 instance in 1500). The other families are positive:
 * always judged.
 */
#define GENZ_MIN_CANCELLATION 1e-3

/* Whether instance g is judged by its relative error (the rule above). */
static inline int genz_judged(const genz_params *g)
{
    long double phase, amplitude;
    if (g->family != GENZ_OSCILLATORY) return 1;
    genz_oscillatory_parts(g, &phase, &amplitude);
    return fabsl(cosl(phase)) >= GENZ_MIN_CANCELLATION;
}

/* ---- tallies of runs ------------------------------------------------- */

/* How one run came out. */
typedef enum genz_outcome {
    GENZ_CONVERGED,         /* converged within its tolerance */
    GENZ_FALSE_CONVERGENCE, /* said converged, true error above epsrel */
    GENZ_NOT_CONVERGED      /* an honest failure: any other status */
} genz_outcome;

/* The counts over a set of runs (within_2sigma: true error within twice
 * the reported error, a Monte Carlo method's standard deviation), their
 * times, and the ratios reported/true relative error of the converged ones
 * (in a growing array: genz_tally_free). */
typedef struct genz_tally {
    int runs, converged, false_convergences, not_converged, within_2sigma;
    int nratios, capacity;
    double *ratios;
    double seconds, max_seconds;
} genz_tally;

/* Adds one run of result r against the true value truth; returns its
 * outcome. Relative errors are the reported error over |r->value| and the
 * true error over |truth|. */
static inline genz_outcome genz_tally_add(genz_tally *t, const pagani_result *r,
                                          double truth, double epsrel)
{
    double true_abs = fabs(r->value - truth);
    double true_rel = true_abs / fabs(truth);

    t->runs++;
    t->seconds += r->seconds;
    if (r->seconds > t->max_seconds) t->max_seconds = r->seconds;
    if (true_abs <= 2.0 * r->error) t->within_2sigma++;
    if (r->status != PAGANI_CONVERGED) {
        t->not_converged++;
        return GENZ_NOT_CONVERGED;
    }
    if (!(true_rel <= epsrel)) {
        t->false_convergences++;
        return GENZ_FALSE_CONVERGENCE;
    }
    t->converged++;
    if (t->nratios == t->capacity) {
        int capacity = t->capacity ? 2 * t->capacity : 64;
        double *more = (double *)realloc(t->ratios, capacity * sizeof *more);
        if (!more) return GENZ_CONVERGED; /* the ratio alone is lost */
        t->ratios = more;
        t->capacity = capacity;
    }
    t->ratios[t->nratios++] = (r->error / fabs(r->value)) / true_rel;
    return GENZ_CONVERGED;
}

/* qsort's order of doubles, ascending. */
static inline int genz_compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median ratio reported/true of the converged runs (NAN if none);
 * sorts the ratios. A true error of 0 gives an infinite ratio. */
static inline double genz_tally_median(genz_tally *t)
{
    if (t->nratios == 0) return NAN;
    qsort(t->ratios, t->nratios, sizeof t->ratios[0], genz_compare_doubles);
    return t->nratios % 2 ? t->ratios[t->nratios / 2]
                          : 0.5 * (t->ratios[t->nratios / 2 - 1] +
                                   t->ratios[t->nratios / 2]);
}

/* The largest ratio reported/true of the converged runs (NAN if none). */
static inline double genz_tally_max(const genz_tally *t)
{
    double m = NAN;
    for (int i = 0; i < t->nratios; i++)
        if (!(t->ratios[i] <= m)) m = t->ratios[i];
    return m;
}

/* Frees the ratios of a tally and empties them. */
static inline void genz_tally_free(genz_tally *t)
{
    free(t->ratios);
    t->ratios = NULL;
    t->nratios = t->capacity = 0;
}

#endif /* PAGANI_TESTS_GENZ_H */
