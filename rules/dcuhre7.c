/*
 * dcuhre7.c - the DCUHRE degree-7 fully symmetric rule for any n >= 2
 * (the Genz-Malik degree-7 rule plus one 2n-point set used by a null rule
 * only) with its four null rules: 6 sets, weights polynomials in n over the
 * coefficients W0..W20 (cubature-rules.md, "Degree 7"). Its first 2n-point
 * set has the generator .203..., the second .477...
 */
#include <math.h>

#include "rules/rule_table.h"

static const double G[4] = {
    .47795365790226950619, .20302858736911986780, .375, .34303789878087814570,
};

static const double W[21] = {
    .019417866674748388428, -.40385257701150182546, .64485668767465982223,
    .01177982690775806141, -.18041318740733609012, -.088785828081335044443,
    .056328645808285941374, -.0097089333373741942142, -.99129176779582358138,
    -.17757165616267008889, .12359398032043233572, .074978148702033690681,
    .55489147051423559776, .088041241522692771226, .021118358455513385083,
    -.0099302203239653333087, -.064100053285010904179, .030381729038221007659,
    .0058899134538790307051, -.0048544666686870971071, .35514331232534017777,
};

void pagani_dcuhre7_table(int n, pagani_rule_table *t)
{
    double corners = ldexp(1.0, n);
    /* w_0 and w_1 of the rows whose other weights refer to them */
    double c0 = n * (n * W[0] + W[1]) + W[2];
    double c1 = n * (n * W[3] + W[4]) - W[5];
    double a0 = W[13] - n * W[0];
    double a1 = W[14] - n * W[3];
    double e0 = W[20] / corners;
    double e1 = W[5] / corners;
    const pagani_rule_table table = {
        .degree = 7, .error_model = PAGANI_ERROR_DCUHRE,
        .c0 = 5, .c1 = 1, .c2 = 5,
        .nsets = 6,
        .set = {
            {0, {0}, {c0, c1, n * W[6] - c1, n * (n * W[7] + W[8]) - W[9], 1 - c0}},
            {1, {G[1]}, {W[10], W[11], -W[10], W[12], -W[10]}},
            {1, {G[0]}, {a0, a1, W[15] - a1, W[16] - n * W[7], -a0}},
            {1, {G[2]}, {0, 0, W[17], 0, 0}},
            {2, {G[0], G[0]}, {-W[7], W[18], -W[18], W[19], W[7]}},
            {PAGANI_SET_CORNER, {G[3]}, {e0, e1, -e1, W[9] / corners, -e0}},
        },
    };
    *t = table;
}
