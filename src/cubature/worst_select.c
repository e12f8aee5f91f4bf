/*
 * worst_select.c - worst-first refinement's held set (worst_select.h):
 * the smallest errors that fit the limits, found by partitioning rather
 * than a sort or a search over thresholds.
 */
#include "cubature/worst_select.h"

static void swap(double *e, long long i, long long j)
{
    double t = e[i];
    e[i] = e[j];
    e[j] = t;
}

/* The median of e[lo], e[mid] and e[hi - 1]. */
static double pivot_of(const double *e, long long lo, long long hi)
{
    double a = e[lo], b = e[lo + (hi - lo) / 2], c = e[hi - 1];
    if (a > b) {
        double t = a;
        a = b;
        b = t;
    }
    return c < a ? a : c > b ? b : c;
}

/* Partitions e[lo, hi) around p into e < p, e == p, e > p; *less and
 * *more receive where the equal and the greater stretches start. */
static void partition3(double *e, long long lo, long long hi, double p,
                       long long *less, long long *more)
{
    long long lt = lo, i = lo, gt = hi;
    while (i < gt) {
        if (e[i] < p) swap(e, lt++, i++);
        else if (e[i] > p) swap(e, i, --gt);
        else i++;
    }
    *less = lt;
    *more = gt;
}

/* The length j of the held prefix: after the call, e[0, j) holds the j
 * smallest errors and every one of them is below every error of e[j, m). */
static long long held_prefix(double *e, long long m, worst_limits l)
{
    long long lo = 0, hi = m;
    double sum = 0.0; /* of e[0, lo) */

    while (lo < hi) {
        double p = pivot_of(e, lo, hi), part = 0.0, equal = 0.0;
        long long less, more;
        partition3(e, lo, hi, p, &less, &more);
        for (long long i = lo; i < less; i++) part += e[i];
        if (!(p < l.below) || sum + part > l.allowed || less > l.most) {
            hi = less; /* the boundary lies among the smaller ones */
            continue;
        }
        sum += part;
        /* the equal ones go together or not at all */
        for (long long i = less; i < more; i++) equal += e[i];
        if (sum + equal > l.allowed || more > l.most) return less;
        sum += equal;
        lo = more;
    }
    return lo;
}

long long cubature_worst_select(double *e, long long m, worst_limits l,
                                double *split_above)
{
    long long held = held_prefix(e, m, l);
    double largest = 0.0;

    for (long long i = held; i < m; i++)
        if (e[i] <= l.floor) return 0;
    if (held == 0) return 0;
    largest = e[0];
    for (long long i = 1; i < held; i++)
        if (e[i] > largest) largest = e[i];
    *split_above = largest;
    return held;
}
