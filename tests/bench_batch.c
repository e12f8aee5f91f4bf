/*
 * bench_batch.c - pagani_integrate_batch against the loop it replaces (K
 * pagani_integrate calls on one context, pagani_integrand_set_params
 * between them) on the rows of issue 13's benchmark: K Gaussians of
 * batch_cases.h (centre 0.3..0.7, width 0.05..0.3, from a seed) over the
 * unit cube,
 *
 *   cubature3  cubature, 3-D,  K = 10,000,  epsrel 1e-6
 *   cubature6  cubature, 6-D,  K = 1,000,   epsrel 1e-5
 *   cubature1  cubature, 1-D,  K = 100,000, epsrel 1e-10 (Gauss-Kronrod)
 *   vegas6     Vegas,    6-D,  K = 1,000,   epsrel 1e-3
 *   qmc6       QMC,      6-D,  K = 1,000,   epsrel 1e-5
 *
 *   bench_batch [cpu|cuda] [-p] [-k FACTOR] [-l LOOP] [-c SECONDS]
 *               [-e EVALUATIONS] [-w WIDTH] [-s SEED] [ROW...]
 *
 * The backend is CUDA when usable unless cpu is given. -p runs each
 * cubature batch once more with its time split by backend operation
 * (op_profile.h). -k divides every K
 * by FACTOR (at least one integral remains); -l times the loop on the
 * first LOOP integrals only and scales its time to K (marked ~); -c stops
 * a batch, or the loop, after SECONDS (default 60: a stopped batch's
 * integrals say PAGANI_STOPPED, a stopped loop is scaled to K from the
 * calls it finished); -e sets max_evaluations (default 0, none); -w the
 * narrowest width (default 0.05); -s seeds the parameters (default 1);
 * ROWs restrict the table. Options are otherwise the method's defaults,
 * with epsabs 0. Each row prints K, the batch's time (the median of three
 * runs when one takes under a second) and integrals/s, the loop's time
 * and integrals/s, the speed-up, how many integrals converged in the
 * batch and in the loop, how many the batch ended out of capacity (its
 * memory budget is shared) or stopped, the worst true relative error of
 * the batch's converged results and how many exceed epsrel, and the
 * largest relative difference between batch and loop values. Not a test:
 * a table for the GPU machine.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "pagani.h"
#include "batch_cases.h"
#include "op_profile.h"

/* A row of the benchmark. */
typedef struct bench_row {
    const char *name;
    pagani_method method;
    int n, count;
    double epsrel;
} bench_row;

static const bench_row rows[] = {
    {"cubature3", PAGANI_CUBATURE, 3, 10000, 1e-6},
    {"cubature6", PAGANI_CUBATURE, 6, 1000, 1e-5},
    {"cubature1", PAGANI_CUBATURE, 1, 100000, 1e-10},
    {"vegas6", PAGANI_VEGAS, 6, 1000, 1e-3},
    {"qmc6", PAGANI_QMC, 6, 1000, 1e-5},
};

/* What the command line asks for. */
typedef struct bench_setup {
    pagani_backend backend;
    double factor;    /* K divided by this */
    int loop_limit;   /* 0: time the loop on all K */
    double cap;       /* seconds a batch or a loop may take */
    double width_min; /* the narrowest Gaussian */
    long long max_evaluations;
    uint64_t seed;
    int profile;      /* -p: one more cubature batch, timed by operation */
} bench_setup;

/* The work of one row: its parameters, the unit cube, both results; the
 * loop ran on the first `looped` integrals. */
typedef struct row_data {
    int count, looped;
    double *params, lower[PAGANI_MAX_CUBATURE_DIM];
    double upper[PAGANI_MAX_CUBATURE_DIM];
    pagani_result *batch, *loop;
} row_data;

/* Wall-clock seconds from a monotonic clock. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A progress callback that stops the run once the clock passes the
 * deadline (seconds of now()) its data points to. */
static int stop_at_deadline(int iteration, long long size, double estimate,
                            double error, void *data)
{
    (void)iteration;
    (void)size;
    (void)estimate;
    (void)error;
    return now() > *(const double *)data;
}

/* The options of a row: the method's defaults, epsrel, epsabs 0, the
 * evaluation limit, and the deadline. */
static pagani_options row_options(const bench_setup *b, const bench_row *row,
                                  double *deadline)
{
    pagani_options opt = pagani_options_default(row->method);
    opt.epsrel = row->epsrel;
    opt.epsabs = 0.0;
    opt.max_evaluations = b->max_evaluations;
    opt.progress = stop_at_deadline;
    opt.progress_data = deadline;
    return opt;
}

/* The batch over the first count integrals of d; its time in *seconds:
 * the median of three runs when the first takes under a second. Each run
 * stops at cap seconds (its integrals then say PAGANI_STOPPED). */
static int time_batch(pagani_context *ctx, pagani_integrand *f,
                      const row_data *d, int count, const pagani_options *opt,
                      double cap, double *seconds)
{
    double t[3];
    int runs = 0, rc;

    do {
        double start = now();
        *(double *)opt->progress_data = start + cap;
        rc = pagani_integrate_batch(ctx, f, count, d->params, BATCH_BLOCK,
                                    d->lower, d->upper, 0, opt, d->batch);
        t[runs++] = now() - start;
    } while (rc == PAGANI_OK && runs < 3 && t[0] < 1.0);
    if (runs == 3) {
        double lo = fmin(t[0], fmin(t[1], t[2]));
        double hi = fmax(t[0], fmax(t[1], t[2]));
        t[0] = t[0] + t[1] + t[2] - lo - hi; /* the median */
    }
    *seconds = t[0];
    return rc;
}

/* The loop over the first d->looped integrals of d, one pagani_integrate
 * call after another, until they are done or cap seconds have passed: the
 * time of the calls that finished in *seconds, their number in *done (a
 * call the deadline stopped counts in neither). */
static int time_loop(pagani_context *ctx, pagani_integrand *f,
                     const row_data *d, const pagani_options *opt, double cap,
                     double *seconds, int *done)
{
    double start = now(), *deadline = opt->progress_data;
    int rc = PAGANI_OK;

    *deadline = start + cap;
    *done = 0;
    *seconds = 0.0;
    while (*done < d->looped && now() < *deadline) {
        double t0 = now();
        int k = *done;
        rc = batch_loop(ctx, f, 1, d->params + BATCH_PARAMS * k, BATCH_BLOCK,
                        d->lower, d->upper, 0, opt, &d->loop[k]);
        if (rc != PAGANI_OK) break;
        if (d->loop[k].status == PAGANI_STOPPED && now() > *deadline) break;
        *seconds += now() - t0;
        ++*done;
    }
    return rc;
}

/* Prints the accuracy columns: how many converged in the batch and in the
 * loop (of those it ran), how many the batch ended out of capacity or
 * stopped at the time cap, the worst true relative error of the batch's
 * converged results, how many of them exceed epsrel, and the largest
 * relative difference between batch and loop values. */
static void print_accuracy(const bench_row *row, const row_data *d)
{
    double worst = 0.0, diff = 0.0;
    int converged = 0, loop_converged = 0, out = 0, stopped = 0, over = 0;
    char loop[32];

    for (int k = 0; k < d->count; k++) {
        double truth = batch_gaussian_truth(d->params + BATCH_PARAMS * k,
                                            row->n, d->lower, d->upper);
        double rel = fabs(d->batch[k].value - truth) / truth;
        out += d->batch[k].status == PAGANI_OUT_OF_CAPACITY;
        stopped += d->batch[k].status == PAGANI_STOPPED;
        if (d->batch[k].status != PAGANI_CONVERGED) continue;
        converged++;
        over += !(rel <= row->epsrel);
        if (!(rel <= worst)) worst = rel;
    }
    for (int k = 0; k < d->looped; k++) {
        double rel = fabs(d->batch[k].value - d->loop[k].value) /
                     fabs(d->loop[k].value);
        loop_converged += d->loop[k].status == PAGANI_CONVERGED;
        if (!(rel <= diff)) diff = rel;
    }
    snprintf(loop, sizeof loop, "%d/%d", loop_converged, d->looped);
    printf(" %7d %13s %7d %7d %9.2e %8d %9.2e\n", converged, loop, out,
           stopped, worst, over, diff);
}

/* Prints the timing columns: the batch's time and rate, the loop's time
 * scaled to K (~ when it ran on fewer) and rate, and the speed-up. */
static void print_times(const row_data *d, double batch_s, double loop_s)
{
    double loop_total = loop_s * d->count / d->looped;

    printf(" %10.2f %11.1f %s%10.2f %11.1f %8.1f", 1e3 * batch_s,
           d->count / batch_s, d->looped < d->count ? "~" : " ",
           1e3 * loop_total, d->count / loop_total, loop_total / batch_s);
}

/* Runs one row: a warm-up (compilation, device and thread start-up), the
 * batch, the loop (on loop_limit integrals when set, fewer when the cap
 * ends it), and prints it. */
static void run_row(pagani_context *ctx, const bench_setup *b,
                    const bench_row *row)
{
    double deadline, batch_s = 0.0, loop_s = 0.0;
    pagani_options opt = row_options(b, row, &deadline);
    pagani_integrand *f = NULL;
    row_data d = {0};
    int rc, done = 0;

    d.count = (int)fmax(1.0, floor(row->count / b->factor));
    d.looped =
        b->loop_limit > 0 && b->loop_limit < d.count ? b->loop_limit : d.count;
    d.params = malloc(BATCH_BLOCK * d.count);
    d.batch = calloc((size_t)d.count, sizeof *d.batch);
    d.loop = calloc((size_t)d.looped, sizeof *d.loop);
    batch_unit_cube(d.lower, d.upper, row->n);
    rc = d.params && d.batch && d.loop ? PAGANI_OK : PAGANI_ERR_NO_MEMORY;
    if (rc == PAGANI_OK) {
        batch_gaussian_draw(d.params, d.count, b->seed, b->width_min,
                            BATCH_WIDTH_MAX);
        rc = pagani_integrand_create(ctx, &f, row->n, &batch_gaussian);
    }
    if (rc == PAGANI_OK) /* warm-up */
        rc = time_batch(ctx, f, &d, 1, &opt, b->cap, &batch_s);
    if (rc == PAGANI_OK)
        rc = time_batch(ctx, f, &d, d.count, &opt, b->cap, &batch_s);
    if (rc == PAGANI_OK)
        rc = time_loop(ctx, f, &d, &opt, b->cap, &loop_s, &done);
    d.looped = done;
    printf("%-10s %2d %6.0e %7d", row->name, row->n, row->epsrel, d.count);
    if (rc != PAGANI_OK) {
        printf("  %s: %s\n", pagani_strerror(rc), pagani_context_message(ctx));
    } else if (d.looped == 0) {
        printf("  the loop did not finish one integral in %g s\n", b->cap);
    } else {
        print_times(&d, batch_s, loop_s);
        print_accuracy(row, &d);
    }
    if (rc == PAGANI_OK && b->profile && row->method == PAGANI_CUBATURE) {
        double start = now();
        profile_on(ctx);
        *(double *)opt.progress_data = start + b->cap;
        pagani_integrate_batch(ctx, f, d.count, d.params, BATCH_BLOCK, d.lower,
                               d.upper, 0, &opt, d.batch);
        profile_off(ctx, row->name, row->epsrel, 1e3 * (now() - start));
    }
    fflush(stdout);
    pagani_integrand_destroy(f);
    free(d.params);
    free(d.batch);
    free(d.loop);
}

/* The GPU's name and memory as nvidia-smi gives them, or "?". */
static void print_gpu(void)
{
    char line[256] = "?";
    FILE *p =
        popen("nvidia-smi --query-gpu=name,memory.total --format=csv,noheader "
              "2>/dev/null",
              "r");
    if (p) {
        if (!fgets(line, sizeof line, p)) strcpy(line, "?");
        pclose(p);
    }
    line[strcspn(line, "\n")] = '\0';
    printf("# device: %s\n", line);
}

/* The header: the command, the machine, the settings, the columns. */
static void print_header(pagani_context *ctx, int argc, char **argv,
                         const bench_setup *b)
{
    const char *threads = getenv("PAGANI_THREADS");
    char host[128] = "?", date[32];
    time_t t = time(NULL);

    gethostname(host, sizeof host - 1);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&t));
    printf("# command:");
    for (int i = 0; i < argc; i++) printf(" %s", argv[i]);
    printf("\n# %s, %s, libpagani %s, backend %s\n", host, date,
           pagani_version(), pagani_backend_name(pagani_context_backend(ctx)));
    if (pagani_context_backend(ctx) == PAGANI_BACKEND_CUDA)
        print_gpu();
    else
        printf("# device: %ld CPUs online, PAGANI_THREADS %s\n",
               sysconf(_SC_NPROCESSORS_ONLN),
               threads && *threads ? threads : "unset");
    printf("# K / %g; widths %g..%g, centres 0.3..0.7 from seed %llu; "
           "max_evaluations %lld; batch and loop stopped after %g s\n",
           b->factor, b->width_min, BATCH_WIDTH_MAX,
           (unsigned long long)b->seed, b->max_evaluations, b->cap);
    printf("# ~: the loop ran on fewer integrals (-l, or the time cap); its "
           "time is scaled to K\n");
    printf("%-10s %2s %6s %7s %10s %11s %11s %11s %8s %7s %13s %7s %7s %9s "
           "%8s %9s\n",
           "row", "n", "epsrel", "K", "batch_ms", "batch_int/s", "loop_ms",
           "loop_int/s", "speedup", "conv", "loop_conv", "out_cap", "stopped",
           "worst_rel", "over_eps", "max_diff");
}

static int usage(void)
{
    fprintf(stderr,
            "usage: bench_batch [cpu|cuda] [-p] [-k FACTOR] [-l LOOP] [-c SECONDS] "
            "[-e EVALUATIONS] [-w WIDTH] [-s SEED] "
            "[cubature3|cubature6|cubature1|vegas6|qmc6]...\n");
    return 2;
}

int main(int argc, char **argv)
{
    bench_setup b = {PAGANI_BACKEND_AUTO, 1.0, 0, 60.0, BATCH_WIDTH_MIN, 0, 1, 0};
    const char *only[sizeof rows / sizeof rows[0]];
    pagani_context *ctx = NULL;
    int nonly = 0;

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        int is_row = 0;
        for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++)
            is_row |= !strcmp(arg, rows[r].name);
        if (!strcmp(arg, "cpu"))
            b.backend = PAGANI_BACKEND_CPU;
        else if (!strcmp(arg, "cuda"))
            b.backend = PAGANI_BACKEND_CUDA;
        else if (!strcmp(arg, "-p"))
            b.profile = 1;
        else if (is_row && nonly < (int)(sizeof only / sizeof only[0]))
            only[nonly++] = arg;
        else if (!value)
            return usage();
        else if (!strcmp(arg, "-k"))
            b.factor = atof(value), i++;
        else if (!strcmp(arg, "-l"))
            b.loop_limit = atoi(value), i++;
        else if (!strcmp(arg, "-c"))
            b.cap = atof(value), i++;
        else if (!strcmp(arg, "-e"))
            b.max_evaluations = atoll(value), i++;
        else if (!strcmp(arg, "-w"))
            b.width_min = atof(value), i++;
        else if (!strcmp(arg, "-s"))
            b.seed = strtoull(value, NULL, 10), i++;
        else
            return usage();
    }
    if (!(b.factor >= 1.0) || b.loop_limit < 0 || !(b.cap > 0) ||
        b.max_evaluations < 0 ||
        !(b.width_min > 0 && b.width_min <= BATCH_WIDTH_MAX))
        return usage();
    if (pagani_context_create(&ctx, b.backend) != PAGANI_OK) {
        printf("bench_batch: no %s backend: %s\n",
               pagani_backend_name(b.backend), pagani_context_message(ctx));
        pagani_context_destroy(ctx);
        return 1;
    }
    print_header(ctx, argc, argv, &b);
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        int want = nonly == 0;
        for (int j = 0; j < nonly; j++) want |= !strcmp(only[j], rows[r].name);
        if (want) run_row(ctx, &b, &rows[r]);
    }
    pagani_context_destroy(ctx);
    return 0;
}
