/*
 * bench_families.c - libpagani against hcubature on the integrals of
 * issue 33 (hard_families.h: corner and face singularities, diagonal
 * jumps, unbounded Gaussians and exponentials), or on issue 37's suite:
 *
 *   bench_families [-m families|suite] [-b cpu|cuda] [-t THREADS]
 *                  [-c CAP] [-r RUNS] [-s SEED] [-e EPSREL,...]
 *                  [-k CODE,...] [-f FAMILY,...] [-S STRATEGY] [-d DEGREE] [-v]
 *
 * -m families (the default): each family at each of its dimensions,
 * RUNS instances (seeds SEED, SEED+1, ...; default 4 from 1) at each
 * tolerance (default 1e-3,1e-4,1e-5,1e-6,1e-7; epsabs 0), each run of
 * every code capped at CAP evaluations (default 3e7). The codes (-k, default
 * all): libpagani's cubature, vegas and qmc on the backend of -b (default
 * cpu) with THREADS CPU threads (default 1: hcubature runs on one), and
 * hcubature on the CPU, infinite bounds mapped by hand (code_runs.h). One
 * row per code, family, dimension and tolerance: runs, converged (true
 * error within epsrel), false (converged, true error above epsrel), for
 * Vegas and QMC also false5 (converged, true error above 5 reported
 * standard deviations), honest failures (not converged), errors (no
 * result), the median ratio reported/true error of the converged runs,
 * and the median time (CPU time on the CPU backend: bench_run_time) and
 * evaluations of the runs with a result; then each code's totals per
 * family and over all.
 * -f restricts the families (corner, face, diagonal, gauss, exp).
 * -S sets libpagani cubature's strategy (auto, breadth, worst; default
 * auto: pagani_strategy); -d its rule degree (7, 9, 11, 13; default 0:
 * the library's choice).
 *
 * -m suite: issue 37's table (bench_versus.c; -r there is the Genz
 * instances per family and dimension, default 1). Not a test: a table for the
 * lead, built but not run by make check.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "families_config.h"
#include "code_runs.h"
#include "hard_families.h"

/* A code's counts over runs. */
typedef struct bench_totals {
    int runs, converged, false_convergences, beyond_5sigma, honest, errors;
} bench_totals;

/* The runs of one code on one family, dimension and tolerance. */
typedef struct bench_cell {
    bench_totals count;
    int nratios;
    double *ratios;                 /* of the converged runs */
    double *seconds, *evaluations;  /* of the runs with a result */
} bench_cell;

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of v[0..count-1] (sorted in place), NAN when count is 0. */
static double median(double *v, int count)
{
    if (count == 0) return NAN;
    qsort(v, (size_t)count, sizeof *v, compare_doubles);
    return count % 2 ? v[count / 2] : 0.5 * (v[count / 2 - 1] + v[count / 2]);
}

static const char *code_name(unsigned code)
{
    switch (code) {
    case BENCH_CUBATURE: return "cubature";
    case BENCH_VEGAS: return "vegas";
    case BENCH_QMC: return "qmc";
    default: return "hcubature";
    }
}

static pagani_method code_method(unsigned code)
{
    return code == BENCH_VEGAS ? PAGANI_VEGAS : code == BENCH_QMC ? PAGANI_QMC
                                                                   : PAGANI_CUBATURE;
}

/* Adds run r, which took `seconds`, to the cell. */
static void cell_add(bench_cell *c, const bench_run *r, double seconds, double epsrel)
{
    bench_totals *t = &c->count;
    int k = t->runs++ - t->errors; /* the runs with a result before this */

    if (r->failed) {
        t->errors++;
        return;
    }
    c->seconds[k] = seconds;
    c->evaluations[k] = (double)r->evaluations;
    if (!r->converged) {
        t->honest++;
        return;
    }
    if (!(r->true_rel <= epsrel)) t->false_convergences++;
    else t->converged++;
    if (!(r->true_rel * fabs(r->value) <= 5.0 * r->error)) t->beyond_5sigma++;
    c->ratios[c->nratios++] = r->error / fabs(r->value) / r->true_rel;
}

/* Adds the counts of b to a. */
static void totals_add(bench_totals *a, const bench_totals *b)
{
    a->runs += b->runs;
    a->converged += b->converged;
    a->false_convergences += b->false_convergences;
    a->beyond_5sigma += b->beyond_5sigma;
    a->honest += b->honest;
    a->errors += b->errors;
}

/* The false5 column: the count for Vegas and QMC, "-" for the others. */
static const char *sigma5_column(unsigned code, const bench_totals *t, char buf[16])
{
    if (code != BENCH_VEGAS && code != BENCH_QMC) return "-";
    snprintf(buf, 16, "%d", t->beyond_5sigma);
    return buf;
}

/* Prints the cell as a row and adds it to the code's totals. */
static void cell_print(const bench_cell *c, unsigned code, const char *family,
                       int n, double epsrel, bench_totals *t)
{
    const bench_totals *k = &c->count;
    char buf[16];

    printf("%-9s %-8s %2d %6.0e %4d %4d %5d %6s %6d %4d %10.3g %9.3g %10.3g\n",
           code_name(code), family, n, epsrel, k->runs, k->converged,
           k->false_convergences, sigma5_column(code, k, buf), k->honest, k->errors,
           median(c->ratios, c->nratios), median(c->seconds, k->runs - k->errors),
           median(c->evaluations, k->runs - k->errors));
    fflush(stdout);
    totals_add(t, k);
}

/* The runs of one code on instances seed.. of (family, n) at epsrel; f is
 * the libpagani integrand (NULL for hcubature). */
static void bench_cell_runs(pagani_context *ctx, pagani_integrand *f,
                            const bench_config *c, unsigned code, int family,
                            int n, double epsrel, bench_cell *cell)
{
    const hard_family *fam = hard_family_get(family);
    double lower[HARD_MAX_DIM], upper[HARD_MAX_DIM];

    for (int i = 0; i < n; i++) lower[i] = fam->lower, upper[i] = fam->upper;
    for (int k = 0; k < c->runs; k++) {
        uint64_t seed = c->seed + (uint64_t)k;
        hard_instance h;
        bench_problem pb;
        bench_run r = {0};
        pagani_options o = pagani_options_default(code_method(code));

        hard_generate(&h, family, n, seed);
        pb = (bench_problem){fam->def, h.p, hard_params_size(&h), n, lower, upper,
                             hard_truth(&h), epsrel, c->cap};
        o.seed = seed;
        if (code == BENCH_HCUBATURE) {
            bench_run_hcubature(&pb, &r);
        } else if (pagani_integrand_set_params(f, pb.params, pb.params_size) != PAGANI_OK) {
            printf("  set_params: %s\n", pagani_context_message(ctx));
            r.failed = 1;
        } else {
            bench_run_pagani(ctx, f, &pb, o, &r);
        }
        cell_add(cell, &r, bench_run_time(c, &r, code == BENCH_HCUBATURE), epsrel);
        if (c->verbose && !r.failed)
            printf("  %s %s n=%d seed=%llu epsrel=%.0e: %s, reported %.2e, true "
                   "%.2e, %lld evaluations, %.3f s%s\n", code_name(code), fam->name,
                   n, (unsigned long long)seed, epsrel,
                   r.converged ? "converged" : "not converged",
                   r.error / fabs(r.value), r.true_rel, r.evaluations,
                   bench_run_time(c, &r, code == BENCH_HCUBATURE),
                   r.converged && !(r.true_rel <= epsrel) ? "  FALSE CONVERGENCE" : "");
    }
}

/* Every row of one code on one family and dimension. */
static void bench_code(pagani_context *ctx, const bench_config *c, unsigned code,
                       int family, int n, bench_totals *t)
{
    const hard_family *fam = hard_family_get(family);
    pagani_integrand *f = NULL;
    bench_cell cell;
    int rc;

    if (code != BENCH_HCUBATURE &&
        (rc = pagani_integrand_create(ctx, &f, n, fam->def)) != PAGANI_OK) {
        printf("%s %s n=%d: %s: %s\n", code_name(code), fam->name, n,
               pagani_strerror(rc), pagani_context_message(ctx));
        return;
    }
    cell.ratios = malloc(3 * (size_t)c->runs * sizeof(double));
    if (!cell.ratios) {
        pagani_integrand_destroy(f);
        return;
    }
    cell.seconds = cell.ratios + c->runs;
    cell.evaluations = cell.seconds + c->runs;
    for (int e = 0; e < c->ntolerances; e++) {
        memset(&cell.count, 0, sizeof cell.count);
        cell.nratios = 0;
        bench_cell_runs(ctx, f, c, code, family, n, c->tolerances[e], &cell);
        cell_print(&cell, code, fam->name, n, c->tolerances[e], t);
    }
    free(cell.ratios);
    pagani_integrand_destroy(f);
}

static void totals_print(unsigned code, const char *family, const bench_totals *t)
{
    char buf[16];

    printf("%-9s %-8s %5d %5d %5d %6s %6d %4d\n", code_name(code), family, t->runs,
           t->converged, t->false_convergences, sigma5_column(code, t, buf), t->honest,
           t->errors);
}

/* Issue 33's table: every selected family, dimension and code; then each
 * code's totals per family and over all. */
static void bench_families(pagani_context *ctx, const bench_config *c,
                           unsigned families)
{
    static const unsigned codes[] = {BENCH_CUBATURE, BENCH_VEGAS, BENCH_QMC,
                                     BENCH_HCUBATURE};
    bench_totals totals[HARD_FAMILIES][4], all[4];

    memset(totals, 0, sizeof totals);
    memset(all, 0, sizeof all);
    printf("%-9s %-8s %2s %6s %4s %4s %5s %6s %6s %4s %10s %9s %10s\n", "code",
           "family", "n", "epsrel", "runs", "conv", "false", "false5", "honest",
           "err", "med_ratio", "med_s", "med_evals");
    for (int family = 0; family < HARD_FAMILIES; family++) {
        const hard_family *fam = hard_family_get(family);
        if (!(families & 1u << family)) continue;
        for (int n = fam->min_dim; n <= fam->max_dim; n++)
            for (int k = 0; k < 4; k++)
                if (c->codes & codes[k])
                    bench_code(ctx, c, codes[k], family, n, &totals[family][k]);
    }
    printf("\n%-9s %-8s %5s %5s %5s %6s %6s %4s\n", "totals", "family", "runs",
           "conv", "false", "false5", "honest", "err");
    for (int k = 0; k < 4; k++) {
        if (!(c->codes & codes[k])) continue;
        for (int family = 0; family < HARD_FAMILIES; family++) {
            if (!(families & 1u << family)) continue;
            totals_print(codes[k], hard_family_get(family)->name, &totals[family][k]);
            totals_add(&all[k], &totals[family][k]);
        }
        totals_print(codes[k], "all", &all[k]);
    }
}

/* ---- options ----------------------------------------------------------- */

static int usage(void)
{
    fprintf(stderr,
            "usage: bench_families [-m families|suite] [-b cpu|cuda] [-t THREADS] "
            "[-c CAP] [-r RUNS] [-s SEED] [-e EPSREL,...] [-k CODE,...] "
            "[-f FAMILY,...] [-S auto|breadth|worst] [-d DEGREE] [-v]\n");
    return 2;
}

/* The bits of the comma-separated names in list among names[0..count-1];
 * 0 when one is unknown. */
static unsigned parse_names(const char *list, const char *const *names, int count)
{
    unsigned bits = 0;
    char buf[256], *save = NULL;

    snprintf(buf, sizeof buf, "%s", list);
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int k = 0;
        while (k < count && strcmp(tok, names[k])) k++;
        if (k == count) return 0;
        bits |= 1u << k;
    }
    return bits;
}

/* The tolerances of a comma-separated list; 0 when one is not in (0, 1). */
static int parse_tolerances(const char *list, bench_config *c)
{
    char buf[256], *save = NULL;

    snprintf(buf, sizeof buf, "%s", list);
    c->ntolerances = 0;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        double e = atof(tok);
        if (!(e > 0 && e < 1) || c->ntolerances == BENCH_MAX_TOLERANCES) return 0;
        c->tolerances[c->ntolerances++] = e;
    }
    return c->ntolerances > 0;
}

/* -S's value as a pagani_strategy, or -1. */
static int parse_strategy(const char *value)
{
    static const char *const names[] = {"auto", "breadth", "worst"};
    for (int k = 0; k < 3; k++)
        if (!strcmp(value, names[k])) return k;
    return -1;
}

int main(int argc, char **argv)
{
    static const char *const code_names[] = {"cubature", "vegas", "qmc", "hcubature"};
    const char *family_names[HARD_FAMILIES];
    bench_config c = {PAGANI_BACKEND_CPU, 1, 30000000LL, 0, 1, 5,
                      {1e-3, 1e-4, 1e-5, 1e-6, 1e-7}, 15u, 0, PAGANI_STRATEGY_AUTO, 0};
    unsigned families = (1u << HARD_FAMILIES) - 1;
    int suite = 0, strategy, rc;
    pagani_context *ctx = NULL;

    for (int k = 0; k < HARD_FAMILIES; k++) family_names[k] = hard_family_get(k)->name;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(arg, "-v")) {
            c.verbose = 1;
            continue;
        }
        if (!value) return usage();
        i++;
        if (!strcmp(arg, "-m") && !strcmp(value, "suite")) suite = 1;
        else if (!strcmp(arg, "-m") && !strcmp(value, "families")) suite = 0;
        else if (!strcmp(arg, "-b") && !strcmp(value, "cpu")) c.backend = PAGANI_BACKEND_CPU;
        else if (!strcmp(arg, "-b") && !strcmp(value, "cuda")) c.backend = PAGANI_BACKEND_CUDA;
        else if (!strcmp(arg, "-t")) c.threads = atoi(value);
        else if (!strcmp(arg, "-c")) c.cap = (long long)atof(value);
        else if (!strcmp(arg, "-r")) c.runs = atoi(value);
        else if (!strcmp(arg, "-s")) c.seed = strtoull(value, NULL, 10);
        else if (!strcmp(arg, "-e") && parse_tolerances(value, &c)) continue;
        else if (!strcmp(arg, "-S") && (strategy = parse_strategy(value)) >= 0)
            c.strategy = (pagani_strategy)strategy;
        else if (!strcmp(arg, "-d")) c.rule_degree = atoi(value);
        else if (!strcmp(arg, "-k") && (c.codes = parse_names(value, code_names, 4))) continue;
        else if (!strcmp(arg, "-f") && (families = parse_names(value, family_names, HARD_FAMILIES)))
            continue;
        else return usage();
    }
    if (c.runs == 0) c.runs = suite ? 1 : 4;
    if (c.runs < 1 || c.cap < 1 || c.threads < 0) return usage();
    rc = pagani_context_create(&ctx, c.backend);
    if (rc == PAGANI_OK) rc = pagani_context_set_threads(ctx, c.threads);
    if (rc != PAGANI_OK) {
        printf("bench_families: %s backend: %s\n", pagani_backend_name(c.backend),
               pagani_context_message(ctx));
        pagani_context_destroy(ctx);
        return 1;
    }
    printf("libpagani on %s, %d thread(s)%s; cap %lld evaluations per run, epsabs 0; ",
           pagani_backend_name(c.backend), c.threads, c.threads ? "" : " (OpenMP's default)",
           c.cap);
    if (!bench_hcubature_available() && (c.codes & BENCH_HCUBATURE)) {
        printf("hcubature was not found by configure: its rows are left out\n");
        c.codes &= ~(unsigned)BENCH_HCUBATURE;
    } else {
        printf("hcubature %son the CPU, one thread\n",
               c.codes & BENCH_HCUBATURE ? "" : "not asked for; ");
    }
    printf("cubature rule degree: %d (0: the library's choice)\n", c.rule_degree);
    printf("cubature strategy: %s\n", c.strategy == PAGANI_STRATEGY_BREADTH ? "breadth-first"
                                       : c.strategy == PAGANI_STRATEGY_WORST_FIRST
                                           ? "worst-first" : "auto");
    printf("times: %s\n", c.backend == PAGANI_BACKEND_CPU
                               ? "CPU seconds of the process in the call"
                               : "libpagani's wall seconds, hcubature's CPU seconds");
    if (suite) {
        bench_versus(ctx, &c);
    } else {
        printf("%d instances per family and dimension from seed %llu\n", c.runs,
               (unsigned long long)c.seed);
        bench_families(ctx, &c, families);
    }
    pagani_context_destroy(ctx);
    return 0;
}
