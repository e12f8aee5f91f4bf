/*
 * cubature_steps.c - the steps of one PAGANI iteration for a batch of
 * integrals (cubature_run.h), each integral decided on its own: evaluate,
 * classify within the shares of the error target, take the estimates,
 * the end tests, and the thresholds of THRESHOLD-CLASSIFY
 * (threshold_search.c). The driver, cubature_driver.c, runs them.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include "cubature/cubature_run.h"
#include "cubature/threshold_search.h"
#include "rules/component_norm.h"
#include "rules/random_check.h"

/* The message for an integrand value that is NaN or infinity. */
static int report_nonfinite(pagani_context *ctx, const cubature_sums *s, int n,
                            int integral, int integrals)
{
    double x[PAGANI_MAX_DIM];
    char where[64 * PAGANI_MAX_DIM / 2], which[48] = "";
    size_t used = 0;
    int rc = ctx->backend->cubature->region_point(ctx->backend_state,
                                                  s->nonfinite_region,
                                                  s->nonfinite_point, x);
    if (rc != PAGANI_OK) return rc;
    for (int d = 0; d < n && used + 32 < sizeof where; d++)
        used += (size_t)snprintf(where + used, sizeof where - used, "%s%.17g",
                                 d ? ", " : "", x[d]);
    if (integrals > 1) snprintf(which, sizeof which, "integral %d: ", integral);
    return pagani_fail(ctx, PAGANI_ERR_NONFINITE,
                       "%sthe integrand returned NaN or infinity at x = (%s)",
                       which, where);
}

/* Whether the tolerance is met; never for a value or error that is not
 * finite (a comparison with NaN is false, but inf <= inf is true). */
static int met(double value, double error, const pagani_options *opt)
{
    return isfinite(value) && isfinite(error) &&
           (error <= opt->epsrel * fabs(value) || error <= opt->epsabs);
}

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
 *  - relative-error filtering leaves active every region whose |V| exceeds
 *    RELERR_LARGEST of the last estimate: a region holding that much of
 *    the integral holds the features, and its rule and null rules can
 *    agree on an error far below the true one (a Genz product peak in
 *    5-D: one region with 11% of the integral and E 1/64 of its true
 *    error ended a run at 1e-4 six times off);
 *  - the threshold search may finish up to THRESHOLD_SHARE of it;
 * which leaves a twentieth of the target to the active regions.
 */
#define RELERR_SHARE 0.6
#define NEGLIGIBLE_SHARE 0.2
#define THRESHOLD_SHARE 0.15
#define SETTLED_CHANGE 0.01
#define MAX_HALVINGS 8 /* then an overspending iteration finishes nothing */
#define CHECK_NEGLIGIBLE 1e-3

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

/* Whether the estimate's parts cannot cancel: the list's values all of
 * one sign (the sum of |V| is the size of the sum), the finished regions'
 * too. */
static int one_signed(const run *r, const cubature_sums *s)
{
    return s->parts.magnitude <= (1.0 + 1e-9) * fabs(s->value) &&
           r->finished_value * s->value >= 0.0;
}

/* The least the integral is sure to be, in size, after the classification
 * of sums s: |v| - e, or where nothing can cancel, what the regions are
 * sure to hold, the list's sum of max(|V| - E, 0) (rules/error_sign.h)
 * and |v_f| - e_f of the finished ones, once the estimate is within
 * HELD_REACH times that. While a few regions hold an error larger than
 * the whole value -- a face or corner where f is singular, whose error
 * falls by only 2^-(1 - a) a halving for x^-a -- |v| - e is 0 although
 * most of the integral is long resolved: classification then finished
 * nothing, and the list doubled every iteration until the evaluation
 * limit (x_0^-0.9 e^(b.x) in 3-D: from 76 regions to 77,824 in ten
 * iterations; issue 33). An estimate far above what the regions hold is
 * dominated by a few regions whose V is not to be trusted yet, and their
 * neighbours' E neither: (1 + r^2)^-2 over R^3, mapped, an estimate 600
 * times the value while refinement reached the corners, finished regions
 * by the larger share whose errors were 2.6 times their E in sum and
 * converged falsely at 1e-6 (tests/test_domains.c). A bound too large
 * otherwise (f of both signs within regions) can only overspend the
 * classifications' share and end the run PAGANI_NO_PROGRESS: the finished
 * errors stay in the total. */
#define HELD_REACH 2.0
static double least_value(const run *r, const cubature_sums *s)
{
    double least = fabs(s->value + r->finished_value) - (s->error + r->finished_error);
    double held = s->parts.least + fabs(r->finished_value) - r->finished_error;
    if (one_signed(r, s) && fabs(s->value + r->finished_value) <= HELD_REACH * held)
        least = fmax(least, held);
    return fmax(least, 0.0);
}

/* The classifications' share of the target, from the least value of the
 * integral (least_value), so that an early overestimate does not inflate
 * it; and at least the round-off the estimate carries anyway (ROUNDOFF
 * |v|). While the least value is 0 and epsabs is 0 the target alone is 0,
 * and then only regions of error exactly 0 would be negligible: a peak's
 * far field of errors like 1e-60 was refined until the estimate settled
 * (f4 5-D at 1e-6 refined 2.3 times the regions it refines with epsabs
 * 1e-40). */
static double classification_share(double least, double value,
                                   const pagani_options *opt)
{
    return fmax((RELERR_SHARE + NEGLIGIBLE_SHARE) * target_of(least, opt),
                ROUNDOFF * fabs(value));
}

/* The error below which a region is negligible; -1 on the first
 * iteration, whose raw errors finish nothing (not even E = 0: f = 0 must
 * reach the two-level estimate to converge). */
static double negligible_error(const run *r, const pagani_options *opt)
{
    double left;
    if (isnan(r->previous_value)) return -1.0;
    left = classification_share(r->least, r->previous_value, opt) -
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

/* The error above which this iteration's evaluation checks a region of
 * unknown sign (rules/random_check.h): the regions below it add at most
 * CHECK_NEGLIGIBLE of the target of the last estimate by size, and their
 * checks would cost f's calls for nothing (the far field of a peak).
 * Every region with an error on the first iteration; none (infinity:
 * the backends skip the pass) after a list whose signs were all known,
 * as on smooth integrands once their regions are small: an unknown sign
 * that appears then is added by size for an iteration. */
static double check_above(const run *r, const pagani_options *opt)
{
    if (!r->unknown_signs) return INFINITY;
    if (isnan(r->previous_value) || r->count <= 0) return 0.0;
    return CHECK_NEGLIGIBLE * target_of(r->previous_value, opt) / (double)r->count;
}

int cubature_evaluate(batch_run *b)
{
    if (b->ncomp > 1) {
        int rc = b->ops->set_weights(b->ctx->backend_state, b->weights,
                                     b->reference);
        if (rc != PAGANI_OK) return rc;
    }
    for (int k = 0; k < b->integrals; k++) {
        const run *r = &b->runs[k];
        int probes = r->running && !(b->opt->flags & PAGANI_FLAG_NO_PROBES);
        b->probe_below[k] = probes ? probe_below(r, b->opt) : -1.0;
        b->probe_relative[k] = probes && b->relerr_filter ? RELERR_SHARE * b->opt->epsrel
                                                          : 0.0;
        b->check_above[k] = check_above(r, b->opt);
    }
    return b->ops->evaluate(b->ctx->backend_state, b->probe_below, b->probe_relative,
                            b->check_above);
}

/* REL-ERR-CLASSIFY (with the negligible test) of every running integral,
 * each held to its classifications' share: an integral whose iteration
 * would finish more error than is left of it is classified again with
 * both criteria halved (E is already two-level refined then), and at last
 * with none. Sums that overflowed (NaN) end it at once: the driver stops
 * on them. Nothing is finished on the raw first-iteration errors either. */
int cubature_classify(batch_run *b)
{
    const pagani_options *opt = b->opt;
    int again = 0, rc;

    for (int k = 0; k < b->integrals; k++) {
        const run *r = &b->runs[k];
        classify_request *q = &b->requests[k];
        q->classify = r->running;
        q->has_parents = r->iteration > 0;
        q->relerr_filter = b->relerr_filter && settled(r);
        q->epsrel = RELERR_SHARE * opt->epsrel;
        q->negligible = negligible_error(r, opt);
        q->relerr_largest = isnan(r->previous_value) ? 0.0
                                                      : RELERR_LARGEST * fabs(r->previous_value);
        b->halvings[k] = 0;
        again |= q->classify;
    }
    while (again) {
        rc = b->ops->classify(b->ctx->backend_state, b->requests, b->sums,
                              b->components);
        if (rc != PAGANI_OK) return rc;
        again = 0;
        for (int k = 0; k < b->integrals; k++) {
            const run *r = &b->runs[k];
            const cubature_sums *s = &b->sums[k];
            classify_request *q = &b->requests[k];
            double finished = s->error - s->active_error, share;

            if (!q->classify) continue;
            share = classification_share(least_value(r, s), s->value + r->finished_value,
                                         opt);
            q->classify = s->nonfinite_region < 0 && ++b->halvings[k] <= MAX_HALVINGS + 1 &&
                          finished > 0 && r->classified_error + finished > share;
            if (!q->classify) continue;
            if (b->halvings[k] > MAX_HALVINGS) q->relerr_filter = 0, q->negligible = 0.0;
            q->has_parents = 0;
            q->epsrel *= 0.5;
            q->negligible *= 0.5;
            again = 1;
        }
    }
    return PAGANI_OK;
}

/* Poses integral k's threshold problem after an unconverged iteration;
 * 0 when it searches for none (its estimate still moves and its active
 * regions fit: only the relative-error classification finishes some). */
static int pose_threshold_problem(const batch_run *b, int k, threshold_problem *pr)
{
    const pagani_options *opt = b->opt;
    const run *r = &b->runs[k];
    const cubature_sums *s = &b->sums[k];
    double value = s->value + r->finished_value;
    int settled = fabs(value - r->previous_value) <= opt->epsrel * fabs(value);

    pr->integral = k;
    pr->regions = r->count;
    pr->sums = *s;
    /* The paper's budget e - v*epsrel counts the same error again every
     * iteration and can overspend the target; this one cannot. */
    pr->budget = THRESHOLD_SHARE * target_of(value, opt) - r->threshold_error;
    pr->max_kept = r->share / 2;
    pr->max_threshold = opt->flags & PAGANI_FLAG_NO_PROBES ? INFINITY : probe_below(r, opt);
    return settled || s->active > pr->max_kept;
}

/* Every running integral's threshold for filter_split (-1: only the
 * relative-error classification) and the regions it finishes, the
 * searches of all integrals in step (one threshold_stats call a step).
 * When memory decided a threshold, the finished regions' error stays in
 * the total, so nothing is claimed falsely; but an integral whose
 * finished error then reaches its target ends out of capacity. */
static int search_thresholds(batch_run *b)
{
    int searches = 0, rc;

    for (int k = 0; k < b->integrals; k++) {
        threshold_problem pr;
        b->thresholds[k] = -1.0;
        b->finished[k] = (threshold_stats){0, 0.0, 0.0};
        if (b->runs[k].running && pose_threshold_problem(b, k, &pr))
            pagani_threshold_search_start(&b->searches[searches++], &pr);
    }
    rc = pagani_threshold_search_all(b->ops, b->ctx->backend_state, b->searches, searches,
                                     b->search_integrals, b->search_thresholds,
                                     b->search_stats);
    if (rc != PAGANI_OK) return rc;
    for (int i = 0; i < searches; i++) {
        const threshold_search *t = &b->searches[i];
        const int k = t->problem.integral;
        const run *r = &b->runs[k];
        const cubature_sums *s = &b->sums[k];

        b->thresholds[k] = t->threshold;
        b->finished[k] = t->stats;
        if (t->by_memory && r->finished_error + (s->error - s->active_error) + t->stats.error >=
                                target_of(s->value + r->finished_value, b->opt))
            end_integral(b, k, PAGANI_OUT_OF_CAPACITY); /* convergence is out of reach */
    }
    return PAGANI_OK;
}

/* What the checked regions' errors add up to at most: their check's sum
 * of V - M, plus PAGANI_CHECK_SIGMAS times its standard deviation, once
 * at least PAGANI_CHECK_MIN_REGIONS regions (effectively: the sum of the
 * variances squared over the sum of their squares) share the variance,
 * so that the sum is Gaussian; never below the largest E of the list (no
 * region's check is trusted more than its own E), nor above their sum of
 * E. */
static double checked_error(const pagani_error_parts *p)
{
    const double spread = p->check_var * p->check_var;
    if (!(p->check_var2 > 0.0) || spread < PAGANI_CHECK_MIN_REGIONS * p->check_var2)
        return p->checked_sum;
    return fmin(p->checked_sum, fmax(fabs(p->check_diff) + PAGANI_CHECK_SIGMAS *
                                                               sqrt(p->check_var),
                                     p->largest));
}

/*
 * The global error of a scalar integral: the regions of the list add
 * their E with their signs where the sign of their error is known
 * (rules/error_sign.h) -- the larger of the two estimates' signed sums --
 * plus the root of the sum of their E^2, which is what the signed sums
 * could lose to a chance cancellation; the checked regions
 * (rules/random_check.h) add what their check bounds (checked_error); the
 * other regions of unknown sign, and the finished regions, add theirs by
 * size. It stands in for the sum of E when it is smaller, and only when
 * every region of the list had its vertex probes (global_error_usable): a
 * feature that the rule misses leaves a small E with a sign that means
 * nothing, until a probe raises the E and makes its sign unknown. On the
 * suite's f1 in 8-D the signed errors cancel a thousand times over; on
 * one-signed curvature (Gaussians, corner peaks) both signed sums are
 * about the sum of E; the errors of the regions that a ball's surface
 * cuts cancel like a random walk.
 */
static double global_error(const run *r, const cubature_sums *s)
{
    const pagani_error_parts *p = &s->parts;
    return r->finished_error + p->unsigned_sum + checked_error(p) +
           fmax(fabs(p->rule_signed), fabs(p->parent_signed)) + sqrt(p->signed_squared);
}

/* Whether integral k's global error may stand in for its sum of E: when
 * the largest E of its list is within the bound under which this
 * iteration's evaluation probed regions, every region of the list was
 * probed; and always with the probes off. */
static int global_error_usable(const batch_run *b, int k)
{
    return (b->opt->flags & PAGANI_FLAG_NO_PROBES) ||
           b->sums[k].parts.largest <= b->probe_below[k];
}

/* The estimate of integral k after this iteration's classification, into
 * its result, or the end of an integral whose f was not finite (the first
 * such one gives the call's message). */
static int take_estimate(batch_run *b, int k)
{
    run *r = &b->runs[k];
    const cubature_sums *s = &b->sums[k];
    pagani_result *res = r->result;
    double value = s->value + r->finished_value;
    double roundoff = ROUNDOFF * fabs(value);
    double error = s->error + r->finished_error + roundoff;

    res->iterations = r->iteration + 1;
    /* held regions were evaluated, and counted, in an earlier list */
    res->regions += r->count - r->held;
    res->evaluations += (r->count - r->held) * b->points +
                        ((long long)s->parts.checked - r->held_checked) * b->check_points +
                        (long long)s->parts.graded_calls;
    if (s->nonfinite_region >= 0) {
        r->value = res->value = NAN;
        r->error = res->error = INFINITY;
        for (int c = 0; b->ncomp > 1 && c < b->ncomp; c++) {
            b->values[(size_t)k * b->ncomp + c] = NAN;
            b->errors[(size_t)k * b->ncomp + c] = INFINITY;
        }
        end_integral(b, k, PAGANI_NO_PROGRESS);
        if (b->nonfinite >= 0) return PAGANI_OK;
        b->nonfinite = k;
        return report_nonfinite(b->ctx, s, b->n, k, b->integrals);
    }
    r->unknown_signs = s->parts.unsigned_sum > 0.0 || s->parts.checked > 0.0;
    r->signal = fmax(r->signal, s->parts.magnitude + s->error);
    if (b->ncomp == 1) {
        double g = global_error(r, s) + roundoff;
        if (g < error && global_error_usable(b, k)) error = g;
    }
    /* f was finite, yet a sum left the range of a double: its error is
     * unknown, hence infinite */
    if (!isfinite(value) || !isfinite(error)) error = INFINITY;
    r->value = value;
    r->error = error;
    r->least = least_value(r, s);
    if (b->ncomp > 1) {
        cubature_vector_estimate(b, k);
        return PAGANI_OK;
    }
    res->value = value;
    res->error = error;
    return PAGANI_OK;
}

/* Whether integral k's estimate meets the tolerance (every component's, by
 * the norm, for a vector integrand). */
static int integral_met(const batch_run *b, int k)
{
    const run *r = &b->runs[k];
    return b->ncomp > 1 ? cubature_vector_met(b, k) : met(r->value, r->error, b->opt);
}

/* Whether integral k's estimate meets epsrel alone: when it converged,
 * whether epsabs did not decide (pagani_result.by_epsabs). */
static int met_by_epsrel(const batch_run *b, int k)
{
    const run *r = &b->runs[k];
    const size_t C = (size_t)b->ncomp;
    if (b->ncomp > 1)
        return pagani_components_met(b->opt->norm, b->ncomp, b->values + k * C,
                                     b->errors + k * C, b->opt->epsrel, 0.0);
    return r->error <= b->opt->epsrel * fabs(r->value);
}

/* Whether a sum of integral k overflowed: its error, or a component's. */
static int overflowed(const batch_run *b, int k)
{
    for (int c = 0; b->ncomp > 1 && c < b->ncomp; c++)
        if (isinf(b->errors[(size_t)k * b->ncomp + c])) return 1;
    return isinf(b->runs[k].error);
}

/* The tests that end integral k after its estimate, in the order a single
 * integral takes them; `stop`: the progress callback asked to. Returns 1
 * when it ended. */
static int ends_here(batch_run *b, int k, int stop)
{
    run *r = &b->runs[k];
    pagani_result *res = r->result;
    double roundoff = ROUNDOFF * fabs(r->value);

    if (overflowed(b, k)) {
        end_integral(b, k, PAGANI_NO_PROGRESS);
        if (b->nonfinite < 0) /* that message comes first */
            pagani_fail(b->ctx, PAGANI_OK, "%s %d: the rule sums of the "
                        "integrand's finite values overflow a double (estimate "
                        "%g): scale the integrand down",
                        b->integrals > 1 ? "integral" : "iteration",
                        b->integrals > 1 ? k : r->iteration + 1, res->value);
        return 1;
    }
    /* The first iteration's errors come from the null rules alone; only
     * the two-level estimate (from the second on) is trusted to stop, and
     * only on something seen. */
    if (r->iteration > 0 && !(r->signal > NO_SIGNAL_BELOW)) {
        end_integral(b, k, PAGANI_NO_SIGNAL);
        return 1;
    }
    if (r->iteration > 0 && integral_met(b, k)) {
        res->by_epsabs = !met_by_epsrel(b, k);
        end_integral(b, k, PAGANI_CONVERGED);
        return 1;
    }
    if (stop) {
        end_integral(b, k, PAGANI_STOPPED);
        return 1;
    }
    if (r->iteration > 0 && r->error - roundoff <= roundoff) {
        end_integral(b, k, PAGANI_NO_PROGRESS);
        return 1;
    }
    /* The finished regions' error stays in the total for good: once it
     * alone exceeds the target, no refinement can converge. */
    if (r->finished_error > 0 && r->finished_error >= target_of(r->value, b->opt)) {
        end_integral(b, k, PAGANI_NO_PROGRESS);
        return 1;
    }
    return 0;
}

void cubature_stop_all(batch_run *b)
{
    for (int k = 0; k < b->integrals; k++) {
        pagani_result *res = b->runs[k].result;
        if (!b->runs[k].running) continue;
        if (res->iterations == 0) {
            res->value = NAN;
            res->error = INFINITY;
            for (int c = 0; b->ncomp > 1 && c < b->ncomp; c++) {
                b->values[(size_t)k * b->ncomp + c] = NAN;
                b->errors[(size_t)k * b->ncomp + c] = INFINITY;
            }
        }
        end_integral(b, k, PAGANI_STOPPED);
    }
}

/* The progress callback's `size`: for one integral its active regions,
 * for a batch the integrals still running; the estimate and error are
 * those of the first of them. */
int cubature_progress(batch_run *b, int iteration)
{
    const pagani_options *opt = b->opt;
    int first = -1, running = 0;

    if (!opt->progress) return 0;
    for (int k = 0; k < b->integrals; k++)
        if (b->runs[k].running) {
            if (first < 0) first = k;
            running++;
        }
    if (first < 0) return 0;
    return opt->progress(iteration, b->integrals > 1 ? running : b->sums[first].active,
                         b->runs[first].result->value, b->runs[first].result->error,
                         opt->progress_data);
}

/* Decides, for each integral that goes on, what this iteration finishes;
 * ends those that cannot go on. Every region of an integral finished, yet
 * its target not met (the estimate moved after the shares were spent):
 * all are classified active again rather than give up (E stays two-level
 * refined). */
static int choose_all(batch_run *b)
{
    int resplit = 0, rc = search_thresholds(b);

    if (rc != PAGANI_OK) return rc;
    for (int k = 0; k < b->integrals; k++) {
        b->requests[k].classify = 0;
        if (!b->runs[k].running) {
            b->thresholds[k] = INFINITY; /* ended: its regions leave */
        } else if (b->sums[k].active == 0) {
            b->requests[k] = (classify_request){1, 0, 0, 0.0, 0.0, 0.0};
            b->thresholds[k] = -1.0;
            resplit = 1;
        }
    }
    if (resplit) {
        rc = b->ops->classify(b->ctx->backend_state, b->requests, b->sums,
                              b->components);
        if (rc != PAGANI_OK) return rc;
        for (int k = 0; k < b->integrals; k++)
            if (b->requests[k].classify && b->sums[k].active > b->runs[k].share / 2)
                end_integral(b, k, PAGANI_OUT_OF_CAPACITY);
    }
    return PAGANI_OK;
}

/* The last tests before integral k splits: something left to split, and
 * within the evaluation limit; then the finished regions join (v_f, e_f). */
static void prepare_split(batch_run *b, int k)
{
    run *r = &b->runs[k];
    const cubature_sums *s = &b->sums[k];
    const threshold_stats *thr = &b->finished[k];
    const pagani_options *opt = b->opt;

    if (s->active - thr->count == 0) {
        end_integral(b, k, PAGANI_NO_PROGRESS);
        return;
    }
    if (opt->max_evaluations > 0 &&
        r->result->evaluations +
                2 * b->splitting[k] * (b->points + b->check_points) >
            opt->max_evaluations) {
        end_integral(b, k, PAGANI_MAX_EVALUATIONS);
        return;
    }
    r->finished_value += (s->value - s->active_value) + thr->value;
    r->finished_error += (s->error - s->active_error) + thr->error;
    r->classified_error += s->error - s->active_error;
    r->threshold_error += thr->error;
    r->iteration++;
    r->earlier_value = r->previous_value;
    r->previous_value = r->value;
    r->previous_error = r->error;
}

int cubature_take_estimates(batch_run *b)
{
    int rc = PAGANI_OK;
    for (int k = 0; rc == PAGANI_OK && k < b->integrals; k++) {
        if (b->runs[k].running) rc = take_estimate(b, k);
        if (rc == PAGANI_ERR_NONFINITE) rc = PAGANI_OK;
    }
    return rc;
}

int cubature_end_tests(batch_run *b, int stop)
{
    int running = 0;
    for (int k = 0; k < b->integrals; k++)
        running += b->runs[k].running && !ends_here(b, k, stop);
    return running;
}

int cubature_choose_thresholds(batch_run *b)
{
    int rc = choose_all(b);
    if (rc == PAGANI_OK) rc = cubature_choose_splits(b);
    for (int k = 0; rc == PAGANI_OK && k < b->integrals; k++)
        if (b->runs[k].running) prepare_split(b, k);
    return rc;
}
