/*
 * test_worst_select.c - worst-first refinement's choice of the regions it
 * holds (src/cubature/worst_select.h) against a straightforward reference:
 * sort the errors, take the groups of equal errors from the smallest up
 * while their sum, their count and the largest stay within the limits,
 * and hold none when an error at or below the floor is left out. Seeded
 * random lists of dyadic errors (12-bit mantissas, exponents 0..-20, at
 * most 2^16 of them: every sum is exact in any order, so the two agree
 * to the last region), with few and with many ties, limits drawn from
 * the lists' own sums and errors.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cubature/worst_select.h"
#include "tests/tap.h"

#define LISTS 400
#define LONGEST 5000

static unsigned long long rng_state = 0x37ea7bULL;

static unsigned long long rng_next(void)
{
    unsigned long long z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static long long rng_below(long long n) { return (long long)(rng_next() % (unsigned long long)n); }

static int ascending(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The reference: on the sorted errors s, whole groups of equal ones from
 * the smallest while they fit. */
static long long reference(const double *s, long long m, worst_limits l, double *largest)
{
    long long held = 0;
    double sum = 0.0;
    while (held < m) {
        long long end = held;
        double group = 0.0;
        while (end < m && s[end] == s[held]) group += s[end++];
        if (!(s[held] < l.below) || sum + group > l.allowed || end > l.most) break;
        sum += group;
        held = end;
    }
    if (held < m && s[held] <= l.floor) return 0;
    if (held > 0) *largest = s[held - 1];
    return held;
}

/* One random list: m errors, mantissas below `mantissas`. */
static void random_list(double *e, long long m, int mantissas)
{
    for (long long i = 0; i < m; i++)
        e[i] = (double)(1 + rng_below(mantissas - 1)) * ldexp(1.0, -(int)rng_below(21));
}

int main(void)
{
    static double e[LONGEST], sorted[LONGEST];
    int agreed = 0, held_some = 0, held_none = 0, floors = 0;

    for (int list = 0; list < LISTS; list++) {
        long long m = 1 + rng_below(list % 4 == 0 ? 20 : LONGEST);
        int mantissas = list % 3 == 0 ? 8 : 4096;
        worst_limits l;
        double total = 0.0, got = -1.0, want = -1.0;
        long long n_got, n_want;

        random_list(e, m, mantissas);
        memcpy(sorted, e, (size_t)m * sizeof *e);
        qsort(sorted, (size_t)m, sizeof *sorted, ascending);
        for (long long i = 0; i < m; i++) total += sorted[i];
        l.allowed = total * (double)rng_below(1001) / 1000.0;
        l.most = rng_below(m + 1);
        if (list % 5 == 0) l.most = m; /* the sum alone decides */
        l.floor = list % 2 ? sorted[rng_below(m)] : 0.0;
        l.below = list % 3 == 1 ? sorted[rng_below(m)] : sorted[m - 1];
        n_want = reference(sorted, m, l, &want);
        n_got = cubature_worst_select(e, m, l, &got);
        agreed += n_got == n_want && (n_want == 0 || got == want);
        held_some += n_want > 0;
        held_none += n_want == 0;
        floors += list % 2 && n_want > 0;
        if (n_got != n_want || (n_want > 0 && got != want))
            tap_ok(0, "list %d (m %lld): held %lld, split_above %g; reference %lld, %g",
                   list, m, n_got, got, n_want, want);
    }
    tap_ok(agreed == LISTS, "the held set equals the sorted reference's on %d of %d lists",
           agreed, LISTS);
    tap_ok(held_some > LISTS / 4 && held_none > LISTS / 20 && floors > LISTS / 10,
           "the lists hold some (%d), none (%d), and some over a floor (%d)", held_some,
           held_none, floors);
    {
        double same[6] = {1, 1, 1, 1, 1, 1}, above = -1.0;
        worst_limits l = {3.5, 6, 0.0, 2.0};
        tap_ok(cubature_worst_select(same, 6, l, &above) == 0,
               "equal errors go together or not at all: none of six 1s within 3.5");
    }
    {
        double e4[4] = {4, 1, 3, 2}, above = -1.0;
        worst_limits l = {100.0, 4, 0.0, 4.0};
        long long held = cubature_worst_select(e4, 4, l, &above);
        tap_ok(held == 3 && above == 3.0,
               "the largest error splits: 1, 2, 3 held under 4 (split_above %g)", above);
    }
    {
        double e4[4] = {4, 1, 3, 2}, above = -1.0;
        worst_limits l = {2.5, 4, 2.0, 5.0};
        tap_ok(cubature_worst_select(e4, 4, l, &above) == 0,
               "an error at the floor left out holds none (1 fits 2.5, 2 does not)");
    }
    tap_done();
    return tap_exit_code();
}
