/*
 * state_cases.h - what the checkpoint tests (test_state.c: QMC and Vegas,
 * test_state_cubature.c: cubature) integrate, how they interrupt it and
 * how they compare what runs end with. Each includes it once.
 */
#ifndef PAGANI_TEST_STATE_CASES_H
#define PAGANI_TEST_STATE_CASES_H

#include <math.h>
#include <string.h>
#include "pagani.h"

#define DIM 4
#define K 3     /* integrals of the batch */
#define NCOMP 2 /* components of the vector integrand */

/* The checksum of a checkpoint's first n bytes (whole words) as format
 * 2 takes it (src/state/state_file.h), word by word: word i into lane
 * i mod 4 as FNV-1a takes a byte, the lanes combined the same way. */
static unsigned long long format2_sum(const unsigned char *buf, size_t n)
{
    const unsigned long long offset = 0xcbf29ce484222325ULL, prime = 0x100000001b3ULL;
    unsigned long long lane[4] = {offset, offset + 1, offset + 2, offset + 3}, h = offset;
    for (size_t i = 0; i + 8 <= n; i += 8) {
        unsigned long long word;
        memcpy(&word, buf + i, 8);
        lane[i / 8 % 4] = (lane[i / 8 % 4] ^ word) * prime;
    }
    for (int l = 0; l < 4; l++) h = (h ^ lane[l]) * prime;
    return h;
}

static long long calls; /* of gauss, from any thread */
static long long stop_at; /* gauss requests a stop at this call (0: never) */
static pagani_context *stop_context; /* of that request */

/* exp(-sum ((x_i - c) / w)^2), params {c, w}. */
static double gauss(const double *x, int n, const void *params)
{
    const double *p = params;
    double s = 0.0;
    if (__atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED) == stop_at)
        pagani_context_request_stop(stop_context);
    for (int i = 0; i < n; i++) s += (x[i] - p[0]) * (x[i] - p[0]);
    return exp(-s / (p[1] * p[1]));
}

/* The Gaussian and its first moment in x_0. */
static void gauss_moment(const double *x, int n, const void *params, double *f)
{
    f[0] = gauss(x, n, params);
    f[1] = x[0] * f[0];
}

typedef enum { SINGLE, BATCH, VECTOR, FORMS } form;
static const char *const form_names[FORMS] = {"one integral", "a batch of 3",
                                              "a vector integrand"};

/* How a run is interrupted. */
typedef enum { BY_ITERATIONS, BY_CALLBACK, BY_REQUEST, BY_EVALUATIONS,
               WAYS } way;
static const char *const way_names[WAYS] = {
    "max_iterations", "the progress callback", "a stop request",
    "max_evaluations"};

static const double lower[DIM] = {0, 0, 0, 0}, upper[DIM] = {1, 1, 1, 1};

/* What a run ended with. */
typedef struct outcome {
    int rc;
    pagani_result r[K];
    double values[NCOMP], errors[NCOMP];
} outcome;

/* Runs `which` of f on c over the unit cube, a batch's integrals with
 * params, with options o (state_path: file, or none). */
static outcome run_on(pagani_context *c, pagani_integrand *f, form which,
                      const double (*params)[2], pagani_options o,
                      const char *file)
{
    outcome out;
    memset(&out, 0, sizeof out);
    o.state_path = file;
    if (which == BATCH)
        out.rc = pagani_integrate_batch(c, f, K, params, sizeof params[0],
                                        lower, upper, 0, &o, out.r);
    else if (which == VECTOR)
        out.rc = pagani_integrate_vector(c, f, lower, upper, &o, out.r,
                                         out.values, out.errors);
    else
        out.rc = pagani_integrate(c, f, lower, upper, &o, out.r);
    return out;
}

/* Whether two outcomes are the same bits (the time aside). */
static int same(const outcome *a, const outcome *b, int count)
{
    if (a->rc != b->rc || memcmp(a->values, b->values, sizeof a->values) ||
        memcmp(a->errors, b->errors, sizeof a->errors))
        return 0;
    for (int k = 0; k < count; k++) {
        const pagani_result *x = &a->r[k], *y = &b->r[k];
        if (memcmp(&x->value, &y->value, sizeof x->value) ||
            memcmp(&x->error, &y->error, sizeof x->error) ||
            x->status != y->status || x->evaluations != y->evaluations ||
            x->iterations != y->iterations || x->regions != y->regions ||
            x->by_epsabs != y->by_epsabs)
            return 0;
    }
    return 1;
}

#endif /* PAGANI_TEST_STATE_CASES_H */
