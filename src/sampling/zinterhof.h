/*
 * zinterhof.h - the quasi-random half of the sampling module: point k of the
 * Zinterhof sequence, x_k,i = frac(k * theta_i) with theta_i = e^(1/i), and
 * Cranley-Patterson random shifts, exact for any k < 2^64. Usable from C, CUDA
 * and NVRTC (no headers; everything static inline).
 *
 * Fixed point: a number in [0,1) is a 128-bit fraction u = (hi, lo) meaning
 * (hi * 2^64 + lo) / 2^128. frac(k * theta) = frac(k * frac(theta)) is the
 * product k * F mod 2^128, F the 128-bit fraction of theta (an integer
 * multiplication that wraps: three 64-bit multiplies). F is rounded to
 * nearest (error <= 2^-129), so the product is off by at most k * 2^-129:
 * below 2^-88 for k <= 2^41, far under the 2^-53 that a double resolves.
 * Because the arithmetic is modulo 2^128, (k + L) * F = k * F + L * F exactly:
 * stepping through a block or a leap by additions gives the same bits as the
 * multiplication, on every device.
 *
 * A shift u adds modulo 1 in the same fixed point: frac(k * theta + u).
 */
#ifndef PAGANI_ZINTERHOF_H
#define PAGANI_ZINTERHOF_H

#include "hostdevice.h" /* PAGANI_HD */

/* A 128-bit fraction of one: value (hi * 2^64 + lo) / 2^128. */
typedef struct pagani_u128 {
    unsigned long long hi, lo;
} pagani_u128;

/* The high 64 bits of the 128-bit product a * b. */
PAGANI_HD unsigned long long pagani_mulhi64(unsigned long long a,
                                            unsigned long long b)
{
#if defined(__CUDA_ARCH__)
    return __umul64hi(a, b);
#elif defined(__SIZEOF_INT128__)
    return (unsigned long long)(((unsigned __int128)a * b) >> 64);
#else
    unsigned long long a0 = a & 0xffffffffULL, a1 = a >> 32;
    unsigned long long b0 = b & 0xffffffffULL, b1 = b >> 32;
    unsigned long long p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0;
    unsigned long long mid = (p00 >> 32) + (p01 & 0xffffffffULL) +
                             (p10 & 0xffffffffULL);
    return a1 * b1 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
}

/* k * f mod 2^128: the fraction frac(k * f). */
PAGANI_HD pagani_u128 pagani_u128_mul(unsigned long long k, pagani_u128 f)
{
    pagani_u128 r;
    r.lo = k * f.lo;
    r.hi = k * f.hi + pagani_mulhi64(k, f.lo);
    return r;
}

/* a + b mod 2^128: the fraction frac(a + b). */
PAGANI_HD pagani_u128 pagani_u128_add(pagani_u128 a, pagani_u128 b)
{
    pagani_u128 r;
    r.lo = a.lo + b.lo;
    r.hi = a.hi + b.hi + (r.lo < a.lo);
    return r;
}

/* 2^-53, exactly. */
#define PAGANI_TWO_M53 (1.0 / 9007199254740992.0)

/* The fraction truncated to double: floor(u * 2^53) / 2^53, in [0, 1). */
PAGANI_HD double pagani_u128_to_double(pagani_u128 u)
{
    return (double)(u.hi >> 11) * PAGANI_TWO_M53;
}

/* The fraction as a double strictly inside (0, 1): the 53-bit truncation
 * with its last bit set, (2 floor(u * 2^52) + 1) / 2^53, within 2^-53 of
 * u. Sampling uses this form, so that integrands singular on a face of
 * the cube (x^-1/2, log x) are never evaluated on it. */
PAGANI_HD double pagani_u128_to_open(pagani_u128 u)
{
    return (double)((u.hi >> 11) | 1ULL) * PAGANI_TWO_M53;
}

/* frac(k * theta) truncated to double (see pagani_u128_to_double), with
 * theta's fraction given as {high, low} words (zinterhof_table.h). */
PAGANI_HD double pagani_zinterhof_frac(unsigned long long k,
                                       const unsigned long long theta[2])
{
    pagani_u128 f;
    f.hi = theta[0];
    f.lo = theta[1];
    return pagani_u128_to_double(pagani_u128_mul(k, f));
}

/* splitmix64's finaliser: a bijective 64-bit mix (Steele, Lea, Flood). */
PAGANI_HD unsigned long long pagani_splitmix64(unsigned long long z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* The Cranley-Patterson shift of random shift `shift` on axis `axis` (both
 * from 0) under `seed`: a uniform 128-bit fraction, a counter-based hash of
 * (seed, shift, axis), so any shift is computable on its own. */
PAGANI_HD pagani_u128 pagani_zinterhof_shift(unsigned long long seed,
                                             unsigned shift, unsigned axis)
{
    unsigned long long h = pagani_splitmix64(seed);
    pagani_u128 u;
    h = pagani_splitmix64(h ^ (unsigned long long)shift);
    h = pagani_splitmix64(h ^ ((unsigned long long)axis << 32));
    u.hi = h;
    u.lo = pagani_splitmix64(h);
    return u;
}

#endif /* PAGANI_ZINTERHOF_H */
