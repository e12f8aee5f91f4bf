/*
 * exact_sum.h - an exact accumulator for sums of doubles (a small Kulisch
 * accumulator), for the host and the device (static inline, no headers).
 *
 * Every finite double is m * 2^e with an integer m < 2^53 and e >= -1074,
 * so every sum of doubles is an integer multiple of 2^-1074. The
 * accumulator holds that integer in PAGANI_XSUM_BINS signed 64-bit "bins"
 * of 32-bit digits: bin j weighs 2^(32 j - 1074). Adding a double adds its
 * mantissa, cut into three 32-bit pieces, to three bins: integer additions,
 * exact and associative. So the sum of a set of doubles does not depend on
 * the order of the additions or on how the set was split and merged: split
 * by threads, blocks of indices, leaps, GPUs or processes, the partial
 * accumulators merge to the same bits as one sequential pass.
 *
 * Capacity: |bin| grows by < 2^32 per addition and an int64 holds 2^63, so
 * the bins are renormalised (carries propagated, digits back in [0, 2^32))
 * after at most 2^30 additions; `load` counts them. The two top bins are
 * headroom: sums up to about 2^1100 in magnitude stay exact.
 *
 * The rounding to double (pagani_xsum_value) is a function of the exact
 * value alone, hence deterministic; it is faithful to about 1 ulp.
 * Signed right shifts are arithmetic (as in GCC, Clang and nvcc).
 */
#ifndef PAGANI_EXACT_SUM_H
#define PAGANI_EXACT_SUM_H

#include "sampling/zinterhof.h" /* PAGANI_HD */

#define PAGANI_XSUM_BINS 68
#ifndef PAGANI_XSUM_MAX_LOAD /* tests may lower it to exercise the carries */
#define PAGANI_XSUM_MAX_LOAD (1LL << 30)
#endif

/* Loops over the bins stay loops on the GPU: unrolled they would hold all
 * 68 bins in registers. */
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define PAGANI_XSUM_LOOP _Pragma("unroll 1")
#else
#define PAGANI_XSUM_LOOP
#endif

typedef struct pagani_xsum {
    long long bin[PAGANI_XSUM_BINS];
    long long load; /* bound on |bin| in units of 2^32 since the last carry */
} pagani_xsum;

PAGANI_HD void pagani_xsum_zero(pagani_xsum *s)
{
    PAGANI_XSUM_LOOP
    for (int j = 0; j < PAGANI_XSUM_BINS; j++) s->bin[j] = 0;
    s->load = 0;
}

/* Propagates the carries: afterwards every bin but the top one is a digit
 * in [0, 2^32) and the top bin carries the sign. The representation of a
 * value in this form is unique. */
PAGANI_HD void pagani_xsum_normalize(pagani_xsum *s)
{
    PAGANI_XSUM_LOOP
    for (int j = 0; j < PAGANI_XSUM_BINS - 1; j++) {
        long long carry = s->bin[j] >> 32;
        s->bin[j] -= (long long)((unsigned long long)carry << 32);
        s->bin[j + 1] += carry;
    }
    s->load = 1;
}

PAGANI_HD unsigned long long pagani_xsum_bits(double v)
{
#if defined(__CUDA_ARCH__)
    return (unsigned long long)__double_as_longlong(v);
#else
    union { double d; unsigned long long u; } c;
    c.d = v;
    return c.u;
#endif
}

/* The three signed pieces d[0..2] that a finite double v adds to bins
 * j, j + 1, j + 2 (each |d| < 2^32); returns j. */
PAGANI_HD int pagani_xsum_pieces(double v, long long *d)
{
    unsigned long long u = pagani_xsum_bits(v);
    unsigned long long m = u & 0xfffffffffffffULL;
    int e = (int)((u >> 52) & 0x7ff);
    int p, r;
    unsigned long long rest;

    if (e) m |= 1ULL << 52; else e = 1;   /* subnormals: exponent of 1 */
    p = e - 1;                 /* v = m * 2^(p - 1074), 0 <= p <= 2045 */
    r = p & 31;
    rest = m >> (32 - r);      /* m * 2^r without its low 32 bits */
    d[0] = (long long)((m << r) & 0xffffffffULL);
    d[1] = (long long)(rest & 0xffffffffULL);
    d[2] = (long long)(rest >> 32);
    if (u >> 63) {
        d[0] = -d[0];
        d[1] = -d[1];
        d[2] = -d[2];
    }
    return p >> 5;
}

/* Adds a finite double exactly (NaN and infinity must be screened out by
 * the caller: they have no place in the sum). */
PAGANI_HD void pagani_xsum_add(pagani_xsum *s, double v)
{
    long long d[3];
    int j = pagani_xsum_pieces(v, d);

    s->bin[j] += d[0];
    s->bin[j + 1] += d[1];
    s->bin[j + 2] += d[2];
    if (++s->load >= PAGANI_XSUM_MAX_LOAD) pagani_xsum_normalize(s);
}

/* dst += src, exactly. */
PAGANI_HD void pagani_xsum_merge(pagani_xsum *dst, const pagani_xsum *src)
{
    if (dst->load + src->load >= PAGANI_XSUM_MAX_LOAD) pagani_xsum_normalize(dst);
    for (int j = 0; j < PAGANI_XSUM_BINS; j++) dst->bin[j] += src->bin[j];
    dst->load += src->load;
    if (dst->load >= PAGANI_XSUM_MAX_LOAD) pagani_xsum_normalize(dst);
}

/* Whether two accumulators hold the same value. */
PAGANI_HD int pagani_xsum_equal(const pagani_xsum *a, const pagani_xsum *b)
{
    pagani_xsum x = *a, y = *b;
    pagani_xsum_normalize(&x);
    pagani_xsum_normalize(&y);
    for (int j = 0; j < PAGANI_XSUM_BINS; j++)
        if (x.bin[j] != y.bin[j]) return 0;
    return 1;
}

/* The sum rounded to double (faithfully; +-infinity beyond the range). */
PAGANI_HD double pagani_xsum_value(const pagani_xsum *s)
{
    pagani_xsum x = *s;
    double sign = 1.0, sum = 0.0;
    double scale = 4.9406564584124654e-324; /* 2^-1074 */

    pagani_xsum_normalize(&x);
    if (x.bin[PAGANI_XSUM_BINS - 1] < 0) { /* negate: digits of |sum| */
        for (int j = 0; j < PAGANI_XSUM_BINS; j++) x.bin[j] = -x.bin[j];
        pagani_xsum_normalize(&x);
        sign = -1.0;
    }
    /* From the lowest digit up, each term exact: the rounding errors of
     * the lower digits do not reach the result's last bit twice. */
    for (int j = 0; j < PAGANI_XSUM_BINS; j++) {
        if (x.bin[j]) sum += (double)x.bin[j] * scale;
        if (j < PAGANI_XSUM_BINS - 1) scale *= 4294967296.0;
    }
    return sign * sum;
}

/* The sum times 2^(-32 bins) (bins >= 0), rounded to double: the digits
 * moved down, those below the lowest bin dropped (an error below 2^-1074
 * after the scaling). For sums beyond the range of a double, which the
 * accumulator holds up to about 2^1100. */
PAGANI_HD double pagani_xsum_value_scaled(const pagani_xsum *s, int bins)
{
    pagani_xsum x = *s;

    pagani_xsum_normalize(&x);
    for (int j = 0; j < PAGANI_XSUM_BINS; j++)
        x.bin[j] = j + bins < PAGANI_XSUM_BINS ? x.bin[j + bins] : 0;
    return pagani_xsum_value(&x);
}

#endif /* PAGANI_EXACT_SUM_H */
