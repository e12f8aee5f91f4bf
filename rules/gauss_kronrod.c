/*
 * gauss_kronrod.c - the 15-point Gauss-Kronrod rule for n = 1 (QUADPACK's
 * qk15: 7 Gauss nodes, 8 Kronrod nodes). Nodes are the qk15 abscissae
 * halved (offsets in units of the width); w_0 is the Kronrod weight and w_1
 * the Kronrod minus the Gauss weight (0 for Gauss at a Kronrod-only node),
 * both halved so that w_0 sums to 1; w_2..w_4 are zero. Error model:
 * PAGANI_ERROR_KRONROD, error = volume * |r_1| (see estimate.c).
 * The rule integrates polynomials of degree 23 exactly, the Gauss part of
 * degree 13, so r_1 vanishes up to degree 13.
 */
#include "rules/rule_table.h"

/* qk15 abscissae on [-1, 1] (xgk), Kronrod weights (wgk) and Gauss weights
 * (wg, at xgk[1], xgk[3], xgk[5], xgk[7]). */
#define X1 0.991455371120812639206854697526329
#define X2 0.949107912342758524526189684047851
#define X3 0.864864423359769072789712788640926
#define X4 0.741531185599394439863864773280788
#define X5 0.586087235467691130294144845693013
#define X6 0.405845151377397166906606412076961
#define X7 0.207784955007898467600689403773245
#define K1 0.022935322010529224963732008058970
#define K2 0.063092092629978553290700663189204
#define K3 0.104790010322250183839876322541518
#define K4 0.140653259715525918745189590510238
#define K5 0.169004726639267902826583426598550
#define K6 0.190350578064785409913256402421014
#define K7 0.204432940075298892414161999234649
#define K0 0.209482141084727828012999174891714
#define G2 0.129484966168869693270611432679082
#define G4 0.279705391489276667901467771423780
#define G6 0.381830050505118944950369775488975
#define G0 0.417959183673469387755102040816327

static const pagani_rule_table table = {
    .degree = 15, .error_model = PAGANI_ERROR_KRONROD,
    .nsets = 8,
    .set = {
        {0, {0}, {K0 / 2, (K0 - G0) / 2, 0, 0, 0}},
        {1, {X1 / 2}, {K1 / 2, K1 / 2, 0, 0, 0}},
        {1, {X2 / 2}, {K2 / 2, (K2 - G2) / 2, 0, 0, 0}},
        {1, {X3 / 2}, {K3 / 2, K3 / 2, 0, 0, 0}},
        {1, {X4 / 2}, {K4 / 2, (K4 - G4) / 2, 0, 0, 0}},
        {1, {X5 / 2}, {K5 / 2, K5 / 2, 0, 0, 0}},
        {1, {X6 / 2}, {K6 / 2, (K6 - G6) / 2, 0, 0, 0}},
        {1, {X7 / 2}, {K7 / 2, K7 / 2, 0, 0, 0}},
    },
};

void pagani_gauss_kronrod_table(pagani_rule_table *t) { *t = table; }
