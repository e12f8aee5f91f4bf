/*
 * test_block.c - vectorized host integrands (pagani_integrand_from_block_
 * function) on the CPU backend. A block function that calls a one-point
 * function at each of its points must give, bit for bit, the results of
 * that function given one point at a time: every method (cubature with
 * its probes and randomized check, Vegas, Vegas+, QMC), scalar and vector,
 * single integrals and batches, QMC parts, with max_block 1, 7 and the
 * default; no call larger than max_block, and with the default, calls of
 * many points; calls never overlap on a context of several threads. A
 * non-zero return ends the integration at once (PAGANI_ERR_ABORTED, the
 * value in the message, no later call) at the first call and mid-run; a
 * NaN is PAGANI_ERR_NONFINITE with the one-point form's message; a stop
 * request from inside the function stops the run with no later call; the
 * context is usable after each. Bad arguments get their codes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pagani.h"
#include "tap.h"

#define DIM 3
#define NCOMP 3

/* A peak at p[0] of width p[1], on a sloping floor. */
static double peak(const double *x, int n, const void *params)
{
    const double *p = params;
    double s = 0.0;
    for (int i = 0; i < n; i++) s += (x[i] - p[0]) * (x[i] - p[0]);
    return exp(-s / (p[1] * p[1])) + 0.1 * x[0];
}

/* peak, its first moment and an oscillation that changes sign. */
static void peak_vector(const double *x, int n, const void *params, double *f)
{
    f[0] = peak(x, n, params);
    f[1] = x[1] * f[0];
    f[2] = cos(7.0 * (x[0] + x[2]));
}

/* NaN where x[0] > 0.8. */
static double holed(const double *x, int n, const void *params)
{
    return x[0] > 0.8 ? sqrt(-x[0]) : peak(x, n, params);
}

/* What a block function does and what it saw. */
typedef struct block_data {
    pagani_function scalar;         /* the one-point twin, or */
    pagani_vector_function vector;  /* this one's (ncomp values) */
    int ncomp;
    long long calls, points, largest, smallest;
    long long abort_at;             /* return abort_code at this call */
    int abort_code;
    long long stop_at;              /* request a stop at this call */
    pagani_context *ctx;
    int busy, overlaps;
} block_data;

static int block_fn(const double *x, int n, long long npoints,
                    const void *params, double *f, void *data)
{
    block_data *d = data;
    int rc;
    if (__atomic_exchange_n(&d->busy, 1, __ATOMIC_SEQ_CST))
        __atomic_add_fetch(&d->overlaps, 1, __ATOMIC_SEQ_CST);
    d->calls++;
    d->points += npoints;
    if (npoints > d->largest) d->largest = npoints;
    if (d->smallest == 0 || npoints < d->smallest) d->smallest = npoints;
    for (long long i = 0; i < npoints; i++) {
        if (d->scalar) f[i] = d->scalar(x + i * n, n, params);
        else d->vector(x + i * n, n, params, f + i * d->ncomp);
    }
    if (d->calls == d->stop_at) pagani_context_request_stop(d->ctx);
    rc = d->calls == d->abort_at ? d->abort_code : 0;
    __atomic_store_n(&d->busy, 0, __ATOMIC_SEQ_CST);
    return rc;
}

static const double lower[DIM] = {0, 0, 0}, upper[DIM] = {1, 1, 1};
static const double params[2] = {0.4, 0.2};
/* a batch: three peaks */
static const double batch_params[6] = {0.4, 0.2, 0.5, 0.3, 0.6, 0.15};

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

static int same_result(const pagani_result *a, const pagani_result *b)
{
    return same_bits(a->value, b->value) && same_bits(a->error, b->error) &&
           a->status == b->status && a->evaluations == b->evaluations &&
           a->regions == b->regions && a->iterations == b->iterations &&
           same_bits(a->chi2_dof, b->chi2_dof) && a->method == b->method;
}

static int same_arrays(const double *a, const double *b, int count)
{
    return memcmp(a, b, (size_t)count * sizeof *a) == 0;
}

/* The runs compared: each method, Vegas+ besides plain Vegas. */
typedef struct run_case {
    const char *name;
    pagani_method method;
    unsigned flags;
} run_case;

static const run_case cases[] = {
    {"cubature", PAGANI_CUBATURE, 0},
    {"Vegas", PAGANI_VEGAS, 0},
    {"Vegas+", PAGANI_VEGAS, PAGANI_FLAG_VEGAS_PLUS},
    {"QMC", PAGANI_QMC, 0},
};
#define CASES (int)(sizeof cases / sizeof cases[0])

static pagani_options options_of(const run_case *rc)
{
    pagani_options o = pagani_options_default(rc->method);
    o.flags |= rc->flags;
    o.epsrel = 1e-3;
    o.seed = 7;
    /* the Monte Carlo runs end by this limit (or converge): cheap */
    if (rc->method != PAGANI_CUBATURE) o.max_evaluations = 300000;
    return o;
}

/* A block integrand over d's function (its ncomp, max_block). */
static pagani_integrand *block_integrand(pagani_context *ctx, block_data *d,
                                         long long max_block, const void *p,
                                         size_t size)
{
    pagani_integrand *f = NULL;
    int rc = pagani_integrand_from_block_function(ctx, &f, DIM, d->ncomp, block_fn,
                                                  d, max_block, p, size);
    if (rc != PAGANI_OK) tap_diag("block integrand: %s", pagani_context_message(ctx));
    return f;
}

static void reset(block_data *d)
{
    d->calls = d->points = d->largest = d->smallest = 0;
    d->overlaps = 0;
}

/* Scalar single integrals: equal to the one-point form's, calls within
 * max_block. */
static void check_scalar(pagani_context *ctx, const run_case *rc, long long max_block)
{
    pagani_options o = options_of(rc);
    block_data d = {peak, NULL, 1, 0, 0, 0, 0, 0, 0, 0, ctx, 0, 0};
    pagani_integrand *one = NULL, *blk = block_integrand(ctx, &d, max_block, params,
                                                         sizeof params);
    pagani_result a, b;
    long long most = max_block ? max_block : PAGANI_DEFAULT_BLOCK;
    int rc1, rc2;

    pagani_integrand_from_function(ctx, &one, DIM, peak, params, sizeof params);
    rc1 = pagani_integrate(ctx, one, lower, upper, &o, &a);
    rc2 = pagani_integrate(ctx, blk, lower, upper, &o, &b);
    tap_ok(rc1 == PAGANI_OK && rc2 == PAGANI_OK && same_result(&a, &b),
           "%s, max_block %lld: the one-point form's result bit for bit "
           "(%.15g +- %.3g, %lld evaluations; block %.15g +- %.3g, %lld)",
           rc->name, max_block, a.value, a.error, a.evaluations, b.value, b.error,
           b.evaluations);
    tap_ok(d.calls > 0 && d.smallest >= 1 && d.largest <= most && d.overlaps == 0,
           "%s, max_block %lld: %lld calls of 1..%lld points (%lld..%lld), "
           "none overlapping", rc->name, max_block, d.calls, most, d.smallest,
           d.largest);
    if (max_block == 0)
        tap_ok(d.largest >= 64 && d.points / d.calls >= 32,
               "%s, default block: calls of many points (largest %lld, mean %lld)",
               rc->name, d.largest, d.points / d.calls);
    pagani_integrand_destroy(one);
    pagani_integrand_destroy(blk);
}

/* Vector single integrals and batches (scalar and vector). */
static void check_vector_and_batch(pagani_context *ctx, const run_case *rc,
                                   long long max_block)
{
    pagani_options o = options_of(rc);
    block_data d = {NULL, peak_vector, NCOMP, 0, 0, 0, 0, 0, 0, 0, ctx, 0, 0};
    block_data s = {peak, NULL, 1, 0, 0, 0, 0, 0, 0, 0, ctx, 0, 0};
    pagani_integrand *one = NULL, *blk = block_integrand(ctx, &d, max_block, params,
                                                         sizeof params);
    pagani_integrand *scalar = NULL, *sblk = block_integrand(ctx, &s, max_block,
                                                             params, sizeof params);
    pagani_result a, b, ra[3], rb[3];
    double va[3 * NCOMP], ea[3 * NCOMP], vb[3 * NCOMP], eb[3 * NCOMP];
    int rc1, rc2, same = 1;

    pagani_integrand_from_vector_function(ctx, &one, DIM, NCOMP, peak_vector, params,
                                          sizeof params);
    pagani_integrand_from_function(ctx, &scalar, DIM, peak, params, sizeof params);
    rc1 = pagani_integrate_vector(ctx, one, lower, upper, &o, &a, va, ea);
    rc2 = pagani_integrate_vector(ctx, blk, lower, upper, &o, &b, vb, eb);
    tap_ok(rc1 == PAGANI_OK && rc2 == PAGANI_OK && same_result(&a, &b) &&
               same_arrays(va, vb, NCOMP) && same_arrays(ea, eb, NCOMP),
           "%s, max_block %lld: vector of %d, every component bit for bit "
           "(%.15g, %.15g, %.15g)", rc->name, max_block, NCOMP, vb[0], vb[1], vb[2]);

    rc1 = pagani_integrate_batch(ctx, scalar, 3, batch_params, 2 * sizeof(double),
                                 lower, upper, 0, &o, ra);
    rc2 = pagani_integrate_batch(ctx, sblk, 3, batch_params, 2 * sizeof(double),
                                 lower, upper, 0, &o, rb);
    for (int k = 0; k < 3; k++) same &= same_result(&ra[k], &rb[k]);
    tap_ok(rc1 == PAGANI_OK && rc2 == PAGANI_OK && same && s.overlaps == 0,
           "%s, max_block %lld: a batch of 3, every result bit for bit", rc->name,
           max_block);

    same = 1;
    rc1 = pagani_integrate_batch_vector(ctx, one, 3, batch_params, 2 * sizeof(double),
                                        lower, upper, 0, &o, ra, va, ea);
    rc2 = pagani_integrate_batch_vector(ctx, blk, 3, batch_params, 2 * sizeof(double),
                                        lower, upper, 0, &o, rb, vb, eb);
    for (int k = 0; k < 3; k++) same &= same_result(&ra[k], &rb[k]);
    tap_ok(rc1 == PAGANI_OK && rc2 == PAGANI_OK && same &&
               same_arrays(va, vb, 3 * NCOMP) && same_arrays(ea, eb, 3 * NCOMP) &&
               d.overlaps == 0,
           "%s, max_block %lld: a batch of 3 vectors, every component bit for bit",
           rc->name, max_block);
    pagani_integrand_destroy(one);
    pagani_integrand_destroy(blk);
    pagani_integrand_destroy(scalar);
    pagani_integrand_destroy(sblk);
}

/* A QMC part's record equals the one-point form's. */
static void check_qmc_part(pagani_context *ctx)
{
    pagani_options o = pagani_options_default(PAGANI_QMC);
    block_data d = {peak, NULL, 1, 0, 0, 0, 0, 0, 0, 0, ctx, 0, 0};
    pagani_integrand *one = NULL, *blk = block_integrand(ctx, &d, 7, params,
                                                         sizeof params);
    size_t words = PAGANI_QMC_PART_WORDS(16);
    long long *ra = calloc(words, sizeof *ra), *rb = calloc(words, sizeof *rb);
    int rc1, rc2;

    pagani_integrand_from_function(ctx, &one, DIM, peak, params, sizeof params);
    rc1 = pagani_qmc_part(ctx, one, lower, upper, &o, 10000, 1, 3, ra);
    rc2 = pagani_qmc_part(ctx, blk, lower, upper, &o, 10000, 1, 3, rb);
    tap_ok(rc1 == PAGANI_OK && rc2 == PAGANI_OK &&
               memcmp(ra, rb, words * sizeof *ra) == 0 && d.largest <= 7,
           "QMC part 2 of 3 with max_block 7: the one-point form's record");
    free(ra);
    free(rb);
    pagani_integrand_destroy(one);
    pagani_integrand_destroy(blk);
}

/* A non-zero return at call `at` ends the run there; the context then
 * gives the reference result again. */
static void check_abort(pagani_context *ctx, const run_case *rc, long long at,
                        const pagani_result *reference)
{
    pagani_options o = options_of(rc);
    block_data d = {peak, NULL, 1, 0, 0, 0, 0, at, 42, 0, ctx, 0, 0};
    pagani_integrand *blk = block_integrand(ctx, &d, 7, params, sizeof params);
    pagani_result r;
    int code = pagani_integrate(ctx, blk, lower, upper, &o, &r);
    const char *message = pagani_context_message(ctx);

    tap_ok(code == PAGANI_ERR_ABORTED && strstr(message, "returned 42") &&
               d.calls == at,
           "%s: a return of 42 at call %lld is PAGANI_ERR_ABORTED after %lld "
           "calls (%s: %s)", rc->name, at, d.calls, pagani_strerror(code), message);
    d.abort_at = 0;
    reset(&d);
    code = pagani_integrate(ctx, blk, lower, upper, &o, &r);
    tap_ok(code == PAGANI_OK && same_result(&r, reference),
           "%s: the context and integrand then give the same result", rc->name);
    pagani_integrand_destroy(blk);
}

/* A stop requested by the block function at call 2: no later call. */
static void check_stop(pagani_context *ctx, const run_case *rc)
{
    pagani_options o = options_of(rc);
    block_data d = {peak, NULL, 1, 0, 0, 0, 0, 0, 0, 2, ctx, 0, 0};
    pagani_integrand *blk = block_integrand(ctx, &d, 7, params, sizeof params);
    pagani_result r;
    int code = pagani_integrate(ctx, blk, lower, upper, &o, &r);

    tap_ok(code == PAGANI_OK && r.status == PAGANI_STOPPED && d.calls == 2,
           "%s: a stop request from the block function at call 2 stops the run "
           "(%s, %s, %lld calls)", rc->name, pagani_strerror(code),
           pagani_status_name(r.status), d.calls);
    pagani_integrand_destroy(blk);
}

/* A NaN: the one-point form's code and message. */
static void check_nan(pagani_context *ctx, const run_case *rc)
{
    pagani_options o = options_of(rc);
    block_data d = {holed, NULL, 1, 0, 0, 0, 0, 0, 0, 0, ctx, 0, 0};
    pagani_integrand *one = NULL, *blk = block_integrand(ctx, &d, 0, params,
                                                         sizeof params);
    pagani_result r;
    char expected[1024];
    int rc1, rc2;

    pagani_integrand_from_function(ctx, &one, DIM, holed, params, sizeof params);
    rc1 = pagani_integrate(ctx, one, lower, upper, &o, &r);
    snprintf(expected, sizeof expected, "%s", pagani_context_message(ctx));
    rc2 = pagani_integrate(ctx, blk, lower, upper, &o, &r);
    tap_ok(rc1 == PAGANI_ERR_NONFINITE && rc2 == PAGANI_ERR_NONFINITE &&
               strcmp(expected, pagani_context_message(ctx)) == 0,
           "%s: a NaN is PAGANI_ERR_NONFINITE naming the one-point form's point "
           "(%s)", rc->name, pagani_context_message(ctx));
    pagani_integrand_destroy(one);
    pagani_integrand_destroy(blk);
}

static void check_arguments(pagani_context *ctx)
{
    block_data d = {peak, NULL, 1, 0, 0, 0, 0, 0, 0, 0, ctx, 0, 0};
    pagani_integrand *f = NULL;
    pagani_context *gpu = NULL;
    pagani_result r;
    int code;

    code = pagani_integrand_from_block_function(ctx, &f, DIM, 1, NULL, &d, 0, NULL, 0);
    tap_ok(code == PAGANI_ERR_NULL_POINTER && f == NULL,
           "a NULL function is PAGANI_ERR_NULL_POINTER (%s)", pagani_context_message(ctx));
    code = pagani_integrand_from_block_function(ctx, NULL, DIM, 1, block_fn, &d, 0, NULL, 0);
    tap_ok(code == PAGANI_ERR_NULL_POINTER, "a NULL f is PAGANI_ERR_NULL_POINTER");
    code = pagani_integrand_from_block_function(ctx, &f, DIM, 0, block_fn, &d, 0, NULL, 0);
    tap_ok(code == PAGANI_ERR_COMPONENTS && f == NULL,
           "ncomp 0 is PAGANI_ERR_COMPONENTS (%s)", pagani_context_message(ctx));
    code = pagani_integrand_from_block_function(ctx, &f, DIM, PAGANI_MAX_COMPONENTS + 1,
                                                block_fn, &d, 0, NULL, 0);
    tap_ok(code == PAGANI_ERR_COMPONENTS && f == NULL,
           "ncomp %d is PAGANI_ERR_COMPONENTS", PAGANI_MAX_COMPONENTS + 1);
    code = pagani_integrand_from_block_function(ctx, &f, DIM, 1, block_fn, &d, -1, NULL, 0);
    tap_ok(code == PAGANI_ERR_OPTION && f == NULL && strstr(pagani_context_message(ctx),
                                                           "max_block"),
           "max_block -1 is PAGANI_ERR_OPTION (%s)", pagani_context_message(ctx));
    code = pagani_integrand_from_block_function(ctx, &f, 0, 1, block_fn, &d, 0, NULL, 0);
    tap_ok(code == PAGANI_ERR_DIMENSION && f == NULL, "n 0 is PAGANI_ERR_DIMENSION");
    code = pagani_integrand_from_block_function(ctx, &f, DIM, 1, block_fn, &d, 0, NULL, 8);
    tap_ok(code == PAGANI_ERR_NULL_POINTER && f == NULL,
           "params NULL with a size is PAGANI_ERR_NULL_POINTER");

    code = pagani_integrand_from_block_function(ctx, &f, DIM, 2, block_fn, &d, 0, NULL, 0);
    tap_ok(code == PAGANI_OK && pagani_integrand_components(f) == 2 &&
               pagani_integrate(ctx, f, lower, upper, NULL, &r) == PAGANI_ERR_COMPONENTS,
           "a block integrand of 2 components is a vector integrand "
           "(pagani_integrate: PAGANI_ERR_COMPONENTS)");
    pagani_integrand_destroy(f);
    f = NULL;

    /* the CUDA backend: PAGANI_ERR_NO_FORM where it opens, else the
     * context's own error comes first */
    if (pagani_context_create(&gpu, PAGANI_BACKEND_CUDA) == PAGANI_OK) {
        code = pagani_integrand_from_block_function(gpu, &f, DIM, 1, block_fn, &d, 0,
                                                    NULL, 0);
        tap_ok(code == PAGANI_ERR_NO_FORM && f == NULL,
               "on a CUDA context: PAGANI_ERR_NO_FORM (%s)", pagani_context_message(gpu));
    } else {
        code = pagani_integrand_from_block_function(gpu, &f, DIM, 1, block_fn, &d, 0,
                                                    NULL, 0);
        tap_ok(code == PAGANI_ERR_BACKEND_UNAVAILABLE && f == NULL,
               "on a CUDA context that did not open (no GPU here): "
               "PAGANI_ERR_BACKEND_UNAVAILABLE");
    }
    pagani_context_destroy(gpu);
    tap_ok(strcmp(pagani_strerror(PAGANI_ERR_ABORTED),
                  "the integrand's block function returned non-zero") == 0,
           "pagani_strerror(PAGANI_ERR_ABORTED) says what happened");
}

int main(void)
{
    static const long long blocks[] = {1, 7, 0};
    pagani_context *ctx;

    if (pagani_context_create(&ctx, PAGANI_BACKEND_CPU) != PAGANI_OK) {
        tap_ok(0, "CPU context: %s", pagani_context_message(ctx));
        return tap_exit_code();
    }
    /* several threads, so that the calls' serialization is tested */
    pagani_context_set_threads(ctx, 3);
    for (int c = 0; c < CASES; c++)
        for (int b = 0; b < 3; b++) check_scalar(ctx, &cases[c], blocks[b]);
    for (int c = 0; c < CASES; c++) {
        check_vector_and_batch(ctx, &cases[c], 7);
        check_vector_and_batch(ctx, &cases[c], 0);
    }
    check_qmc_part(ctx);
    for (int c = 0; c < CASES; c++) {
        pagani_options o = options_of(&cases[c]);
        pagani_integrand *one = NULL;
        pagani_result reference;
        pagani_integrand_from_function(ctx, &one, DIM, peak, params, sizeof params);
        pagani_integrate(ctx, one, lower, upper, &o, &reference);
        check_abort(ctx, &cases[c], 1, &reference);
        check_abort(ctx, &cases[c], 5, &reference);
        check_stop(ctx, &cases[c]);
        check_nan(ctx, &cases[c]);
        pagani_integrand_destroy(one);
    }
    check_arguments(ctx);
    pagani_context_destroy(ctx);
    tap_done();
    return tap_exit_code();
}
