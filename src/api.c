/*
 * api.c - the public entry points: contexts, options, argument checking,
 * dispatch to the method drivers (names.c holds the names of codes).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "methods.h"
#include "domain/domain.h"
#include "state/checkpoint.h"

/* The most CPU threads a context accepts (pagani_context_set_threads and
 * PAGANI_THREADS): far above any CPU's cores, far below what a process can
 * start. */
#define MAX_THREADS 4096

/* ---- contexts -------------------------------------------------------- */

static int open_backend(pagani_context *ctx, const backend_ops *ops)
{
    void *state = NULL;
    int rc;

    if (!ops)
        return pagani_fail(ctx, PAGANI_ERR_BACKEND_UNAVAILABLE,
                           "libpagani was built without the CUDA backend");
    rc = ops->open(ctx, &state);
    if (rc != PAGANI_OK) return rc;
    ctx->backend = ops;
    ctx->backend_state = state;
    ctx->kind = ops->kind;
    return PAGANI_OK;
}

/* Sets the context's thread count from PAGANI_THREADS when it is set and
 * not empty: PAGANI_ERR_OPTION unless it is a whole number 0..MAX_THREADS. */
static int threads_from_environment(pagani_context *ctx)
{
    const char *text = getenv("PAGANI_THREADS");
    char *end;
    long threads;

    if (!text || !*text) return PAGANI_OK;
    errno = 0;
    threads = strtol(text, &end, 10);
    if (errno || *end || threads < 0 || threads > MAX_THREADS)
        return pagani_fail(ctx, PAGANI_ERR_OPTION,
                           "PAGANI_THREADS must be a whole number 0..%d "
                           "(0: OpenMP's default), got '%s'",
                           MAX_THREADS, text);
    ctx->threads = (int)threads;
    return PAGANI_OK;
}

int pagani_context_create(pagani_context **out, pagani_backend backend)
{
    return pagani_context_create_ranked(out, backend, -1, 0);
}

int pagani_context_create_ranked(pagani_context **out, pagani_backend backend,
                                 int node_rank, int node_size)
{
    pagani_context *ctx;
    int rc;

    if (!out) return PAGANI_ERR_NULL_POINTER;
    *out = NULL;
    if (backend != PAGANI_BACKEND_AUTO && backend != PAGANI_BACKEND_CPU &&
        backend != PAGANI_BACKEND_CUDA)
        return PAGANI_ERR_OPTION;
    ctx = calloc(1, sizeof *ctx);
    if (!ctx) return PAGANI_ERR_NO_MEMORY;
    ctx->node_rank = node_rank;
    ctx->node_size = node_size;
    *out = ctx;
    /* as when CUDA cannot run: the context exists to hold the message */
    if ((rc = threads_from_environment(ctx)) != PAGANI_OK) return rc;

    switch (backend) {
    case PAGANI_BACKEND_CUDA:
        ctx->kind = PAGANI_BACKEND_CUDA;
        rc = open_backend(ctx, pagani_cuda_backend());
        break;
    case PAGANI_BACKEND_CPU:
        rc = open_backend(ctx, &pagani_cpu_backend);
        break;
    default: /* AUTO: the GPU when one is usable, else the CPU */
        if (open_backend(ctx, pagani_cuda_backend()) != PAGANI_OK) {
            pagani_clear_message(ctx);
            rc = open_backend(ctx, &pagani_cpu_backend);
        }
        break;
    }
    return rc;
}

void pagani_context_add_layer(pagani_context *ctx, const backend_ops *ops,
                              const pagani_layer *layer)
{
    if (ops) {
        ctx->backend = ops;
        ctx->backend_state = layer->state;
    }
    ctx->layer = *layer;
}

int pagani_collective_start(pagani_context *ctx, const pagani_integrand *f,
                            const pagani_batch *batch,
                            const pagani_options *opt, unsigned long long part)
{
    pagani_call_identity call;

    if (!ctx->layer.call_start) return PAGANI_OK;
    pagani_call_identity_of(&call, f, batch, opt, part);
    return ctx->layer.call_start(ctx, &call);
}

int pagani_collective_end(pagani_context *ctx, int rc)
{
    return ctx && ctx->layer.collective_end ? ctx->layer.collective_end(ctx, rc)
                                            : rc;
}

void pagani_context_destroy(pagani_context *ctx)
{
    if (!ctx) return;
    if (ctx->backend) ctx->backend->close(ctx->backend_state);
    if (ctx->layer.close) ctx->layer.close(ctx->layer.state);
    free(ctx->message);
    free(ctx);
}

pagani_backend pagani_context_backend(const pagani_context *ctx)
{
    return ctx ? ctx->kind : PAGANI_BACKEND_AUTO;
}

int pagani_context_set_threads(pagani_context *ctx, int threads)
{
    if (!ctx) return PAGANI_ERR_NULL_POINTER;
    if (threads < 0 || threads > MAX_THREADS)
        return pagani_fail(ctx, PAGANI_ERR_OPTION,
                           "threads must be 0..%d (0: the default), got %d",
                           MAX_THREADS, threads);
    ctx->threads = threads;
    return PAGANI_OK;
}

int pagani_context_set_memory(pagani_context *ctx, size_t bytes)
{
    if (!ctx) return PAGANI_ERR_NULL_POINTER;
    ctx->memory_budget = bytes;
    return PAGANI_OK;
}

const char *pagani_context_message(const pagani_context *ctx)
{
    if (!ctx || !ctx->message) return "";
    return ctx->message;
}

void pagani_context_request_stop(pagani_context *ctx)
{
    if (ctx) ctx->stop_requested = 1;
}

/* ---- options --------------------------------------------------------- */

pagani_options pagani_options_default(pagani_method method)
{
    pagani_options o;

    memset(&o, 0, sizeof o);
    o.method = method;
    o.epsrel = 1e-3;
    o.epsabs = 0.0; /* relative unless asked: pagani.h */
    o.seed = 1;
    o.vegas_calls = 1e6;
    o.vegas_adjust_iterations = 5;
    o.vegas_bins = 500;
    o.vegas_alpha = 1.5;
    o.vegas_beta = 0.75;
    o.chi2_max = 5.0;
    o.qmc_shifts = 16;
    o.qmc_initial_points = 1LL << 14;
    o.qmc_transform = 1;
    o.mc_sigmas = 1.0;
    o.domain_scale = 1.0;
    o.state_interval = 600.0;
    return o;
}

/* Declared in internal.h. */
int pagani_check_options(pagani_context *ctx, const pagani_options *o)
{
    if (isnan(o->epsrel) || isnan(o->epsabs) || o->epsrel < 0 || o->epsabs < 0)
        return pagani_fail(ctx, PAGANI_ERR_TOLERANCE,
                           "epsrel and epsabs must be >= 0 (got %g and %g)",
                           o->epsrel, o->epsabs);
    if (o->epsrel == 0 && o->epsabs == 0)
        return pagani_fail(ctx, PAGANI_ERR_TOLERANCE,
                           "epsrel and epsabs are both 0: no tolerance can be met");
    if (o->method < PAGANI_AUTO || o->method > PAGANI_QMC)
        return pagani_fail(ctx, PAGANI_ERR_OPTION, "unknown method %d", (int)o->method);
    if (o->max_evaluations < 0 || o->max_iterations < 0)
        return pagani_fail(ctx, PAGANI_ERR_OPTION,
                           "max_evaluations and max_iterations must be >= 0");
    if (o->rule_degree != 0 && o->rule_degree != 7 && o->rule_degree != 9 &&
        o->rule_degree != 11 && o->rule_degree != 13)
        return pagani_fail(ctx, PAGANI_ERR_OPTION,
                           "rule_degree must be 0, 7, 9, 11 or 13 (got %d)",
                           o->rule_degree);
    if (o->initial_splits < 0 || o->initial_splits > 64)
        return pagani_fail(ctx, PAGANI_ERR_OPTION,
                           "initial_splits must be 0..64 (got %d)", o->initial_splits);
    if (o->norm < PAGANI_NORM_INDIVIDUAL || o->norm > PAGANI_NORM_MAX)
        return pagani_fail(ctx, PAGANI_ERR_OPTION, "unknown norm %d", (int)o->norm);
    if (o->strategy < PAGANI_STRATEGY_AUTO || o->strategy > PAGANI_STRATEGY_WORST_FIRST)
        return pagani_fail(ctx, PAGANI_ERR_OPTION, "unknown strategy %d",
                           (int)o->strategy);
    if (!(o->mc_sigmas >= 0.0 && o->mc_sigmas <= PAGANI_MC_SIGMAS_MAX))
        return pagani_fail(ctx, PAGANI_ERR_OPTION,
                           "mc_sigmas must be 0 (the default, 1) or a number of "
                           "standard deviations up to %g (got %g)",
                           PAGANI_MC_SIGMAS_MAX, o->mc_sigmas);
    if (!(o->domain_scale >= 0.0 && isfinite(o->domain_scale)))
        return pagani_fail(ctx, PAGANI_ERR_OPTION,
                           "domain_scale must be 0 (the default, 1) or a "
                           "finite length > 0 (got %g)", o->domain_scale);
    return pagani_checkpoint_check_options(ctx, o);
}

/* The norm must fit f's components: pairs need an even count. */
static int check_norm(pagani_context *ctx, const pagani_integrand *f,
                      const pagani_options *o)
{
    if (o->norm == PAGANI_NORM_PAIRED && f->ncomp % 2)
        return pagani_fail(ctx, PAGANI_ERR_COMPONENTS, "the paired norm "
                           "needs an even number of components, f has %d",
                           f->ncomp);
    return PAGANI_OK;
}

/* Declared in internal.h. Each axis with lower < upper, neither NaN, an
 * infinite bound only on its own side (lower -inf, upper +inf: the map of
 * src/domain takes the axis to a finite one); the finite axes' widths and
 * their product, the volume, finite and not 0: every method scales by
 * the widths and the volume, and an overflow there would surface as NaN
 * blamed on the integrand. */
int pagani_check_bounds(pagani_context *ctx, int n, const double *lower,
                        const double *upper)
{
    double volume = 1.0;

    for (int i = 0; i < n; i++) {
        if (isnan(lower[i]) || isnan(upper[i]) || lower[i] == INFINITY ||
            upper[i] == -INFINITY)
            return pagani_fail(ctx, PAGANI_ERR_BOUNDS,
                               "bounds of axis %d are not numbers or not "
                               "finite on their side ([%g, %g]; -inf is "
                               "allowed below, +inf above)",
                               i, lower[i], upper[i]);
        if (!(lower[i] < upper[i]))
            return pagani_fail(ctx, PAGANI_ERR_BOUNDS,
                               "axis %d: lower bound %g is not below upper bound %g",
                               i, lower[i], upper[i]);
        if (pagani_domain_unbounded(lower[i], upper[i])) continue;
        if (!isfinite(upper[i] - lower[i]))
            return pagani_fail(ctx, PAGANI_ERR_BOUNDS,
                               "axis %d: the width upper - lower of [%g, %g] "
                               "overflows a double", i, lower[i], upper[i]);
        volume *= upper[i] - lower[i];
    }
    if (!isfinite(volume) || volume == 0.0)
        return pagani_fail(ctx, PAGANI_ERR_BOUNDS,
                           "the box's volume, the product of its widths, %s",
                           volume == 0.0 ? "underflows to 0"
                                         : "overflows a double");
    return PAGANI_OK;
}

/* ---- integration ----------------------------------------------------- */

/* The evaluation budget of a run that names none: the backend's. */
static long long default_evaluations(pagani_backend kind)
{
    return kind == PAGANI_BACKEND_CUDA ? PAGANI_DEFAULT_EVALUATIONS_CUDA
                                       : PAGANI_DEFAULT_EVALUATIONS_CPU;
}

int pagani_run_layered(pagani_context *ctx, pagani_integrand *f,
                       const pagani_batch *batch, const pagani_options *opt,
                       pagani_result *results)
{
    return ctx->layer.run_batch
               ? ctx->layer.run_batch(ctx, f, batch, opt, results)
               : pagani_run_method(ctx, f, batch, opt, results);
}

int pagani_run_method(pagani_context *ctx, pagani_integrand *f,
                      const pagani_batch *batch, const pagani_options *opt,
                      pagani_result *results)
{
    switch (opt->method) {
    case PAGANI_CUBATURE:
        return pagani_cubature_integrate(ctx, f, batch, opt, results);
    case PAGANI_VEGAS:
        return pagani_vegas_integrate(ctx, f, batch, opt, results);
    default:
        return pagani_qmc_integrate(ctx, f, batch, opt, results);
    }
}

/* Runs the batch on the method the options choose (through the context's
 * layer, if any); fills the results' method, backend and time. */
static int run_batch(pagani_context *ctx, pagani_integrand *f,
                     const pagani_batch *batch, const pagani_options *options,
                     pagani_result *results)
{
    pagani_options opt = options ? *options : pagani_options_default(PAGANI_AUTO);
    pagani_auto_reason reason = PAGANI_AUTO_NOT_USED;
    pagani_domain_batch mapped;
    long long pilot = 0;
    double start, seconds;
    int rc;

    if ((rc = pagani_check_options(ctx, &opt)) != PAGANI_OK) return rc;
    if ((rc = check_norm(ctx, f, &opt)) != PAGANI_OK) return rc;
    if ((rc = pagani_breaks_check(ctx, f->n, &opt)) != PAGANI_OK) return rc;
    if ((rc = pagani_domain_check(ctx, f->n, &opt)) != PAGANI_OK) return rc;
    for (int k = 0; k < batch->count; k++) {
        rc = pagani_check_bounds(ctx, f->n, pagani_batch_lower(batch, k),
                                 pagani_batch_upper(batch, k));
        if (rc != PAGANI_OK) {
            if (batch->count > 1)
                pagani_fail(ctx, rc, "integral %d: %s", k, pagani_context_message(ctx));
            return rc;
        }
    }
    if (opt.method == PAGANI_CUBATURE && f->n > PAGANI_MAX_CUBATURE_DIM)
        return pagani_fail(ctx, PAGANI_ERR_DIMENSION,
                           "cubature supports 1 <= n <= %d, got n = %d",
                           PAGANI_MAX_CUBATURE_DIM, f->n);
    if (opt.max_evaluations == 0) opt.max_evaluations = default_evaluations(ctx->kind);

    if ((rc = pagani_collective_start(ctx, f, batch, &opt, 0)) != PAGANI_OK)
        return rc;
    start = pagani_now();
    rc = pagani_domain_batch_make(ctx, f, batch, &opt, &mapped);
    if (rc == PAGANI_OK && opt.method == PAGANI_AUTO) {
        rc = pagani_auto_choose(ctx, mapped.f, &mapped.batch, &opt, &reason,
                                &pilot);
        if (rc == PAGANI_OK && opt.method == PAGANI_CUBATURE &&
            opt.break_counts) { /* the break points apply to cubature */
            pagani_domain_batch_free(&mapped);
            rc = pagani_domain_batch_make(ctx, f, batch, &opt, &mapped);
        }
    }
    memset(results, 0, (size_t)batch->count * sizeof *results);
    if (rc == PAGANI_OK) rc = pagani_checkpoint_check_run(ctx, &opt);
    if (rc == PAGANI_OK)
        rc = pagani_run_layered(ctx, mapped.f, &mapped.batch, &opt, results);
    pagani_domain_batch_free(&mapped);
    seconds = pagani_now() - start;
    ctx->stop_requested = 0;
    results[0].evaluations += pilot;
    for (int k = 0; k < batch->count; k++) {
        results[k].method = opt.method;
        results[k].backend = ctx->kind;
        results[k].seconds = seconds;
        results[k].auto_reason = reason;
        /* the drivers fill the components of ncomp > 1 only */
        if (batch->values && f->ncomp == 1) {
            batch->values[k] = results[k].value;
            batch->errors[k] = results[k].error;
        }
    }
    return rc;
}

/* The checks every integration starts with; vector: whether the entry
 * takes components (values and errors, which must then be given), else
 * f must have one component. */
static int check_call(pagani_context *ctx, const char *entry, pagani_integrand *f,
                      const double *lower, const double *upper, const void *results,
                      int vector, const double *values, const double *errors)
{
    if (!f || !lower || !upper || !results || (vector && (!values || !errors)))
        return pagani_fail(ctx, PAGANI_ERR_NULL_POINTER, "%s: %s is NULL", entry,
                           !f ? "the integrand" : !lower ? "lower" :
                           !upper ? "upper" : !results ? "result" :
                           !values ? "values" : "errors");
    if (f->ctx != ctx)
        return pagani_fail(ctx, PAGANI_ERR_CONTEXT_MISMATCH,
                           "the integrand was created by another context");
    if (!ctx->backend)
        return pagani_fail(ctx, PAGANI_ERR_BACKEND_UNAVAILABLE,
                           "this context has no usable backend");
    if (!vector && f->ncomp > 1)
        return pagani_fail(ctx, PAGANI_ERR_COMPONENTS, "%s: the integrand has "
                           "%d components: use %s_vector", entry, f->ncomp,
                           entry);
    return PAGANI_OK;
}

/* pagani_integrate and pagani_integrate_vector (vector 0: the former,
 * values and errors NULL), up to the agreement of the ranks. */
static int integrate_one(pagani_context *ctx, const char *entry,
                         pagani_integrand *f, const double *lower,
                         const double *upper, const pagani_options *options,
                         pagani_result *result, int vector, double *values,
                         double *errors)
{
    pagani_batch one;
    int rc;

    rc = check_call(ctx, entry, f, lower, upper, result, vector, values, errors);
    if (rc != PAGANI_OK) return rc;
    if ((rc = pagani_params_check(ctx, f, f->params_size)) != PAGANI_OK) return rc;
    one.count = 1;
    one.params = f->params;
    one.params_stride = pagani_params_padded(f->params_size);
    one.lower = lower;
    one.upper = upper;
    one.box_stride = 0;
    one.values = values;
    one.errors = errors;
    one.mapped = NULL;
    return run_batch(ctx, f, &one, options, result);
}

int pagani_integrate(pagani_context *ctx, pagani_integrand *f,
                     const double *lower, const double *upper,
                     const pagani_options *options, pagani_result *result)
{
    if (!ctx) return PAGANI_ERR_NULL_POINTER;
    pagani_clear_message(ctx);
    return pagani_collective_end(
        ctx, integrate_one(ctx, "pagani_integrate", f, lower, upper, options,
                           result, 0, NULL, NULL));
}

int pagani_integrate_vector(pagani_context *ctx, pagani_integrand *f,
                            const double *lower, const double *upper,
                            const pagani_options *options,
                            pagani_result *result, double *values,
                            double *errors)
{
    if (!ctx) return PAGANI_ERR_NULL_POINTER;
    pagani_clear_message(ctx);
    return pagani_collective_end(
        ctx, integrate_one(ctx, "pagani_integrate_vector", f, lower, upper,
                           options, result, 1, values, errors));
}

/* pagani_integrate_batch and pagani_integrate_batch_vector (vector 0: the
 * former, values and errors NULL), up to the agreement of the ranks. */
static int integrate_batch(pagani_context *ctx, const char *entry,
                           pagani_integrand *f, int count, const void *params,
                           size_t params_size, const double *lower,
                           const double *upper, size_t box_stride,
                           const pagani_options *options,
                           pagani_result *results, int vector, double *values,
                           double *errors)
{
    pagani_batch batch;
    void *padded = NULL;
    int rc;

    rc = check_call(ctx, entry, f, lower, upper, results, vector, values, errors);
    if (rc != PAGANI_OK) return rc;
    if (count < 1)
        return pagani_fail(ctx, PAGANI_ERR_OPTION,
                           "%s: count must be >= 1, got %d", entry, count);
    if (params_size > 0 && !params)
        return pagani_fail(ctx, PAGANI_ERR_NULL_POINTER,
                           "%s: params is NULL but params_size is %zu",
                           entry, params_size);
    if (box_stride != 0 && box_stride < (size_t)f->n)
        return pagani_fail(ctx, PAGANI_ERR_OPTION,
                           "%s: box_stride must be 0 or >= n = %d, got %zu",
                           entry, f->n, box_stride);
    batch.count = count;
    batch.lower = lower;
    batch.upper = upper;
    batch.box_stride = box_stride;
    batch.values = values;
    batch.errors = errors;
    batch.mapped = NULL;
    if (params_size == 0) {
        if ((rc = pagani_params_check(ctx, f, f->params_size)) != PAGANI_OK) return rc;
        batch.params = f->params;
        batch.params_stride = 0;
    } else {
        size_t stride;
        if ((rc = pagani_params_check(ctx, f, params_size)) != PAGANI_OK ||
            (rc = pagani_params_fit(ctx, params_size, count)) != PAGANI_OK)
            return rc;
        stride = pagani_params_padded(params_size);
        if (!(padded = calloc((size_t)count, stride)))
            return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "%s: %d parameter "
                               "blocks of %zu bytes", entry, count, params_size);
        for (int k = 0; k < count; k++)
            memcpy((char *)padded + (size_t)k * stride,
                   (const char *)params + (size_t)k * params_size, params_size);
        batch.params = padded;
        batch.params_stride = stride;
    }
    rc = run_batch(ctx, f, &batch, options, results);
    free(padded);
    return rc;
}

int pagani_integrate_batch(pagani_context *ctx, pagani_integrand *f, int count,
                           const void *params, size_t params_size,
                           const double *lower, const double *upper,
                           size_t box_stride, const pagani_options *options,
                           pagani_result *results)
{
    if (!ctx) return PAGANI_ERR_NULL_POINTER;
    pagani_clear_message(ctx);
    return pagani_collective_end(
        ctx, integrate_batch(ctx, "pagani_integrate_batch", f, count, params,
                             params_size, lower, upper, box_stride, options,
                             results, 0, NULL, NULL));
}

int pagani_integrate_batch_vector(pagani_context *ctx, pagani_integrand *f,
                                  int count, const void *params,
                                  size_t params_size, const double *lower,
                                  const double *upper, size_t box_stride,
                                  const pagani_options *options,
                                  pagani_result *results, double *values,
                                  double *errors)
{
    if (!ctx) return PAGANI_ERR_NULL_POINTER;
    pagani_clear_message(ctx);
    return pagani_collective_end(
        ctx, integrate_batch(ctx, "pagani_integrate_batch_vector", f, count,
                             params, params_size, lower, upper, box_stride,
                             options, results, 1, values, errors));
}
