/*
 * test_qmc_parts.c - one step of the QMC split (pagani.h, "QMC in parts")
 * for tests/test_qmc_parts.sh, which runs each step as its own process.
 * The integral: qmc_genz_osc in 8-D on the CPU, seed SEED, with N =
 * 131072 points per shift (pagani_integrate's run ends there after its
 * 4th block of 2^14, 2^14, 2^15, 2^16 points: epsrel 1e-12 is not met).
 *
 *   test_qmc_parts whole SEED              pagani_integrate
 *   test_qmc_parts part SEED P p FILE      part p of P into FILE
 *   test_qmc_parts combine SEED FILE...    the parts in FILEs combined
 *
 * whole and combine print "code value error status evaluations" with the
 * value and error as hex floats. Exit status 0 unless a step failed to
 * run (a library error is printed as its code, for the script to judge).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pagani.h"
#include "qmc_suite.h"

#define N_POINTS 131072ULL
#define WORDS PAGANI_QMC_PART_WORDS(16)

static double lower[8] = {0}, upper[8] = {1, 1, 1, 1, 1, 1, 1, 1};

/* Prints a result line. */
static void print(int rc, const pagani_result *r)
{
    printf("%d %a %a %s %lld\n", rc, r->value, r->error,
           pagani_status_name(r->status), r->evaluations);
}

/* Reads `count` records from files into records[]. */
static int read_records(char **files, int count, long long *records)
{
    for (int i = 0; i < count; i++) {
        FILE *in = fopen(files[i], "rb");
        size_t got = in ? fread(records + (size_t)i * WORDS, sizeof(long long),
                                WORDS, in)
                        : 0;
        if (in) fclose(in);
        if (got != WORDS) return 0;
    }
    return 1;
}

/* The combine step. */
static int combine(pagani_context *ctx, pagani_integrand *f,
                   const pagani_options *opt, char **files, int count)
{
    long long *records = malloc(sizeof(long long) * WORDS * (size_t)count);
    const long long **list = malloc(sizeof *list * (size_t)count);
    pagani_result r;
    int ok = records && list && read_records(files, count, records);

    memset(&r, 0, sizeof r);
    if (ok) {
        for (int i = 0; i < count; i++) list[i] = records + (size_t)i * WORDS;
        print(pagani_qmc_combine_parts(ctx, f, lower, upper, opt, count, list,
                                       &r),
              &r);
    }
    free(records);
    free(list);
    return ok;
}

/* The part step. */
static int part(pagani_context *ctx, pagani_integrand *f,
                const pagani_options *opt, int P, int p, const char *file)
{
    long long record[WORDS];
    int rc = pagani_qmc_part(ctx, f, lower, upper, opt, N_POINTS, p, P, record);
    FILE *out = rc == PAGANI_OK ? fopen(file, "wb") : NULL;
    int ok = out && fwrite(record, sizeof record[0], WORDS, out) == WORDS;

    if (out) ok = fclose(out) == 0 && ok;
    if (rc != PAGANI_OK)
        fprintf(stderr, "part: %s\n", pagani_context_message(ctx));
    return ok;
}

int main(int argc, char **argv)
{
    pagani_context *ctx = NULL;
    pagani_integrand *f = NULL;
    pagani_options opt = pagani_options_default(PAGANI_QMC);
    pagani_result r;
    int ok = 0;

    if (argc < 3 || pagani_context_create(&ctx, PAGANI_BACKEND_CPU) ||
        pagani_integrand_create(ctx, &f, 8, &qmc_genz_osc)) {
        fprintf(stderr, "usage: test_qmc_parts whole|part|combine SEED ...\n");
        pagani_context_destroy(ctx);
        return 1;
    }
    opt.epsrel = 1e-12;
    opt.seed = strtoull(argv[2], NULL, 10);
    opt.qmc_initial_points = 16384;
    opt.max_iterations = 4;
    if (!strcmp(argv[1], "whole")) {
        print(pagani_integrate(ctx, f, lower, upper, &opt, &r), &r);
        ok = 1;
    } else if (!strcmp(argv[1], "part") && argc == 6) {
        ok = part(ctx, f, &opt, atoi(argv[3]), atoi(argv[4]), argv[5]);
    } else if (!strcmp(argv[1], "combine") && argc > 3) {
        ok = combine(ctx, f, &opt, argv + 3, argc - 3);
    }
    pagani_integrand_destroy(f);
    pagani_context_destroy(ctx);
    return !ok;
}
