/*
 * bench_state.c - what a cubature checkpoint costs: the file's bytes per
 * region and the time to write it and to resume from it, for the list of
 * f4 (the Gaussian exp(-625 sum (x_i - 1/2)^2)) at its largest.
 *
 *   bench_state [-b cpu|cuda] [-n DIM] [-e EPSREL] [-i ITERATIONS] [-f FILE] [-w]
 *
 * Defaults: the default backend, n = 8, epsrel 1e-7, FILE
 * ./bench_state.state. Without -i a first run to epsrel finds the
 * iteration with the most active regions (the list after it is the
 * largest). Then, each with max_iterations at that iteration:
 *   run      without a file: the integration alone;
 *   write    with the file (none before): the run, then the checkpoint a
 *            run stopped by max_iterations writes; write = this - run;
 *   resume   again: reads the file, loads the list, runs no iteration and
 *            writes it again (read and load = this - write); it needs
 *            disk for two files at once (the new one beside the old until
 *            the rename): -w leaves it out.
 * The list's regions are read from the file's head (the payload's eighth
 * word, src/cubature/cubature_checkpoint.c, after a header of 16 words,
 * src/state/state_file.h). Not a test: it prints a table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "pagani.h"
#include "suite.h"

#define HEADER_WORDS 16
#define HEAD_REGIONS 7

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The iteration with the most active regions (the progress callback's
 * size for one integral). */
typedef struct largest {
    int iteration;
    long long active;
} largest;

static int note_largest(int iteration, long long size, double value,
                        double error, void *data)
{
    largest *l = data;
    (void)value, (void)error;
    if (size > l->active) {
        l->active = size;
        l->iteration = iteration;
    }
    return 0;
}

/* One call of f4 over the unit cube with options o; its seconds. */
static double timed(pagani_context *ctx, pagani_integrand *f, int n,
                    const pagani_options *o, pagani_result *r, int *rc)
{
    double lower[PAGANI_MAX_CUBATURE_DIM] = {0}, upper[PAGANI_MAX_CUBATURE_DIM];
    double start = now();
    for (int d = 0; d < n; d++) upper[d] = 1.0;
    *rc = pagani_integrate(ctx, f, lower, upper, o, r);
    return now() - start;
}

/* The list's regions in the file's head, or -1. */
static long long file_regions(const char *file)
{
    long long regions = -1;
    FILE *in = fopen(file, "rb");
    if (!in) return -1;
    if (fseek(in, (HEADER_WORDS + HEAD_REGIONS) * 8L, SEEK_SET) != 0 ||
        fread(&regions, sizeof regions, 1, in) != 1)
        regions = -1;
    fclose(in);
    return regions;
}

static int usage(void)
{
    fprintf(stderr, "usage: bench_state [-b cpu|cuda] [-n DIM] [-e EPSREL] "
                    "[-i ITERATIONS] [-f FILE] [-w]\n");
    return 2;
}

int main(int argc, char **argv)
{
    pagani_backend backend = PAGANI_BACKEND_AUTO;
    const char *file = "bench_state.state";
    int n = 8, iterations = 0, resume = 1, rc;
    double epsrel = 1e-7, t_run, t_write, t_resume = 0.0, write;
    pagani_context *ctx = NULL;
    pagani_integrand *f = NULL;
    pagani_options o;
    pagani_result r;
    long long regions;
    struct stat st;

    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "-w")) {
            resume = 0;
            continue;
        }
        if (a + 1 >= argc) return usage();
        if (!strcmp(argv[a], "-b"))
            backend = !strcmp(argv[++a], "cuda") ? PAGANI_BACKEND_CUDA : PAGANI_BACKEND_CPU;
        else if (!strcmp(argv[a], "-n")) n = atoi(argv[++a]);
        else if (!strcmp(argv[a], "-e")) epsrel = atof(argv[++a]);
        else if (!strcmp(argv[a], "-i")) iterations = atoi(argv[++a]);
        else if (!strcmp(argv[a], "-f")) file = argv[++a];
        else return usage();
    }
    if (n < 1 || n > PAGANI_MAX_CUBATURE_DIM) return usage();
    if (pagani_context_create(&ctx, backend) != PAGANI_OK ||
        pagani_integrand_create(ctx, &f, n, &suite_f4) != PAGANI_OK) {
        fprintf(stderr, "bench_state: %s\n", pagani_context_message(ctx));
        return 1;
    }
    o = pagani_options_default(PAGANI_CUBATURE);
    o.epsrel = epsrel;
    o.state_interval = 0.0;
    if (!iterations) {
        largest l = {0, 0};
        o.progress = note_largest;
        o.progress_data = &l;
        t_run = timed(ctx, f, n, &o, &r, &rc);
        printf("# f4 %dD to %g: %s in %d iterations, %.2f s; the most active "
               "regions, %lld, at iteration %d\n", n, epsrel,
               pagani_status_name(r.status), r.iterations, t_run, l.active,
               l.iteration);
        iterations = l.iteration;
        o.progress = NULL;
    }
    o.max_iterations = iterations;
    t_run = timed(ctx, f, n, &o, &r, &rc);
    unlink(file);
    o.state_path = file;
    t_write = timed(ctx, f, n, &o, &r, &rc);
    if (rc == PAGANI_OK && resume) t_resume = timed(ctx, f, n, &o, &r, &rc);
    if (rc != PAGANI_OK || stat(file, &st) != 0) {
        fprintf(stderr, "bench_state: %s: %s\n", pagani_strerror(rc),
                pagani_context_message(ctx));
        return 1;
    }
    regions = file_regions(file);
    write = t_write - t_run;
    printf("%-7s %3s %8s %5s %12s %14s %8s %8s %8s %10s %8s\n", "backend", "n",
           "epsrel", "its", "regions", "bytes", "B/region", "run s", "write s",
           "write GB/s", "resume s");
    printf("%-7s %3d %8.0e %5d %12lld %14lld %8.1f %8.2f %8.2f %10.2f %8.2f\n",
           pagani_backend_name(r.backend), n, epsrel, iterations, regions,
           (long long)st.st_size, regions > 0 ? (double)st.st_size / regions : 0.0,
           t_run, write, write > 0 ? (double)st.st_size / write / 1e9 : 0.0,
           t_resume);
    unlink(file);
    pagani_integrand_destroy(f);
    pagani_context_destroy(ctx);
    return 0;
}
