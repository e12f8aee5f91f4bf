/*
 * component_norm.h - how the components of a vector integrand are judged
 * together (pagani_options.norm), written once for the drivers, the CPU
 * backend and the GPU kernels (NVRTC receives this text pasted in front of
 * the code that uses it, after hostdevice.h).
 *
 * The components fall into groups of consecutive components, each judged
 * on its own: one component a group for PAGANI_NORM_INDIVIDUAL, pairs for
 * PAGANI_NORM_PAIRED (a complex number, judged by modulus), one group of
 * all of them for the L2, L1 and max norms. A group's size of a vector v
 * is its norm over the group's components (|v_c| for a group of one, the
 * modulus for a pair). Group g meets the tolerance when
 *     size(error) <= max(epsabs, epsrel size(value)),
 * and the integral converges when every group does.
 *
 * Cubature decides which regions to finish and split with one number per
 * region, E, and one value, V, as for a scalar integrand. For a vector
 * integrand they are (pagani_region_pair):
 *     E = max over groups g of w_g size_g(E_c),
 *     V = the reference group's value (signed for a group of one),
 * with weights w_g = t_ref / t_g, t_g the group's tolerance from the last
 * estimate and ref the group of the largest tolerance, so that E is the
 * error in units of the reference group's tolerance and a region meets
 * every group's share of its tolerance when E meets the reference's.
 * The reported errors are always summed component by component.
 */
#ifndef PAGANI_COMPONENT_NORM_H
#define PAGANI_COMPONENT_NORM_H

#include "hostdevice.h" /* PAGANI_HD */

/* pagani_norm's values (pagani.h; NVRTC sees no public header). */
#define PAGANI_NORM_ID_INDIVIDUAL 0
#define PAGANI_NORM_ID_PAIRED 1
#define PAGANI_NORM_ID_L2 2
#define PAGANI_NORM_ID_L1 3
#define PAGANI_NORM_ID_MAX 4

/* Components in one group. */
PAGANI_HD int pagani_group_size(int norm, int ncomp)
{
    return norm == PAGANI_NORM_ID_INDIVIDUAL ? 1
           : norm == PAGANI_NORM_ID_PAIRED ? 2 : ncomp;
}

/* The size of one group: its `size` components v[0], v[stride], ...,
 * by the norm (a group of one: |v|; a pair: the modulus). */
PAGANI_HD double pagani_group_norm(int norm, const double *v, long long stride,
                                   int size)
{
    double s = 0.0;
    if (size == 1) return fabs(v[0]);
    for (int c = 0; c < size; c++) {
        double a = fabs(v[c * stride]);
        if (norm == PAGANI_NORM_ID_L1) s += a;
        else if (norm == PAGANI_NORM_ID_MAX) s = a > s ? a : s;
        else s += a * a;
    }
    return norm == PAGANI_NORM_ID_L1 || norm == PAGANI_NORM_ID_MAX ? s : sqrt(s);
}

/* A region's scalar pair (V, E) from its components' values V_c =
 * value[c * stride] and errors E_c = error[c * stride], the weights of
 * the groups and the reference group (see above). */
PAGANI_HD void pagani_region_pair(int norm, int ncomp, const double *weights,
                                  int reference, const double *value,
                                  const double *error, long long stride,
                                  double *v, double *e)
{
    int size = pagani_group_size(norm, ncomp);
    double worst = 0.0;
    for (int g = 0; g * size < ncomp; g++) {
        double eg = weights[g] * pagani_group_norm(norm, error + g * size * stride,
                                                   stride, size);
        worst = eg > worst || eg != eg ? eg : worst; /* NaN propagates */
    }
    *e = worst;
    *v = size == 1 ? value[reference * stride]
                   : pagani_group_norm(norm, value + reference * size * stride,
                                       stride, size);
}

/* The tolerance of one group: max(epsabs, epsrel size(value)). */
PAGANI_HD double pagani_group_tolerance(int norm, const double *value, int size,
                                        double epsrel, double epsabs)
{
    double t = epsrel * pagani_group_norm(norm, value, 1, size);
    return t > epsabs ? t : epsabs;
}

/* Whether every group of the estimate value[0..ncomp-1] with errors
 * error[0..ncomp-1] meets its tolerance; never when a value or an error is
 * not finite. */
PAGANI_HD int pagani_components_met(int norm, int ncomp, const double *value,
                                    const double *error, double epsrel,
                                    double epsabs)
{
    int size = pagani_group_size(norm, ncomp);
    for (int c = 0; c < ncomp; c++)
        if (!isfinite(value[c]) || !isfinite(error[c])) return 0;
    for (int g = 0; g * size < ncomp; g++)
        if (!(pagani_group_norm(norm, error + g * size, 1, size) <=
              pagani_group_tolerance(norm, value + g * size, size, epsrel, epsabs)))
            return 0;
    return 1;
}

/* The weights w_g = t_ref / t_g of the groups (see above) for the estimate
 * value[0..ncomp-1], into weights[0 .. groups-1]; returns ref, the first
 * group of the largest tolerance. */
PAGANI_HD int pagani_group_weights(int norm, int ncomp, const double *value,
                                   double epsrel, double epsabs, double *weights)
{
    int size = pagani_group_size(norm, ncomp), ref = 0;
    double largest = 0.0;
    for (int g = 0; g * size < ncomp; g++) {
        weights[g] = pagani_group_tolerance(norm, value + g * size, size, epsrel,
                                            epsabs);
        if (weights[g] > largest) largest = weights[g], ref = g;
    }
    /* a tolerance of 0 (epsabs 0 and a zero value) weighs the most there
     * is: that group's error must vanish */
    for (int g = 0; g * size < ncomp; g++)
        weights[g] = !isfinite(largest) ? 1.0
                     : weights[g] > largest * 1e-300 ? largest / weights[g] : 1e300;
    return ref;
}

#endif /* PAGANI_COMPONENT_NORM_H */
