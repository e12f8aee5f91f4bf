/*
 * domain_breaks.c - break points (pagani_options.breaks): a finite axis
 * with break points runs in a variable u of [0, 1] whose map x(u) is
 * linear on each segment between consecutive break points, with each
 * segment given whole cells of cubature's first uniform split, so that
 * the first split's faces fall exactly on the break points and every
 * later bisection keeps them.
 */
#include <math.h>
#include "domain/domain.h"

/* Axis i's break points in opt. */
static const double *axis_breaks(const pagani_options *opt, int i)
{
    const double *b = opt->breaks;
    for (int j = 0; j < i; j++) b += opt->break_counts[j];
    return b;
}

int pagani_breaks_check(pagani_context *ctx, int n, const pagani_options *opt)
{
    if (!opt->break_counts) return PAGANI_OK;
    for (int i = 0; i < n; i++) {
        const double *b;
        if (opt->break_counts[i] < 0 ||
            opt->break_counts[i] > PAGANI_MAX_BREAKS)
            return pagani_fail(ctx, PAGANI_ERR_OPTION, "break_counts[%d] "
                               "must be 0..%d, got %d", i, PAGANI_MAX_BREAKS,
                               opt->break_counts[i]);
        if (opt->break_counts[i] > 0 && !opt->breaks)
            return pagani_fail(ctx, PAGANI_ERR_NULL_POINTER, "breaks is "
                               "NULL but break_counts[%d] is %d", i,
                               opt->break_counts[i]);
        b = axis_breaks(opt, i);
        for (int j = 0; j < opt->break_counts[i]; j++)
            if (!isfinite(b[j]) || (j > 0 && !(b[j - 1] < b[j])))
                return pagani_fail(ctx, PAGANI_ERR_OPTION, "axis %d: break "
                                   "points must be finite and increasing "
                                   "(break %d is %g)", i, j, b[j]);
    }
    return PAGANI_OK;
}

size_t pagani_breaks_table_doubles(int n, const pagani_options *opt)
{
    size_t doubles = 0;
    for (int i = 0; opt->break_counts && i < n; i++)
        if (opt->break_counts[i] > 0)
            doubles += 2 * (size_t)(opt->break_counts[i] + 2);
    return doubles;
}

int pagani_breaks_axis(const pagani_options *opt, int i, double lower,
                       double upper, int parts, double *table)
{
    const double *b = axis_breaks(opt, i);
    double *knots = table, *xs;
    int cells[PAGANI_MAX_BREAKS + 1], segments = 0, given = parts;

    if (!opt->break_counts || opt->break_counts[i] == 0) return 0;
    /* the ends and the break points inside the axis, at xs */
    xs = table + opt->break_counts[i] + 2;
    xs[segments] = lower;
    for (int j = 0; j < opt->break_counts[i]; j++)
        if (b[j] > lower && b[j] < upper) xs[++segments] = b[j];
    xs[++segments] = upper;
    if (segments == 1 || segments > parts) return segments == 1 ? 0 : -1;
    /* one cell each, then each further cell to the segment whose cells
     * are widest */
    for (int j = 0; j < segments; j++) cells[j] = 1;
    for (given -= segments; given > 0; given--) {
        int widest = 0;
        for (int j = 1; j < segments; j++)
            if ((xs[j + 1] - xs[j]) / cells[j] >
                (xs[widest + 1] - xs[widest]) / cells[widest])
                widest = j;
        cells[widest]++;
    }
    knots[0] = 0.0;
    for (int j = 0, before = 0; j < segments; j++) {
        before += cells[j];
        knots[j + 1] = (double)before / parts;
    }
    /* the xs follow the knots directly */
    for (int j = 0; j <= segments; j++) knots[segments + 1 + j] = xs[j];
    return segments;
}
