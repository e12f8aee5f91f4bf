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

/*
 * One axis of one sample. k: the cube's interval on this axis (0..g-1);
 * w: the random word; nb_per_g = nb / g; row: this axis's nb + 1 grid
 * edges. Returns the coordinate in [0,1] (before the box's affine map),
 * multiplies *jac by nb (e_{b+1} - e_b) and stores the bin b in *bin.
 */
PAGANI_HD double pagani_vegas_axis(double k, pagani_u32 w, double nb_per_g,
                                   int nb, const double *row, double *jac,
                                   int *bin)
{
    double t = PAGANI_DMUL(PAGANI_DADD(k, pagani_u01_32(w)), nb_per_g);
    int b = (int)t;
    double e0, de;

    if (b > nb - 1) b = nb - 1;   /* only by rounding at the top edge */
    e0 = row[b];
    de = PAGANI_DADD(row[b + 1], -e0);
    *jac = PAGANI_DMUL(*jac, PAGANI_DMUL((double)nb, de));
    *bin = b;
    return PAGANI_DADD(e0, PAGANI_DMUL(de, PAGANI_DADD(t, -(double)b)));
}

/* x_i = lower_i + width_i * c, c from pagani_vegas_axis. */
PAGANI_HD double pagani_vegas_coord(double lower, double width, double c)
{
    return PAGANI_DADD(lower, PAGANI_DMUL(width, c));
}

#endif /* PAGANI_VEGAS_POINT_H */
