/*
 * source_env.h - the environment integrand source sees, the same on every
 * backend: x, n (a compile-time constant), params, p (params as doubles),
 * the <math.h> functions in double and the usual constants (M_PI, M_E, ...).
 *
 * pagani_source_wrap turns the user's source (a function body with return,
 * or one expression) into a complete translation unit for a target. A
 * `#line 1 "integrand"` directive precedes the user's text, so compiler
 * messages carry the user's own line numbers.
 */
#ifndef PAGANI_SOURCE_ENV_H
#define PAGANI_SOURCE_ENV_H

typedef enum pagani_source_target {
    /* C99 for the system compiler: defines, with external linkage,
     *   double pagani_integrand_entry(const double *x, int n,
     *                                 const void *params);            */
    PAGANI_TARGET_HOST,
    /* CUDA C++ for NVRTC (no headers needed): defines
     *   __device__ __forceinline__ double
     *   pagani_integrand_device(const double *x, const void *params); */
    PAGANI_TARGET_CUDA
} pagani_source_target;

#define PAGANI_HOST_ENTRY "pagani_integrand_entry"

/* Returns a malloc'd translation unit, or NULL when memory ran out. */
char *pagani_source_wrap(const char *source, int n, pagani_source_target target);

#endif /* PAGANI_SOURCE_ENV_H */
