/*
 * vegas_grid.c - the importance grid of PAGANI_VEGAS and its adjustment on
 * the host, as in Lepage's Vegas (J. Comput. Phys. 27, 1978) and m-Cubes:
 *
 *  1. smooth each row of bin contributions d_i (sums of (f J)^2) over its
 *     neighbours: (d_{i-1} + d_i + d_{i+1}) / 3, the two end bins / 2;
 *  2. damp: r_i = ((1 - d_i/D) / ln(D/d_i))^alpha with D = sum d_i, so a
 *     bin's share grows slowly with its contribution (alpha, default 1.5,
 *     sets the speed: 0 freezes the grid); a bin holding everything gets 1,
 *     an empty one the value of a contribution 2^-100 D;
 *  3. rebin: new edges where the running sum of r crosses k R / nb
 *     (R = sum r), interpolating linearly inside the old bins, so that
 *     every new bin holds an equal share of r.
 * Bins are then small where |f| is large and the samples follow |f|.
 */
#include <math.h>
#include <stddef.h>
#include "sampling/vegas_grid.h"

void pagani_vegas_grid_uniform(double *grid, int rows, int nb)
{
    for (int a = 0; a < rows; a++) {
        double *e = grid + (size_t)a * (nb + 1);
        for (int i = 0; i <= nb; i++) e[i] = (double)i / nb;
    }
}

/* Step 1 into s; returns D, the sum of the smoothed row. */
static double smooth(const double *d, int nb, double *s)
{
    double total = 0.0;

    if (nb == 1) {
        s[0] = d[0];
        return d[0];
    }
    s[0] = (d[0] + d[1]) / 2.0;
    for (int i = 1; i < nb - 1; i++) s[i] = (d[i - 1] + d[i] + d[i + 1]) / 3.0;
    s[nb - 1] = (d[nb - 2] + d[nb - 1]) / 2.0;
    for (int i = 0; i < nb; i++) total += s[i];
    return total;
}

/* Step 2: the damped importance of a bin with share x = d_i / D. */
static double importance(double x, double alpha)
{
    const double floor_share = 7.888609052210118e-31; /* 2^-100 */

    if (x >= 1.0) return 1.0;               /* limit of (1-x)/(-ln x) */
    if (x < floor_share) x = floor_share;
    return pow((1.0 - x) / -log(x), alpha);
}

/* Step 3: new edges of one row from the importances r (sum R). */
static void rebin(double *e, const double *r, double total, int nb,
                  double *fresh)
{
    double per = total / nb, acc = 0.0;
    int j = 0;

    fresh[0] = 0.0;
    for (int k = 1; k < nb; k++) {
        double target = per * k;
        /* old bin j holds the running sum (acc, acc + r[j]] */
        while (j < nb - 1 && acc + r[j] < target) acc += r[j++];
        {
            double frac = r[j] > 0.0 ? (target - acc) / r[j] : 1.0;
            if (frac < 0.0) frac = 0.0;
            if (frac > 1.0) frac = 1.0;
            fresh[k] = e[j] + (e[j + 1] - e[j]) * frac;
        }
        if (fresh[k] < fresh[k - 1]) fresh[k] = fresh[k - 1];
    }
    fresh[nb] = 1.0;
    for (int k = 0; k <= nb; k++) e[k] = fresh[k];
}

void pagani_vegas_grid_adjust(double *grid, const double *bins, int rows,
                              int nb, double alpha, double *work)
{
    double *s = work, *fresh = work + nb;

    if (nb < 2 || !(alpha > 0.0)) return;
    for (int a = 0; a < rows; a++) {
        double *e = grid + (size_t)a * (nb + 1);
        double total = smooth(bins + (size_t)a * nb, nb, s), rsum = 0.0;

        if (!(total > 0.0) || !isfinite(total)) continue;
        for (int i = 0; i < nb; i++) {
            s[i] = importance(s[i] / total, alpha);
            rsum += s[i];
        }
        if (!(rsum > 0.0) || !isfinite(rsum)) continue;
        rebin(e, s, rsum, nb, fresh);
    }
}
