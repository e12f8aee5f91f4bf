/*
 * domain.h - unbounded axes (README, "Domains and singularities"). An axis
 * with an infinite limit is integrated over a finite interval of a new
 * variable t, with x(t) and the Jacobian dx/dt applied where f is
 * evaluated; the drivers see only the finite box in t:
 *
 *   [a, +inf)   t in [0, 1):   x = a + s t / (1 - t),  dx/dt = s / (1 - t)^2
 *   (-inf, b]   t in [0, 1):   x = b - s t / (1 - t),  dx/dt = s / (1 - t)^2
 *   (-inf, inf) t in (-1, 1):  x = s t / (1 - t^2),
 *                              dx/dt = s (1 + t^2) / (1 - t^2)^2
 *
 * with s = pagani_options.domain_scale (default 1). A finite axis keeps
 * x = t. Where x(t) or the Jacobian is not finite (t at an end: no rule
 * evaluates there, but a sample may) the point contributes 0 and f is not
 * called.
 *
 * The map travels in front of each parameter block: the header below,
 * then the caller's block. Compiled source reads it in its entry (the
 * generated wrapper, src/jit/source_env.c, the same text on the CPU and
 * the GPU); a host function runs under pagani_domain_function or
 * pagani_domain_vector_function, which read it too.
 */
#ifndef PAGANI_DOMAIN_H
#define PAGANI_DOMAIN_H

#include "methods.h"

/* The header, in doubles, in front of each parameter block:
 *   [0] the host function under the wrappers (its bytes), else 0;
 *   [1] the number of mapped axes (0: x = t everywhere);
 *   [2] 1 when the caller's block follows, 0 when there is none (p NULL);
 *   [3] the integrand's components;
 *   then per axis i: [4 + 3i] the kind (PAGANI_DOMAIN_*), [5 + 3i] the
 *   finite end a or b, [6 + 3i] the scale s. */
#define PAGANI_DOMAIN_HEADER(n) (4 + 3 * (n))
enum {
    PAGANI_DOMAIN_FINITE = 0,
    PAGANI_DOMAIN_UPPER_INFINITE = 1, /* [a, +inf) */
    PAGANI_DOMAIN_LOWER_INFINITE = 2, /* (-inf, b] */
    PAGANI_DOMAIN_BOTH_INFINITE = 3   /* (-inf, +inf) */
};

/* The map, x from t given the header h of an n-dimensional integrand;
 * returns dx/dt, the product over the axes, or 0 where x or the Jacobian
 * is not finite (domain_map.c; the same code is pagani_domain_map_text). */
double pagani_domain_map(const double *h, int n, const double *t, double *x);

/* The text of pagani_domain_map for generated source: a definition
 * qualified by the macro PAGANI_DOMAIN_FN, which the including unit
 * defines first (static on the host, __device__ on the GPU). */
extern const char pagani_domain_map_text[];

/* A batch whose parameter blocks carry the header (pagani_domain_batch). */
typedef struct pagani_domain_batch {
    pagani_batch batch;          /* boxes in t, blocks with their headers */
    pagani_integrand *f;         /* the integrand to run: f itself, or
                                    `integrand` when f's host form runs
                                    under a wrapper */
    pagani_integrand integrand;  /* a copy of f with its host form under
                                    the wrapper (CPU, host functions) */
    double *storage;             /* owned: the blocks and boxes */
} pagani_domain_batch;

/* The batch of f in t: each integral's box mapped, its block preceded by
 * the header, f's host forms (those not compiled from source, which read
 * the header themselves) replaced by the wrappers; scale s > 0. Returns
 * PAGANI_OK or PAGANI_ERR_NO_MEMORY. Free with pagani_domain_batch_free. */
int pagani_domain_batch_make(pagani_context *ctx, pagani_integrand *f,
                             const pagani_batch *batch, double scale,
                             pagani_domain_batch *out);
void pagani_domain_batch_free(pagani_domain_batch *d);

/* Whether axis bounds lower < upper leave the axis unbounded. */
static inline int pagani_domain_unbounded(double lower, double upper)
{
    return isinf(lower) || isinf(upper);
}

#endif /* PAGANI_DOMAIN_H */
