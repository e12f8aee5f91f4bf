/*
 * source_env.h - the environment integrand source sees, the same on every
 * backend: x, n (a compile-time constant), params, p (params as doubles),
 * the <math.h> functions in double and the usual constants (M_PI, M_E, ...).
 *
 * pagani_source_wrap turns the user's source (a function body with return,
 * or one expression) into a complete translation unit for a target. Its
 * entry takes the drivers' point t and a parameter block; when the block
 * starts with the header of the map of unbounded axes and break points
 * (src/domain/domain.h, told by its mark), the user's code runs at x(t),
 * sees the caller's block behind the header as params, and its values
 * are multiplied by the Jacobian; any other block is the caller's, and
 * x = t. A
 * `#line 1 "integrand"` directive precedes the user's text, so compiler
 * messages carry the user's own line numbers.
 *
 * The checks made on the source before it runs are source_scan.h's.
 */
#ifndef PAGANI_SOURCE_ENV_H
#define PAGANI_SOURCE_ENV_H

#include <stddef.h>
#include "jit/source_scan.h"

typedef enum pagani_source_target {
    /* C99 for the system compiler: defines, with external linkage,
     *   double pagani_integrand_entry(const double *x, int n,
     *                                 const void *params);
     * which calls the user's code with x declared `const double
     * x[static n]`, so that GCC (11 and later) reports constant indices
     * past x[n-1], loops with a constant trip count included. */
    PAGANI_TARGET_HOST,
    /* The same for the host C++ compiler (the gradient's dual numbers,
     * src/gradient): the entry is declared extern "C", and the arrays
     * lack C99's [static n], which C++ does not have. */
    PAGANI_TARGET_HOST_CXX,
    /* CUDA C++ for NVRTC (no headers needed): defines
     *   __device__ __forceinline__ double
     *   pagani_integrand_device(const double *x, const void *params); */
    PAGANI_TARGET_CUDA
    /* A vector form (ncomp > 0) defines instead, on the host,
     *   void pagani_integrand_entry(const double *x, int n,
     *                               const void *params, double *f);
     * (f declared `double f[static ncomp]` for GCC's index checks) and on
     * CUDA PAGANI_NCOMP (ncomp) and
     *   __device__ __forceinline__ void
     *   pagani_integrand_device_vector(const double *x,
     *                                  const void *params, double *f); */
} pagani_source_target;

#define PAGANI_HOST_ENTRY "pagani_integrand_entry"

/* Returns a malloc'd translation unit (ncomp: 0 for the scalar form, else
 * the vector form's components), or NULL when memory ran out. */
char *pagani_source_wrap(const char *source, int n, int ncomp,
                         pagani_source_target target);

/* Whether a run whose first parameter block is `params` needs the entry
 * that reads the domain map's header, compiled without
 * PAGANI_DOMAIN_PLAIN: the block starts with the header
 * (src/domain/domain.h, PAGANI_DOMAIN_MARK). A run maps all its blocks
 * or none, so the first tells. */
int pagani_source_params_mapped(const void *params);

/* Length of an expression source without its trailing blanks and
 * semicolons, so that "x[0] * x[1];" is taken as the expression it
 * means. */
size_t pagani_source_expression_length(const char *source);

#endif /* PAGANI_SOURCE_ENV_H */
