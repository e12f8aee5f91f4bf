/*
 * bench_state.c - what a cubature checkpoint costs: the file's bytes per
 * region and the time to write it and to resume from it, for the list of
 * f4 (the Gaussian exp(-625 sum (x_i - 1/2)^2)) at its largest, or, with
 * -o, for a list of any size in few dimensions.
 *
 *   bench_state [-b cpu|cuda] [-n DIM] [-e EPSREL] [-i ITERATIONS] [-o]
 *               [-s SPLITS] [-m BYTES] [-f FILE] [-w]
 *
 * Defaults: the default backend, n = 8, epsrel 1e-7, FILE
 * ./bench_state.state. Without -i a first run to epsrel finds the
 * iteration with the most active regions (the list after it is the
 * largest). Then, each with max_iterations at that iteration:
 *   run      without a file: the integration alone;
 *   write    with the file (none before): the run, then the checkpoint a
 *            run stopped by max_iterations writes;
 *   resume   again: reads the file, loads the list, runs no iteration and
 *            writes it again; it needs disk for two files at once (the
 *            new one beside the old until the rename): -w leaves it out.
 * The write's time runs from the creation of the checkpoint's temporary
 * file (the file's birth time, which the rename keeps) to the return, so
 * that the run's own time, which varies with the load, is no part of it;
 * read and load from the resume's start to the new file's birth. Where
 * FILE's file system keeps no birth time, write = write's run - run and
 * read and load = resume - write. File systems date files by their clock
 * tick (a few ms): times of that order are noise. Every run refines
 * breadth-first (strategy), as a run with a file does.
 *
 * -o integrates the wave cos(2 pi 1e10 sum x_i) instead of f4: no region
 * of width above 1e-10 is finished, so every iteration splits the whole
 * list and it holds SPLITS^n 2^ITERATIONS regions (-i is then needed;
 * epsrel 1e-12, no evaluation limit); -s sets initial_splits, -m the
 * context's memory budget in bytes (pagani_context_set_memory), which
 * must hold the list (both buffers: bytes_per_region of the backend, 88
 * a region in 1-D on the CPU and on CUDA, 98 in 2-D on CUDA). A list of
 * 10^9 regions in 1-D then needs 88 GB of device memory, more than an
 * H100's 80: the largest power-of-two list an H100 holds is
 * 3 x 2^28 = 8.05e8 regions (70.9 GB; a file of 16 GB, 20 bytes a
 * region):
 *   tests/bench_state -b cuda -o -n 1 -s 3 -i 28 -m 72e9 -w
 * and the table's last line scales its bytes and times to 10^9 regions.
 *
 * The list's regions are read from the file's head (the payload's eighth
 * word, src/cubature/cubature_checkpoint.c, after a header of 16 words,
 * src/state/state_file.h). Not a test: it prints a table.
 */
#define _GNU_SOURCE /* statx */
#include <fcntl.h>
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

/* The integrand of -o: cos(2 pi 1e10 sum x_i), its phase reduced to one
 * period first. */
PAGANI_INTEGRAND(bench_wave, {
    double t = 0.0;
    for (int i = 0; i < n; i++) t += x[i];
    t *= 1e10;
    return cos(2.0 * M_PI * (t - floor(t)));
})

/* Wall-clock seconds, as the file system dates a file. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* When file was made (its temporary created: the checkpoint's write
 * began), as now() counts, or -1 where its file system keeps no birth
 * time. */
static double born(const char *file)
{
    struct statx sx;
    if (statx(AT_FDCWD, file, 0, STATX_BTIME, &sx) != 0 || !(sx.stx_mask & STATX_BTIME))
        return -1.0;
    return (double)sx.stx_btime.tv_sec + 1e-9 * (double)sx.stx_btime.tv_nsec;
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

/* One call of f over the unit cube with options o; when it began and
 * ended. */
typedef struct span {
    double start, end;
} span;

static span timed(pagani_context *ctx, pagani_integrand *f, int n,
                  const pagani_options *o, pagani_result *r, int *rc)
{
    double lower[PAGANI_MAX_CUBATURE_DIM] = {0}, upper[PAGANI_MAX_CUBATURE_DIM];
    span s;
    for (int d = 0; d < n; d++) upper[d] = 1.0;
    s.start = now();
    *rc = pagani_integrate(ctx, f, lower, upper, o, r);
    s.end = now();
    return s;
}

static double seconds(span s)
{
    return s.end - s.start;
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
                    "[-i ITERATIONS] [-o] [-s SPLITS] [-m BYTES] [-f FILE] "
                    "[-w]\n");
    return 2;
}

/* The table: the list's size, the write's and the resume's times, and
 * the same scaled to 10^9 regions. */
static void report(const pagani_result *r, int n, double epsrel,
                   int iterations, long long regions, long long bytes,
                   double run, double write, double load, int resumed)
{
    const double scale = regions > 0 ? 1e9 / (double)regions : 0.0;
    printf("%-7s %3s %8s %5s %12s %14s %8s %8s %8s %10s %11s\n", "backend",
           "n", "epsrel", "its", "regions", "bytes", "B/region", "run s",
           "write s", "write GB/s", "read+load s");
    printf("%-7s %3d %8.0e %5d %12lld %14lld %8.1f %8.2f %8.2f %10.2f ",
           pagani_backend_name(r->backend), n, epsrel, iterations, regions,
           bytes, regions > 0 ? (double)bytes / (double)regions : 0.0, run, write,
           write > 0 ? (double)bytes / write / 1e9 : 0.0);
    if (resumed) printf("%11.2f\n", load);
    else printf("%11s\n", "-");
    printf("# 10^9 regions at these rates: a file of %.1f GB, written in "
           "%.0f s", (double)bytes * scale / 1e9, write * scale);
    if (resumed) printf(", read and loaded in %.0f s", load * scale);
    printf("\n");
}

int main(int argc, char **argv)
{
    pagani_backend backend = PAGANI_BACKEND_AUTO;
    const char *file = "bench_state.state";
    int n = 8, iterations = 0, splits = 0, wave = 0, resume = 1, rc;
    double epsrel = 0.0, memory = 0.0, write, load = 0.0, began;
    span run, written = {0.0, 0.0}, resumed = {0.0, 0.0};
    pagani_context *ctx = NULL;
    pagani_integrand *f = NULL;
    pagani_options o;
    pagani_result r;
    struct stat st;

    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "-w")) {
            resume = 0;
            continue;
        }
        if (!strcmp(argv[a], "-o")) {
            wave = 1;
            continue;
        }
        if (a + 1 >= argc) return usage();
        if (!strcmp(argv[a], "-b"))
            backend = !strcmp(argv[++a], "cuda") ? PAGANI_BACKEND_CUDA : PAGANI_BACKEND_CPU;
        else if (!strcmp(argv[a], "-n")) n = atoi(argv[++a]);
        else if (!strcmp(argv[a], "-e")) epsrel = atof(argv[++a]);
        else if (!strcmp(argv[a], "-i")) iterations = atoi(argv[++a]);
        else if (!strcmp(argv[a], "-s")) splits = atoi(argv[++a]);
        else if (!strcmp(argv[a], "-m")) memory = atof(argv[++a]);
        else if (!strcmp(argv[a], "-f")) file = argv[++a];
        else return usage();
    }
    if (n < 1 || n > PAGANI_MAX_CUBATURE_DIM || splits < 0 || memory < 0 ||
        (wave && iterations < 1))
        return usage();
    if (epsrel <= 0.0) epsrel = wave ? 1e-12 : 1e-7;
    if (pagani_context_create(&ctx, backend) != PAGANI_OK ||
        pagani_context_set_memory(ctx, (size_t)memory) != PAGANI_OK ||
        pagani_integrand_create(ctx, &f, n, wave ? &bench_wave : &suite_f4) != PAGANI_OK) {
        fprintf(stderr, "bench_state: %s\n", pagani_context_message(ctx));
        return 1;
    }
    o = pagani_options_default(PAGANI_CUBATURE);
    o.epsrel = epsrel;
    o.initial_splits = splits;
    o.strategy = PAGANI_STRATEGY_BREADTH; /* as with a file, also without */
    if (wave) o.max_evaluations = (long long)1 << 62;
    o.state_interval = 0.0;
    if (!iterations) {
        largest l = {0, 0};
        o.progress = note_largest;
        o.progress_data = &l;
        run = timed(ctx, f, n, &o, &r, &rc);
        printf("# f4 %dD to %g: %s in %d iterations, %.2f s; the most active "
               "regions, %lld, at iteration %d\n", n, epsrel,
               pagani_status_name(r.status), r.iterations, seconds(run),
               l.active, l.iteration);
        iterations = l.iteration;
        o.progress = NULL;
    }
    o.max_iterations = iterations;
    run = timed(ctx, f, n, &o, &r, &rc);
    unlink(file);
    o.state_path = file;
    if (rc == PAGANI_OK) written = timed(ctx, f, n, &o, &r, &rc);
    began = born(file);
    write = began < 0 ? seconds(written) - seconds(run) : written.end - began;
    if (rc == PAGANI_OK && resume) {
        resumed = timed(ctx, f, n, &o, &r, &rc);
        began = born(file);
        load = began < 0 ? seconds(resumed) - write : began - resumed.start;
    }
    if (rc != PAGANI_OK || stat(file, &st) != 0) {
        if (rc != PAGANI_OK)
            fprintf(stderr, "bench_state: %s: %s\n", pagani_strerror(rc),
                    pagani_context_message(ctx));
        else
            fprintf(stderr, "bench_state: no checkpoint: the run ended %s "
                    "within %d iterations\n", pagani_status_name(r.status),
                    iterations);
        return 1;
    }
    report(&r, n, epsrel, iterations, file_regions(file), (long long)st.st_size,
           seconds(run), write, load, resume);
    unlink(file);
    pagani_integrand_destroy(f);
    pagani_context_destroy(ctx);
    return 0;
}
