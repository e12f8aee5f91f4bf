/*
 * bench_versus.c - issue 37's table (bench_families -m suite): libpagani
 * cubature (default rule, the threads of -t, default 1) against hcubature
 * (degree-7 Genz-Malik rule, one thread), both at epsabs 0, each tolerance
 * of -e and the evaluation cap of -c, on the paper's suite (suite.h: its
 * rows at the dimensions bench_cubature measures) and on Genz's six
 * families (genz.h: n = 2..8, RUNS instances each from seed SEED, default
 * 1). A row: the integral, n, epsrel, then for each code the time
 * (bench_run_time: CPU time on the CPU backend; the median of 3 calls when
 * the first took under 0.5 s), evaluations,
 * reported and true relative error and the outcome (conv, FALSE: converged
 * with a true error above epsrel, or no: not converged), and the ratio of
 * the times where both converged. At the end: the geometric mean of that
 * ratio over the rows where both converged, the worst such row and the
 * rows above 2, and that of their evaluations; the geometric mean of the
 * time ratio over the rows where both were also
 * within epsrel; and each code's counts.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "families_config.h"
#include "code_runs.h"
#include "genz.h"
#include "suite.h"

/* Time ratios over the rows where both codes converged, and the counts. */
typedef struct versus_summary {
    double log_ratio_sum, worst_ratio, log_ratio_sum_true, log_evaluations_sum;
    char worst[48];
    int both, both_true, over_2x, rows;
    int converged[2], false_convergences[2];
} versus_summary;

/* Runs a problem up to 3 times (while the first took under 0.5 s): the
 * last run's result; returns the median of their times (bench_run_time).
 * hcubature when f is NULL. */
static double run_timed(pagani_context *ctx, pagani_integrand *f,
                        const bench_problem *pb, const pagani_options *o,
                        const bench_config *c, bench_run *r)
{
    double t[3];
    int runs = 0;

    do {
        if (f) bench_run_pagani(ctx, f, pb, *o, r);
        else bench_run_hcubature(pb, r);
        t[runs++] = bench_run_time(c, r, !f);
    } while (!r->failed && runs < 3 && t[0] < 0.5);
    if (runs < 3) return t[runs - 1];
    return t[0] + t[1] + t[2] - fmin(t[0], fmin(t[1], t[2])) - fmax(t[0], fmax(t[1], t[2]));
}

/* "conv", "FALSE" or "no" (and "error" for no result). */
static const char *outcome(const bench_run *r, double epsrel)
{
    if (r->failed) return "error";
    if (!r->converged) return "no";
    return r->true_rel <= epsrel ? "conv" : "FALSE";
}

static void print_code(const bench_run *r, double seconds, double epsrel)
{
    if (r->failed) {
        printf(" | %9s %9s %8s %8s %-5s", "-", "-", "-", "-", "error");
        return;
    }
    printf(" | %9.3g %9.3g %8.1e %8.1e %-5s", seconds, (double)r->evaluations,
           r->error / fabs(r->value), r->true_rel, outcome(r, epsrel));
}

/* One row: libpagani's f (made by the caller) and hcubature on *pb. */
static void versus_row(pagani_context *ctx, pagani_integrand *f, const char *name,
                       const bench_problem *pb, unsigned flags, const bench_config *c,
                       versus_summary *s)
{
    pagani_options o = pagani_options_default(PAGANI_CUBATURE);
    bench_run r[2];
    double t[2] = {0.0, 0.0};
    int both;

    memset(r, 0, sizeof r);
    o.flags = flags;
    o.strategy = c->strategy;
    o.rule_degree = c->rule_degree;
    t[0] = run_timed(ctx, f, pb, &o, c, &r[0]);
    if (c->codes & BENCH_HCUBATURE) t[1] = run_timed(ctx, NULL, pb, &o, c, &r[1]);
    else r[1].failed = 1;
    printf("%-16s %d %6.0e", name, pb->n, pb->epsrel);
    for (int k = 0; k < 2; k++) {
        if (k == 1 && !(c->codes & BENCH_HCUBATURE)) {
            printf(" | %-44s", "not run");
            continue;
        }
        print_code(&r[k], t[k], pb->epsrel);
        if (r[k].failed || !r[k].converged) continue;
        if (r[k].true_rel <= pb->epsrel) s->converged[k]++;
        else s->false_convergences[k]++;
    }
    s->rows++;
    both = !r[0].failed && !r[1].failed && r[0].converged && r[1].converged;
    if (both) {
        double ratio = t[0] / t[1];
        printf(" | %7.2f", ratio);
        s->both++;
        s->log_ratio_sum += log(ratio);
        s->log_evaluations_sum += log((double)r[0].evaluations / (double)r[1].evaluations);
        s->over_2x += ratio > 2.0;
        if (r[0].true_rel <= pb->epsrel && r[1].true_rel <= pb->epsrel) {
            s->both_true++;
            s->log_ratio_sum_true += log(ratio);
        }
        if (!(ratio <= s->worst_ratio)) {
            s->worst_ratio = ratio;
            snprintf(s->worst, sizeof s->worst, "%s %dD at %.0e", name, pb->n, pb->epsrel);
        }
    }
    printf("\n");
    fflush(stdout);
}

/* The paper's suite: every row at every tolerance. */
static void versus_suite(pagani_context *ctx, const bench_config *c, versus_summary *s)
{
    static const double lower[PAGANI_MAX_DIM] = {0};
    static const double upper[PAGANI_MAX_DIM] = {1, 1, 1, 1, 1, 1, 1, 1};
    int count;
    const suite_row *rows = suite_rows(&count);

    for (int i = 0; i < count; i++) {
        const pagani_integrand_def *def = suite_integrand(rows[i].which);
        pagani_integrand *f = NULL;
        int rc = pagani_integrand_create(ctx, &f, rows[i].n, def);

        if (rc != PAGANI_OK) {
            printf("%s: %s: %s\n", rows[i].name, pagani_strerror(rc),
                   pagani_context_message(ctx));
            continue;
        }
        for (int e = 0; e < c->ntolerances; e++) {
            bench_problem pb = {def, NULL, 0, rows[i].n, lower, upper,
                                suite_truth(rows[i].which, rows[i].n),
                                c->tolerances[e], c->cap};
            versus_row(ctx, f, rows[i].name, &pb, rows[i].flags, c, s);
        }
        pagani_integrand_destroy(f);
    }
}

/* Genz's families: n = 2..8, c->runs instances, every tolerance. */
static void versus_genz(pagani_context *ctx, const bench_config *c, versus_summary *s)
{
    static const double lower[GENZ_MAX_DIM] = {0};
    static const double upper[GENZ_MAX_DIM] = {1, 1, 1, 1, 1, 1, 1, 1};
    static const pagani_integrand_def host = {genz_function, NULL};
    int sources = c->backend == PAGANI_BACKEND_CUDA;

    for (int family = 1; family <= GENZ_FAMILIES; family++) {
        for (int n = 2; n <= 8; n++) {
            pagani_integrand *f = NULL;
            for (int k = 0; k < c->runs; k++) {
                uint64_t seed = c->seed + (uint64_t)k;
                char name[32];
                genz_params g;
                int rc;

                genz_generate(&g, family, n, seed, 1.0);
                if (!genz_judged(&g)) continue;
                if ((rc = genz_set_instance(ctx, sources, &g, &f)) != PAGANI_OK) {
                    printf("genz %d n=%d: %s: %s\n", family, n, pagani_strerror(rc),
                           pagani_context_message(ctx));
                    break;
                }
                snprintf(name, sizeof name, "%s#%llu", genz_name(family),
                         (unsigned long long)seed);
                for (int e = 0; e < c->ntolerances; e++) {
                    bench_problem pb = {&host, &g, sizeof g, n, lower, upper,
                                        genz_truth(&g), c->tolerances[e], c->cap};
                    versus_row(ctx, f, name, &pb, genz_cubature_flags(family), c, s);
                }
            }
            pagani_integrand_destroy(f);
        }
    }
}

void bench_versus(pagani_context *ctx, const bench_config *c)
{
    versus_summary s = {0};

    s.worst_ratio = NAN;
    printf("%-16s %s %6s | %-44s | %-44s | %s\n", "integral", "n", "epsrel",
           "libpagani cubature", "hcubature", "time ratio");
    printf("%-16s %s %6s", "", " ", "");
    for (int k = 0; k < 2; k++)
        printf(" | %9s %9s %8s %8s %-5s", "s", "evals", "rep_rel", "true_rel", "");
    printf(" | %7s\n", "pag/hcub");
    versus_suite(ctx, c, &s);
    versus_genz(ctx, c, &s);
    printf("\n%d rows; libpagani converged %d (false %d), hcubature %d (false %d)\n",
           s.rows, s.converged[0], s.false_convergences[0], s.converged[1],
           s.false_convergences[1]);
    if (s.both > 0)
        printf("both converged on %d rows: geometric mean time ratio libpagani/hcubature "
               "%.3f; worst %.2f (%s); %d rows above 2\n", s.both,
               exp(s.log_ratio_sum / s.both), s.worst_ratio, s.worst, s.over_2x);
    if (s.both > 0)
        printf("  and of their evaluations %.3f\n", exp(s.log_evaluations_sum / s.both));
    if (s.both_true > 0)
        printf("both converged within epsrel (no FALSE) on %d rows: geometric mean "
               "time ratio %.3f\n", s.both_true, exp(s.log_ratio_sum_true / s.both_true));
}
