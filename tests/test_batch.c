/*
 * test_batch.c - pagani_integrate_batch on the CPU backend: its argument
 * checks; cubature batches of the Gaussian of batch_cases.h (3-D, 1-D,
 * 6-D, one box per integral) against the analytic values and against the
 * loop of pagani_integrate calls, which they must equal bit for bit (the
 * CPU backend's sums are segment-local); a memory budget too small for the
 * whole batch, one that fits two members only when shared by need, NaN in
 * one integral, the progress callback; and, briefly,
 * the same equality for Vegas and QMC batches.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pagani.h"
#include "internal.h"
#include "batch_cases.h"
#include "tap.h"

#define SEED 20261123u

/* Whether two results agree in every field a batch promises to share
 * with the single call: value, error and chi2/dof bit for bit, status,
 * evaluations, regions and iterations. */
static int same_result(const pagani_result *a, const pagani_result *b)
{
    return memcmp(&a->value, &b->value, sizeof a->value) == 0 &&
           memcmp(&a->error, &b->error, sizeof a->error) == 0 &&
           memcmp(&a->chi2_dof, &b->chi2_dof, sizeof a->chi2_dof) == 0 &&
           a->status == b->status && a->evaluations == b->evaluations &&
           a->regions == b->regions && a->iterations == b->iterations;
}

/* The first integral whose batch and loop results differ, or -1; skip
 * (>= 0) is left out of the comparison. */
static int first_difference(const pagani_result *batch,
                            const pagani_result *loop, int count, int skip)
{
    for (int k = 0; k < count; k++)
        if (k != skip && !same_result(&batch[k], &loop[k])) return k;
    return -1;
}

/* Prints both results of integral k when they differ. */
static void diag_difference(const pagani_result *batch,
                            const pagani_result *loop, int k)
{
    if (k < 0) return;
    tap_diag("integral %d: batch %.17g +- %.17g %s, %lld evaluations, %d "
             "iterations; single %.17g +- %.17g %s, %lld evaluations, %d "
             "iterations",
             k, batch[k].value, batch[k].error,
             pagani_status_name(batch[k].status), batch[k].evaluations,
             batch[k].iterations, loop[k].value, loop[k].error,
             pagani_status_name(loop[k].status), loop[k].evaluations,
             loop[k].iterations);
}

/* Options of a batch run: method and epsrel, no absolute tolerance, and
 * for the Monte Carlo methods samples small enough for the CPU. */
static pagani_options batch_options(pagani_method method, double epsrel)
{
    pagani_options opt = pagani_options_default(method);
    opt.epsrel = epsrel;
    opt.epsabs = 0.0;
    opt.vegas_calls = 2e4;
    opt.qmc_initial_points = 1024;
    return opt;
}

/* The Gaussian integrand in n dimensions, or NULL (with a diagnostic). */
static pagani_integrand *make_gaussian(pagani_context *ctx, int n)
{
    pagani_integrand *f = NULL;
    int rc = pagani_integrand_create(ctx, &f, n, &batch_gaussian);
    if (rc != PAGANI_OK)
        tap_diag("integrand: %s: %s", pagani_strerror(rc),
                 pagani_context_message(ctx));
    return f;
}

/* Among the converged results, the largest true relative error and the
 * first integral whose error exceeds epsrel (or -1); *converged counts
 * them. */
static double worst_error(const pagani_result *r, const double *params, int n,
                          int count, const double *lower, const double *upper,
                          size_t box_stride, double epsrel, int *converged,
                          int *first_false)
{
    double worst = 0.0;
    *converged = 0;
    *first_false = -1;
    for (int k = 0; k < count; k++) {
        double truth = batch_gaussian_truth(params + BATCH_PARAMS * k, n,
                                            lower + k * box_stride,
                                            upper + k * box_stride);
        double rel = fabs(r[k].value - truth) / fabs(truth);
        if (r[k].status != PAGANI_CONVERGED) continue;
        ++*converged;
        if (!(rel <= epsrel) && *first_false < 0) *first_false = k;
        if (!(rel <= worst)) worst = rel;
    }
    return worst;
}

/* ---- argument checks ------------------------------------------------- */

/* A message that names integral k. */
static int names_integral(pagani_context *ctx, int k)
{
    char want[32];
    snprintf(want, sizeof want, "integral %d", k);
    return strstr(pagani_context_message(ctx), want) != NULL;
}

/* Bad arguments get their codes, a bad box names its integral, and
 * params_size 0 runs every integral with the integrand's own block. */
static void check_arguments(pagani_context *ctx)
{
    enum { N = 3, K = 4 };
    double params[BATCH_PARAMS * K], lower[N * K], upper[N * K];
    pagani_options opt = batch_options(PAGANI_CUBATURE, 1e-4);
    pagani_result r[K], single;
    pagani_integrand *f = make_gaussian(ctx, N);
    int rc;

    batch_gaussian_draw(params, K, SEED, BATCH_WIDTH_MIN, BATCH_WIDTH_MAX);
    for (int k = 0; k < K; k++)
        batch_unit_cube(lower + N * k, upper + N * k, N);
    rc = pagani_integrate_batch(ctx, f, 0, params, BATCH_BLOCK, lower, upper, 0,
                                &opt, r);
    tap_ok(rc == PAGANI_ERR_OPTION, "count 0: PAGANI_ERR_OPTION (%s)",
           pagani_context_message(ctx));
    rc = pagani_integrate_batch(ctx, f, K, NULL, BATCH_BLOCK, lower, upper, 0,
                                &opt, r);
    tap_ok(rc == PAGANI_ERR_NULL_POINTER,
           "NULL params with params_size > 0: PAGANI_ERR_NULL_POINTER (%s)",
           pagani_context_message(ctx));
    rc = pagani_integrate_batch(ctx, f, K, params, BATCH_BLOCK, lower, upper,
                                N - 1, &opt, r);
    tap_ok(rc == PAGANI_ERR_OPTION, "box_stride n - 1: PAGANI_ERR_OPTION (%s)",
           pagani_context_message(ctx));
    rc = pagani_integrate_batch(ctx, f, K, params, BATCH_BLOCK, lower, upper, 1,
                                &opt, r);
    tap_ok(rc == PAGANI_ERR_OPTION, "box_stride 1: PAGANI_ERR_OPTION");

    lower[N * 2 + 1] = upper[N * 2 + 1]; /* box 2: lower == upper on axis 1 */
    rc = pagani_integrate_batch(ctx, f, K, params, BATCH_BLOCK, lower, upper, N,
                                &opt, r);
    tap_ok(rc == PAGANI_ERR_BOUNDS && names_integral(ctx, 2),
           "box 2 with lower >= upper: PAGANI_ERR_BOUNDS naming it (%s)",
           pagani_context_message(ctx));
    lower[N * 2 + 1] = 0.0;
    upper[N * 3] = -INFINITY; /* +INFINITY: an unbounded axis */
    rc = pagani_integrate_batch(ctx, f, K, params, BATCH_BLOCK, lower, upper, N,
                                &opt, r);
    tap_ok(rc == PAGANI_ERR_BOUNDS && names_integral(ctx, 3),
           "box 3 with an upper bound of -inf: PAGANI_ERR_BOUNDS naming it (%s)",
           pagani_context_message(ctx));
    upper[N * 3] = 1.0;

    rc = pagani_integrate_batch(ctx, f, K, params, sizeof(double), lower, upper,
                                0, &opt, r);
    tap_ok(rc == PAGANI_ERR_PARAMS,
           "blocks of one double for a source reading p[1]: PAGANI_ERR_PARAMS "
           "(%s)",
           pagani_context_message(ctx));
    rc = pagani_integrate_batch(ctx, f, K, NULL, 0, lower, upper, 0, &opt, r);
    tap_ok(rc == PAGANI_ERR_PARAMS,
           "params_size 0 and no block of the integrand's own: "
           "PAGANI_ERR_PARAMS (%s)",
           pagani_context_message(ctx));

    /* params_size 0: every integral runs with the integrand's own block. */
    pagani_integrand_set_params(f, params + BATCH_PARAMS, BATCH_BLOCK);
    rc = pagani_integrate_batch(ctx, f, K, NULL, 0, lower, upper, 0, &opt, r);
    if (rc == PAGANI_OK)
        rc = pagani_integrate(ctx, f, lower, upper, &opt, &single);
    tap_ok(rc == PAGANI_OK && same_result(&r[0], &single) &&
               same_result(&r[K - 1], &single),
           "params_size 0: every integral uses the integrand's own block (%s)",
           pagani_strerror(rc));
    pagani_integrand_destroy(f);
}

/* ---- cubature against the truth and the loop --------------------------- */

/* A batch: count Gaussians in n dimensions, their widths from w_min up to
 * BATCH_WIDTH_MAX, over the unit cube (box_stride 0) or over boxes of
 * their own (box_stride n). */
typedef struct batch_case {
    pagani_method method;
    int n, count;
    double epsrel, w_min;
    size_t box_stride;
} batch_case;

static const batch_case cases[] = {
    {PAGANI_CUBATURE, 3, 1, 1e-6, BATCH_WIDTH_MIN, 0},
    {PAGANI_CUBATURE, 3, 50, 1e-6, BATCH_WIDTH_MIN, 0},
    {PAGANI_CUBATURE, 3, 20, 1e-6, BATCH_WIDTH_MIN, 3},
    {PAGANI_CUBATURE, 1, 1000, 1e-10, BATCH_WIDTH_MIN, 0},
    /* Wide ones only: a narrow 6-D Gaussian takes a minute on two cores. */
    {PAGANI_CUBATURE, 6, 3, 1e-5, 0.25, 0},
    {PAGANI_VEGAS, 3, 3, 1e-3, BATCH_WIDTH_MIN, 0},
    {PAGANI_QMC, 3, 3, 1e-5, BATCH_WIDTH_MIN, 0},
};

/* The parameters and boxes of case c come from the seed: every integral
 * must converge (cubature: within epsrel of its true value) and equal its
 * pagani_integrate call bit for bit. */
static void check_batch(pagani_context *ctx, const batch_case *c)
{
    int n = c->n, count = c->count;
    size_t box_stride = c->box_stride;
    size_t boxes = box_stride ? (size_t)count : 1;
    double *params = malloc(BATCH_BLOCK * count);
    double *lower = malloc(sizeof(double) * n * boxes);
    double *upper = malloc(sizeof(double) * n * boxes);
    pagani_result *batch = calloc((size_t)count, sizeof *batch);
    pagani_result *loop = calloc((size_t)count, sizeof *loop);
    pagani_options opt = batch_options(c->method, c->epsrel);
    pagani_integrand *f = make_gaussian(ctx, n);
    const char *label = pagani_method_name(c->method);
    int rc = PAGANI_ERR_NO_MEMORY, rc_loop = rc, converged = 0,
        first_false = -1, diff;
    double worst = 0.0, batch_s = 0.0;

    if (f && params && lower && upper && batch && loop) {
        uint64_t state = SEED ^ (uint64_t)n;
        batch_gaussian_draw(params, count, SEED + (uint64_t)n, c->w_min,
                            BATCH_WIDTH_MAX);
        for (size_t b = 0; b < boxes * n; b++) {
            lower[b] = box_stride ? 0.2 * genz_uniform(&state) : 0.0;
            upper[b] =
                box_stride ? lower[b] + 0.5 + 0.5 * genz_uniform(&state) : 1.0;
        }
        rc = pagani_integrate_batch(ctx, f, count, params, BATCH_BLOCK, lower,
                                    upper, box_stride, &opt, batch);
        if (rc != PAGANI_OK)
            tap_diag("batch: %s: %s", pagani_strerror(rc),
                     pagani_context_message(ctx));
        batch_s = batch[0].seconds;
        rc_loop = batch_loop(ctx, f, count, params, BATCH_BLOCK, lower, upper,
                             box_stride, &opt, loop);
        worst = worst_error(batch, params, n, count, lower, upper, box_stride,
                            c->epsrel, &converged, &first_false);
    }
    diff = first_difference(batch, loop, count, -1);
    tap_ok(rc == PAGANI_OK && converged == count,
           "%s %dD, %d integrals%s to %.0e: %d converged (batch %.2f s)", label,
           n, count, box_stride ? " on their own boxes" : "", c->epsrel,
           converged, batch_s);
    if (c->method == PAGANI_CUBATURE) {
        tap_ok(rc == PAGANI_OK && first_false < 0,
               "%s %dD: worst true relative error %.2e <= %.0e", label, n,
               worst, c->epsrel);
        if (first_false >= 0)
            tap_diag("integral %d: %.17g, error %.3g", first_false,
                     batch[first_false].value, batch[first_false].error);
    }
    tap_ok(rc == PAGANI_OK && rc_loop == PAGANI_OK && diff < 0,
           "%s %dD: every result equals its pagani_integrate call bit for bit",
           label, n);
    diag_difference(batch, loop, diff);
    pagani_integrand_destroy(f);
    free(params);
    free(lower);
    free(upper);
    free(batch);
    free(loop);
}

/* ---- easy and hard members ------------------------------------------- */

/* A batch of K with a member that converges as early as cubature can (a
 * Gaussian far wider than the cube: at the second iteration, the first
 * whose error estimate may stop), one that cannot converge within the
 * iteration limit (a narrow peak) and drawn ones: each ends with its own
 * status, as its single call does. */
static void check_mixed(pagani_context *ctx)
{
    enum { N = 3, K = 7, EASY = 1, HARD = 4 };
    double params[BATCH_PARAMS * K], lower[N], upper[N], truth;
    pagani_options opt = batch_options(PAGANI_CUBATURE, 1e-6);
    pagani_result r[K], loop[K];
    pagani_integrand *f = make_gaussian(ctx, N);
    int rc, rc_loop, diff;

    opt.max_iterations = 8;
    batch_gaussian_draw(params, K, SEED + 300, BATCH_WIDTH_MIN,
                        BATCH_WIDTH_MAX);
    params[BATCH_PARAMS * EASY + 1] = 10.0;
    params[BATCH_PARAMS * HARD + 1] = 0.01;
    batch_unit_cube(lower, upper, N);
    rc = pagani_integrate_batch(ctx, f, K, params, BATCH_BLOCK, lower, upper, 0,
                                &opt, r);
    rc_loop = batch_loop(ctx, f, K, params, BATCH_BLOCK, lower, upper, 0, &opt,
                         loop);
    truth = batch_gaussian_truth(params + BATCH_PARAMS * HARD, N, lower, upper);
    tap_ok(rc == PAGANI_OK && r[EASY].status == PAGANI_CONVERGED &&
               r[EASY].iterations == 2,
           "easy member: %s after %d iteration(s)",
           pagani_status_name(r[EASY].status), r[EASY].iterations);
    tap_ok(rc == PAGANI_OK && r[HARD].status != PAGANI_CONVERGED &&
               fabs(r[HARD].value - truth) <= r[HARD].error,
           "hard member: %s after %d iterations, true error %.2e within the "
           "reported %.2e",
           pagani_status_name(r[HARD].status), r[HARD].iterations,
           fabs(r[HARD].value - truth), r[HARD].error);
    diff = first_difference(r, loop, K, -1);
    tap_ok(rc == PAGANI_OK && rc_loop == PAGANI_OK && diff < 0,
           "each member equals its single call bit for bit");
    diag_difference(r, loop, diff);
    pagani_integrand_destroy(f);
}

/* ---- a progress callback that keeps what it saw ------------------------- */

#define LOG_MAX 256

/* What the progress callback saw: the size of every call; it asks to stop
 * at iteration stop_at (0: never). */
typedef struct progress_log {
    int calls, stop_at;
    long long sizes[LOG_MAX];
} progress_log;

static int log_progress(int iteration, long long size, double estimate,
                        double error, void *data)
{
    progress_log *log = data;
    (void)estimate;
    (void)error;
    if (log->calls < LOG_MAX) log->sizes[log->calls] = size;
    log->calls++;
    return log->stop_at > 0 && iteration >= log->stop_at;
}

/* ---- a memory budget too small for the batch --------------------------- */

/* The most active regions integral k of the batch has in an iteration
 * when it runs alone with the whole budget (the progress callback's size),
 * into peaks[k]; the single calls' results into single[k]. */
static int single_peaks(pagani_context *ctx, pagani_integrand *f, int count,
                        const double *params, const double *lower,
                        const double *upper, pagani_options opt,
                        pagani_result *single, long long *peaks)
{
    progress_log log;
    int rc = PAGANI_OK;

    opt.progress = log_progress;
    opt.progress_data = &log;
    for (int k = 0; rc == PAGANI_OK && k < count; k++) {
        log.calls = log.stop_at = 0;
        rc = pagani_integrand_set_params(f, params + BATCH_PARAMS * k,
                                         BATCH_BLOCK);
        if (rc == PAGANI_OK)
            rc = pagani_integrate(ctx, f, lower, upper, &opt, &single[k]);
        peaks[k] = 0;
        for (int i = 0; i < log.calls && i < LOG_MAX; i++)
            if (log.sizes[i] > peaks[k]) peaks[k] = log.sizes[i];
    }
    return rc;
}

/* The batch of count integrals over the unit cube under a memory budget of
 * `bytes` (the context's default again after it), with a diagnostic when
 * it fails. */
static int batch_in_budget(pagani_context *ctx, pagani_integrand *f, int count,
                           const double *params, const double *lower,
                           const double *upper, const pagani_options *opt,
                           size_t bytes, pagani_result *r)
{
    int rc;

    pagani_context_set_memory(ctx, bytes);
    rc = pagani_integrate_batch(ctx, f, count, params, BATCH_BLOCK, lower,
                                upper, 0, opt, r);
    if (rc != PAGANI_OK)
        tap_diag("%s: %s", pagani_strerror(rc), pagani_context_message(ctx));
    pagani_context_set_memory(ctx, 0);
    return rc;
}

/* A budget of 2 K m regions for K integrals, m the smallest peak of
 * single_peaks: each integral's share (its children when all fit, else a
 * K-th) keeps m active
 * regions and their children, so an integral whose peak is m never needs
 * more and must give the same bits as alone; the budget is too small for
 * some others, which end PAGANI_OUT_OF_CAPACITY; none may claim to have
 * converged falsely, and those that did not converge must report at least
 * the error they have. */
static void check_memory(pagani_context *ctx)
{
    enum { N = 3, K = 8 };
    double params[BATCH_PARAMS * K], lower[N], upper[N];
    size_t region_bytes =
        ctx->backend->cubature->bytes_per_region(ctx->backend_state, N, 1);
    pagani_options opt = batch_options(PAGANI_CUBATURE, 1e-8);
    pagani_result single[K], r[K];
    long long peaks[K], fits = LLONG_MAX;
    pagani_integrand *f = make_gaussian(ctx, N);
    int rc, fits_ok = 1, out = 0, honest = 1, converged = 0;

    opt.initial_splits = 2; /* 8 regions each at the start: a small list */
    batch_gaussian_draw(params, K, SEED + 100, BATCH_WIDTH_MIN,
                        BATCH_WIDTH_MAX);
    batch_unit_cube(lower, upper, N);
    rc = single_peaks(ctx, f, K, params, lower, upper, opt, single, peaks);
    for (int k = 0; k < K; k++)
        if (peaks[k] < fits) fits = peaks[k];
    if (rc == PAGANI_OK)
        rc = batch_in_budget(ctx, f, K, params, lower, upper, &opt,
                             (size_t)(2 * K * fits) * region_bytes, r);
    for (int k = 0; rc == PAGANI_OK && k < K; k++) {
        double truth =
            batch_gaussian_truth(params + BATCH_PARAMS * k, N, lower, upper);
        double err = fabs(r[k].value - truth);
        if (peaks[k] <= fits && !same_result(&r[k], &single[k])) fits_ok = 0;
        out += r[k].status == PAGANI_OUT_OF_CAPACITY;
        converged += r[k].status == PAGANI_CONVERGED;
        if (r[k].status == PAGANI_CONVERGED ? !(err <= opt.epsrel * truth)
                                            : !(err <= r[k].error))
            honest = 0;
        tap_diag("integral %d: alone %s after %lld regions (at most %lld "
                 "active), in the batch %s after %lld, true error %.2e, "
                 "reported %.2e",
                 k, pagani_status_name(single[k].status), single[k].regions,
                 peaks[k], pagani_status_name(r[k].status), r[k].regions, err,
                 r[k].error);
    }
    tap_ok(rc == PAGANI_OK && out > 0 && converged > 0,
           "a budget of %lld regions for %d integrals: %d converged, %d out "
           "of capacity",
           2 * K * fits, K, converged, out);
    tap_ok(rc == PAGANI_OK && fits_ok,
           "integrals with at most %lld active regions give the same bits "
           "as alone",
           fits);
    tap_ok(rc == PAGANI_OK && honest,
           "no false convergence; the others' errors cover their true errors");
    pagani_integrand_destroy(f);
}

/* ---- NaN in one integral ------------------------------------------------ */

/* A centre of NaN makes integral BAD NaN everywhere: the others run to
 * their end as their single calls do; that one has value NaN, error
 * +infinity, status PAGANI_NO_PROGRESS; the call returns
 * PAGANI_ERR_NONFINITE naming it. */
static void check_nonfinite(pagani_context *ctx)
{
    enum { N = 3, K = 5, BAD = 2 };
    double params[BATCH_PARAMS * K], lower[N], upper[N];
    pagani_options opt = batch_options(PAGANI_CUBATURE, 1e-6);
    pagani_result r[K], loop[K];
    pagani_integrand *f = make_gaussian(ctx, N);
    int rc, named, converged = 0, diff;

    batch_gaussian_draw(params, K, SEED, BATCH_WIDTH_MIN, BATCH_WIDTH_MAX);
    params[BATCH_PARAMS * BAD] = NAN;
    batch_unit_cube(lower, upper, N);
    rc = pagani_integrate_batch(ctx, f, K, params, BATCH_BLOCK, lower, upper, 0,
                                &opt, r);
    named = names_integral(ctx, BAD);
    tap_ok(rc == PAGANI_ERR_NONFINITE && named,
           "NaN in integral %d: PAGANI_ERR_NONFINITE naming it (%s)", BAD,
           pagani_context_message(ctx));
    tap_ok(isnan(r[BAD].value) && r[BAD].error == INFINITY &&
               r[BAD].status == PAGANI_NO_PROGRESS,
           "its result: value %g, error %g, %s", r[BAD].value, r[BAD].error,
           pagani_status_name(r[BAD].status));
    for (int k = 0; k < K; k++)
        converged += k != BAD && r[k].status == PAGANI_CONVERGED;
    batch_loop(ctx, f, K, params, BATCH_BLOCK, lower, upper, 0, &opt, loop);
    diff = first_difference(r, loop, K, BAD);
    tap_ok(converged == K - 1 && diff < 0,
           "the other %d converge and equal their single calls", converged);
    diag_difference(r, loop, diff);
    pagani_integrand_destroy(f);
}

/* ---- the progress callback -------------------------------------------- */

/* One call per iteration of the batch with size the integrals that ran
 * it (a batch of one calls it as pagani_integrate does); a callback that
 * stops at iteration STOP stops every integral still running there (the others
 * converged earlier), as it stops each single call. */
static void check_progress(pagani_context *ctx)
{
    enum { N = 3, K = 12, STOP = 5 };
    double params[BATCH_PARAMS * K], lower[N], upper[N];
    pagani_options opt = batch_options(PAGANI_CUBATURE, 1e-6);
    pagani_result r[K], loop[K];
    progress_log log = {0, 0, {0}}, single;
    pagani_integrand *f = make_gaussian(ctx, N);
    int rc, iterations = 0, sizes_ok = 1, stopped = 0, early = 0, diff;
    int ends_ok = 1;

    batch_gaussian_draw(params, K, SEED + 200, BATCH_WIDTH_MIN,
                        BATCH_WIDTH_MAX);
    batch_unit_cube(lower, upper, N);
    opt.progress = log_progress;
    opt.progress_data = &log;
    rc = pagani_integrate_batch(ctx, f, K, params, BATCH_BLOCK, lower, upper, 0,
                                &opt, r);
    for (int k = 0; k < K; k++)
        if (r[k].iterations > iterations) iterations = r[k].iterations;
    for (int i = 1; i <= iterations && i <= LOG_MAX; i++) {
        long long ran = 0;
        for (int k = 0; k < K; k++) ran += r[k].iterations >= i;
        if (log.sizes[i - 1] != ran) sizes_ok = 0;
    }
    tap_ok(rc == PAGANI_OK && log.calls == iterations && sizes_ok,
           "progress: %d calls for %d iterations, sizes %lld .. %lld: the "
           "integrals that ran each",
           log.calls, iterations, log.sizes[0],
           log.sizes[log.calls > 0 ? log.calls - 1 : 0]);

    log.calls = 0;
    rc = pagani_integrate_batch(ctx, f, 1, params, BATCH_BLOCK, lower, upper, 0,
                                &opt, r);
    single = log;
    log.calls = 0;
    if (rc == PAGANI_OK) rc = pagani_integrand_set_params(f, params, BATCH_BLOCK);
    if (rc == PAGANI_OK) rc = pagani_integrate(ctx, f, lower, upper, &opt, loop);
    tap_ok(rc == PAGANI_OK && single.calls == log.calls && single.calls > 0 &&
               !memcmp(single.sizes, log.sizes, sizeof log.sizes),
           "a batch of one is pagani_integrate: the same %d calls with its "
           "active regions as size (first %lld)", single.calls, single.sizes[0]);

    log.calls = 0;
    log.stop_at = STOP;
    rc = pagani_integrate_batch(ctx, f, K, params, BATCH_BLOCK, lower, upper, 0,
                                &opt, r);
    for (int k = 0; k < K; k++) {
        stopped += r[k].status == PAGANI_STOPPED;
        early += r[k].status == PAGANI_CONVERGED;
        if (r[k].status == PAGANI_STOPPED
                ? r[k].iterations != STOP
                : r[k].status != PAGANI_CONVERGED || r[k].iterations > STOP)
            ends_ok = 0;
    }
    tap_ok(rc == PAGANI_OK && log.calls == STOP && stopped > 0 && early > 0 &&
               ends_ok,
           "progress returning 1 at iteration %d: %d calls, %d of %d "
           "stopped there, %d converged before",
           STOP, log.calls, stopped, K, early);
    batch_loop(ctx, f, K, params, BATCH_BLOCK, lower, upper, 0, &opt, loop);
    diff = first_difference(r, loop, K, -1);
    tap_ok(diff < 0,
           "each result equals its single call stopped at iteration %d", STOP);
    diag_difference(r, loop, diff);
    pagani_integrand_destroy(f);
}

/* Two members under a budget of twice the sum of their peaks (active
 * regions): the children of all their active regions always fit together.
 * The narrow one (peak 504 at iteration 7, on the CPU) peaks while the
 * wider one still runs (69 active then), above a quarter of the budget,
 * the active regions an equal half of the list would let it keep; shared
 * by need, memory limits neither, and each gives its single call's bits
 * under the same budget. */
static void check_fitting(pagani_context *ctx)
{
    enum { N = 3, K = 2, NARROW = 0 };
    const double params[BATCH_PARAMS * K] = {0.5, 0.15, 0.37, 0.2};
    double lower[N], upper[N];
    size_t region_bytes =
        ctx->backend->cubature->bytes_per_region(ctx->backend_state, N, 1);
    pagani_options opt = batch_options(PAGANI_CUBATURE, 1e-8);
    pagani_result single[K], r[K];
    long long peaks[K], budget;
    pagani_integrand *f = make_gaussian(ctx, N);
    int rc, diff = -1;

    opt.initial_splits = 2;
    batch_unit_cube(lower, upper, N);
    rc = single_peaks(ctx, f, K, params, lower, upper, opt, single, peaks);
    budget = 2 * (peaks[0] + peaks[1]);
    pagani_context_set_memory(ctx, (size_t)budget * region_bytes);
    if (rc == PAGANI_OK)
        rc = single_peaks(ctx, f, K, params, lower, upper, opt, single, peaks);
    pagani_context_set_memory(ctx, 0);
    if (rc == PAGANI_OK)
        rc = batch_in_budget(ctx, f, K, params, lower, upper, &opt,
                             (size_t)budget * region_bytes, r);
    if (rc == PAGANI_OK) diff = first_difference(r, single, K, -1);
    tap_ok(rc == PAGANI_OK && peaks[NARROW] > budget / 4 && diff < 0,
           "a budget of %lld regions for peaks of %lld and %lld active: both "
           "members give their single calls' bits (%s, %s)",
           budget, peaks[0], peaks[1], pagani_status_name(r[0].status),
           pagani_status_name(r[1].status));
    diag_difference(r, single, diff);
    pagani_integrand_destroy(f);
}

int main(void)
{
    pagani_context *ctx = NULL;

    if (pagani_context_create(&ctx, PAGANI_BACKEND_CPU) != PAGANI_OK) {
        printf("Bail out! no CPU context: %s\n", pagani_context_message(ctx));
        return 1;
    }
    check_arguments(ctx);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_batch(ctx, &cases[i]);
    check_mixed(ctx);
    check_memory(ctx);
    check_fitting(ctx);
    check_nonfinite(ctx);
    check_progress(ctx);
    pagani_context_destroy(ctx);
    tap_done();
    return tap_exit_code();
}
