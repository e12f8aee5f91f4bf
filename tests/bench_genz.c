/*
 * bench_genz.c - how far the error estimates of a method can be trusted,
 * on Genz's six families (genz.h), in a larger sweep than test_genz's:
 *
 *   bench_genz [cpu|cuda] [cubature|vegas|qmc] [-r RUNS] [-c CAP]
 *              [-m MULTIPLIER] [-s SEED] [-S] [-v]
 *
 * Families 1-6 x n = 2..8 x epsrel 1e-3 .. 1e-7 x RUNS instances (seeds
 * SEED, SEED+1, ...; default 5 from 1), each run capped at CAP evaluations
 * (default 1e7 on the CPU, 1e9 on CUDA), Genz's difficulties times
 * MULTIPLIER (default 1). Per family and tolerance, then per family, it
 * prints: runs, converged, false convergences (converged, true relative
 * error above epsrel), honest failures (not converged), errors, instances
 * skipped (genz_judged), the median and largest ratio reported/true
 * relative error of the converged runs, the fraction of runs whose true
 * error lies within 2 reported errors (Vegas and QMC report one standard
 * deviation) and the mean and largest time of a run. CUDA runs the
 * families' source forms, the CPU their host functions (-S: the source
 * forms there too); -v prints every run. Not a test: a table for the lead.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pagani.h"
#include "genz.h"

#define MIN_DIM 2
#define MAX_DIM 8
#define TOLERANCES 5 /* 1e-3 .. 1e-7 */

typedef struct bench_setup {
    pagani_backend backend;
    pagani_method method;
    int runs, sources, verbose;
    long long cap;
    double multiplier;
    uint64_t seed;
} bench_setup;

/* The options of one run: epsrel only (epsabs 0), the cap, the instance's
 * seed for the Monte Carlo methods, the family's cubature flags. */
static pagani_options run_options(const bench_setup *b, int family,
                                  double epsrel, uint64_t seed)
{
    pagani_options o = pagani_options_default(b->method);
    o.epsrel = epsrel;
    o.epsabs = 0.0;
    o.max_evaluations = b->cap;
    o.seed = seed;
    if (b->method == PAGANI_CUBATURE) o.flags = genz_cubature_flags(family);
    return o;
}

/* The runs of one family at one tolerance (or at all of them). */
typedef struct bench_cell {
    genz_tally tally;
    int errors, skipped;
} bench_cell;

/* Runs instance g (integrand f, NULL if it could not be made) at epsrel
 * and adds the run to both cells; -v prints it. */
static void run_one(pagani_context *ctx, const bench_setup *b,
                    pagani_integrand *f, const genz_params *g, uint64_t seed,
                    double epsrel, bench_cell *cell, bench_cell *all)
{
    static const double lower[MAX_DIM] = {0};
    static const double upper[MAX_DIM] = {1, 1, 1, 1, 1, 1, 1, 1};
    pagani_options o = run_options(b, g->family, epsrel, seed);
    double truth = genz_truth(g);
    pagani_result r;
    genz_outcome outcome;
    int rc = PAGANI_OK;

    if (!genz_judged(g)) {
        cell->skipped++, all->skipped++;
        return;
    }
    if (f && (rc = pagani_integrate(ctx, f, lower, upper, &o, &r)))
        printf("f%d n=%d seed=%llu epsrel=%.0e: %s: %s\n", g->family, g->n,
               (unsigned long long)seed, epsrel, pagani_strerror(rc),
               pagani_context_message(ctx));
    if (!f || rc != PAGANI_OK) { /* a failed creation was printed before */
        cell->errors++, all->errors++;
        return;
    }
    outcome = genz_tally_add(&cell->tally, &r, truth, epsrel);
    genz_tally_add(&all->tally, &r, truth, epsrel);
    if (b->verbose)
        printf("  f%d n=%d seed=%llu epsrel=%.0e: %s, reported %.2e, true "
               "%.2e, %lld evaluations, %.2f ms%s\n", g->family, g->n,
               (unsigned long long)seed, epsrel, pagani_status_name(r.status),
               r.error / fabs(r.value), fabs(r.value - truth) / fabs(truth),
               r.evaluations, 1e3 * r.seconds,
               outcome == GENZ_FALSE_CONVERGENCE ? "  FALSE CONVERGENCE" : "");
}

/* Prints a cell as a row of the table (counts, ratios, coverage, times)
 * and frees it. */
static void print_row(const bench_setup *b, const char *family,
                      const char *epsrel, bench_cell *c)
{
    genz_tally *t = &c->tally;
    char coverage[16] = "-";

    if (b->method != PAGANI_CUBATURE && t->runs > 0)
        snprintf(coverage, sizeof coverage, "%.3f",
                 (double)t->within_2sigma / t->runs);
    printf("%-14s %7s %5d %5d %5d %6d %4d %4d %10.3g %10.3g %6s %9.2f %9.2f\n",
           family, epsrel, t->runs + c->errors, t->converged,
           t->false_convergences, t->not_converged, c->errors, c->skipped,
           genz_tally_median(t), genz_tally_max(t), coverage,
           t->runs ? 1e3 * t->seconds / t->runs : 0.0, 1e3 * t->max_seconds);
    fflush(stdout);
    genz_tally_free(t);
}

/* One family: every dimension, instance and tolerance; then its rows. */
static void bench_family(pagani_context *ctx, const bench_setup *b, int family)
{
    bench_cell cells[TOLERANCES + 1];

    memset(cells, 0, sizeof cells);
    for (int n = MIN_DIM; n <= MAX_DIM; n++) {
        pagani_integrand *f = NULL;
        for (int k = 0; k < b->runs; k++) {
            uint64_t seed = b->seed + (uint64_t)k;
            genz_params g;
            int rc;

            genz_generate(&g, family, n, seed, b->multiplier);
            if ((rc = genz_set_instance(ctx, b->sources, &g, &f)) != PAGANI_OK) {
                printf("f%d n=%d seed=%llu: %s: %s\n", family, n,
                       (unsigned long long)seed, pagani_strerror(rc),
                       pagani_context_message(ctx));
                pagani_integrand_destroy(f);
                f = NULL;
            }
            for (int e = 0; e < TOLERANCES; e++)
                run_one(ctx, b, f, &g, seed, pow(10.0, -3 - e), &cells[e],
                        &cells[TOLERANCES]);
        }
        pagani_integrand_destroy(f);
    }
    for (int e = 0; e <= TOLERANCES; e++) {
        char epsrel[8] = "all";
        if (e < TOLERANCES)
            snprintf(epsrel, sizeof epsrel, "%.0e", pow(10.0, -3 - e));
        print_row(b, genz_name(family), epsrel, &cells[e]);
    }
}

static int usage(void)
{
    fprintf(stderr,
            "usage: bench_genz [cpu|cuda] [cubature|vegas|qmc] [-r RUNS] "
            "[-c CAP] [-m MULTIPLIER] [-s SEED] [-S] [-v]\n");
    return 2;
}

int main(int argc, char **argv)
{
    bench_setup b = {PAGANI_BACKEND_CPU, PAGANI_CUBATURE, 5, 0, 0, 0, 1.0, 1};
    pagani_context *ctx = NULL;

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(arg, "cpu")) b.backend = PAGANI_BACKEND_CPU;
        else if (!strcmp(arg, "cuda"))
            b.backend = PAGANI_BACKEND_CUDA, b.sources = 1;
        else if (!strcmp(arg, "cubature")) b.method = PAGANI_CUBATURE;
        else if (!strcmp(arg, "vegas")) b.method = PAGANI_VEGAS;
        else if (!strcmp(arg, "qmc")) b.method = PAGANI_QMC;
        else if (!strcmp(arg, "-S")) b.sources = 1;
        else if (!strcmp(arg, "-v")) b.verbose = 1;
        else if (!value) return usage();
        else if (!strcmp(arg, "-r")) b.runs = atoi(value), i++;
        else if (!strcmp(arg, "-c")) b.cap = (long long)atof(value), i++;
        else if (!strcmp(arg, "-m")) b.multiplier = atof(value), i++;
        else if (!strcmp(arg, "-s")) b.seed = strtoull(value, NULL, 10), i++;
        else return usage();
    }
    if (b.runs < 1 || b.cap < 0 || !(b.multiplier > 0)) return usage();
    if (b.cap == 0)
        b.cap = b.backend == PAGANI_BACKEND_CUDA ? 1000000000LL : 10000000LL;
    if (pagani_context_create(&ctx, b.backend) != PAGANI_OK) {
        printf("bench_genz: no %s backend: %s\n",
               pagani_backend_name(b.backend), pagani_context_message(ctx));
        pagani_context_destroy(ctx);
        return 1;
    }
    printf("%s on %s (%s forms): n = %d..%d, %d instances from seed %llu, "
           "cap %lld evaluations, difficulty x%g\n",
           pagani_method_name(b.method), pagani_backend_name(b.backend),
           b.sources ? "source" : "host function", MIN_DIM, MAX_DIM, b.runs,
           (unsigned long long)b.seed, b.cap, b.multiplier);
    printf("%-14s %7s %5s %5s %5s %6s %4s %4s %10s %10s %6s %9s %9s\n",
           "family", "epsrel", "runs", "conv", "false", "honest", "err", "skip",
           "med_ratio", "max_ratio", "in2sd", "mean_ms", "max_ms");
    for (int family = 1; family <= GENZ_FAMILIES; family++)
        bench_family(ctx, &b, family);
    pagani_context_destroy(ctx);
    return 0;
}
