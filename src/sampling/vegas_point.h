/*
 * vegas_point.h - the points of PAGANI_VEGAS (m-Cubes), for the host and
 * the device (static inline, no headers): a random word and a cube interval
 * become a coordinate through the importance grid (vegas_backend.h gives
 * the formulas). The CPU backend, the CUDA kernels and the driver's fault
 * reports all call these functions, so a sample lands on the same bits
 * everywhere: products and sums go through PAGANI_DMUL / PAGANI_DADD, which
 * on the device are never fused into FMAs.
 */
#ifndef PAGANI_VEGAS_POINT_H
#define PAGANI_VEGAS_POINT_H

#include "hostdevice.h" /* PAGANI_DMUL, PAGANI_DADD */
#include "sampling/philox.h"

/* The samplers keep a cube's interval k on an axis as k -
 * PAGANI_VEGAS_K_BIAS: k - 1 on the device (pagani_vegas_offset adds it
 * to 1 + u as it stands, no subtraction a sample), k on the host. */
#if defined(__CUDA_ARCH__)
#define PAGANI_VEGAS_K_BIAS 1.0
#else
#define PAGANI_VEGAS_K_BIAS 0.0
#endif

/* k + (w + 1/2) 2^-32 (pagani_u01_32), rounded once, from kb = k -
 * PAGANI_VEGAS_K_BIAS. The device writes 1 + (w + 1/2) 2^-32 bit by bit
 * (the word, then a 1, in the fraction) and adds kb = k - 1: both exact,
 * so the sum rounds the same real number to the same double, without
 * the conversion of w (a quarter-rate instruction on the GPU). */
PAGANI_HD double pagani_vegas_offset(double kb, pagani_u32 w)
{
#if defined(__CUDA_ARCH__)
    const double one_plus_u = __hiloint2double((int)(0x3ff00000u | w >> 12),
                                               (int)(w << 20 | 0x80000u));
    return __dadd_rn(one_plus_u, kb);
#else
    return kb + pagani_u01_32(w);
#endif
}

/* The bin of t >= 0: floor(t), at most nb - 1 (more only by rounding at
 * the top edge), returned and as a double in *whole. The device rounds
 * t + 2^52 toward zero, which leaves floor(t) in the low word, and
 * subtracts 2^52 from the clamped word's double: two additions instead of
 * two conversions, the same numbers. */
PAGANI_HD int pagani_vegas_bin(double t, int nb, double *whole)
{
#if defined(__CUDA_ARCH__)
    const int b = min(__double2loint(__dadd_rz(t, 4503599627370496.0)), nb - 1);
    *whole = __dadd_rn(__hiloint2double(0x43300000, b), -4503599627370496.0);
    return b;
#else
    int b = (int)t;
    if (b > nb - 1) b = nb - 1;
    *whole = (double)b;
    return b;
#endif
}

/*
 * One axis of one sample. kb: the cube's interval on this axis (0..g-1)
 * less PAGANI_VEGAS_K_BIAS; w: the random word; nb_per_g = nb / g;
 * grid[row ..]: this axis's nb + 1 grid edges. Returns the coordinate in
 * [0,1] (before the box's affine map), stores the axis's factor of the
 * Jacobian, nb (e_{b+1} - e_b), in *factor and the bin b in *bin. (An
 * unsigned 32-bit index into the grid costs the device one instruction
 * of address arithmetic, a row pointer four.)
 */
PAGANI_HD double pagani_vegas_axis(double kb, pagani_u32 w, double nb_per_g,
                                   int nb, const double *grid, unsigned row,
                                   double *factor, int *bin)
{
    double t = PAGANI_DMUL(pagani_vegas_offset(kb, w), nb_per_g);
    double whole, de;
    int b = pagani_vegas_bin(t, nb, &whole);
    const double *edge = grid + (row + (unsigned)b);

    de = PAGANI_DADD(edge[1], -edge[0]);
    *factor = PAGANI_DMUL((double)nb, de);
    *bin = b;
    return PAGANI_DADD(edge[0], PAGANI_DMUL(de, PAGANI_DADD(t, -whole)));
}

/* x_i = lower_i + width_i * c, c from pagani_vegas_axis. */
PAGANI_HD double pagani_vegas_coord(double lower, double width, double c)
{
    return PAGANI_DADD(lower, PAGANI_DMUL(width, c));
}

#endif /* PAGANI_VEGAS_POINT_H */
