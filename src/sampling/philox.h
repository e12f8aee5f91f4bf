/*
 * philox.h - the pseudo-random half of the sampling module: the
 * counter-based generator Philox4x32-10 (Salmon, Moraes, Dror, Shaw,
 * "Parallel random numbers: as easy as 1, 2, 3", SC11), usable from C, CUDA
 * and NVRTC (no headers; everything static inline).
 *
 * A counter-based generator is a keyed bijection of a 128-bit counter: the
 * k-th block of stream s is philox(counter(s, k), key(seed)), computed
 * directly, with no state to carry or skip ahead. Work can therefore be
 * split over threads, blocks, GPUs or processes in any shape and every
 * piece still draws exactly the numbers it would draw alone.
 *
 * The streams of PAGANI_VEGAS (m-Cubes). Random word d (axis d) of sample j
 * of sub-cube c in iteration t, for a run with seed s, is word d % 4 of
 *
 *   philox4x32_10(counter = {j mod 2^32,
 *                            (j >> 32) | (d / 4) << 8 | (c >> 32) << 16,
 *                            c mod 2^32,
 *                            t},
 *                 key = {s mod 2^32, s >> 32})
 *
 * a bijection for j < 2^40, d < 64 * 4, c < 2^48 and t < 2^32, so no two
 * (iteration, cube, sample, axis) share a word. The coordinate in (0,1) is
 * (word + 1/2) * 2^-32: never 0 or 1, resolution 2^-32 (finer still after
 * the division by the intervals per axis).
 */
#ifndef PAGANI_PHILOX_H
#define PAGANI_PHILOX_H

#include "hostdevice.h" /* PAGANI_HD */

/* Fixed-width integers without <stdint.h> (NVRTC has no system headers). */
typedef unsigned int pagani_u32;
typedef unsigned long long pagani_u64;

/* Four 32-bit words: a counter or an output block. */
typedef struct pagani_philox4 {
    pagani_u32 v[4];
} pagani_philox4;

#define PAGANI_PHILOX_M0 0xD2511F53u
#define PAGANI_PHILOX_M1 0xCD9E8D57u
#define PAGANI_PHILOX_W0 0x9E3779B9u
#define PAGANI_PHILOX_W1 0xBB67AE85u

/* The high 32 bits of a * b. */
PAGANI_HD pagani_u32 pagani_philox_mulhi(pagani_u32 a, pagani_u32 b)
{
#if defined(__CUDA_ARCH__)
    return __umulhi(a, b);
#else
    return (pagani_u32)(((pagani_u64)a * b) >> 32);
#endif
}

/* One Philox4x32 round of the block (c0, c1, c2, c3), in place, under
 * round keys (k0, k1): the statements both generators below loop over. */
#define PAGANI_PHILOX_ROUND(c0, c1, c2, c3, k0, k1)                       \
    do {                                                                  \
        pagani_u32 hi0 = pagani_philox_mulhi(PAGANI_PHILOX_M0, c0);       \
        pagani_u32 lo0 = PAGANI_PHILOX_M0 * c0;                           \
        pagani_u32 hi1 = pagani_philox_mulhi(PAGANI_PHILOX_M1, c2);       \
        pagani_u32 lo1 = PAGANI_PHILOX_M1 * c2;                           \
        c0 = hi1 ^ c1 ^ (k0);                                             \
        c1 = lo1;                                                         \
        c2 = hi0 ^ c3 ^ (k1);                                             \
        c3 = lo0;                                                         \
    } while (0)

/* Philox4x32 with 10 rounds: the block of counter `ctr` under key (k0, k1). */
PAGANI_HD pagani_philox4 pagani_philox4x32_10(pagani_philox4 ctr,
                                              pagani_u32 k0, pagani_u32 k1)
{
    pagani_u32 c0 = ctr.v[0], c1 = ctr.v[1], c2 = ctr.v[2], c3 = ctr.v[3];
    for (int round = 0; round < 10; round++) {
        PAGANI_PHILOX_ROUND(c0, c1, c2, c3, k0, k1);
        k0 += PAGANI_PHILOX_W0;
        k1 += PAGANI_PHILOX_W1;
    }
    ctr.v[0] = c0;
    ctr.v[1] = c1;
    ctr.v[2] = c2;
    ctr.v[3] = c3;
    return ctr;
}

/* The round keys of Philox4x32-10 under key (k0, k1): round r uses
 * k[2 r] and k[2 r + 1] (the key plus r times the Weyl constants). A
 * sampler that draws many blocks under one key computes them once; on
 * the device, kept in a kernel's argument block, they are operands from
 * the constant bank instead of two additions a round. */
typedef struct pagani_philox_keys {
    pagani_u32 k[20];
} pagani_philox_keys;

PAGANI_HD pagani_philox_keys pagani_philox_schedule(pagani_u32 k0, pagani_u32 k1)
{
    pagani_philox_keys s;
    for (int round = 0; round < 10; round++) {
        s.k[2 * round] = k0;
        s.k[2 * round + 1] = k1;
        k0 += PAGANI_PHILOX_W0;
        k1 += PAGANI_PHILOX_W1;
    }
    return s;
}

/* Philox4x32 with 10 rounds under the round keys *keys: the block
 * pagani_philox4x32_10 gives for the key they were made from. */
PAGANI_HD pagani_philox4 pagani_philox4x32_10_keyed(pagani_philox4 ctr,
                                                    const pagani_philox_keys *keys)
{
    pagani_u32 c0 = ctr.v[0], c1 = ctr.v[1], c2 = ctr.v[2], c3 = ctr.v[3];
    for (int round = 0; round < 10; round++)
        PAGANI_PHILOX_ROUND(c0, c1, c2, c3, keys->k[2 * round], keys->k[2 * round + 1]);
    ctr.v[0] = c0;
    ctr.v[1] = c1;
    ctr.v[2] = c2;
    ctr.v[3] = c3;
    return ctr;
}

/* The counter of the Vegas stream (see the top of this file): sample j of
 * cube c in iteration t, axes 4 * block .. 4 * block + 3. */
PAGANI_HD pagani_philox4 pagani_vegas_counter(pagani_u32 iteration,
                                              pagani_u64 cube,
                                              pagani_u64 sample, int block)
{
    pagani_philox4 c;
    c.v[0] = (pagani_u32)sample;
    c.v[1] = ((pagani_u32)(sample >> 32) & 0xffu) |
             ((pagani_u32)block & 0xffu) << 8 |
             ((pagani_u32)(cube >> 32) & 0xffffu) << 16;
    c.v[2] = (pagani_u32)cube;
    c.v[3] = iteration;
    return c;
}

/* The round keys of a run with seed s (pagani_vegas_random's). */
PAGANI_HD pagani_philox_keys pagani_vegas_keys(pagani_u64 seed)
{
    return pagani_philox_schedule((pagani_u32)seed, (pagani_u32)(seed >> 32));
}

/* Words 4 * block .. 4 * block + 3 of sample j of cube c, iteration t,
 * under a seed's round keys (pagani_vegas_keys). */
PAGANI_HD pagani_philox4 pagani_vegas_random_keyed(const pagani_philox_keys *keys,
                                                   pagani_u32 iteration,
                                                   pagani_u64 cube,
                                                   pagani_u64 sample, int block)
{
    return pagani_philox4x32_10_keyed(
        pagani_vegas_counter(iteration, cube, sample, block), keys);
}

/* The same for a run with seed `seed`. */
PAGANI_HD pagani_philox4 pagani_vegas_random(pagani_u64 seed,
                                             pagani_u32 iteration,
                                             pagani_u64 cube,
                                             pagani_u64 sample, int block)
{
    const pagani_philox_keys keys = pagani_vegas_keys(seed);
    return pagani_vegas_random_keyed(&keys, iteration, cube, sample, block);
}

/* A 32-bit word as a double in (0,1): (w + 1/2) 2^-32, exact. */
PAGANI_HD double pagani_u01_32(pagani_u32 w)
{
    return ((double)w + 0.5) * 2.3283064365386962890625e-10;
}

/* Two words as a double in (0,1) with 52 random bits: (m + 1/2) 2^-52,
 * exact (with 53 bits the largest value would round to 1). */
PAGANI_HD double pagani_u01_52(pagani_u32 hi, pagani_u32 lo)
{
    pagani_u64 m = ((pagani_u64)hi << 20) | (pagani_u64)(lo >> 12);
    return ((double)m + 0.5) * 2.220446049250313080847263336181640625e-16;
}

#endif /* PAGANI_PHILOX_H */
