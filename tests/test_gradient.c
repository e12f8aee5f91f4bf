/*
 * test_gradient.c - gradients on the CPU backend, and where a GPU is
 * usable the source checks again on CUDA (pagani.h, "gradients"):
 *  - Genz's oscillatory, product peak, Gaussian and C0 families in 2, 5
 *    and 8 dimensions, seeded instances, differentiated by every width
 *    and centre: under every method (C0: cubature in 2-D only), no
 *    component of a converged run is further from its analytic value
 *    (products of one-dimensional closed forms) than its tolerance
 *    (Monte Carlo: 5 reported sigma);
 *  - the automatic derivative equals a hand-written derivative integrand
 *    to rounding (QMC, the same points), over sources that call every
 *    <math.h> function with a derivative and use loops, branches, locals,
 *    ternaries, casts, compound assignments, an expression source, a
 *    vector source and a chosen subset of the parameters;
 *  - central differences of the integral (Richardson) agree with the
 *    gradient within the reported errors;
 *  - a host function's derivatives; a batch of gradients equal to single
 *    calls; bad arguments; constructs the differentiator refuses, each
 *    named in the message;
 *  - the derivatives by the limits of a Gaussian integral against the
 *    analytic face integrals, from source and from a host function.
 */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pagani.h"
#include "genz.h"
#include "tap.h"

#define MAX_P (2 * 8)

/* ---- analytic gradients of the Genz families -------------------------- */

/* One axis of a product family: its integral over [0,1] at (a, u) and
 * the integral's derivatives by a and u. */
static void axis_factor(int family, double a, double u, double *F,
                        double *Fa, double *Fu)
{
    double e0, e1;
    switch (family) {
    case GENZ_PRODUCT_PEAK: /* 1 / (a^-2 + (x - u)^2) */
        *F = a * (atan(a * (1 - u)) + atan(a * u));
        *Fa = atan(a * (1 - u)) + atan(a * u) +
              a * ((1 - u) / (1 + a * a * (1 - u) * (1 - u)) +
                   u / (1 + a * a * u * u));
        *Fu = a * a * (1 / (1 + a * a * u * u) -
                       1 / (1 + a * a * (1 - u) * (1 - u)));
        break;
    case GENZ_GAUSSIAN: /* exp(-a^2 (x - u)^2) */
        e0 = exp(-a * a * u * u);
        e1 = exp(-a * a * (1 - u) * (1 - u));
        *F = sqrt(M_PI) / (2 * a) * (erf(a * (1 - u)) + erf(a * u));
        *Fa = -*F / a + ((1 - u) * e1 + u * e0) / a;
        *Fu = e0 - e1;
        break;
    default: /* GENZ_C0: exp(-a |x - u|) */
        e0 = exp(-a * u);
        e1 = exp(-a * (1 - u));
        *F = (2 - e0 - e1) / a;
        *Fa = -*F / a + (u * e0 + (1 - u) * e1) / a;
        *Fu = e0 - e1;
        break;
    }
}

/* The integral of instance g and its gradient by p = (a, u) into
 * value[0] and value[1 .. 2n]. */
static void genz_gradient(const genz_params *g, double *value)
{
    int n = g->n;
    if (g->family == GENZ_OSCILLATORY) {
        /* Re e^{2 pi i u_1} prod_j G_j, G_j = int e^{i a_j x} dx */
        double complex G[8], dG[8], phase = cexp(2 * M_PI * I * g->u[0]);
        double complex all = phase;
        for (int j = 0; j < n; j++) {
            double complex e = cexp(I * g->a[j]), ia = I * g->a[j];
            G[j] = (e - 1) / ia;
            dG[j] = I * (e / ia - (e - 1) / (ia * ia));
            all *= G[j];
        }
        value[0] = creal(all);
        for (int k = 0; k < n; k++) {
            double complex d = phase * dG[k];
            for (int j = 0; j < n; j++)
                if (j != k) d *= G[j];
            value[1 + k] = creal(d);
            value[1 + n + k] = k == 0 ? creal(2 * M_PI * I * all) : 0.0;
        }
        return;
    }
    double F[8], Fa[8], Fu[8];
    value[0] = 1.0;
    for (int j = 0; j < n; j++) {
        axis_factor(g->family, g->a[j], g->u[j], &F[j], &Fa[j], &Fu[j]);
        value[0] *= F[j];
    }
    for (int k = 0; k < n; k++) {
        double rest = 1.0;
        for (int j = 0; j < n; j++)
            if (j != k) rest *= F[j];
        value[1 + k] = rest * Fa[k];
        value[1 + n + k] = rest * Fu[k];
    }
}

/* ---- Genz: every method, no false convergence ------------------------- */

/* The options of each run: cubature to 1e-5 (1e-3 for C0, whose kinks
 * its rules fit slowly), Vegas to 1e-2, QMC to 3e-3; epsabs the same
 * fraction of the integral, so that derivatives near 0 end by it. */
static pagani_options method_options(pagani_method method, int family,
                                     double scale)
{
    pagani_options o = pagani_options_default(method);
    o.seed = 7;
    o.max_evaluations = 10000000;
    if (method == PAGANI_CUBATURE) {
        o.epsrel = family == GENZ_C0 ? 1e-3 : 1e-5;
        o.flags = genz_cubature_flags(family);
    } else if (method == PAGANI_VEGAS) {
        o.epsrel = 1e-2;
        o.vegas_calls = 2e5;
    } else {
        o.epsrel = 3e-3;
    }
    o.epsabs = o.epsrel * scale;
    return o;
}

/* Whether the method is tried on the family in n dimensions: not
 * cubature on C0 above 2-D (its kinks need millions of regions: the
 * methods of its kind are Monte Carlo's). */
static int tried(pagani_method method, int family, int n)
{
    return !(method == PAGANI_CUBATURE && family == GENZ_C0 && n > 2);
}

static void check_genz(pagani_context *ctx)
{
    static const int families[] = {GENZ_OSCILLATORY, GENZ_PRODUCT_PEAK,
                                   GENZ_GAUSSIAN, GENZ_C0};
    static const int dims[] = {2, 5, 8};
    static const pagani_method methods[] = {PAGANI_CUBATURE, PAGANI_VEGAS,
                                            PAGANI_QMC};
    double lo[8] = {0}, hi[8] = {1, 1, 1, 1, 1, 1, 1, 1};

    for (size_t fi = 0; fi < sizeof families / sizeof *families; fi++)
        for (size_t di = 0; di < sizeof dims / sizeof *dims; di++) {
            int family = families[fi], n = dims[di], converged[3] = {0};
            double p[MAX_P];
            genz_params g;
            pagani_integrand *f;
            int rc;

            genz_generate(&g, family, n, 1, 0.25);
            genz_pack(&g, p);
            rc = pagani_integrand_gradient_from_source(
                ctx, &f, n, 0, genz_source(family), p,
                2 * n * sizeof(double), NULL, 0);
            if (!tap_ok(rc == PAGANI_OK, "%s %d-D: gradient source compiles "
                        "(%s)", genz_name(family), n,
                        pagani_context_message(ctx)))
                continue;
            for (uint64_t seed = 1; seed <= 2; seed++) {
                double truth[1 + MAX_P], v[1 + MAX_P], e[1 + MAX_P];
                genz_generate(&g, family, n, seed, 0.25);
                genz_pack(&g, p);
                pagani_integrand_set_params(f, p, 2 * n * sizeof(double));
                genz_gradient(&g, truth);
                for (int mi = 0; mi < 3; mi++) {
                    pagani_options o = method_options(methods[mi], family,
                                                      fabs(truth[0]));
                    pagani_result r;
                    int bad = -1;
                    double worst = 0.0;
                    if (!tried(methods[mi], family, n)) continue;
                    rc = pagani_integrate_gradient(ctx, f, lo, hi, &o, &r, v,
                                                   e, v + 1, e + 1);
                    if (rc != PAGANI_OK) {
                        tap_ok(0, "%s %d-D seed %d %s: rc %d (%s)",
                               genz_name(family), n, (int)seed,
                               pagani_method_name(methods[mi]), rc,
                               pagani_context_message(ctx));
                        continue;
                    }
                    if (r.status != PAGANI_CONVERGED) continue;
                    converged[mi]++;
                    for (int k = 0; k <= 2 * n; k++) {
                        double err = fabs(v[k] - truth[k]);
                        double tol = methods[mi] == PAGANI_CUBATURE ?
                            fmax(o.epsabs, o.epsrel * fabs(truth[k])) :
                            5.0 * e[k];
                        if (err > tol && (bad < 0 || err / tol > worst)) {
                            bad = k;
                            worst = err / tol;
                        }
                    }
                    tap_ok(bad < 0, "%s %d-D seed %d %s: every one of %d "
                           "components within its tolerance of the analytic "
                           "gradient%s (%lld evaluations)", genz_name(family),
                           n, (int)seed, pagani_method_name(methods[mi]),
                           1 + 2 * n, bad < 0 ? "" : ", NOT", r.evaluations);
                    if (bad >= 0)
                        printf("# component %d: %.10g, true %.10g, reported "
                               "error %.3g (%.3g tolerances off)\n", bad,
                               v[bad], truth[bad], e[bad], worst);
                }
            }
            for (int mi = 0; mi < 3; mi++)
                if (tried(methods[mi], family, n))
                        tap_ok(converged[mi] > 0, "%s %d-D %s: %d of 2 runs "
                           "converged (the check above is not vacuous)",
                           genz_name(family), n,
                           pagani_method_name(methods[mi]), converged[mi]);
            pagani_integrand_destroy(f);
        }
}

/* ---- the automatic derivative against hand-written ones --------------- */

/* A source, the parameters it is differentiated by, and a vector source
 * writing the same components by hand (the values, then each value's
 * derivatives). */
typedef struct hand_case {
    const char *what;
    int ncomp;              /* of the source: 0 scalar */
    const char *source;
    int nwhich;             /* 0: every parameter */
    int which[2];
    const char *hand;
} hand_case;

static const hand_case hand_cases[] = {
    {"loops, locals, exp sin cos pow", 0,
     "double s = 0.0;\n"
     "for (int i = 0; i < n; i++) s += p[0] * x[i] * x[i];\n"
     "return exp(-s) * sin(p[1] * x[0]) + pow(p[0], 3) * cos(x[1]);",
     0, {0, 0},
     "double s = 0.0, ds = 0.0;\n"
     "for (int i = 0; i < n; i++) { s += p[0] * x[i] * x[i]; ds += x[i] * x[i]; }\n"
     "double e = exp(-s), si = sin(p[1] * x[0]);\n"
     "f[0] = e * si + pow(p[0], 3) * cos(x[1]);\n"
     "f[1] = -ds * e * si + 3 * p[0] * p[0] * cos(x[1]);\n"
     "f[2] = e * cos(p[1] * x[0]) * x[0];"},
    {"a chosen parameter (p[1] only)", 0,
     "double s = 0.0;\n"
     "for (int i = 0; i < n; i++) s += p[0] * x[i] * x[i];\n"
     "return exp(-s) * sin(p[1] * x[0]) + pow(p[0], 3) * cos(x[1]);",
     1, {1, 0},
     "double s = 0.0;\n"
     "for (int i = 0; i < n; i++) s += p[0] * x[i] * x[i];\n"
     "f[0] = exp(-s) * sin(p[1] * x[0]) + pow(p[0], 3) * cos(x[1]);\n"
     "f[1] = exp(-s) * cos(p[1] * x[0]) * x[0];"},
    {"branches, ternaries, casts, fabs fmin fmax fdim", 0,
     "double t = p[0] * x[0] + (double)(int)(3 * x[1]);\n"
     "double u;\n"
     "if (x[1] < 0.5) u = fabs(t - 1.0);\n"
     "else u = fmax(t, p[1]) + fmin(x[0], p[1]);\n"
     "return x[0] > 0.3 ? u + fdim(p[0], x[1]) : u * u;",
     0, {0, 0},
     "double t = p[0] * x[0] + (double)(int)(3 * x[1]);\n"
     "double u, u0, u1;\n"
     "if (x[1] < 0.5) {\n"
     "    u = fabs(t - 1.0);\n"
     "    u0 = (t > 1.0 ? 1.0 : t < 1.0 ? -1.0 : 0.0) * x[0];\n"
     "    u1 = 0.0;\n"
     "} else {\n"
     "    u = fmax(t, p[1]) + fmin(x[0], p[1]);\n"
     "    u0 = p[1] > t ? 0.0 : x[0];\n"
     "    u1 = (p[1] > t ? 1.0 : 0.0) + (p[1] < x[0] ? 1.0 : 0.0);\n"
     "}\n"
     "if (x[0] > 0.3) {\n"
     "    f[0] = u + fdim(p[0], x[1]);\n"
     "    f[1] = u0 + (p[0] > x[1] ? 1.0 : 0.0);\n"
     "    f[2] = u1;\n"
     "} else {\n"
     "    f[0] = u * u;\n"
     "    f[1] = 2 * u * u0;\n"
     "    f[2] = 2 * u * u1;\n"
     "}"},
    {"sqrt cbrt exp2 expm1 log log2 log10 log1p", 0,
     "return sqrt(p[0] + x[0]) + cbrt(p[0] * x[1] + 1) + exp2(p[1] * x[0])\n"
     "     + expm1(p[1] * x[1]) + log(p[0] + x[0]) + log2(p[1] + x[1])\n"
     "     + log10(p[0] + x[1]) + log1p(p[1] * x[0]);",
     0, {0, 0},
     "double c = cbrt(p[0] * x[1] + 1);\n"
     "f[0] = sqrt(p[0] + x[0]) + c + exp2(p[1] * x[0])\n"
     "     + expm1(p[1] * x[1]) + log(p[0] + x[0]) + log2(p[1] + x[1])\n"
     "     + log10(p[0] + x[1]) + log1p(p[1] * x[0]);\n"
     "f[1] = 0.5 / sqrt(p[0] + x[0]) + x[1] / (3 * c * c)\n"
     "     + 1 / (p[0] + x[0]) + 1 / (M_LN10 * (p[0] + x[1]));\n"
     "f[2] = M_LN2 * exp2(p[1] * x[0]) * x[0] + exp(p[1] * x[1]) * x[1]\n"
     "     + 1 / (M_LN2 * (p[1] + x[1])) + x[0] / (1 + p[1] * x[0]);"},
    {"tan asin acos atan atan2 hypot", 0,
     "return tan(p[0] * x[0]) + asin(p[1] * x[1]) + acos(p[1] * x[0])\n"
     "     + atan(p[0] * x[1]) + atan2(p[0], x[0] + 1) + atan2(x[1], p[1])\n"
     "     + hypot(p[0], x[1]) + hypot(x[0], p[1]);",
     0, {0, 0},
     "double t = tan(p[0] * x[0]);\n"
     "f[0] = t + asin(p[1] * x[1]) + acos(p[1] * x[0])\n"
     "     + atan(p[0] * x[1]) + atan2(p[0], x[0] + 1) + atan2(x[1], p[1])\n"
     "     + hypot(p[0], x[1]) + hypot(x[0], p[1]);\n"
     "f[1] = (1 + t * t) * x[0] + x[1] / (1 + p[0] * p[0] * x[1] * x[1])\n"
     "     + (x[0] + 1) / ((x[0] + 1) * (x[0] + 1) + p[0] * p[0])\n"
     "     + p[0] / hypot(p[0], x[1]);\n"
     "f[2] = x[1] / sqrt(1 - p[1] * p[1] * x[1] * x[1])\n"
     "     - x[0] / sqrt(1 - p[1] * p[1] * x[0] * x[0])\n"
     "     - x[1] / (p[1] * p[1] + x[1] * x[1]) + p[1] / hypot(x[0], p[1]);"},
    {"sinh cosh tanh asinh acosh atanh erf erfc", 0,
     "return sinh(p[0] * x[0]) + cosh(p[1] * x[1]) + tanh(p[0] * x[1])\n"
     "     + asinh(p[1] * x[0]) + acosh(1 + p[0] + x[0])\n"
     "     + atanh(0.5 * p[1] * x[1]) + erf(p[0] * x[0]) + erfc(p[1] * x[1]);",
     0, {0, 0},
     "double th = tanh(p[0] * x[1]), c = 1 + p[0] + x[0];\n"
     "f[0] = sinh(p[0] * x[0]) + cosh(p[1] * x[1]) + th\n"
     "     + asinh(p[1] * x[0]) + acosh(c)\n"
     "     + atanh(0.5 * p[1] * x[1]) + erf(p[0] * x[0]) + erfc(p[1] * x[1]);\n"
     "f[1] = cosh(p[0] * x[0]) * x[0] + (1 - th * th) * x[1]\n"
     "     + 1 / sqrt(c * c - 1)\n"
     "     + M_2_SQRTPI * exp(-p[0] * p[0] * x[0] * x[0]) * x[0];\n"
     "f[2] = sinh(p[1] * x[1]) * x[1] + x[0] / sqrt(p[1] * p[1] * x[0] * x[0] + 1)\n"
     "     + 0.5 * x[1] / (1 - 0.25 * p[1] * p[1] * x[1] * x[1])\n"
     "     - M_2_SQRTPI * exp(-p[1] * p[1] * x[1] * x[1]) * x[1];"},
    {"tgamma lgamma j0 j1 y0 y1 jn yn (p[0] = 1.5)", 0,
     "return tgamma(p[0]) * x[0] + lgamma(p[0]) * x[1] + j0(p[1] * x[0])\n"
     "     + j1(p[1] * x[1]) + y0(p[1] + x[0]) + y1(p[1] + x[1])\n"
     "     + jn(2, p[1] * x[0]) + yn(2, p[1] + x[1]);",
     0, {0, 0},
     "const double psi = 2.0 - 0.57721566490153286061 - 2.0 * M_LN2;\n"
     "double a = p[1] * x[1], b = p[1] + x[1], c = p[1] * x[0];\n"
     "f[0] = tgamma(p[0]) * x[0] + lgamma(p[0]) * x[1] + j0(c)\n"
     "     + j1(a) + y0(p[1] + x[0]) + y1(b) + jn(2, c) + yn(2, b);\n"
     "f[1] = tgamma(p[0]) * psi * x[0] + psi * x[1];\n"
     "f[2] = -j1(c) * x[0] + (j0(a) - j1(a) / a) * x[1] - y1(p[1] + x[0])\n"
     "     + (y0(b) - y1(b) / b) + 0.5 * (j1(c) - jn(3, c)) * x[0]\n"
     "     + 0.5 * (y1(b) - yn(3, b));"},
    {"compound assignments, ++, unary minus, pow ldexp scalbn fma", 0,
     "double a = p[0];\n"
     "a *= x[0] + 1;\n"
     "a /= p[1] + x[1];\n"
     "a -= -p[1];\n"
     "a++;\n"
     "return pow(a, 2.5) + pow(2.0, p[1]) + pow(p[0], p[1] * x[0])\n"
     "     + ldexp(p[0], 3) + scalbn(p[1], -1) + fma(p[0], x[0], p[1]);",
     0, {0, 0},
     "double q = p[1] + x[1], a = p[0] * (x[0] + 1) / q + p[1] + 1;\n"
     "double a0 = (x[0] + 1) / q, a1 = -p[0] * (x[0] + 1) / (q * q) + 1;\n"
     "double w = pow(p[0], p[1] * x[0]);\n"
     "f[0] = pow(a, 2.5) + pow(2.0, p[1]) + w + 8 * p[0] + 0.5 * p[1]\n"
     "     + p[0] * x[0] + p[1];\n"
     "f[1] = 2.5 * pow(a, 1.5) * a0 + p[1] * x[0] * pow(p[0], p[1] * x[0] - 1)\n"
     "     + 8 + x[0];\n"
     "f[2] = 2.5 * pow(a, 1.5) * a1 + pow(2.0, p[1]) * M_LN2\n"
     "     + w * log(p[0]) * x[0] + 0.5 + 1;"},
    {"a static table, an index from x", 0,
     "static const double w[3] = {0.5, 1.0, 2.0};\n"
     "return w[(int)(3 * x[0])] * p[0] * p[1];",
     0, {0, 0},
     "static const double w[3] = {0.5, 1.0, 2.0};\n"
     "double c = w[(int)(3 * x[0])];\n"
     "f[0] = c * p[0] * p[1];\n"
     "f[1] = c * p[1];\n"
     "f[2] = c * p[0];"},
    {"an expression source", 0,
     "p[0] * x[0] * x[0] + sin(p[1] * x[1]);",
     0, {0, 0},
     "f[0] = p[0] * x[0] * x[0] + sin(p[1] * x[1]);\n"
     "f[1] = x[0] * x[0];\n"
     "f[2] = cos(p[1] * x[1]) * x[1];"},
    {"a vector source of 2 components", 2,
     "f[0] = p[0] * x[0];\n"
     "f[1] = exp(p[1] * x[1]) * p[0];",
     0, {0, 0},
     "f[0] = p[0] * x[0];\n"
     "f[1] = exp(p[1] * x[1]) * p[0];\n"
     "f[2] = x[0];\n"
     "f[3] = 0.0;\n"
     "f[4] = exp(p[1] * x[1]);\n"
     "f[5] = exp(p[1] * x[1]) * x[1] * p[0];"},
};

static void check_hand(pagani_context *ctx)
{
    double lo[2] = {0, 0}, hi[2] = {1, 1};
    double p[2] = {1.5, 0.7};
    pagani_options o = pagani_options_default(PAGANI_QMC);
    o.max_iterations = 1;
    o.qmc_initial_points = 4096;
    o.epsrel = 1e-15;

    for (size_t i = 0; i < sizeof hand_cases / sizeof *hand_cases; i++) {
        const hand_case *h = &hand_cases[i];
        int values = h->ncomp > 0 ? h->ncomp : 1;
        int m = h->nwhich > 0 ? h->nwhich : 2, ncomp = values * (1 + m);
        double va[8], ea[8], vh[8], eh[8], worst = 0.0;
        pagani_integrand *fa = NULL, *fh = NULL;
        pagani_result ra, rh;
        int rc = pagani_integrand_gradient_from_source(
            ctx, &fa, 2, h->ncomp, h->source, p, sizeof p,
            h->nwhich > 0 ? h->which : NULL, h->nwhich);
        if (!tap_ok(rc == PAGANI_OK, "%s: the gradient compiles (%s)",
                    h->what, pagani_context_message(ctx)))
            continue;
        tap_ok(pagani_integrand_components(fa) == ncomp, "%s: %d components",
               h->what, ncomp);
        rc = pagani_integrand_from_vector_source(ctx, &fh, 2, ncomp, h->hand,
                                                 p, sizeof p);
        if (!tap_ok(rc == PAGANI_OK, "%s: the hand-written derivative "
                    "compiles (%s)", h->what, pagani_context_message(ctx))) {
            pagani_integrand_destroy(fa);
            continue;
        }
        rc = pagani_integrate_vector(ctx, fa, lo, hi, &o, &ra, va, ea);
        rc |= pagani_integrate_vector(ctx, fh, lo, hi, &o, &rh, vh, eh);
        for (int k = 0; k < ncomp; k++)
            worst = fmax(worst, fabs(va[k] - vh[k]) / fmax(1.0, fabs(vh[k])));
        tap_ok(rc == PAGANI_OK && worst <= 1e-12, "%s: every component "
               "equals the hand-written one to rounding (largest "
               "difference %.2g)", h->what, worst);
        pagani_integrand_destroy(fa);
        pagani_integrand_destroy(fh);
    }
}

/* ---- finite differences ----------------------------------------------- */

/* dI/dp_k of the Gaussian family in 3-D from the gradient, against
 * Richardson's central difference (8 (I(p+h) - I(p-h)) - (I(p+2h) -
 * I(p-2h))) / 12h: they agree within the reported errors (the
 * difference's error is at most 1.5 max_error / h, its truncation
 * O(h^4)). */
static void check_differences(pagani_context *ctx)
{
    const int n = 3, params[2] = {0, 3}; /* a_1 and u_1 */
    const double h = 1e-3;
    double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1}, p[6], v[7], e[7];
    pagani_options o = pagani_options_default(PAGANI_CUBATURE);
    pagani_integrand *f = NULL, *fg = NULL;
    pagani_result r;
    genz_params g;

    genz_generate(&g, GENZ_GAUSSIAN, n, 3, 0.25);
    genz_pack(&g, p);
    o.epsrel = 1e-11;
    if (!tap_ok(pagani_integrand_from_source(ctx, &f, n, genz_source(
                    GENZ_GAUSSIAN), p, sizeof p) == PAGANI_OK &&
                pagani_integrand_gradient_from_source(
                    ctx, &fg, n, 0, genz_source(GENZ_GAUSSIAN), p, sizeof p,
                    params, 2) == PAGANI_OK,
                "Gaussian 3-D: the integrand and its gradient compile"))
        return;
    tap_ok(pagani_integrate_gradient(ctx, fg, lo, hi, &o, &r, v, e, v + 1,
                                     e + 1) == PAGANI_OK &&
           r.status == PAGANI_CONVERGED, "Gaussian 3-D: gradient converged");
    for (int j = 0; j < 2; j++) {
        static const double steps[4] = {1, -1, 2, -2};
        double at[4], maxerr = 0.0, d, bound;
        for (int s = 0; s < 4; s++) {
            double q[6];
            memcpy(q, p, sizeof q);
            q[params[j]] += steps[s] * h;
            pagani_integrand_set_params(f, q, sizeof q);
            pagani_integrate(ctx, f, lo, hi, &o, &r);
            at[s] = r.value;
            maxerr = fmax(maxerr, r.error);
        }
        d = (8 * (at[0] - at[1]) - (at[2] - at[3])) / (12 * h);
        bound = 3.0 * (e[1 + j] + 1.5 * maxerr / h) + 1e-9 * fabs(d);
        tap_ok(fabs(d - v[1 + j]) <= bound, "Gaussian 3-D: dI/dp[%d] %.12g "
               "and the central difference %.12g agree within %.2g (the "
               "reported errors)", params[j], v[1 + j], d, bound);
    }
    pagani_integrand_destroy(f);
    pagani_integrand_destroy(fg);
}

/* ---- a host function's derivatives ------------------------------------ */

/* The 2-D Gaussian family with its derivatives by every a_i and u_i, by
 * hand, in the gradient layout. */
static void gaussian_gradient(const double *x, int n, const void *params,
                              double *f)
{
    const double *a = (const double *)params, *u = a + n;
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += a[i] * a[i] * (x[i] - u[i]) * (x[i] - u[i]);
    f[0] = exp(-s);
    for (int i = 0; i < n; i++) {
        double d = x[i] - u[i];
        f[1 + i] = -2 * a[i] * d * d * f[0];
        f[1 + n + i] = 2 * a[i] * a[i] * d * f[0];
    }
}

static void check_function(pagani_context *ctx)
{
    double lo[2] = {0, 0}, hi[2] = {1, 1}, p[4], truth[5], v[5], e[5];
    pagani_options o = pagani_options_default(PAGANI_CUBATURE);
    pagani_integrand *f = NULL;
    pagani_result r;
    genz_params g;
    int ok = 1;

    genz_generate(&g, GENZ_GAUSSIAN, 2, 5, 0.25);
    genz_pack(&g, p);
    genz_gradient(&g, truth);
    o.epsrel = 1e-8;
    o.epsabs = 1e-10;
    if (!tap_ok(pagani_integrand_gradient_from_function(
                    ctx, &f, 2, 1, 4, gaussian_gradient, p, sizeof p) ==
                    PAGANI_OK && pagani_integrand_components(f) == 5,
                "host function: a gradient integrand of 5 components"))
        return;
    tap_ok(pagani_integrate_gradient(ctx, f, lo, hi, &o, &r, v, e, v + 1,
                                     e + 1) == PAGANI_OK &&
           r.status == PAGANI_CONVERGED, "host function: converged");
    for (int k = 0; k < 5; k++)
        ok &= fabs(v[k] - truth[k]) <= fmax(o.epsabs, o.epsrel * fabs(truth[k]));
    tap_ok(ok, "host function: value and gradient within their tolerances "
           "of the analytic ones");
    pagani_integrand_destroy(f);
}

/* ---- batches ---------------------------------------------------------- */

/* Three parameter blocks in one batch: each integral's gradient is the
 * single call's, bit for bit. */
static void check_batch(pagani_context *ctx)
{
    double lo[2] = {0, 0}, hi[2] = {1, 1};
    double blocks[3][2] = {{1.5, 0.7}, {0.5, 1.1}, {2.0, 0.2}};
    double bv[9], be[9];
    pagani_options o = pagani_options_default(PAGANI_CUBATURE);
    pagani_result rb[3], r;
    pagani_integrand *f = NULL;
    int same = 1, rc;

    o.epsrel = 1e-7;
    o.epsabs = 1e-12;
    if (!tap_ok(pagani_integrand_gradient_from_source(
                    ctx, &f, 2, 0, hand_cases[0].source, blocks[0],
                    sizeof blocks[0], NULL, 0) == PAGANI_OK,
                "batch: the gradient compiles"))
        return;
    rc = pagani_integrate_batch_vector(ctx, f, 3, blocks, sizeof blocks[0],
                                       lo, hi, 0, &o, rb, bv, be);
    tap_ok(rc == PAGANI_OK, "batch: three gradients in one call");
    for (int k = 0; k < 3; k++) {
        double v, e, g[2], ge[2];
        pagani_integrand_set_params(f, blocks[k], sizeof blocks[k]);
        rc = pagani_integrate_gradient(ctx, f, lo, hi, &o, &r, &v, &e, g, ge);
        same &= rc == PAGANI_OK && rb[k].status == r.status &&
                bv[3 * k] == v && bv[3 * k + 1] == g[0] &&
                bv[3 * k + 2] == g[1] && be[3 * k + 1] == ge[0] &&
                be[3 * k + 2] == ge[1];
    }
    tap_ok(same, "batch: each integral's value, gradient and errors equal "
           "the single call's");
    pagani_integrand_destroy(f);
}

/* ---- derivatives by the limits ---------------------------------------- */

/* exp(-sum a_i^2 (x_i - u_i)^2) over [lo, hi] in 3-D: d/dhi_k is
 * exp(-a_k^2 (hi_k - u_k)^2) times the other axes' integrals, d/dlo_k
 * minus the same at lo_k; from source and from a host function, to the
 * options' tolerance. */
static double gaussian_host(const double *x, int n, const void *params)
{
    const double *a = (const double *)params, *u = a + n;
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += a[i] * a[i] * (x[i] - u[i]) * (x[i] - u[i]);
    return exp(-s);
}

static void check_limits(pagani_context *ctx, int host_forms)
{
    const int n = 3;
    double p[6] = {1.3, 0.7, 2.1, 0.4, 0.55, 0.3};
    double lo[3] = {-0.2, 0.1, 0.0}, hi[3] = {0.9, 1.2, 0.8};
    double F[3], dlo[3], dhi[3], vlo[3], elo[3], vhi[3], ehi[3];
    pagani_options o = pagani_options_default(PAGANI_CUBATURE);
    pagani_result r[6];

    o.epsrel = 1e-9;
    for (int i = 0; i < n; i++) {
        double a = p[i], u = p[n + i];
        F[i] = sqrt(M_PI) / (2 * a) * (erf(a * (hi[i] - u)) -
                                       erf(a * (lo[i] - u)));
        dhi[i] = exp(-a * a * (hi[i] - u) * (hi[i] - u));
        dlo[i] = -exp(-a * a * (lo[i] - u) * (lo[i] - u));
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (j != i) {
                dhi[i] *= F[j];
                dlo[i] *= F[j];
            }
    for (int form = 0; form < 1 + host_forms; form++) {
        pagani_integrand *f = NULL;
        int rc = form == 0 ?
            pagani_integrand_from_source(ctx, &f, n, genz_source(
                GENZ_GAUSSIAN), p, sizeof p) :
            pagani_integrand_from_function(ctx, &f, n, gaussian_host, p,
                                           sizeof p);
        int ok = 1;
        const char *what = form == 0 ? "source" : "host function";
        rc = rc == PAGANI_OK ?
            pagani_integrate_limits_gradient(ctx, f, lo, hi, &o, r, vlo, elo,
                                             vhi, ehi) : rc;
        tap_ok(rc == PAGANI_OK, "limits, %s: the 6 faces integrate (%s)",
               what, pagani_context_message(ctx));
        for (int i = 0; rc == PAGANI_OK && i < n; i++) {
            ok &= r[i].status == PAGANI_CONVERGED &&
                  r[n + i].status == PAGANI_CONVERGED;
            ok &= fabs(vlo[i] - dlo[i]) <= 1e-9 * fabs(dlo[i]) &&
                  fabs(vhi[i] - dhi[i]) <= 1e-9 * fabs(dhi[i]);
            ok &= elo[i] <= 1e-9 * fabs(vlo[i]) && ehi[i] <= 1e-9 * fabs(vhi[i]);
        }
        tap_ok(rc == PAGANI_OK && ok, "limits, %s: every d/dlower and "
               "d/dupper converged within 1e-9 of the analytic face "
               "integrals (d/dupper[0] %.12g, true %.12g)", what, vhi[0],
               dhi[0]);
        pagani_integrand_destroy(f);
    }
}

/* ---- bad arguments and refused constructs ----------------------------- */

static void check_errors(pagani_context *ctx)
{
    double p[2] = {1.0, 2.0}, lo[2] = {0, 0}, hi[2] = {1, 1}, v, e, g, ge;
    int bad_index[1] = {2}, twice[2] = {1, 1};
    pagani_integrand *f = NULL;
    pagani_result r;

    tap_ok(pagani_integrand_gradient_from_source(ctx, &f, 2, 0, "p[0]", p,
                                                 sizeof p, bad_index, 1) ==
               PAGANI_ERR_PARAMS && !f,
           "which[] outside the block: PAGANI_ERR_PARAMS (%s)",
           pagani_context_message(ctx));
    tap_ok(pagani_integrand_gradient_from_source(ctx, &f, 2, 0, "p[0]", p,
                                                 sizeof p, twice, 2) ==
               PAGANI_ERR_PARAMS,
           "a parameter chosen twice: PAGANI_ERR_PARAMS");
    tap_ok(pagani_integrand_gradient_from_source(ctx, &f, 2, 0, "x[0]", NULL,
                                                 0, NULL, 0) ==
               PAGANI_ERR_PARAMS,
           "no parameter to differentiate: PAGANI_ERR_PARAMS");
    tap_ok(pagani_integrand_gradient_from_source(ctx, &f, 2, 40, "f[0] = 1;",
                                                 p, sizeof p, NULL, 0) ==
               PAGANI_ERR_COMPONENTS,
           "40 values with 2 derivatives each: PAGANI_ERR_COMPONENTS (%s)",
           pagani_context_message(ctx));
    tap_ok(pagani_integrand_gradient_from_function(ctx, &f, 2, 1, 0,
                                                   gaussian_gradient, p,
                                                   sizeof p) ==
               PAGANI_ERR_COMPONENTS,
           "a host gradient of no parameters: PAGANI_ERR_COMPONENTS");
    pagani_integrand_from_source(ctx, &f, 2, "x[0]", NULL, 0);
    tap_ok(pagani_integrate_gradient(ctx, f, lo, hi, NULL, &r, &v, &e, &g,
                                     &ge) == PAGANI_ERR_COMPONENTS,
           "pagani_integrate_gradient of a plain integrand: "
           "PAGANI_ERR_COMPONENTS");
    pagani_integrand_destroy(f);
    f = NULL;
    pagani_integrand_gradient_from_source(ctx, &f, 2, 0, "p[0] * x[0]", p,
                                          sizeof p, NULL, 0);
    pagani_integrand_set_params(f, p, sizeof p[0]);
    tap_ok(pagani_integrate_gradient(ctx, f, lo, hi, NULL, &r, &v, &e, &g,
                                     &ge) == PAGANI_ERR_PARAMS,
           "a block smaller than at creation: PAGANI_ERR_PARAMS (%s)",
           pagani_context_message(ctx));
    pagani_integrand_destroy(f);
    f = NULL;
    pagani_integrand_from_source(ctx, &f, 1, "x[0]", NULL, 0);
    tap_ok(pagani_integrate_limits_gradient(ctx, f, lo, hi, NULL, &r, &v, &e,
                                            &g, &ge) == PAGANI_ERR_DIMENSION,
           "limits' derivatives in 1-D: PAGANI_ERR_DIMENSION");
    pagani_integrand_destroy(f);
    f = NULL;
    pagani_integrand_from_source(ctx, &f, 2, "x[0]", NULL, 0);
    hi[1] = INFINITY;
    {
        pagani_result rs[4];
        double d[8];
        tap_ok(pagani_integrate_limits_gradient(ctx, f, lo, hi, NULL, rs, d,
                                                d + 2, d + 4, d + 6) ==
                   PAGANI_ERR_BOUNDS,
               "limits' derivatives of an unbounded axis: PAGANI_ERR_BOUNDS");
    }
    pagani_integrand_destroy(f);
}

/* Each construct is refused at compile time with its name and line. */
static void check_refusals(pagani_context *ctx)
{
    static const struct {
        const char *source, *named;
    } cases[] = {
        {"double t = x[0] * p[0];\nreturn floor(t);", "`floor`"},
        {"double t = p[0];\nreturn fmod(t, 0.5);", "`fmod`"},
        {"double t = p[0];\nreturn copysign(1.0, t);", "`copysign`"},
        {"double t = p[1];\nreturn (int)t * x[0];", "conversion"},
        {"double t = p[0];\nint k = t;\nreturn k;", "conversion"},
        {"double t = p[0];\nreturn *(&t);", "address"},
        {"double t = p[0];\nreturn ((const double *)params)[0] * t;",
         "`params`"},
        {"double t = p[0];\nreturn isnan(t) ? 0.0 : t;", "`isnan`"},
        {"double t = p[0];\nconst double *y = x;\nreturn y[0] * t;",
         "pointer to x"},
    };
    double p[2] = {1.0, 2.0};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        pagani_integrand *f = NULL;
        int rc = pagani_integrand_gradient_from_source(
            ctx, &f, 2, 0, cases[i].source, p, sizeof p, NULL, 0);
        const char *m = pagani_context_message(ctx);
        tap_ok(rc == PAGANI_ERR_COMPILE && !f &&
               strstr(m, "integrand:2: the gradient cannot differentiate") &&
               strstr(m, cases[i].named),
               "refused, naming %s at line 2: %.100s", cases[i].named, m);
    }
}

/* The checks of source integrands, on ctx's backend. */
static void check_source(pagani_context *ctx)
{
    check_refusals(ctx);
    check_hand(ctx);
    check_differences(ctx);
    check_batch(ctx);
    check_genz(ctx);
}

int main(void)
{
    pagani_context *ctx, *gpu = NULL;
    if (pagani_context_create(&ctx, PAGANI_BACKEND_CPU) != PAGANI_OK) {
        tap_plan(1);
        tap_ok(0, "CPU context");
        return tap_exit_code();
    }
    check_errors(ctx);
    check_function(ctx);
    check_limits(ctx, 1);
    check_source(ctx);
    pagani_context_destroy(ctx);
    /* The same on CUDA (NVRTC compiles the same dual numbers), where a
     * GPU is usable; skipped, never passed, elsewhere. */
    if (pagani_context_create(&gpu, PAGANI_BACKEND_CUDA) == PAGANI_OK) {
        check_limits(gpu, 0);
        check_source(gpu);
    } else {
        tap_skip("no usable GPU: the gradients on CUDA (%s)",
                 pagani_context_message(gpu));
    }
    pagani_context_destroy(gpu);
    tap_done();
    return tap_exit_code();
}
