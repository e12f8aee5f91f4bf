/*
 * vegas_plan.c - reads the options of PAGANI_VEGAS and sizes the run.
 *
 * Stratification (m-Cubes): with N calls per iteration, g = floor((N/2 +
 * 1/4)^(1/n)) intervals per axis, m = g^n sub-cubes and p = max(floor(N/m),
 * 2) samples in each. A cube of more than VEGAS_MAX_PIECE samples (high
 * dimensions, where g is 1 or 2) is cut into equal pieces. Vegas+ sizes
 * the cubes for 4 samples on average (N/4 in the formula, at most
 * VEGAS_PLUS_MAX_CUBES cubes), half of which it redistributes; where that
 * leaves fewer than 2 cubes or more than VEGAS_PLUS_MAX_PER_CUBE / 4
 * samples per cube it runs plain m-Cubes instead.
 *
 * Defaults for options left 0: vegas_calls 1e6, vegas_bins 500,
 * vegas_alpha 1.5, vegas_beta 0.75, chi2_max 5, max_iterations 100
 * (vegas_adjust_iterations 0 means no adjustment; to freeze the grid use
 * that). With max_evaluations set, the calls per iteration are lowered so
 * that ita + 3 iterations fit.
 */
#include <math.h>
#include "vegas/vegas.h"

/* g^n, or cap + 1 when that exceeds cap. */
static long long ipow_capped(long long g, int n, long long cap)
{
    long long r = 1;
    for (int i = 0; i < n; i++) {
        if (r > cap / g) return cap + 1;
        r *= g;
    }
    return r;
}

/* The intervals per axis for `target` cubes at most, and at most cap. */
static long long intervals(double target, int n, long long cap)
{
    long long limit = target < (double)cap ? (long long)target : cap;
    long long g = (long long)floor(pow(target + 0.25, 1.0 / n));

    if (g < 1) g = 1;
    while (g > 1 && ipow_capped(g, n, limit) > limit) g--;
    while (ipow_capped(g + 1, n, limit) <= limit) g++;
    return g;
}

static int read_options(pagani_context *ctx, const pagani_options *opt,
                        vegas_plan *plan)
{
    double calls = opt->vegas_calls, alpha = opt->vegas_alpha;
    double beta = opt->vegas_beta, chi2 = opt->chi2_max;
    int bins = opt->vegas_bins;

    if (isnan(calls) || calls < 0 || calls > 1e15 || (calls > 0 && calls < 4))
        return pagani_fail(ctx, PAGANI_ERR_OPTION,
                           "vegas_calls must be 0 (default) or in [4, 1e15], got %g",
                           calls);
    if (opt->vegas_adjust_iterations < 0)
        return pagani_fail(ctx, PAGANI_ERR_OPTION,
                           "vegas_adjust_iterations must be >= 0, got %d",
                           opt->vegas_adjust_iterations);
    if (bins < 0 || bins > 65536)
        return pagani_fail(ctx, PAGANI_ERR_OPTION,
                           "vegas_bins must be 0 (default) or 1..65536, got %d", bins);
    if (isnan(alpha) || alpha < 0 || alpha > 10)
        return pagani_fail(ctx, PAGANI_ERR_OPTION,
                           "vegas_alpha must be in [0, 10] (0: default), got %g", alpha);
    if (isnan(beta) || beta < 0 || beta > 1)
        return pagani_fail(ctx, PAGANI_ERR_OPTION,
                           "vegas_beta must be in [0, 1] (0: default), got %g", beta);
    if (isnan(chi2) || chi2 < 0)
        return pagani_fail(ctx, PAGANI_ERR_OPTION,
                           "chi2_max must be >= 0 (0: default), got %g", chi2);
    plan->calls = calls > 0 ? calls : 1e6;
    plan->ita = opt->vegas_adjust_iterations;
    plan->itmax = opt->max_iterations > 0 ? opt->max_iterations : 100;
    plan->alpha = alpha > 0 ? alpha : 1.5;
    plan->chi2_max = chi2 > 0 ? chi2 : 5.0;
    pagani_mc_tolerances(opt, &plan->epsrel, &plan->epsabs);
    plan->norm = opt->norm;
    plan->max_evaluations = opt->max_evaluations;
    plan->job.bins = bins > 0 ? bins : 500;
    plan->job.beta = beta > 0 ? beta : 0.75;
    plan->job.seed = opt->seed;
    if (plan->max_evaluations > 0 &&
        plan->calls * (plan->ita + 3.0) > (double)plan->max_evaluations) {
        plan->calls = floor((double)plan->max_evaluations / (plan->ita + 3.0));
        if (plan->calls < 4) plan->calls = 4;
    }
    return PAGANI_OK;
}

/* Sizes cubes, pieces and samples for plain m-Cubes or Vegas+. */
static void size_run(vegas_plan *plan, int n, int plus)
{
    vegas_job *job = &plan->job;
    double per = plus ? 4.0 : 2.0;
    long long cap = plus ? VEGAS_PLUS_MAX_CUBES : (long long)1e15;
    long long p;

    job->g = intervals(plan->calls / per, n, cap);
    job->cubes = ipow_capped(job->g, n, cap);
    p = (long long)floor(plan->calls / (double)job->cubes);
    if (p < 2) p = 2;
    if (plus && (job->cubes < 2 || p > VEGAS_PLUS_MAX_PER_CUBE / 4)) {
        size_run(plan, n, 0);
        return;
    }
    job->plus = plus;
    if (plus) {
        job->pieces = 1;
        job->samples = p;
        job->max_per_cube = VEGAS_PLUS_MAX_PER_CUBE;
    } else {
        job->pieces = (p + VEGAS_MAX_PIECE - 1) / VEGAS_MAX_PIECE;
        job->samples = p / job->pieces;
        job->max_per_cube = job->samples;
    }
    plan->per_iteration = job->cubes * job->pieces * job->samples;
}

int pagani_vegas_plan(pagani_context *ctx, pagani_integrand *f,
                      const pagani_options *opt, vegas_plan *plan)
{
    vegas_job *job = &plan->job;
    int rc;

    if (f->n < 1 || f->n > PAGANI_MAX_DIM)
        return pagani_fail(ctx, PAGANI_ERR_DIMENSION,
                           "Vegas supports 1 <= n <= %d, got n = %d",
                           PAGANI_MAX_DIM, f->n);
    if ((rc = read_options(ctx, opt, plan)) != PAGANI_OK) return rc;
    job->integrand = f;
    job->ncomp = f->ncomp;
    job->n = f->n;
    job->grid_axes = (opt->flags & PAGANI_FLAG_VEGAS_1D) ? 1 : f->n;
    size_run(plan, f->n, (opt->flags & PAGANI_FLAG_VEGAS_PLUS) != 0);
    plan->first_combined = plan->ita > 0 ? plan->ita - 1 : 0;
    return PAGANI_OK;
}
