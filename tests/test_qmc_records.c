/*
 * test_qmc_records.c - pagani_qmc_combine_parts takes records as untrusted
 * input (issue 30, items 1 and 2): a record of another integral (another
 * integrand, parameter block, box, dimension, seed, transform or cut), of
 * another version, damaged, or forged with fields out of range (resealed
 * with a valid checksum, computed here from pagani.h's description) is
 * PAGANI_ERR_OPTION with a message naming what, never a read out of
 * bounds or a result. The good records combine to pagani_integrate's
 * value, bit for bit.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "pagani.h"
#include "tap.h"

#define N_POINTS 4096ULL
#define SHIFTS 16
#define WORDS PAGANI_QMC_PART_WORDS(SHIFTS)
#define CHECKSUM (PAGANI_QMC_PART_HEADER - 1)
/* header words, pagani.h's order */
enum { TAG, PART, PARTS, SHIFTS_WORD, POINTS, DIM, SEED, TRANSFORM };

PAGANI_INTEGRAND(product2, { return x[0] * x[1]; })
PAGANI_INTEGRAND(sum2, { return x[0] + x[1]; })
PAGANI_INTEGRAND(product3, { return x[0] * x[1] * x[2]; })

static double scaled(const double *x, int n, const void *params)
{
    (void)n;
    return *(const double *)params * x[0] * x[1];
}

static double lower[3] = {0, 0, 0}, unit[3] = {1, 1, 1}, ten[3] = {10, 10, 10};
static pagani_context *ctx;

/* FNV-1a (64 bits) of every word but the checksum, bytes little-endian,
 * written into the checksum: a record resealed after an edit. */
static void reseal(long long *rec)
{
    unsigned long long h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < WORDS; i++) {
        unsigned long long w = (unsigned long long)rec[i];
        if (i == CHECKSUM) continue;
        for (int b = 0; b < 8; b++)
            h = (h ^ ((w >> (8 * b)) & 0xff)) * 0x100000001b3ULL;
    }
    rec[CHECKSUM] = (long long)h;
}

/* The two parts of f over [0, upper] with options o into rec[0], rec[1]. */
static int make_parts(pagani_integrand *f, const double *upper,
                      const pagani_options *o, long long rec[2][WORDS])
{
    return pagani_qmc_part(ctx, f, lower, upper, o, N_POINTS, 0, 2, rec[0]) ==
               PAGANI_OK &&
           pagani_qmc_part(ctx, f, lower, upper, o, N_POINTS, 1, 2, rec[1]) ==
               PAGANI_OK;
}

/* Combines `count` records for f over [0, upper] with o; checks the code
 * PAGANI_ERR_OPTION and that the message holds `text`. */
static void expect_refused(pagani_integrand *f, const double *upper,
                           const pagani_options *o, int count,
                           long long rec[][WORDS], const char *text,
                           const char *what)
{
    const long long *list[3];
    pagani_result r;
    int rc;

    for (int i = 0; i < count; i++) list[i] = rec[i];
    rc = pagani_qmc_combine_parts(ctx, f, lower, upper, o, count, list, &r);
    tap_ok(rc == PAGANI_ERR_OPTION &&
               strstr(pagani_context_message(ctx), text) != NULL,
           "%s: PAGANI_ERR_OPTION (%d): %s", what, rc,
           pagani_context_message(ctx));
}

/* Item 2: records of another integral. */
static void check_identity(pagani_integrand *f, const pagani_options *o,
                           long long good[2][WORDS])
{
    static long long rec[2][WORDS];
    pagani_integrand *g = NULL, *h = NULL;
    pagani_options other = *o;
    double two = 2.0, three = 3.0;

    if (make_parts(f, ten, o, rec))
        expect_refused(f, unit, o, 2, rec, "was made over another box",
                       "parts of [0,10]^2 combined for [0,1]^2");
    pagani_integrand_create(ctx, &g, 2, &sum2);
    if (g && make_parts(g, unit, o, rec))
        expect_refused(f, unit, o, 2, rec, "was made from another integrand",
                       "parts of x0 + x1 combined for x0 x1");
    pagani_integrand_destroy(g);
    pagani_integrand_create(ctx, &g, 3, &product3);
    if (g && make_parts(g, unit, o, rec))
        expect_refused(f, unit, o, 2, rec, "was made in another dimension",
                       "parts of a 3-D integrand combined for a 2-D one");
    pagani_integrand_destroy(g);
    pagani_integrand_from_function(ctx, &g, 2, scaled, &two, sizeof two);
    pagani_integrand_from_function(ctx, &h, 2, scaled, &three, sizeof three);
    if (g && h && make_parts(g, unit, o, rec))
        expect_refused(h, unit, o, 2, rec, "with another parameter block",
                       "parts of a host function with p = 2 combined for p = 3");
    pagani_integrand_destroy(g);
    pagani_integrand_destroy(h);
    other.seed = o->seed + 1;
    expect_refused(f, unit, &other, 2, good, "was made with another seed",
                   "parts of seed 1 combined with seed 2");
    other = *o;
    other.qmc_transform = 2;
    expect_refused(f, unit, &other, 2, good, "with another transform",
                   "parts of the tent transform combined for Korobov's");
    memcpy(rec, good, sizeof rec);
    rec[1][POINTS] = 2 * N_POINTS;
    reseal(rec[1]);
    expect_refused(f, unit, o, 2, rec, "cuts another run",
                   "a part of 8192 points with one of 4096");
}

/* Item 1: damaged, old and forged records, each one word of record 1
 * edited (and resealed, but for the damage the checksum must see). */
static void check_forged(pagani_integrand *f, const pagani_options *o,
                         long long good[2][WORDS])
{
    static const struct {
        int word;
        long long value;
        int seal;
        const char *text, *what;
    } edits[] = {
        {PARTS, (1LL << 32) + 1, 1, "out of range", "parts = 2^32 + 1"},
        {PARTS, INT_MAX, 1, "out of range", "parts = INT_MAX > points"},
        {PARTS, INT_MAX, 0, "checksum", "parts = INT_MAX, not resealed"},
        {PART, -1, 1, "out of range", "part = -1"},
        {POINTS, LLONG_MAX, 1, "out of range", "points = LLONG_MAX"},
        {SHIFTS_WORD, 1 << 20, 1, "holds 1048576 shifts", "shifts = 2^20"},
        {TAG, 0x50514d4300000001LL, 1, "version 1", "a version 1 record"},
        {TAG, 0, 1, "no QMC part's record", "tag 0"},
        {PAGANI_QMC_PART_HEADER, 1, 0, "checksum", "a bin changed"},
        {PAGANI_QMC_PART_HEADER, LLONG_MAX, 1, "none a part can hold",
         "bin 0 of shift 0 = LLONG_MAX"},
        {PAGANI_QMC_PART_HEADER + 5 * PAGANI_QMC_SUM_WORDS + 67, LLONG_MIN, 1,
         "none a part can hold", "the top bin of shift 5 = LLONG_MIN"},
        {PAGANI_QMC_PART_HEADER + PAGANI_QMC_SUM_WORDS - 1, -1, 1,
         "none a part can hold", "a load of -1"},
        {PAGANI_QMC_PART_HEADER + PAGANI_QMC_SUM_WORDS - 1, LLONG_MAX, 1,
         "none a part can hold", "a load of LLONG_MAX"},
    };
    static long long rec[3][WORDS];

    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
        memcpy(rec, good, 2 * sizeof rec[0]);
        rec[1][edits[i].word] = edits[i].value;
        if (edits[i].seal) reseal(rec[1]);
        expect_refused(f, unit, o, 2, rec, edits[i].text, edits[i].what);
    }
    memcpy(rec, good, 2 * sizeof rec[0]);
    memcpy(rec[2], good[0], sizeof rec[0]);
    expect_refused(f, unit, o, 3, rec, "3 records of 2 parts",
                   "three records of two parts");
}

int main(void)
{
    static long long good[2][WORDS];
    pagani_integrand *f = NULL;
    pagani_options o = pagani_options_default(PAGANI_QMC);
    pagani_result whole, combined;
    const long long *list[2];
    int rc;

    if (pagani_context_create(&ctx, PAGANI_BACKEND_CPU) != PAGANI_OK ||
        pagani_integrand_create(ctx, &f, 2, &product2) != PAGANI_OK)
        return 1;
    o.epsrel = 1e-12;
    o.qmc_initial_points = N_POINTS;
    o.max_iterations = 1;
    tap_ok(make_parts(f, unit, &o, good), "two parts of x0 x1 over [0,1]^2");
    list[0] = good[1];
    list[1] = good[0];
    rc = pagani_qmc_combine_parts(ctx, f, lower, unit, &o, 2, list,
                                  &combined);
    if (rc == PAGANI_OK) rc = pagani_integrate(ctx, f, lower, unit, &o, &whole);
    tap_ok(rc == PAGANI_OK && combined.value == whole.value &&
               combined.error == whole.error,
           "combined, they are pagani_integrate's %.17g +- %.3g (%s)",
           whole.value, whole.error, pagani_status_name(whole.status));
    check_identity(f, &o, good);
    check_forged(f, &o, good);
    pagani_integrand_destroy(f);
    pagani_context_destroy(ctx);
    tap_done();
    return tap_exit_code();
}
