/*
 * test_gpu_pack.c - the GPU's form of the cubature rules, checked on the host
 * (no GPU needed): every rule packed for the evaluate kernel gives the same
 * points and weights as the rule itself, and the kernel's estimate and
 * split-axis arithmetic (gpu/cubature/cubature_math.h) matches
 * rules/estimate.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rules/error_sign.h"
#include "rules/rules.h"
#include "gpu/cubature/rule_pack.h"
#include "tap.h"

static unsigned long long rng_state = 0x2545f4914f6cdd1dULL;

static double uniform(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}

/* Points and weights of the packed rule against the rule's own. */
static int same_points(const pagani_rule *r, const pagani_packed_rule *p)
{
    double lo[20], w[20], x[20], y[20];
    for (int d = 0; d < r->n; d++) {
        lo[d] = uniform() * 4 - 2;
        w[d] = 0.01 + uniform();
    }
    if (p->shape.npoints != r->npoints || p->shape.nexplicit != r->nexplicit) return 0;
    for (long long q = 0; q < r->npoints; q++) {
        const double *wr = q < r->nexplicit ? r->weights + 5 * q : r->corner_weights;
        int tuple = q < r->nexplicit ? p->tuples[q] : p->shape.corner_weights;
        if (tuple >= p->shape.nweights ||
            memcmp(p->consts + PAGANI_EVC_WEIGHTS + 5 * tuple, wr, 5 * sizeof *wr) != 0)
            return 0;
        /* an explicit point's row carries its weights too */
        for (int j = 0; j < 5 && q < r->nexplicit; j++)
            if (p->rows[PAGANI_ROW_DOUBLE(r->n, q, PAGANI_ROW_COORDS(r->n) + j)] != wr[j])
                return 0;
        pagani_rule_point(r, q, lo, w, x);
        pagani_packed_rule_point(p, (int)q, lo, w, y);
        for (int d = 0; d < r->n; d++)
            if (x[d] != y[d]) return 0;
    }
    return 1;
}

/* The kernel's estimate, error sign and split axis against
 * rules/estimate.c. */
static int same_math(const pagani_rule *r, const pagani_packed_rule *p)
{
    for (int trial = 0; trial < 200; trial++) {
        double sums[5], f[81], width[20], v1, e1, v2, e2, volume = 0.5 + uniform();
        unsigned char sign, gpu_sign;
        for (int k = 0; k < 5; k++)
            sums[k] = (uniform() - 0.5) * pow(10.0, -(double)(trial % 7) * k);
        pagani_rule_estimate(r, sums, volume, &v1, &e1, &sign);
        pagani_gpu_estimate(p->consts, p->shape.nsets, p->shape.error_model, sums,
                            volume, &v2, &e2);
        gpu_sign = pagani_error_sign(
            p->shape.error_model == PAGANI_GPU_ERROR_KRONROD ||
                pagani_gpu_asymptotic(p->consts,
                                      pagani_gpu_null_error(p->consts, p->shape.nsets, sums, 1),
                                      pagani_gpu_null_error(p->consts, p->shape.nsets, sums, 2),
                                      pagani_gpu_null_error(p->consts, p->shape.nsets, sums, 3)),
            sums[1]);
        if (v1 != v2 || e1 != e2 || sign != gpu_sign) return 0;
        for (int q = 0; q <= 4 * r->n; q++)
            f[q] = trial % 5 == 0 ? 1.0 : exp(-uniform());
        for (int d = 0; d < r->n; d++) width[d] = trial % 3 ? 1.0 : uniform();
        if (r->n >= 2 &&
            pagani_rule_split_axis(r, f, width) !=
                pagani_gpu_split_axis(r->n, p->consts[PAGANI_EVC_RATIO], f, width))
            return 0;
    }
    return 1;
}

/* A region's box from its parent's entry (lower corner, halving level of
 * the initial width): what halving the parent's width gives (lo, lo + w/2
 * and w/2 along the split axis, the parent's elsewhere), bit for bit; and
 * the level saturates where every width is 0. */
static int same_children(void)
{
    for (int trial = 0; trial < 1000; trial++) {
        double w0 = 0.1 + 10 * uniform(), lo = (uniform() - 0.5) * 100, w = w0;
        int level = trial % 60;
        for (int k = 0; k < level; k++) w /= 2;
        for (int side = 0; side < 2; side++) {
            double l = lo, ww, l2 = lo, w2, l3 = lo, w3;
            pagani_gpu_child_box(3, 3, side, w0, level, &l, &ww);
            pagani_gpu_child_box(2, 3, side, w0, level, &l2, &w2);
            pagani_gpu_child_box(3, -1, side, w0, level, &l3, &w3);
            if (ww != w / 2 || l != (side ? lo + w / 2 : lo) || l2 != lo || w2 != w ||
                l3 != lo || w3 != w || pagani_gpu_child_level(3, 3, level) != level + 1 ||
                pagani_gpu_child_level(2, 3, level) != level)
                return 0;
        }
    }
    return pagani_gpu_child_level(0, 0, PAGANI_GPU_MAX_LEVEL) == PAGANI_GPU_MAX_LEVEL &&
           ldexp(1.7e308, -PAGANI_GPU_MAX_LEVEL) == 0.0;
}

int main(void)
{
    static const int degrees[] = {7, 9, 11, 13, 15};
    for (int n = 1; n <= 20; n++) {
        for (size_t i = 0; i < sizeof degrees / sizeof degrees[0]; i++) {
            pagani_rule *r;
            pagani_packed_rule p;
            int rc;
            if (pagani_rule_create(n, degrees[i], &r) != 0) continue;
            rc = pagani_packed_rule_make(r, &p);
            if (!tap_ok(rc == 0, "n = %d, degree %d: packs (%d points, %d weight tuples)",
                        n, degrees[i], rc == 0 ? p.shape.npoints : 0,
                        rc == 0 ? p.shape.nweights : 0)) {
                pagani_rule_destroy(r);
                continue;
            }
            if (n <= 12) /* the corner sets above are long, and alike */
                tap_ok(same_points(r, &p), "n = %d, degree %d: same points and weights",
                       n, degrees[i]);
            tap_ok(same_math(r, &p), "n = %d, degree %d: same estimate and split axis",
                   n, degrees[i]);
            pagani_packed_rule_free(&p);
            pagani_rule_destroy(r);
        }
    }
    tap_ok(same_children(), "children's boxes from their parent's, as the split makes them");
    tap_done();
    return tap_exit_code();
}
