/*
 * dual_text.h - the dual numbers that differentiate integrand source, as
 * C++ text placed in the gradient's translation unit (gradient_unit.c).
 *
 * pagani_dual_text defines `struct pagani_dual { double v, d[M]; }` (a
 * value and its derivatives with respect to the M parameters chosen,
 * M = PAGANI_GRADIENT_M), with the arithmetic and compound operators,
 * comparisons (of the values), an explicit conversion to double (none to
 * an integer type: a truncation is a step), the deleted unary & (a
 * value's bits or address would lose its derivatives), and every <math.h>
 * function of the source environment that has a derivative, with it.
 * The text expects PAGANI_GRADIENT_M, PAGANI_DUAL_MEMBER (the qualifier
 * of member functions) and PAGANI_DUAL_FN (of free functions) defined.
 *
 * pagani_dual_refused lists the <math.h> functions that have no
 * derivative (steps, remainders, a value's exponent or sign bit): they
 * are declared deleted for duals, so that the compiler names a call of
 * one, and the gradient's message (gradient_explain.c) says why.
 */
#ifndef PAGANI_DUAL_TEXT_H
#define PAGANI_DUAL_TEXT_H

#include <stddef.h>

extern const char pagani_dual_text[];

typedef struct pagani_dual_refusal {
    const char *name;       /* the function */
    const char *arguments;  /* its parameter list for duals */
} pagani_dual_refusal;

/* Ends with {NULL, NULL}. */
extern const pagani_dual_refusal pagani_dual_refused[];

#endif /* PAGANI_DUAL_TEXT_H */
