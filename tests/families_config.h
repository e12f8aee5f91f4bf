/*
 * families_config.h - the settings of tests/bench_families, shared by its
 * two modes: issue 33's hard families (bench_families.c) and issue 37's
 * one-thread table against hcubature (bench_versus.c).
 */
#ifndef PAGANI_TESTS_FAMILIES_CONFIG_H
#define PAGANI_TESTS_FAMILIES_CONFIG_H

#include <stdint.h>
#include "pagani.h"
#include "code_runs.h"

#define BENCH_MAX_TOLERANCES 8

/* The codes a table compares (bits of bench_config.codes). */
enum {
    BENCH_CUBATURE = 1,  /* libpagani cubature on the chosen backend */
    BENCH_VEGAS = 2,     /* libpagani Vegas */
    BENCH_QMC = 4,       /* libpagani QMC */
    BENCH_HCUBATURE = 8  /* hcubature on the CPU */
};

typedef struct bench_config {
    pagani_backend backend;
    int threads;         /* CPU threads of libpagani (0: OpenMP's default) */
    long long cap;       /* evaluations of one run, every code */
    int runs;            /* instances per family and dimension */
    uint64_t seed;       /* the first instance's seed */
    int ntolerances;
    double tolerances[BENCH_MAX_TOLERANCES];
    unsigned codes;      /* BENCH_* */
    int verbose;         /* print every run */
    int rule_degree;     /* libpagani cubature's rule (0: its default) */
} bench_config;

/* The time a table shows of run r: its CPU time on the CPU backend (on one
 * thread, unlike the wall time, the same on a loaded machine; summed
 * over the threads of -t N), its wall time on CUDA (hcubature's CPU
 * time then). */
static inline double bench_run_time(const bench_config *c, const bench_run *r,
                                    int hcubature)
{
    return c->backend == PAGANI_BACKEND_CPU || hcubature ? r->cpu_seconds
                                                         : r->seconds;
}

/* Issue 37's table (-m suite): the paper's suite and the Genz families,
 * libpagani cubature against hcubature. */
void bench_versus(pagani_context *ctx, const bench_config *c);

#endif /* PAGANI_TESTS_FAMILIES_CONFIG_H */
