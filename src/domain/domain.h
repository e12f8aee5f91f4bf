/*
 * domain.h - unbounded axes (README, "Domains and singularities"). An axis
 * with an infinite limit is integrated over a finite interval of a new
 * variable t, with x(t) and the Jacobian dx/dt applied where f is
 * evaluated; the drivers see only the finite box in t:
 *
 *   PAGANI_MAP_RATIONAL (the default):
 *   [a, +inf)   t in [0, 1):   x = a + s t / (1 - t),  dx/dt = s / (1 - t)^2
 *   (-inf, b]   t in [0, 1):   x = b - s t / (1 - t),  dx/dt = s / (1 - t)^2
 *   (-inf, inf) t in (-1, 1):  x = c + s t / (1 - t^2),
 *                              dx/dt = s (1 + t^2) / (1 - t^2)^2
 *   PAGANI_MAP_EXPONENTIAL:
 *   [a, +inf)   t in (0, 1]:   x = a + s log(1/t),     dx/dt = s / t
 *   (-inf, b]   t in (0, 1]:   x = b - s log(1/t),     dx/dt = s / t
 *   (-inf, inf) t in [-1, 1]:  x = c + s log(1/t) for t > 0,
 *                              x = c - s log(1/|t|) for t < 0,
 *                              dx/dt = s / |t|
 *
 * (the exponential map runs its infinite end at t = 0, where doubles are
 * dense: x reaches c + 744 s, where at t = 1 it would stop at 37 s) with
 * s the axis's scale (pagani_options.domain_scales, else domain_scale;
 * default 1) and c its centre (domain_centers, default 0). A finite axis keeps
 * x = t, unless cubature runs with break points inside it
 * (domain_breaks.c): then t runs over [0, 1] and x(t) is linear between
 * the break points, each segment given whole cells of the first split. Where x(t) or the Jacobian is not finite (t at an end: no rule
 * evaluates there, but a sample may) the point contributes 0 and f is not
 * called.
 *
 * The map travels in front of each parameter block: the header below,
 * then the caller's block. Compiled source reads it in its entry (the
 * generated wrapper, src/jit/source_env.c, the same text on the CPU and
 * the GPU), which tells a header from a caller's block by its first
 * double, PAGANI_DOMAIN_MARK; a host function runs under a wrapper that
 * reads it too. A run with no axis to map passes the caller's blocks
 * and f as they are.
 */
#ifndef PAGANI_DOMAIN_H
#define PAGANI_DOMAIN_H

#include "methods.h"

/* The first double of a header for compiled source: a value no
 * parameter block is expected to start with (the finite double of bits
 * 0xFFCC0DEFF00DD0A1), and its text for generated source. */
#define PAGANI_DOMAIN_MARK_TEXT "(-3.9400998844453683e+307)"
#define PAGANI_DOMAIN_MARK (-3.9400998844453683e+307)

/* The header, in doubles, in front of each parameter block:
 *   [0] PAGANI_DOMAIN_MARK, or under the host wrappers the host
 *       function (its bytes);
 *   [1] the number of mapped axes (0: x = t everywhere);
 *   [2] where the caller's block starts, in doubles from the header's
 *       start, or 0 when there is none (p NULL);
 *   [3] the integrand's components;
 *   then per axis i: [4 + 3i] the kind (PAGANI_DOMAIN_*), [5 + 3i] the
 *   finite end a or b, or the centre c of the line, [6 + 3i] the scale
 *   s; a piecewise axis has instead at [5 + 3i] where its table starts
 *   (doubles from the header's start) and at [6 + 3i] its segments m:
 *   the table holds the m + 1 ends of the segments in t, then their
 *   m + 1 images in x.
 * PAGANI_DOMAIN_HEADER is its size without the tables. */
#define PAGANI_DOMAIN_HEADER(n) (4 + 3 * (n))
enum {
    PAGANI_DOMAIN_FINITE = 0,
    PAGANI_DOMAIN_UPPER_INFINITE = 1, /* [a, +inf) */
    PAGANI_DOMAIN_LOWER_INFINITE = 2, /* (-inf, b] */
    PAGANI_DOMAIN_BOTH_INFINITE = 3,  /* (-inf, +inf) */
    PAGANI_DOMAIN_PIECEWISE = 4,      /* break points inside [a, b] */
    /* the exponential map (the end at [5 + 3i] is c on the line) */
    PAGANI_DOMAIN_UPPER_EXPONENTIAL = 5,
    PAGANI_DOMAIN_LOWER_EXPONENTIAL = 6,
    PAGANI_DOMAIN_BOTH_EXPONENTIAL = 7
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
    unsigned char *mapped;       /* owned: batch.mapped */
} pagani_domain_batch;

/* The batch of f in t: each integral's box mapped, its block preceded by
 * the header, f's host forms (those not compiled from source, which read
 * the header themselves) replaced by the wrappers, or batch and f as
 * they are when no axis is mapped; opt's domain_map, domain_centers,
 * domain_scales and domain_scale (0: 1; checked: pagani_domain_check),
 * and its break points (checked: pagani_breaks_check) when opt->method
 * is PAGANI_CUBATURE.
 * Returns PAGANI_OK, PAGANI_ERR_NO_MEMORY, or PAGANI_ERR_OPTION for
 * break points on an unbounded axis or more segments on an axis than the
 * first split has cells. Free with pagani_domain_batch_free (also after
 * a failure). */
int pagani_domain_batch_make(pagani_context *ctx, pagani_integrand *f,
                             const pagani_batch *batch,
                             const pagani_options *opt,
                             pagani_domain_batch *out);
void pagani_domain_batch_free(pagani_domain_batch *d);

/* The map's options for n axes (domain_options.c): domain_map one of
 * pagani_map, domain_centers finite, domain_scales finite >= 0 (0: the
 * common domain_scale); else PAGANI_ERR_OPTION naming the field. */
int pagani_domain_check(pagani_context *ctx, int n, const pagani_options *opt);

/* Break points (domain_breaks.c). pagani_breaks_check: opt's break
 * points for n axes are valid (counts 0..PAGANI_MAX_BREAKS, finite,
 * increasing; PAGANI_ERR_OPTION, or PAGANI_ERR_NULL_POINTER for counts
 * without points). pagani_breaks_table_doubles: the doubles their tables
 * may take in a header. pagani_breaks_axis: axis i's table over [lower,
 * upper] for a first split of `parts` cells; returns its segments, 0
 * when no break point falls inside (the axis stays x = t), -1 when the
 * segments outnumber the cells. */
int pagani_breaks_check(pagani_context *ctx, int n, const pagani_options *opt);
size_t pagani_breaks_table_doubles(int n, const pagani_options *opt);
int pagani_breaks_axis(const pagani_options *opt, int i, double lower,
                       double upper, int parts, double *table);

/* Whether axis bounds lower < upper leave the axis unbounded. */
static inline int pagani_domain_unbounded(double lower, double upper)
{
    return isinf(lower) || isinf(upper);
}

#endif /* PAGANI_DOMAIN_H */
