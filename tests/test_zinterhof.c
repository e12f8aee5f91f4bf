/*
 * test_zinterhof.c - the Zinterhof sequence and the exact accumulator:
 * frac(k * e^(1/i)) against 80-digit references for k up to 2^52, points
 * inside [0,1), stepping by additions equal to multiplying, shifts
 * reproducible, and sums independent of order and of carry timing.
 */
#define PAGANI_XSUM_MAX_LOAD 5 /* renormalise often: exercises the carries */
#include <math.h>
#include <stdlib.h>
#include "tap.h"
#include "sampling/exact_sum.h"
#include "sampling/qmc_point.h"
#include "sampling/zinterhof_table.h"

/* floor(frac(k * e^(1/i)) * 2^53), computed by Python's decimal module at
 * 80 digits; every reference lies more than 2^-20 of a unit from the next
 * integer, so the 128-bit computation (error < k * 2^-129) must hit it. */
static const struct { int i; unsigned long long k, ref; } refs[] = {
    {1, 0x1ULL, 0x0016fc2a2c515da5ULL},             /* 0.718281828459045235 */
    {1, 0x3039ULL, 0x00060db31facd84eULL},          /* 0.189172326913430522 */
    {1, 0x100000001ULL, 0x000859cf79a94bd0ULL},     /* 0.260963189716102701 */
    {1, 0xfffffffffdULL, 0x0018b0ced2fa1220ULL},    /* 0.771582996429575748 */
    {1, 0x20000000000ULL, 0x001b4a9aafdc5620ULL},   /* 0.852856963613422908 */
    {1, 0x10000000000007ULL, 0x0015baa618ea90bfULL}, /* 0.679034279503433316 */
    {2, 0x1ULL, 0x0014c2531c3c0d37ULL},             /* 0.648721270700128146 */
    {2, 0x3039ULL, 0x000ed9cc8bd95ceaULL},          /* 0.464086793081972846 */
    {2, 0x100000001ULL, 0x0010cf8aaf21cd16ULL},     /* 0.525334684424168742 */
    {2, 0xfffffffffdULL, 0x000ef099910bb7b0ULL},    /* 0.466870101254007978 */
    {2, 0x20000000000ULL, 0x001a6f25cb7fbeadULL},   /* 0.826067826708784837 */
    {2, 0x10000000000007ULL, 0x000a7ea1c399ca43ULL}, /* 0.327957994492244988 */
    {7, 0x1ULL, 0x0004ea0122dc510eULL},             /* 0.153564994895107753 */
    {7, 0x3039ULL, 0x001850ca1240d298ULL},          /* 0.759861980105216480 */
    {7, 0x100000001ULL, 0x00013b0fef210ed8ULL},     /* 0.038459746407592240 */
    {7, 0xfffffffffdULL, 0x000250c8dc28d667ULL},    /* 0.072361402510705528 */
    {7, 0x20000000000ULL, 0x00021d98897b9328ULL},   /* 0.066112774392057577 */
    {7, 0x10000000000007ULL, 0x000f2a53d09f7a34ULL}, /* 0.473916919199672486 */
    {64, 0x1ULL, 0x0000810156abbc72ULL},            /* 0.015747708586685747 */
    {64, 0x3039ULL, 0x000cf98c7f925e4cULL},         /* 0.405462502635552375 */
    {64, 0x100000001ULL, 0x000c3d738602c908ULL},    /* 0.382501374950408998 */
    {64, 0xfffffffffdULL, 0x001aef2b53096126ULL},   /* 0.841695463353094927 */
    {64, 0x20000000000ULL, 0x0018e45eae192cfaULL},  /* 0.777877178226304339 */
    {64, 0x10000000000007ULL, 0x00067c7a2819f927ULL}, /* 0.202694967578087127 */
};

static unsigned long long rng_state = 12345;
static unsigned long long rng(void)
{
    return pagani_splitmix64(rng_state++);
}

static void test_references(void)
{
    int n = (int)(sizeof refs / sizeof refs[0]);
    for (int j = 0; j < n; j++) {
        const unsigned long long *th = pagani_zinterhof_theta[refs[j].i - 1];
        double got = pagani_zinterhof_frac(refs[j].k, th);
        double want = (double)refs[j].ref * PAGANI_TWO_M53;
        double naive = (double)refs[j].k * ((double)th[0] * 0x1p-64);
        naive -= floor(naive);
        tap_ok(got == want, "frac(%llu * e^(1/%d)) = %.17g exactly (want %.17g;"
               " a double product gives %.17g)", refs[j].k, refs[j].i, got, want,
               naive);
    }
}

static void test_unit_interval(void)
{
    int bad = 0, bad_open = 0;
    pagani_u128 ones = {~0ULL, ~0ULL}, zero = {0, 0};
    for (int j = 0; j < 100000; j++) {
        pagani_u128 u = {rng(), rng()};
        double t = pagani_u128_to_double(u), o = pagani_u128_to_open(u);
        if (!(t >= 0.0 && t < 1.0)) bad++;
        if (!(o > 0.0 && o < 1.0) || fabs(o - t) > PAGANI_TWO_M53) bad_open++;
    }
    tap_ok(bad == 0 && pagani_u128_to_double(ones) < 1.0 &&
           pagani_u128_to_double(zero) == 0.0,
           "points lie in [0,1) (%d outside of 100000, extremes included)", bad);
    tap_ok(bad_open == 0 && pagani_u128_to_open(ones) < 1.0 &&
           pagani_u128_to_open(zero) > 0.0,
           "sampling points lie in (0,1), within 2^-53 of the truncation");
}

/* Stepping by leap * theta gives the bits of k * theta + u for every k. */
static void test_stepping(void)
{
    int bad = 0;
    unsigned long long leaps[3] = {1, 11, 1000003};
    for (int l = 0; l < 3; l++) {
        for (int i = 0; i < PAGANI_ZINTERHOF_MAX_DIM; i += 9) {
            const unsigned long long *th = pagani_zinterhof_theta[i];
            pagani_u128 f = {th[0], th[1]};
            unsigned long long k = (1ULL << 40) - 5;
            pagani_u128 s = pagani_qmc_state(7, 3, (unsigned)i, k, th);
            pagani_u128 step = pagani_u128_mul(leaps[l], f);
            for (int j = 0; j < 1000; j++, k += leaps[l]) {
                pagani_u128 d = pagani_qmc_state(7, 3, (unsigned)i, k, th);
                if (d.hi != s.hi || d.lo != s.lo) bad++;
                s = pagani_u128_add(s, step);
            }
        }
    }
    tap_ok(bad == 0, "additive stepping equals k * theta + u bit for bit "
           "across 2^40 (%d mismatches)", bad);
}

static void test_shifts(void)
{
    pagani_u128 a = pagani_zinterhof_shift(1, 0, 0);
    pagani_u128 b = pagani_zinterhof_shift(1, 0, 0);
    pagani_u128 c = pagani_zinterhof_shift(1, 1, 0);
    pagani_u128 d = pagani_zinterhof_shift(1, 0, 1);
    pagani_u128 e = pagani_zinterhof_shift(2, 0, 0);
    double mean = 0.0;
    for (unsigned r = 0; r < 4096; r++)
        mean += pagani_u128_to_double(pagani_zinterhof_shift(1, r, r % 10));
    mean /= 4096;
    tap_ok(a.hi == b.hi && a.lo == b.lo, "a shift is a function of (seed, shift, axis)");
    tap_ok(a.hi != c.hi && a.hi != d.hi && a.hi != e.hi && c.hi != d.hi,
           "shifts differ across seed, shift and axis");
    tap_ok(fabs(mean - 0.5) < 4 * sqrt(1.0 / 12 / 4096),
           "shifts look uniform (mean of 4096: %.4f)", mean);
}

static void test_transforms(void)
{
    double w, x, err = 0.0, werr = 0.0;
    int n = 1 << 16;
    /* midpoint rule of phi' over (0,1) ~ 1, and phi(1/2) = 1/2 */
    for (int t = 0; t <= 3; t++) {
        double sum = 0.0;
        for (int j = 0; j < n; j++) {
            w = 1.0;
            (void)pagani_qmc_periodize((j + 0.5) / n, t, &w);
            sum += w;
        }
        werr = fmax(werr, fabs(sum / n - 1.0));
    }
    w = 1.0;
    x = pagani_qmc_periodize(0.5, PAGANI_QMC_TRANSFORM_KOROBOV, &w);
    err = fabs(x - 0.5) + fabs(w - 30.0 / 16.0);
    w = 1.0;
    x = pagani_qmc_periodize(0.25, PAGANI_QMC_TRANSFORM_TENT, &w);
    err += fabs(x - 0.5) + fabs(w - 1.0);
    w = 1.0;
    x = pagani_qmc_periodize(0.5, PAGANI_QMC_TRANSFORM_KOROBOV3, &w);
    err += fabs(x - 0.5) + fabs(w - 140.0 / 64.0);
    tap_ok(werr < 1e-8 && err == 0.0, "transforms: Jacobians integrate to 1 "
           "(worst %.1e), phi(1/2) and phi' exact", werr);
}

/* Doubles of all magnitudes with their negatives, in shuffled orders and
 * split at random points: the sums agree bit for bit, and cancel exactly. */
static void test_exact_sum(void)
{
    enum { M = 4000 };
    static double v[2 * M + 1];
    pagani_xsum a, b, c, parts[7];
    int same = 1;

    for (int j = 0; j < M; j++) {
        unsigned long long bits = rng() & ~(0x7ffULL << 52);
        int e = (int)(rng() % 2046);  /* 0 .. 2045: subnormals up to 2^1023 */
        union { unsigned long long u; double d; } c0;
        c0.u = bits | ((unsigned long long)e << 52);
        v[2 * j] = c0.d;
        v[2 * j + 1] = -c0.d;
    }
    v[2 * M] = 0.1;
    for (int trial = 0; trial < 3; trial++) {
        for (int j = 2 * M; j > 0; j--) {  /* Fisher-Yates */
            int k = (int)(rng() % (unsigned)(j + 1));
            double t = v[j]; v[j] = v[k]; v[k] = t;
        }
        pagani_xsum_zero(&a);
        for (int j = 0; j <= 2 * M; j++) pagani_xsum_add(&a, v[j]);
        for (int p = 0; p < 7; p++) pagani_xsum_zero(&parts[p]);
        for (int j = 0; j <= 2 * M; j++) pagani_xsum_add(&parts[rng() % 7], v[j]);
        pagani_xsum_zero(&b);
        for (int p = 6; p >= 0; p--) pagani_xsum_merge(&b, &parts[p]);
        if (trial == 0) c = a;
        same &= pagani_xsum_equal(&a, &b) && pagani_xsum_equal(&a, &c);
        same &= pagani_xsum_value(&a) == 0.1 && pagani_xsum_value(&b) == 0.1;
    }
    tap_ok(same, "exact sums: +-x over all exponents cancel to exactly 0.1, "
           "in any order and any split");

    pagani_xsum_zero(&a);
    pagani_xsum_add(&a, 1e300);
    pagani_xsum_add(&a, 1.0);
    pagani_xsum_add(&a, -1e300);
    pagani_xsum_add(&a, 4.9406564584124654e-324);
    pagani_xsum_add(&a, -3.0);
    tap_ok(pagani_xsum_value(&a) == -2.0, "1e300 + 1 - 1e300 + 2^-1074 - 3 = "
           "-2 (got %.17g)", pagani_xsum_value(&a));

    pagani_xsum_zero(&a);
    long double ref = 0.0L;
    for (int j = 0; j < 100000; j++) {
        double t = (double)(rng() >> 11) * PAGANI_TWO_M53 * 3.0 - 1.0;
        pagani_xsum_add(&a, t);
        ref += t;
    }
    tap_ok(fabs(pagani_xsum_value(&a) - (double)ref) <= 4e-16 * fabs((double)ref) + 1e-300,
           "sum of 1e5 values agrees with long double (%.17g vs %.17g)",
           pagani_xsum_value(&a), (double)ref);
}

int main(void)
{
    tap_plan(24 + 10);
    test_references();
    test_unit_interval();
    test_stepping();
    test_shifts();
    test_transforms();
    test_exact_sum();
    return tap_exit_code();
}
