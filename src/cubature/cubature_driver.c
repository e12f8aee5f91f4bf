/*
 * cubature_driver.c - PAGANI, the paper's Algorithm 2, written once against
 * the cubature operations of backend.h (CPU or GPU alike):
 *
 *   split the box uniformly; then per iteration
 *     EVALUATE all regions; TWO-LEVEL ERROR + REL-ERR-CLASSIFY with sums;
 *     stop when (e + e_f) <= max(epsrel |v + v_f|, epsabs);
 *     THRESHOLD-CLASSIFY when the estimate has settled in its digits or
 *     splitting every active region would not fit in memory;
 *     add the finished regions to (v_f, e_f); FILTER + SPLIT the rest.
 *
 * It never reports convergence it did not reach: the finished regions'
 * errors stay in the total error for good, and sums that overflow a double
 * while f stays finite end the run after that iteration (its progress
 * call) with status PAGANI_NO_PROGRESS and an infinite error.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "cubature/threshold_search.h"
#include "methods.h"

#define DEFAULT_MAX_ITERATIONS 200
/* The round-off of an estimate: a sum over many regions of rule sums with
 * weights of both signs, and f's own rounding. The reported error never
 * goes below ROUNDOFF * |value|, and a run whose truncation error is
 * below that stops (PAGANI_NO_PROGRESS): refinement cannot reduce it. */
#define ROUNDOFF (128 * DBL_EPSILON)
#define DEFAULT_CPU_BUDGET ((size_t)1 << 30)
/* Most regions of one list: the CUDA backend scans them with int indices
 * (CUB); without this cap a GPU of 141 GB would hold more in 1 or 2
 * dimensions. */
#define MAX_REGIONS ((long long)1 << 30)

/* Parts per axis of the first uniform split (the original's choice). */
static int initial_parts(int n, int requested)
{
    if (requested > 0) return requested;
    return n < 5 ? 4 : n <= 10 ? 2 : 1;
}

/* Region capacity of one buffer from the memory budget. */
static long long region_capacity(pagani_context *ctx, int n)
{
    size_t budget = ctx->memory_budget;
    if (budget == 0) {
        size_t free_bytes = ctx->backend->free_memory(ctx->backend_state);
        budget = free_bytes ? free_bytes / 10 * 8 : DEFAULT_CPU_BUDGET;
    }
    long long regions = (long long)(budget / ctx->backend->cubature->bytes_per_region(n));
    return regions < MAX_REGIONS ? regions : MAX_REGIONS;
}

/* Uploads the box split into parts^n equal regions. */
static int load_uniform_split(pagani_context *ctx, int n, int parts, long long count,
                              const double *lower, const double *upper)
{
    double *lo = malloc((size_t)count * n * sizeof(double));
    double *w = malloc((size_t)count * n * sizeof(double));
    int rc;

    if (!lo || !w) {
        free(lo);
        free(w);
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "initial regions");
    }
    for (long long i = 0; i < count; i++) {
        long long rest = i;
        for (int d = 0; d < n; d++) {
            double width = (upper[d] - lower[d]) / parts;
            w[(size_t)d * count + i] = width;
            lo[(size_t)d * count + i] = lower[d] + (double)(rest % parts) * width;
            rest /= parts;
        }
    }
    rc = ctx->backend->cubature->load(ctx->backend_state, lo, w, count);
    free(lo);
    free(w);
    return rc;
}

static int report_nonfinite(pagani_context *ctx, const cubature_sums *s, int n)
{
    double x[PAGANI_MAX_DIM];
    char where[64 * PAGANI_MAX_DIM / 2];
    size_t used = 0;
    int rc = ctx->backend->cubature->region_point(ctx->backend_state,
                                                  s->nonfinite_region,
                                                  s->nonfinite_point, x);
    if (rc != PAGANI_OK) return rc;
    for (int d = 0; d < n && used + 32 < sizeof where; d++)
        used += (size_t)snprintf(where + used, sizeof where - used, "%s%.17g",
                                 d ? ", " : "", x[d]);
    return pagani_fail(ctx, PAGANI_ERR_NONFINITE,
                       "the integrand returned NaN or infinity at x = (%s)", where);
}

/* Whether the tolerance is met; never for a value or error that is not
 * finite (a comparison with NaN is false, but inf <= inf is true). */
static int met(double value, double error, const pagani_options *opt)
{
    return isfinite(value) && isfinite(error) &&
           (error <= opt->epsrel * fabs(value) || error <= opt->epsabs);
}

/* The state carried across iterations. */
typedef struct run {
    long long count;          /* regions in the current list */
    int iteration;            /* 0-based */
    double finished_value;    /* v_f */
    double finished_error;    /* e_f, all finished regions */
    double classified_error;  /* the part of e_f finished by classify */
    double threshold_error;   /* the part of e_f finished by thresholds */
    double previous_value;    /* the estimate of the last iteration */
    double previous_error;    /* and its error */
    double earlier_value;     /* the estimate of the one before */
    long long capacity;
} run;

/*
 * The error target epsrel*|v| is shared out beforehand, so that finishing
 * regions can never use it all up and leave the active regions an ever
 * smaller remainder to meet:
 *  - relative-error filtering finishes a region when E <= RELERR_SHARE *
 *    epsrel * |V|; by the paper's Lemma 3.1 all such regions of a run add
 *    up to at most RELERR_SHARE of the target (integrands of one sign);
 *  - negligible regions (beyond the paper: the empty far field of a peaked
 *    integrand) are finished when E is below half of what the
 *    classification's share (RELERR_SHARE + NEGLIGIBLE_SHARE) leaves,
 *    divided among the regions: a geometric series within that share,
 *    measured against |v| - e, the least the integral is estimated to be;
 *  - the two classifications together are held to their share: negligible
 *    regions borrow what relative-error filtering has not used yet, and
 *    when filtering later claims it (f3 8D at 1e-9 overspent by a tenth of
 *    the target), both criteria are halved until the iteration fits;
 *  - the threshold search may finish up to THRESHOLD_SHARE of it;
 * which leaves a twentieth of the target to the active regions.
 */
#define RELERR_SHARE 0.6
#define NEGLIGIBLE_SHARE 0.2
#define THRESHOLD_SHARE 0.15
#define SETTLED_CHANGE 0.01
#define MAX_HALVINGS 8 /* then an overspending iteration finishes nothing */

static double target_of(double value, const pagani_options *opt)
{
    return fmax(opt->epsrel * fabs(value), opt->epsabs);
}

/* Whether the estimate held still over the last iteration (within
 * SETTLED_CHANGE). A region's estimate can be far off while the integrand's
 * features are unresolved (the rules have negative weights), and regions
 * finished by their relative error then can hold more than the final
 * target: relative-error filtering waits until the total stops moving. */
static int settled(const run *r)
{
    return !isnan(r->earlier_value) &&
           fabs(r->previous_value - r->earlier_value) <= SETTLED_CHANGE * fabs(r->previous_value);
}

/* The classifications' share of the target, from a value the estimate is
 * sure to exceed (|v| - e), so that an early overestimate does not inflate
 * it. */
static double classification_share(double value, double error, const pagani_options *opt)
{
    return (RELERR_SHARE + NEGLIGIBLE_SHARE) *
           target_of(fmax(fabs(value) - error, 0.0), opt);
}

/* The error below which a region is negligible; -1 on the first
 * iteration, whose raw errors finish nothing (not even E = 0: f = 0 must
 * reach the two-level estimate to converge). */
static double negligible_error(const run *r, const pagani_options *opt)
{
    double left;
    if (isnan(r->previous_value)) return -1.0;
    left = classification_share(r->previous_value, r->previous_error, opt) -
           r->classified_error;
    return left > 0 ? 0.5 * left / (double)r->count : 0.0;
}

/* The regions this iteration's evaluation probes (rules/probe.h): every
 * one that classification or a threshold could finish, E at most the
 * target of twice the last estimate's reach (shares of the target finish
 * regions, and the estimate seldom grows that much in one iteration; the
 * threshold search stays below it), or by relative error. None on the
 * first iteration, which finishes nothing. Only regions finished because
 * memory runs out may go unprobed; their error stays in the total. */
static double probe_below(const run *r, const pagani_options *opt)
{
    if (isnan(r->previous_value)) return -1.0;
    return target_of(2.0 * (fabs(r->previous_value) + r->previous_error), opt);
}

/* REL-ERR-CLASSIFY (with the negligible test), held to the classifications'
 * share: when this iteration would finish more error than is left of it,
 * the regions are classified again with both criteria halved (E is already
 * two-level refined then), and at last with none. Sums that overflowed
 * (NaN) end it at once: the driver stops on them. */
static int classify_within_share(pagani_context *ctx, const run *r, int relerr,
                                 const pagani_options *opt, cubature_sums *s)
{
    const cubature_ops *ops = ctx->backend->cubature;
    double epsrel = RELERR_SHARE * opt->epsrel;
    double negligible = negligible_error(r, opt);
    int rc = ops->classify(ctx->backend_state, r->count, r->iteration > 0, relerr, epsrel,
                           negligible, s);

    for (int halvings = 1; rc == PAGANI_OK && s->nonfinite_region < 0 &&
                           halvings <= MAX_HALVINGS + 1; halvings++) {
        double finished = s->error - s->active_error;
        double share = classification_share(s->value + r->finished_value,
                                            s->error + r->finished_error, opt);
        if (!(finished > 0) || r->classified_error + finished <= share) break;
        if (halvings > MAX_HALVINGS) relerr = 0, negligible = 0.0;
        epsrel *= 0.5;
        negligible *= 0.5;
        rc = ops->classify(ctx->backend_state, r->count, 0, relerr, epsrel, negligible, s);
    }
    return rc;
}

/* Decides what to finish after an unconverged iteration: returns the
 * threshold for filter_split (-1: only the relative-error classification)
 * and the regions it keeps, or sets *status when the run cannot go on. */
static int choose_threshold(pagani_context *ctx, const run *r, const cubature_sums *s,
                            const pagani_options *opt, double *threshold,
                            threshold_stats *finished, pagani_status *status)
{
    const cubature_ops *ops = ctx->backend->cubature;
    double value = s->value + r->finished_value;
    double target = target_of(value, opt);
    threshold_problem pr;
    int settled = fabs(value - r->previous_value) <= opt->epsrel * fabs(value);
    int rc;

    pr.regions = r->count;
    pr.sums = *s;
    /* The paper's budget e - v*epsrel counts the same error again every
     * iteration and can overspend the target; this one cannot. */
    pr.budget = THRESHOLD_SHARE * target - r->threshold_error;
    pr.max_kept = r->capacity / 2;
    pr.max_threshold = opt->flags & PAGANI_FLAG_NO_PROBES ? INFINITY : probe_below(r, opt);
    *threshold = -1.0;
    finished->count = 0;
    finished->value = finished->error = 0.0;
    if (!settled && s->active <= pr.max_kept) return PAGANI_OK;

    rc = pagani_threshold_search(ops, ctx->backend_state, &pr, threshold, finished);
    if (rc != PAGANI_OK || *threshold >= 0 || s->active <= pr.max_kept) return rc;
    /* Memory decides: finish the smallest errors until the rest fits. The
     * error they carry stays in the total, so nothing is claimed falsely. */
    rc = pagani_threshold_for_memory(ops, ctx->backend_state, &pr, threshold, finished);
    if (rc == PAGANI_OK &&
        r->finished_error + (s->error - s->active_error) + finished->error >= target)
        *status = PAGANI_OUT_OF_CAPACITY; /* convergence is out of reach */
    return rc;
}

int pagani_cubature_integrate(pagani_context *ctx, pagani_integrand *f,
                              const double *lower, const double *upper,
                              const pagani_options *opt, pagani_result *result)
{
    const cubature_ops *ops = ctx->backend->cubature;
    const int n = f->n;
    const int max_iterations = opt->max_iterations ? opt->max_iterations
                                                   : DEFAULT_MAX_ITERATIONS;
    const int relerr_filter = !(opt->flags & PAGANI_FLAG_NO_RELERR_FILTER);
    pagani_rule *rule = NULL;
    cubature_job job;
    run r = {0, 0, 0.0, 0.0, 0.0, 0.0, NAN, NAN, NAN, 0};
    int parts = initial_parts(n, opt->initial_splits);
    /* f's calls per region: the rule's points and, unless turned off, its
     * probes (counted for every region, probed or not: an upper bound). */
    long long points;
    int rc;

    if (!f->function && !f->device_module[PAGANI_CUBATURE])
        return pagani_fail(ctx, PAGANI_ERR_NO_FORM,
                           "the integrand has no form the %s backend can run",
                           pagani_backend_name(ctx->kind));
    rc = pagani_rule_create(n, opt->rule_degree, &rule);
    if (rc == -2) return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "rule tables");
    if (rc != 0)
        return pagani_fail(ctx, PAGANI_ERR_OPTION,
                           "no cubature rule of degree %d for n = %d (degree 11 "
                           "needs n = 3, degree 13 needs n = 2)",
                           opt->rule_degree, n);

    points = rule->npoints + (opt->flags & PAGANI_FLAG_NO_PROBES ? 0 : rule->nprobes);
    r.capacity = region_capacity(ctx, n);
    /* compared as a double first: 64^20 overflows a long long */
    if (pow(parts, n) > (double)(r.capacity / 2)) {
        pagani_rule_destroy(rule);
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY,
                           "the memory budget holds %lld regions, too few for "
                           "the %d^%d initial regions", r.capacity, parts, n);
    }
    r.count = 1;
    for (int d = 0; d < n; d++) r.count *= parts;
    job.integrand = f;
    job.rule = rule;
    job.n = n;
    job.capacity = r.capacity;
    rc = ops->setup(ctx->backend_state, &job);
    if (rc == PAGANI_OK) rc = load_uniform_split(ctx, n, parts, r.count, lower, upper);

    result->status = PAGANI_MAX_ITERATIONS;
    result->rule_degree = rule->degree;
    for (int it = 0; rc == PAGANI_OK && it < max_iterations; it++) {
        cubature_sums s;
        threshold_stats thr;
        double threshold, value, error, roundoff;
        pagani_status status = PAGANI_CONVERGED;
        int stop, overflow;

        if (opt->flags & PAGANI_FLAG_NO_PROBES)
            rc = ops->evaluate(ctx->backend_state, r.count, -1.0, 0.0);
        else
            rc = ops->evaluate(ctx->backend_state, r.count, probe_below(&r, opt),
                               relerr_filter ? RELERR_SHARE * opt->epsrel : 0.0);
        if (rc != PAGANI_OK) break;
        /* Nothing is finished on the raw first-iteration errors either. */
        rc = classify_within_share(ctx, &r, relerr_filter && settled(&r), opt, &s);
        if (rc != PAGANI_OK) break;
        if (s.nonfinite_region >= 0) {
            rc = report_nonfinite(ctx, &s, n);
            break;
        }
        value = s.value + r.finished_value;
        roundoff = ROUNDOFF * fabs(value);
        error = s.error + r.finished_error + roundoff;
        /* f was finite (else nonfinite_region), yet a sum left the range
         * of a double: its error is unknown, hence infinite */
        overflow = !isfinite(value) || !isfinite(error);
        if (overflow) error = INFINITY;
        result->value = value;
        result->error = error;
        result->iterations = it + 1;
        result->regions += r.count;
        result->evaluations += r.count * points;
        stop = opt->progress && opt->progress(it + 1, s.active, value, error,
                                              opt->progress_data);
        if (overflow) {
            result->status = PAGANI_NO_PROGRESS;
            pagani_fail(ctx, PAGANI_OK, "iteration %d: the rule sums of the "
                        "integrand's finite values overflow a double (estimate "
                        "%g): scale the integrand down", it + 1, value);
            break;
        }
        /* The first iteration's errors come from the null rules alone; only
         * the two-level estimate (from the second on) is trusted to stop. */
        if (it > 0 && met(value, error, opt)) {
            result->status = PAGANI_CONVERGED;
            break;
        }
        if (stop) {
            result->status = PAGANI_STOPPED;
            break;
        }
        if (it > 0 && error - roundoff <= roundoff) {
            result->status = PAGANI_NO_PROGRESS;
            break;
        }
        /* The finished regions' error stays in the total for good: once it
         * alone exceeds the target, no refinement can converge. */
        if (r.finished_error > 0 && r.finished_error >= target_of(value, opt)) {
            result->status = PAGANI_NO_PROGRESS;
            break;
        }
        rc = choose_threshold(ctx, &r, &s, opt, &threshold, &thr, &status);
        if (rc != PAGANI_OK) break;
        if (status != PAGANI_CONVERGED) {
            result->status = status;
            break;
        }
        if (s.active == 0) {
            /* Every region was finished, yet the target is not met: the
             * estimate moved after the shares were spent. Split them all
             * again rather than give up (E stays two-level refined). */
            rc = ops->classify(ctx->backend_state, r.count, 0, 0, 0.0, 0.0, &s);
            if (rc != PAGANI_OK) break;
            threshold = -1.0;
            if (s.active > r.capacity / 2) {
                result->status = PAGANI_OUT_OF_CAPACITY;
                break;
            }
        }
        if (s.active - thr.count == 0) {
            result->status = PAGANI_NO_PROGRESS;
            break;
        }
        if (opt->max_evaluations > 0 &&
            result->evaluations + 2 * (s.active - thr.count) * points >
                opt->max_evaluations) {
            result->status = PAGANI_MAX_EVALUATIONS;
            break;
        }
        r.finished_value += (s.value - s.active_value) + thr.value;
        r.finished_error += (s.error - s.active_error) + thr.error;
        r.classified_error += s.error - s.active_error;
        r.threshold_error += thr.error;
        r.iteration = it + 1;
        r.earlier_value = r.previous_value;
        r.previous_value = value;
        r.previous_error = error;
        rc = ops->filter_split(ctx->backend_state, r.count, threshold, &r.count);
    }
    pagani_rule_destroy(rule);
    return rc;
}
