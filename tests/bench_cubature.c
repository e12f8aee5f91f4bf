/*
 * bench_cubature.c - PAGANI on the GPU over the anchors.md suite: for each
 * integrand the tolerances 1e-3, 1e-4, ... 1e-9 (the ladder stops after the
 * first run that does not converge or misses the true value), each timed
 * as the median of 3 runs in one process after a warm-up; then the
 * evaluate kernel's rate (evaluations/s, FP64 flop/s) for the Gaussian.
 *
 *   bench_cubature [-c SECONDS] [-d DIGITS] [-k] [-s] [-p] [-n] [-v VARIANT]... [ROW...]
 *
 * -c caps one run (default 20 s; a capped run reports its status), -d the
 * last tolerance 1e-DIGITS (default 9), -k skips the suite, -s skips the
 * kernel rates, -p adds a run per tolerance timed by operation, -n runs
 * the suite with the probes off (PAGANI_FLAG_NO_PROBES: what they cost), -v
 * measures only the given kernel variants (on f4 8D);
 * ROWs (f1_8, f4_5, ...) restrict the suite. Not a test: it prints a table
 * for the GPU machine.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "op_profile.h"
#include "suite.h"
#include "suite_run.h"
#include "unit_grid.h"

static double run_cap = 20.0;
static double run_start;

static int cap_progress(int it, long long active, double value, double error, void *data)
{
    (void)it; (void)active; (void)value; (void)error; (void)data;
    return suite_now() - run_start > run_cap;
}

static int profiling = 0;
static unsigned extra_flags = 0; /* -n: PAGANI_FLAG_NO_PROBES */

static int integrate(pagani_context *ctx, pagani_integrand *f, int n, double epsrel,
                     unsigned flags, pagani_result *r, double *ms)
{
    run_start = suite_now();
    return suite_integrate(ctx, f, n, epsrel, flags | extra_flags, cap_progress, r, ms);
}

static void bench_row(pagani_context *ctx, const suite_row *row, int digits)
{
    pagani_integrand *f;
    pagani_result r;
    double truth = suite_truth(row->which, row->n), ms;
    int rc = pagani_integrand_create(ctx, &f, row->n, suite_integrand(row->which));

    if (rc != PAGANI_OK) {
        printf("%-5s %2d  integrand: %s: %s\n", row->name, row->n, pagani_strerror(rc),
               pagani_context_message(ctx));
        return;
    }
    integrate(ctx, f, row->n, 1e-3, row->flags, &r, &ms); /* warm-up */
    for (int k = 3; k <= digits; k++) {
        double epsrel = pow(10.0, -k), times[3], true_rel;
        int runs = 0, ok;
        do {
            rc = integrate(ctx, f, row->n, epsrel, row->flags, &r, &times[runs]);
            runs++;
        } while (rc == PAGANI_OK && runs < 3 && times[0] < 3000.0);
        if (rc != PAGANI_OK) {
            printf("%-5s %2d %6.0e  error: %s: %s\n", row->name, row->n, epsrel,
                   pagani_strerror(rc), pagani_context_message(ctx));
            break;
        }
        qsort(times, (size_t)runs, sizeof times[0], suite_cmp_double);
        true_rel = fabs(r.value - truth) / fabs(truth);
        ok = r.status == PAGANI_CONVERGED && true_rel <= epsrel;
        printf("%-5s %2d %6.0e %10.2f %d %22.15e %9.2e %9.2e %-32s %11lld %4d%s\n",
               row->name, row->n, epsrel, times[runs / 2], runs, r.value,
               r.error / fabs(r.value), true_rel, pagani_status_name(r.status),
               r.regions, r.iterations,
               r.status == PAGANI_CONVERGED && true_rel > epsrel ? "  FALSE CONVERGENCE" : "");
        fflush(stdout);
        if (profiling) {
            profile_on(ctx);
            integrate(ctx, f, row->n, epsrel, row->flags, &r, &times[0]);
            profile_off(ctx, row->name, epsrel, times[0]);
        }
        if (!ok) break;
    }
    pagani_integrand_destroy(f);
}

/* Kernel variants (cubature_evaluate.cuh's knobs, passed to NVRTC through
 * PAGANI_CUDA_EVAL_OPTIONS): the first is what the library ships. */
static const char *const variants[] = {
    "",
    "-DPAGANI_EVAL_MIN_BLOCKS=1",
    "-DPAGANI_EVAL_MIN_BLOCKS=2",
    "-DPAGANI_EVAL_UNROLL=2 -DPAGANI_EVAL_MIN_BLOCKS=2",
    "-DPAGANI_EVAL_UNROLL=4 -DPAGANI_EVAL_MIN_BLOCKS=1",
    "-DPAGANI_EVAL_MIN_BLOCKS=4",
};

/*
 * The evaluate kernel alone on parts^n regions of the unit cube: the time
 * of evaluate + classify minus that of classify (the first syncs), median
 * of 5 after a warm-up. Flops per evaluation are counted for f4 only:
 * point n FMA (2n), integrand n subtractions, n multiply-adds and one
 * multiply (3n + 1), exp counted as 20, the five weighted sums 5 FMA (10):
 * 5n + 31.
 */
static void kernel_rate(int which, int n, int parts, int tpr, int variant)
{
    pagani_context *ctx = NULL;
    pagani_integrand *f = NULL;
    pagani_rule *rule = NULL;
    cubature_job job;
    cubature_sums s;
    const cubature_ops *ops;
    long long count = 1;
    double *lo = NULL, *w = NULL, t_eval[5], t_cls[5];
    char env[16];
    int rc;

    setenv("PAGANI_CUDA_EVAL_OPTIONS", variants[variant], 1);
    snprintf(env, sizeof env, "%d", tpr);
    if (tpr) setenv("PAGANI_CUDA_EVAL_THREADS", env, 1);
    else unsetenv("PAGANI_CUDA_EVAL_THREADS");
    for (int d = 0; d < n; d++) count *= parts;
    rc = pagani_context_create(&ctx, PAGANI_BACKEND_CUDA);
    if (rc == PAGANI_OK) rc = pagani_integrand_create(ctx, &f, n, suite_integrand(which));
    if (rc == PAGANI_OK && pagani_rule_create(n, 0, &rule) != 0) rc = PAGANI_ERR_OPTION;
    lo = malloc((size_t)count * n * sizeof *lo);
    w = malloc((size_t)count * n * sizeof *w);
    if (rc != PAGANI_OK || !lo || !w) {
        printf("kernel rate f%d %dD: %s: %s\n", which, n, pagani_strerror(rc),
               pagani_context_message(ctx));
        goto done;
    }
    unit_grid(n, parts, count, count, 0, lo, w);
    ops = ctx->backend->cubature;
    job = unit_job(f, rule, n, 2 * count);
    rc = ops->setup(ctx->backend_state, &job);
    if (rc == PAGANI_OK) rc = ops->load(ctx->backend_state, lo, w, &count);
    for (int k = 0; k < 6 && rc == PAGANI_OK; k++) { /* k = 0 warms up */
        /* the evaluate kernel alone: no probes, no randomized check */
        const double no_probes = -1.0, no_relative = 0.0, no_checks = INFINITY;
        const classify_request relerr = {1, 0, 1, 1e-3, 0.0, 0.0};
        double t0 = suite_now(), t1, t2;
        rc = ops->evaluate(ctx->backend_state, &no_probes, &no_relative, &no_checks);
        if (rc == PAGANI_OK) rc = ops->classify(ctx->backend_state, &relerr, &s, NULL);
        t1 = suite_now();
        if (rc == PAGANI_OK) rc = ops->classify(ctx->backend_state, &relerr, &s, NULL);
        t2 = suite_now();
        if (k > 0) {
            t_eval[k - 1] = (t1 - t0) - (t2 - t1);
            t_cls[k - 1] = t2 - t1;
        }
    }
    if (rc != PAGANI_OK) {
        printf("kernel rate f%d %dD: %s: %s\n", which, n, pagani_strerror(rc),
               pagani_context_message(ctx));
    } else {
        double evals = (double)count * (double)rule->npoints, flops = 5.0 * n + 31.0;
        qsort(t_eval, 5, sizeof t_eval[0], suite_cmp_double);
        qsort(t_cls, 5, sizeof t_cls[0], suite_cmp_double);
        printf("evaluate f%d %dD, %lld regions x %lld points, tpr %s, variant %d [%s]: "
               "%.3f ms, %.3e evaluations/s", which, n, count, rule->npoints,
               tpr ? env : "auto", variant, variants[variant], 1e3 * t_eval[2],
               evals / t_eval[2]);
        if (which == 4)
            printf(", %.0f GFLOP/s FP64 (%.0f flops/evaluation)",
                   1e-9 * evals * flops / t_eval[2], flops);
        printf("; classify %.3f ms\n", 1e3 * t_cls[2]);
    }
    fflush(stdout);
done:
    free(lo);
    free(w);
    pagani_rule_destroy(rule);
    pagani_integrand_destroy(f);
    pagani_context_destroy(ctx);
    unsetenv("PAGANI_CUDA_EVAL_OPTIONS");
    unsetenv("PAGANI_CUDA_EVAL_THREADS");
}

int main(int argc, char **argv)
{
    pagani_context *ctx = NULL;
    int digits = 9, suite_on = 1, kernels_on = 1, nrows = 0, nvar = 0;
    int var_list[16];
    const char *only[32];
    int rc;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-c") && i + 1 < argc) run_cap = atof(argv[++i]);
        else if (!strcmp(argv[i], "-d") && i + 1 < argc) digits = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-k")) suite_on = 0;
        else if (!strcmp(argv[i], "-p")) profiling = 1;
        else if (!strcmp(argv[i], "-s")) kernels_on = 0;
        else if (!strcmp(argv[i], "-n")) extra_flags = PAGANI_FLAG_NO_PROBES;
        else if (!strcmp(argv[i], "-v") && i + 1 < argc && nvar < 16) {
            int v = atoi(argv[++i]);
            if (v >= 0 && v < (int)(sizeof variants / sizeof variants[0])) var_list[nvar++] = v;
        } else if (nrows < 32) only[nrows++] = argv[i];
    }
    if (suite_on) {
        rc = pagani_context_create(&ctx, PAGANI_BACKEND_CUDA);
        if (rc != PAGANI_OK) {
            printf("no usable GPU: %s\n", pagani_context_message(ctx));
            pagani_context_destroy(ctx);
            return 1;
        }
        printf("%-5s %2s %6s %10s %s %22s %9s %9s %-32s %11s %4s\n", "f", "n", "epsrel",
               "median_ms", "r", "estimate", "rep_rel", "true_rel", "status", "regions",
               "it");
        int count;
        const suite_row *rows = suite_rows(&count);
        for (int i = 0; i < count; i++) {
            int want = nrows == 0;
            for (int j = 0; j < nrows; j++) want |= !strcmp(only[j], rows[i].name);
            if (want) bench_row(ctx, &rows[i], digits);
        }
        pagani_context_destroy(ctx);
    }
    if (kernels_on) {
        rc = pagani_context_create(&ctx, PAGANI_BACKEND_CUDA);
        if (rc != PAGANI_OK) {
            printf("kernel rates: no usable GPU: %s\n", pagani_context_message(ctx));
            kernels_on = 0;
        }
        pagani_context_destroy(ctx);
    }
    if (kernels_on) {
        /* -v N...: those variants on f4 8D; else the shipped kernel on the
         * suite's 8D and 5D integrands and every variant on f4 8D. */
        if (nvar > 0) {
            for (int v = 0; v < nvar; v++) kernel_rate(4, 8, 6, 0, var_list[v]);
        } else {
            static const int which8[] = {4, 1, 5, 7};
            for (size_t i = 0; i < sizeof which8 / sizeof which8[0]; i++)
                kernel_rate(which8[i], 8, 6, 0, 0);
            kernel_rate(4, 5, 20, 0, 0);
            kernel_rate(4, 8, 6, 64, 0);
            for (int v = 1; v < (int)(sizeof variants / sizeof variants[0]); v++) {
                kernel_rate(4, 8, 6, 0, v);
                kernel_rate(7, 8, 6, 0, v);
            }
        }
    }
    return 0;
}
