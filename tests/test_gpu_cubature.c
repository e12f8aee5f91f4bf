/*
 * test_gpu_cubature.c - PAGANI on the CUDA backend: the paper's suite to
 * the tolerances the original reached (true error within the tolerance,
 * not only the reported one), bit-identical repeats, agreement with the
 * CPU backend, every rule family, parameters, compile errors and NaN
 * reports; batches. Without a usable GPU only the host's part (the tile
 * layout of a batch's list) runs and the rest is skipped.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "gpu/cubature/batch_layout.h"
#include "gpu/cubature/rule_pack.h"
#include "suite.h"
#include "tap.h"
#include "cancellation.h"
#include "far_field.h"
#include "split_check.h"
#include "stats_check.h"
#include "unit_grid.h"

/* exp(-sum x_i): (1 - 1/e)^n over the unit cube; smooth in any n. */
PAGANI_INTEGRAND(expsum, {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += x[i];
    return exp(-s);
})

static double unit_lower[PAGANI_MAX_DIM], unit_upper[PAGANI_MAX_DIM];

/* Integrates def in n dimensions on ctx; returns the pagani code. */
static int run(pagani_context *ctx, const pagani_integrand_def *def, int n,
               double epsrel, unsigned flags, int degree, pagani_result *r)
{
    pagani_integrand *f;
    pagani_options opt = pagani_options_default(PAGANI_CUBATURE);
    int rc = pagani_integrand_create(ctx, &f, n, def);
    if (rc != PAGANI_OK) {
        tap_diag("integrand: %s: %s", pagani_strerror(rc), pagani_context_message(ctx));
        return rc;
    }
    opt.epsrel = epsrel;
    opt.epsabs = 1e-40;
    opt.flags = flags;
    opt.rule_degree = degree;
    opt.max_evaluations = 1000000000000LL; /* seconds on an H100 */
    rc = pagani_integrate(ctx, f, unit_lower, unit_upper, &opt, r);
    if (rc != PAGANI_OK)
        tap_diag("integrate: %s: %s", pagani_strerror(rc), pagani_context_message(ctx));
    pagani_integrand_destroy(f);
    return rc;
}

/* One suite case: converged, and the true relative error within epsrel. */
static void check_case(pagani_context *ctx, const char *name,
                       const pagani_integrand_def *def, int n, double truth,
                       double epsrel, unsigned flags, int degree)
{
    pagani_result r;
    int rc = run(ctx, def, n, epsrel, flags, degree, &r);
    double true_rel = fabs(r.value - truth) / fabs(truth);

    tap_ok(rc == PAGANI_OK && r.status == PAGANI_CONVERGED && true_rel <= epsrel,
           "%s %dD epsrel %.0e: %.15g, reported %.2e, true %.2e, %s, %d iterations, "
           "%lld regions, %.1f ms", name, n, epsrel, r.value, r.error / fabs(r.value),
           true_rel, rc == PAGANI_OK ? pagani_status_name(r.status) : pagani_strerror(rc),
           r.iterations, r.regions, 1e3 * r.seconds);
}

static void suite(pagani_context *ctx)
{
    static const struct {
        int which, n;
        unsigned flags;
        int digits; /* tolerances 1e-3 .. 1e-digits */
    } cases[] = {
        {1, 8, PAGANI_FLAG_NO_RELERR_FILTER, 4},
        {1, 5, 0, 9},
        {2, 6, 0, 6},
        {3, 3, 0, 6},
        {3, 8, 0, 9}, /* one digit beyond the original PAGANI */
        {4, 5, 0, 6},
        {5, 5, 0, 6},
        {6, 6, 0, 6},
        {7, 8, 0, 6},
        {8, 8, 0, 6},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char name[8];
        snprintf(name, sizeof name, "f%d", cases[i].which);
        for (int k = 3; k <= cases[i].digits; k++)
            check_case(ctx, name, suite_integrand(cases[i].which), cases[i].n,
                       suite_truth(cases[i].which, cases[i].n), pow(10.0, -k),
                       cases[i].flags, 0);
    }
}

/* Every rule family the GPU packs: Gauss-Kronrod (n = 1), degree 13
 * (n = 2), 11 (n = 3), 7 and 9, and a dimension above 10. */
static void rules(pagani_context *ctx)
{
    check_case(ctx, "f4", &suite_f4, 1, suite_truth(4, 1), 1e-8, 0, 0);
    check_case(ctx, "f4", &suite_f4, 2, suite_truth(4, 2), 1e-7, 0, 0);
    check_case(ctx, "f4", &suite_f4, 3, suite_truth(4, 3), 1e-7, 0, 0);
    check_case(ctx, "f4 (degree 7)", &suite_f4, 4, suite_truth(4, 4), 1e-5, 0, 7);
    check_case(ctx, "f4 (degree 9)", &suite_f4, 3, suite_truth(4, 3), 1e-6, 0, 9);
    check_case(ctx, "exp(-sum x)", &expsum, 12, pow(1.0 - exp(-1.0), 12), 1e-6, 0, 0);
}

/* Two runs in one context give the same bits. */
static void determinism(pagani_context *ctx)
{
    pagani_result a, b;
    int ra = run(ctx, &suite_f4, 5, 1e-5, 0, 0, &a);
    int rb = run(ctx, &suite_f4, 5, 1e-5, 0, 0, &b);
    tap_ok(ra == PAGANI_OK && rb == PAGANI_OK &&
           memcmp(&a.value, &b.value, sizeof a.value) == 0 &&
           memcmp(&a.error, &b.error, sizeof a.error) == 0 &&
           a.regions == b.regions && a.iterations == b.iterations,
           "f4 5D twice: %.17g +- %.17g and %.17g +- %.17g", a.value, a.error,
           b.value, b.error);
    ra = run(ctx, &suite_f1, 8, 1e-4, PAGANI_FLAG_NO_RELERR_FILTER, 0, &a);
    rb = run(ctx, &suite_f1, 8, 1e-4, PAGANI_FLAG_NO_RELERR_FILTER, 0, &b);
    tap_ok(ra == PAGANI_OK && rb == PAGANI_OK &&
           memcmp(&a.value, &b.value, sizeof a.value) == 0 &&
           memcmp(&a.error, &b.error, sizeof a.error) == 0,
           "f1 8D twice: %.17g +- %.17g and %.17g +- %.17g", a.value, a.error,
           b.value, b.error);
}

/* The CPU and the GPU agree within their reported errors. */
static void against_cpu(pagani_context *gpu)
{
    static const struct { int which, n; double epsrel; } cases[] = {
        {3, 3, 1e-6}, {5, 5, 1e-4}, {6, 6, 1e-4}, {2, 6, 1e-3},
    };
    pagani_context *cpu;
    if (pagani_context_create(&cpu, PAGANI_BACKEND_CPU) != PAGANI_OK) {
        tap_ok(0, "CPU context: %s", pagani_context_message(cpu));
        pagani_context_destroy(cpu);
        return;
    }
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pagani_result g, c;
        const pagani_integrand_def *def = suite_integrand(cases[i].which);
        int rg = run(gpu, def, cases[i].n, cases[i].epsrel, 0, 0, &g);
        int rc = run(cpu, def, cases[i].n, cases[i].epsrel, 0, 0, &c);
        tap_ok(rg == PAGANI_OK && rc == PAGANI_OK &&
               fabs(g.value - c.value) <= g.error + c.error,
               "f%d %dD at %.0e: GPU %.15g +- %.2g (%d it), CPU %.15g +- %.2g (%d it)",
               cases[i].which, cases[i].n, cases[i].epsrel, g.value, g.error,
               g.iterations, c.value, c.error, c.iterations);
    }
    pagani_context_destroy(cpu);
}

/* Parameters reach the device and follow pagani_integrand_set_params;
 * bounds other than the unit cube. */
static void params_and_bounds(pagani_context *ctx)
{
    pagani_integrand *f;
    pagani_options opt = pagani_options_default(PAGANI_CUBATURE);
    double lo[2] = {0.0, 1.0}, hi[2] = {2.0, 3.0}, p = 3.0;
    pagani_result r;
    int rc = pagani_integrand_from_source(ctx, &f, 2, "return p[0] * x[0] * x[1];",
                                          &p, sizeof p);

    opt.epsrel = 1e-10;
    if (rc == PAGANI_OK) rc = pagani_integrate(ctx, f, lo, hi, &opt, &r);
    /* integral of x0 x1 over [0,2]x[1,3] = 2 * 4 = 8 */
    tap_ok(rc == PAGANI_OK && fabs(r.value - 24.0) <= 1e-9 * 24.0,
           "p[0] = 3 on [0,2]x[1,3]: %.15g (want 24)", rc == PAGANI_OK ? r.value : NAN);
    p = 5.0;
    if (rc == PAGANI_OK) rc = pagani_integrand_set_params(f, &p, sizeof p);
    if (rc == PAGANI_OK) rc = pagani_integrate(ctx, f, lo, hi, &opt, &r);
    tap_ok(rc == PAGANI_OK && fabs(r.value - 40.0) <= 1e-9 * 40.0,
           "after set_params p[0] = 5: %.15g (want 40)", rc == PAGANI_OK ? r.value : NAN);
    pagani_integrand_destroy(f);
}

/* Faults: source that does not compile, an integrand that returns NaN. */
static void faults(pagani_context *ctx)
{
    pagani_integrand *f = NULL;
    pagani_options opt = pagani_options_default(PAGANI_CUBATURE);
    pagani_result r;
    const char *msg;
    int rc = pagani_integrand_from_source(ctx, &f, 3,
                                          "double s = x[0];\nreturn s +* undefined_name;",
                                          NULL, 0);
    msg = pagani_context_message(ctx);
    tap_ok(rc == PAGANI_ERR_COMPILE && f == NULL && strstr(msg, "integrand(2)") &&
           strstr(msg, "undefined_name"),
           "source that does not compile: %s, log names line 2 of the source",
           pagani_strerror(rc));
    tap_diag("%s", msg);

    rc = pagani_integrand_from_source(ctx, &f, 3, "return x[1] > 0.7 ? 0.0 / 0.0 : 1.0;",
                                      NULL, 0);
    if (rc == PAGANI_OK) rc = pagani_integrate(ctx, f, unit_lower, unit_upper, &opt, &r);
    msg = pagani_context_message(ctx);
    {
        const char *at = strstr(msg, "x = (");
        double x0 = 0, x1 = 0;
        int parsed = at && sscanf(at, "x = (%lf, %lf", &x0, &x1) == 2;
        tap_ok(rc == PAGANI_ERR_NONFINITE && parsed && x1 > 0.7,
               "NaN integrand: %s, at a point where it is NaN (%s)", pagani_strerror(rc),
               msg);
    }
    pagani_integrand_destroy(f);
}

/* What one pass of the backend's operations over uniform grids gives:
 * per integral its classify sums, statistics under t1 (its mean active
 * error) asked for every integral in one call (a step of the searches),
 * then under t1 alone, under its largest error and under t1 / 2 (asked in
 * that order), and the regions a split at t1 makes. */
typedef struct grid_pass {
    cubature_sums sums;
    threshold_stats t1, t1_alone, all, t2;
    long long split;
} grid_pass;

/* Integral k of K: f4 in 5D on the unit cube split into parts[k]^5
 * regions, driven through the backend's operations (degree-7 rule, no
 * probes, classify by relative error 1e-6): evaluate, classify,
 * statistics of each integral, then one split at each integral's t1.
 * Returns the pagani code. */
static int grid_pass_run(pagani_context *ctx, const int *parts, int K, grid_pass *out)
{
    const int n = 5;
    const cubature_ops *ops = ctx->backend->cubature;
    pagani_integrand *f = NULL;
    pagani_rule *rule = NULL;
    long long counts[8], total = 0, first = 0;
    double *lo, *w, below[8], relative[8], check_above[8], t1[8];
    int which[8];
    threshold_stats step[8];
    cubature_sums sums[8];
    classify_request req[8];
    cubature_job job;
    int rc;

    for (int k = 0; k < K; k++) {
        counts[k] = 1;
        for (int d = 0; d < n; d++) counts[k] *= parts[k];
        total += counts[k];
        below[k] = -1.0;
        relative[k] = 0.0;
        check_above[k] = 0.0;
        req[k] = (classify_request){1, 0, 1, 1e-6, 0.0, 0.0};
    }
    lo = malloc((size_t)total * n * sizeof *lo);
    w = malloc((size_t)total * n * sizeof *w);
    rc = pagani_integrand_create(ctx, &f, n, &suite_f4);
    /* degree 7: 103 points, so 32 threads per region at any list size */
    if (rc == PAGANI_OK && pagani_rule_create(n, 7, &rule) != 0) rc = PAGANI_ERR_OPTION;
    if (!lo || !w) rc = PAGANI_ERR_NO_MEMORY;
    for (int k = 0; rc == PAGANI_OK && k < K; first += counts[k], k++)
        unit_grid(n, parts[k], counts[k], total, first, lo, w);
    job = unit_job(f, rule, n, 4 * total);
    job.integrals = K;
    if (rc == PAGANI_OK) rc = ops->setup(ctx->backend_state, &job);
    if (rc == PAGANI_OK) rc = ops->load(ctx->backend_state, lo, w, counts);
    if (rc == PAGANI_OK) rc = ops->evaluate(ctx->backend_state, below, relative, check_above);
    if (rc == PAGANI_OK) rc = ops->classify(ctx->backend_state, req, sums, NULL);
    for (int k = 0; k < K; k++) {
        which[k] = k;
        out[k].sums = sums[k];
        t1[k] = sums[k].active_error / (double)sums[k].active;
    }
    if (rc == PAGANI_OK) rc = ops->threshold_stats(ctx->backend_state, K, which, t1, step);
    for (int k = 0; rc == PAGANI_OK && k < K; k++) {
        void *st = ctx->backend_state;
        const double half = 0.5 * t1[k];
        out[k].t1 = step[k];
        rc = ops->threshold_stats(st, 1, &which[k], &t1[k], &out[k].t1_alone);
        if (rc == PAGANI_OK)
            rc = ops->threshold_stats(st, 1, &which[k], &sums[k].max_error, &out[k].all);
        if (rc == PAGANI_OK) rc = ops->threshold_stats(st, 1, &which[k], &half, &out[k].t2);
    }
    if (rc == PAGANI_OK) rc = ops->filter_split(ctx->backend_state, t1, counts, NULL);
    for (int k = 0; k < K; k++) out[k].split = counts[k];
    if (rc != PAGANI_OK) tap_diag("%s: %s", pagani_strerror(rc), pagani_context_message(ctx));
    pagani_rule_destroy(rule);
    pagani_integrand_destroy(f);
    free(lo);
    free(w);
    return rc;
}

/* Whether two statistics are the same bits. */
static int same_stats(const threshold_stats *a, const threshold_stats *b)
{
    return a->count == b->count && memcmp(&a->value, &b->value, sizeof a->value) == 0 &&
           memcmp(&a->error, &b->error, sizeof a->error) == 0;
}

/* Whether two passes over the same grid gave the same bits. */
static int same_pass(const grid_pass *a, const grid_pass *b)
{
    const cubature_sums *x = &a->sums, *y = &b->sums;
    return memcmp(&x->value, &y->value, sizeof x->value) == 0 &&
           memcmp(&x->error, &y->error, sizeof x->error) == 0 &&
           memcmp(&x->active_value, &y->active_value, sizeof x->active_value) == 0 &&
           memcmp(&x->active_error, &y->active_error, sizeof x->active_error) == 0 &&
           x->active == y->active && x->min_error == y->min_error &&
           x->max_error == y->max_error && same_stats(&a->t1, &b->t1) &&
           same_stats(&a->t2, &b->t2) &&
           a->split == b->split;
}

/*
 * The backend's threshold statistics (a sorted copy, made by ranking
 * short lists or by the device sort and searched on the host, or on the
 * device in a list of more than 131072 regions, or a reduction per query
 * for integrals of more than 131072 regions) count exactly the regions
 * that filter_split then finishes: after statistics for t1 and then t2, a
 * split at t1 keeps 2 * (active - count(t1)) regions of each integral
 * (for the large ones the split counts them on the device). A query
 * asked with every integral's (a step of the searches) gives the bits it
 * gives alone. And every integral of a batch gets the bits it gets
 * alone: its sums and statistics depend on its own regions only. Grids
 * of f4 in 5D: 5^5, 10^5 and 12^5 regions alone (ranked, sorted, counted
 * per query), then batches of 2^5 + 3^5 (ranked), 3^5 + 5^5 + 4^5
 * (sorted by error, then integral), 12^5 + 3^5 and 12^5 + 5^5 + 4^5 (one
 * counted per query, the others searched on the device).
 */
static void threshold_consistency(pagani_context *ctx)
{
    static const struct { int K, parts[3]; } cases[] = {
        {1, {5}}, {1, {10}}, {1, {12}}, {2, {2, 3}}, {3, {3, 5, 4}}, {2, {12, 3}},
        {3, {12, 5, 4}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const int K = cases[c].K;
        grid_pass batch[3], alone;
        int rc = grid_pass_run(ctx, cases[c].parts, K, batch);
        for (int k = 0; k < K; k++) {
            const grid_pass *b = &batch[k];
            const cubature_sums *s = &b->sums;
            int consistent = rc == PAGANI_OK && b->t2.count <= b->t1.count &&
                             b->t1.count <= b->all.count && b->all.count == s->active &&
                             fabs(b->all.error - s->active_error) <= 1e-12 * s->active_error &&
                             fabs(b->all.value - s->active_value) <=
                                 1e-12 * fabs(s->active_value) &&
                             b->split == 2 * (s->active - b->t1.count) &&
                             same_stats(&b->t1, &b->t1_alone);
            int identical = 1;
            if (K > 1) {
                int ra = grid_pass_run(ctx, &cases[c].parts[k], 1, &alone);
                identical = ra == PAGANI_OK && same_pass(b, &alone);
            }
            tap_ok(consistent && identical,
                   "integral %d of %d, %d^5 regions: statistics (%lld, %lld, %lld of %lld "
                   "active) match the split (%lld kept)%s", k + 1, K, cases[c].parts[k],
                   b->t2.count, b->t1.count, b->all.count, s->active, b->split / 2,
                   K > 1 ? (identical ? ", the same bits as alone" : ", NOT as alone") : "");
        }
    }
}

/* FILTER_SPLIT writes the halves of exactly the kept regions, in their
 * order (split_check.h), on lists scanned and split in one launch (6^5
 * and 24^3 regions: fewer than 16384) and by CUB's device scan and the
 * split kernel (8^5). */
static void split_children(pagani_context *ctx)
{
    static const struct { int n, parts; } cases[] = {{5, 6}, {3, 24}, {5, 8}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        long long count = 1, active, children, wrong;
        int rc = split_check_run(ctx, cases[c].n, cases[c].parts, &active, &children, &wrong);
        for (int d = 0; d < cases[c].n; d++) count *= cases[c].parts;
        tap_ok(rc == PAGANI_OK && active == count / 2 && children == count && wrong == 0,
               "split of %d^%d regions: %lld active (want %lld), %lld children, %lld "
               "pairs not the halves of their kept region", cases[c].parts, cases[c].n,
               active, count / 2, children, wrong);
        if (rc != PAGANI_OK)
            tap_diag("%s: %s", pagani_strerror(rc), pagani_context_message(ctx));
    }
}

/* Statistics in the iteration after one that asked for them (the sorted
 * copy made in classify's wait) describe the regions the split finishes
 * (stats_check.h): on lists of about 450 regions (ranked) and 19000
 * (sorted by CUB). */
static void stats_after_search(pagani_context *ctx)
{
    static const int parts[] = {4, 8};
    for (size_t c = 0; c < sizeof parts / sizeof parts[0]; c++) {
        stats_round s;
        int rc = stats_check_run(ctx, parts[c], &s);
        double want = s.sums.active_value - s.below.value;
        tap_ok(rc == PAGANI_OK && s.below.count > 0 && s.below.count < s.sums.active &&
                   s.children == 2 * (s.sums.active - s.below.count) &&
                   fabs(s.kept_value - want) <= 1e-10 * fabs(s.sums.active_value),
               "%d^5 regions, second round: %lld active, %lld below the threshold, %lld "
               "children; the kept regions' V %.15g, active V less that below %.15g",
               parts[c], s.sums.active, s.below.count, s.children, s.kept_value, want);
        if (rc != PAGANI_OK)
            tap_diag("%s: %s", pagani_strerror(rc), pagani_context_message(ctx));
    }
}

/* A Gaussian of centre p[0] and width p[1] along every axis. */
static const char gaussian_source[] =
    "double s = 0.0;\n"
    "for (int i = 0; i < n; i++) {\n"
    "    double a = (x[i] - p[0]) / p[1];\n"
    "    s += a * a;\n"
    "}\n"
    "return exp(-0.5 * s);";

/* Its integral over the box [lower, upper] in n dimensions. */
static double gaussian_truth(const double *p, const double *lower, const double *upper, int n)
{
    const double half_pi = 1.57079632679489661923;
    double r = 1.0, h = sqrt(2.0) * p[1];
    for (int d = 0; d < n; d++)
        r *= p[1] * sqrt(half_pi) *
             (erf((upper[d] - p[0]) / h) - erf((lower[d] - p[0]) / h));
    return r;
}

/* Whether a batch member and the single call agree bit for bit. */
static int same_result(const pagani_result *a, const pagani_result *b)
{
    return memcmp(&a->value, &b->value, sizeof a->value) == 0 &&
           memcmp(&a->error, &b->error, sizeof a->error) == 0 && a->status == b->status &&
           a->iterations == b->iterations && a->regions == b->regions &&
           a->evaluations == b->evaluations;
}

/*
 * pagani_integrate_batch: K integrals of a parameterized Gaussian in n
 * dimensions, integral k with centre and width params[2k], params[2k+1]
 * over box k (box_stride n): each converged with its true error within
 * epsrel, and the members in `check` (all when NULL) give the same bits as
 * pagani_integrate on the same context with that parameter block and box.
 * Bit-identical because every sum over an integral's regions is formed
 * over its own regions in a fixed order (segment-local tiles), and rules
 * of fewer than 128 points (n <= 3) always get 32 threads per region
 * whatever the list's size; the driver treats each integral as a run of
 * its own.
 */
static void batch_gaussians(pagani_context *ctx, int n, int K, double epsrel,
                            const double *params, const double *lower, const double *upper,
                            const int *check, int nchecks)
{
    pagani_integrand *f = NULL;
    pagani_options opt = pagani_options_default(PAGANI_CUBATURE);
    pagani_result *r = calloc((size_t)K, sizeof *r), single;
    int rc = pagani_integrand_from_source(ctx, &f, n, gaussian_source, params,
                                          2 * sizeof(double));
    int bad = 0, worst_k = 0;
    double worst = 0.0;

    opt.epsrel = epsrel;
    opt.epsabs = 1e-40;
    if (!r) rc = PAGANI_ERR_NO_MEMORY;
    if (rc == PAGANI_OK)
        rc = pagani_integrate_batch(ctx, f, K, params, 2 * sizeof(double), lower, upper,
                                    (size_t)n, &opt, r);
    if (rc != PAGANI_OK)
        tap_diag("batch: %s: %s", pagani_strerror(rc), pagani_context_message(ctx));
    for (int k = 0; rc == PAGANI_OK && k < K; k++) {
        double truth = gaussian_truth(params + 2 * k, lower + (size_t)k * n,
                                      upper + (size_t)k * n, n);
        double rel = fabs(r[k].value - truth) / fabs(truth);
        if (r[k].status != PAGANI_CONVERGED || !(rel <= epsrel)) bad++;
        if (!(rel <= worst)) {
            worst = rel;
            worst_k = k;
        }
    }
    tap_ok(rc == PAGANI_OK && bad == 0,
           "batch of %d Gaussians in %dD at %.0e: %d not converged within epsrel, worst "
           "true error %.2e (integral %d: %.15g, %s, %d iterations)", K, n, epsrel, bad,
           worst, worst_k, rc == PAGANI_OK ? r[worst_k].value : NAN,
           rc == PAGANI_OK ? pagani_status_name(r[worst_k].status) : pagani_strerror(rc),
           rc == PAGANI_OK ? r[worst_k].iterations : 0);
    for (int i = 0; rc == PAGANI_OK && i < (check ? nchecks : K); i++) {
        const int k = check ? check[i] : i;
        int rs = pagani_integrand_set_params(f, params + 2 * k, 2 * sizeof(double));
        if (rs == PAGANI_OK)
            rs = pagani_integrate(ctx, f, lower + (size_t)k * n, upper + (size_t)k * n, &opt,
                                  &single);
        tap_ok(rs == PAGANI_OK && same_result(&r[k], &single),
               "integral %d of the batch: %.17g +- %.3g (%d it, %lld regions), alone "
               "%.17g +- %.3g (%d it, %lld regions)", k, r[k].value, r[k].error,
               r[k].iterations, r[k].regions, rs == PAGANI_OK ? single.value : NAN,
               rs == PAGANI_OK ? single.error : NAN, rs == PAGANI_OK ? single.iterations : 0,
               rs == PAGANI_OK ? single.regions : 0LL);
    }
    pagani_integrand_destroy(f);
    free(r);
}

/* Batches: 7 Gaussians in 2D with different centres, widths and boxes,
 * each against its single call; 20,000 in 1D at 1e-9 against their
 * analytic values, a few of them against single calls. */
static void batches(pagani_context *ctx)
{
    enum { SMALL = 7, LARGE = 20000 };
    static const int checks[] = {0, 1, 4567, LARGE - 1};
    double params[2 * SMALL], lower[2 * SMALL], upper[2 * SMALL];
    double *p = malloc(2 * LARGE * sizeof *p), *lo = malloc(LARGE * sizeof *lo);
    double *hi = malloc(LARGE * sizeof *hi);

    for (int k = 0; k < SMALL; k++) {
        params[2 * k] = 0.3 + 0.06 * k;
        params[2 * k + 1] = 0.1 + 0.03 * k;
        lower[2 * k] = -0.05 * k;
        lower[2 * k + 1] = 0.1;
        upper[2 * k] = 1.0;
        upper[2 * k + 1] = 0.9 + 0.05 * k;
    }
    batch_gaussians(ctx, 2, SMALL, 1e-7, params, lower, upper, NULL, 0);
    if (!p || !lo || !hi) {
        tap_ok(0, "memory for the large batch");
    } else {
        for (int k = 0; k < LARGE; k++) {
            p[2 * k] = 0.3 + 0.4 * k / (LARGE - 1.0);
            p[2 * k + 1] = 0.05 + 0.25 * (double)((k * 7919LL) % LARGE) / (LARGE - 1.0);
            lo[k] = -0.1 * (k % 3);
            hi[k] = 1.0 + 0.1 * (k % 5);
        }
        batch_gaussians(ctx, 1, LARGE, 1e-9, p, lo, hi, checks,
                        (int)(sizeof checks / sizeof checks[0]));
    }
    free(p);
    free(lo);
    free(hi);
}

/* Whether row `row` of a layout (K + 1 entries) is `want`. */
static int row_is(const int *layout, int K, int row, const int *want)
{
    return memcmp(layout + (size_t)row * (K + 1), want, (size_t)(K + 1) * sizeof *want) == 0;
}

/* The warp's search for item i's integral (pagani_gpu_warp_integral_of)
 * with its 32 lanes played in turn. */
static int warp_search(const int *offsets, int integrals, long long i)
{
    int lo = 0, hi = integrals - 1;
    while (lo < hi) {
        int m = 0;
        for (int lane = 0; lane < 32; lane++)
            m += offsets[pagani_gpu_probe(lo, hi, lane)] <= i;
        pagani_gpu_narrow(&lo, &hi, m);
    }
    return lo;
}

/* Whether both searches find every item's integral in a batch of K
 * integrals of count(k) = (k * 37) % 5 items (every fifth one empty). */
static int searches_agree(int K)
{
    int *offsets = malloc(((size_t)K + 1) * sizeof *offsets), ok = offsets != NULL;
    for (int k = 0, at = 0; ok && k <= K; k++) {
        offsets[k] = at;
        at += (k * 37) % 5;
    }
    for (int k = 0; ok && k < K; k++)
        for (long long i = offsets[k]; i < offsets[k + 1]; i++)
            ok &= pagani_gpu_integral_of(offsets, K, i) == k &&
                  warp_search(offsets, K, i) == k;
    free(offsets);
    return ok;
}

/* The tile layout of a batch's list (batch_layout.h) and the search for a
 * region's integral, on the host: integrals of 0, 1, 255, 256, 257, 0 and
 * 70000 regions take tiles of up to 256 from each integral's first region,
 * three levels (274 tiles of the largest, then 2, then 1); a lone
 * integral of 256 regions needs one level, of 257 two; a negative count
 * is refused; every region's integral is the one whose stretch holds it,
 * empty ones passed over, by either search. */
static void layout_on_host(void)
{
    static const long long counts[] = {0, 1, 255, 256, 257, 0, 70000};
    static const int regions[] = {0, 0, 1, 256, 512, 769, 769, 70769};
    static const int tiles1[] = {0, 0, 1, 2, 3, 5, 5, 279};
    static const int tiles2[] = {0, 0, 1, 2, 3, 4, 4, 6};
    static const int tiles3[] = {0, 0, 1, 2, 3, 4, 4, 5};
    int layout[(PAGANI_GPU_MAX_LEVELS + 1) * 8], searched = 1;
    long long one = 256, bad[2] = {3, -1};
    int levels = pagani_gpu_layout(counts, 7, layout);

    tap_ok(levels == 3 && row_is(layout, 7, 0, regions) && row_is(layout, 7, 1, tiles1) &&
               row_is(layout, 7, 2, tiles2) && row_is(layout, 7, 3, tiles3),
           "layout of 7 integrals: %d levels, %d tiles of regions", levels, layout[15]);
    for (int k = 0; k < 7; k++)
        for (long long i = regions[k]; i < regions[k + 1]; i++)
            searched &= pagani_gpu_integral_of(regions, 7, i) == k &&
                        warp_search(regions, 7, i) == k;
    tap_ok(searched, "every region's integral found by binary search and by the "
           "warp's search");
    tap_ok(searches_agree(1) && searches_agree(2) && searches_agree(33) &&
               searches_agree(1000) && searches_agree(100000),
           "both searches in batches of 1, 2, 33, 1000 and 100000 integrals");
    levels = pagani_gpu_layout(&one, 1, layout);
    tap_ok(levels == 1 && layout[1] == 256 && layout[3] == 1,
           "one integral of 256 regions: %d level", levels);
    one = 257;
    levels = pagani_gpu_layout(&one, 1, layout);
    tap_ok(levels == 2 && layout[3] == 2 && layout[5] == 1,
           "one integral of 257 regions: %d levels", levels);
    tap_ok(pagani_gpu_layout(bad, 2, layout) == -1, "a negative count is refused");
}

int main(void)
{
    pagani_context *ctx = NULL;
    int rc;

    for (int d = 0; d < PAGANI_MAX_DIM; d++) {
        unit_lower[d] = 0.0;
        unit_upper[d] = 1.0;
    }
    layout_on_host();
    rc = pagani_context_create(&ctx, PAGANI_BACKEND_CUDA);
    if (rc != PAGANI_OK) {
        tap_diag("CUDA backend: %s: %s", pagani_strerror(rc), pagani_context_message(ctx));
        pagani_context_destroy(ctx);
        tap_skip("the GPU checks: no usable GPU");
        tap_done();
        return tap_exit_code();
    }
    faults(ctx);
    threshold_consistency(ctx);
    split_children(ctx);
    stats_after_search(ctx);
    params_and_bounds(ctx);
    batches(ctx);
    rules(ctx);
    suite(ctx);
    check_far_field(ctx);
    check_cancellation(ctx);
    determinism(ctx);
    against_cpu(ctx);
    pagani_context_destroy(ctx);
    tap_done();
    return tap_exit_code();
}
