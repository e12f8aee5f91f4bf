/*
 * gradient.h - integrands that carry their parameter derivatives: a
 * vector integrand whose components are the c values of the user's
 * integrand, then the m derivatives of each, [f_0 .. f_c-1, df_0/dq_0 ..
 * df_0/dq_m-1, df_1/dq_0 ..], q_j being the parameter p[which[j]]. The
 * drivers see a vector integrand of c (1 + m) components and nothing
 * else (DESIGN.md section 12).
 *
 * For source, the derivatives come from the source itself, compiled a
 * second time with dual numbers (dual_text.h) for the parameters: as C++
 * by the host C++ compiler on the CPU, by NVRTC on CUDA, from one unit
 * text (gradient_unit.c).
 */
#ifndef PAGANI_GRADIENT_H
#define PAGANI_GRADIENT_H

#include "internal.h"
#include "jit/source_env.h"

struct pagani_gradient {
    int values;         /* c: the values of the user's integrand */
    int params;         /* m: the derivatives of each */
    int source_ncomp;   /* source: 0 for the scalar form, else c */
    int *which;         /* source: the m parameter indices (owned), else
                           NULL (a host function computes its own) */
    int params_doubles; /* source: the doubles of the block its unit
                           reads as duals (the block at creation, padded);
                           a block must hold at least as many */
};

/* Frees g; NULL is allowed. */
void pagani_gradient_free(struct pagani_gradient *g);

/* The translation unit of f's gradient (f->gradient with its which, and
 * f->source) for target PAGANI_TARGET_HOST_CXX or PAGANI_TARGET_CUDA:
 * what pagani_source_wrap makes for a vector form of f->ncomp components
 * (the same entry points), computing the values and derivatives with
 * dual numbers. malloc'd; NULL when memory ran out. */
char *pagani_gradient_unit(const pagani_integrand *f,
                           pagani_source_target target);

/* After a gradient unit failed to compile with PAGANI_ERR_COMPILE: when
 * the compiler's log in ctx's message shows a construct the dual numbers
 * refuse (a function with no derivative, a value's address, a conversion
 * to an integer, the parameter block read through params), puts a line
 * naming it and its line first in the message. Returns
 * PAGANI_ERR_COMPILE. */
int pagani_gradient_explain(pagani_context *ctx);

#endif /* PAGANI_GRADIENT_H */
