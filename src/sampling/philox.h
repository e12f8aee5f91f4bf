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
 * The streams of PAGANI_VEGAS (m-Cubes). The samples of sub-cube c in
 * iteration t go in groups of L = PAGANI_VEGAS_GROUP(n) samples that
 * share Philox blocks: L = 2 when n = 2 (mod 4), whose 2 n words fill
 * whole blocks (with m-Cubes' 2 samples a piece a group is a piece: 6-D
 * takes 3 blocks a piece, not 4), else L = 1. Random word d (axis d) of
 * sample j, for a run with seed s, is word w % 4 of block b = w / 4 of
 * group G = j / L, w = (j mod L) n + d, that is of
 *
 *   philox4x32_10(counter = {G mod 2^32,
 *                            (G >> 32) | b << 8 | (c >> 32) << 16,
 *                            c mod 2^32,
 *                            t},
 *                 key = {s mod 2^32, s >> 32})
 *
 * a bijection for G < 2^40, b < 2^8 (a group has at most 32 blocks), c <
 * 2^48 and t < 2^32, so no two (iteration, cube, sample, axis) share a
 * word. (With L = 1, sample j's own blocks: the stream before the groups;
 * odd n leave the last block's unused words unused, as pairing them would
 * not fill blocks either and costs the GPU registers.) The coordinate in
 * (0,1) is (word + 1/2) * 2^-32: never 0 or 1, resolution 2^-32 (finer
 * still after the division by the intervals per axis).
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

/* The samples of a group of the Vegas stream in n dimensions (see the
 * top of this file): 2 when n = 2 (mod 4), else 1. */
#define PAGANI_VEGAS_GROUP(n) ((n) % 4 == 2 ? 2 : 1)

/* The counter of the Vegas stream (see the top of this file): block
 * `block` of group `group` of cube c in iteration t. */
PAGANI_HD pagani_philox4 pagani_vegas_counter(pagani_u32 iteration,
                                              pagani_u64 cube,
                                              pagani_u64 group, int block)
{
    pagani_philox4 c;
    c.v[0] = (pagani_u32)group;
    c.v[1] = ((pagani_u32)(group >> 32) & 0xffu) |
             ((pagani_u32)block & 0xffu) << 8 |
             ((pagani_u32)(cube >> 32) & 0xffffu) << 16;
    c.v[2] = (pagani_u32)cube;
    c.v[3] = iteration;
    return c;
}

/* The round keys of a run with seed s (the key of the stream above). */
PAGANI_HD pagani_philox_keys pagani_vegas_keys(pagani_u64 seed)
{
    return pagani_philox_schedule((pagani_u32)seed, (pagani_u32)(seed >> 32));
}

/* Block `block` of group `group` of cube c in iteration t under a
 * seed's round keys (pagani_vegas_keys). */
PAGANI_HD pagani_philox4 pagani_vegas_random_keyed(const pagani_philox_keys *keys,
                                                   pagani_u32 iteration,
                                                   pagani_u64 cube,
                                                   pagani_u64 group, int block)
{
    return pagani_philox4x32_10_keyed(
        pagani_vegas_counter(iteration, cube, group, block), keys);
}

/* Word d (axis d) of sample j of cube c in iteration t of an n-D run
 * with seed `seed`: one word on its own (a fault's point); the samplers
 * draw a group's blocks once (vegas_piece.h). */
PAGANI_HD pagani_u32 pagani_vegas_word(pagani_u64 seed, pagani_u32 iteration,
                                       pagani_u64 cube, int n,
                                       pagani_u64 sample, int axis)
{
    const pagani_philox_keys keys = pagani_vegas_keys(seed);
    const pagani_u64 group = (pagani_u64)PAGANI_VEGAS_GROUP(n);
    const int w = (int)(sample % group) * n + axis;

    return pagani_vegas_random_keyed(&keys, iteration, cube, sample / group,
                                     w / 4).v[w % 4];
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
