/*
 * rule_pack.h - a pagani_rule in the form the GPU evaluate kernel reads
 * (layout in cubature_math.h): the explicit points as rows (offsets, then
 * weights) in tiles, so that a thread reads its point in a few 16-byte
 * loads and the threads of a warp, taking consecutive points, read
 * contiguous bytes; each point's index
 * into a table of distinct weight tuples (the vector kernel's); and one
 * table of constants. Plain C,
 * no CUDA: the tests check a packed rule against the rule itself without a
 * GPU.
 */
#ifndef PAGANI_GPU_RULE_PACK_H
#define PAGANI_GPU_RULE_PACK_H

#include "rules/rules.h"
#include "gpu/cubature/cubature_math.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pagani_packed_rule {
    int n, degree;
    pagani_eval_shape shape;           /* tpr left 0: the launch sets it */
    double *rows;                      /* PAGANI_ROW_DOUBLE(n, q, i) */
    int *tuples;                       /* weight tuple of each point */
    double consts[PAGANI_EVC_SIZE];
} pagani_packed_rule;

/* Packs `rule` into *out, allocating rows and tuples (free with
 * pagani_packed_rule_free). Returns 0, -1 when the rule does not fit the
 * layout (more weight tuples or sets than the limits, n > 20), -2 when
 * memory ran out. */
int pagani_packed_rule_make(const pagani_rule *rule, pagani_packed_rule *out);
void pagani_packed_rule_free(pagani_packed_rule *p);

/* Coordinates of point q of the region (lower, width) as the kernel
 * computes them (c + o*h, c the centre), for tests and reports. */
void pagani_packed_rule_point(const pagani_packed_rule *p, int q,
                              const double *lower, const double *width,
                              double *x);

#ifdef __cplusplus
}
#endif

#endif /* PAGANI_GPU_RULE_PACK_H */
