/*
 * bench_mpi.c - the MPI layer's cost and scaling (a program, not a test):
 * one row per run, printed by rank 0, for each method on a few suite
 * integrands, on the CPU or the GPU.
 *
 *   mpirun -np P bench_mpi [cpu|cuda] [quick]
 *   mpirun -np P bench_mpi [cpu|cuda] gpus [SECONDS] [METHOD:NAME]...
 *
 * Row: method, integrand, n, epsrel, backend, ranks, wall seconds (the
 * slowest rank's, barrier to barrier), seconds in the layer's collectives
 * (rank 0's; pagani_mpi_seconds: the reductions and the waits for other
 * ranks; for cubature the per-iteration communication against the rest
 * of the time), iterations, value and error as hex floats (to compare rank
 * counts bit for bit), status, true relative error, and for cubature the
 * imbalance of the ranks' active regions (pagani_mpi_imbalance: the
 * largest over the mean). tests/bench_mpi.sh
 * runs it for several rank counts and adds speed-up and efficiency.
 * "quick" runs smaller cases (a smoke run on a small machine); "gpus"
 * runs the multi-GPU strong-scaling rows instead (cubature f4 and f5 8D
 * to 1e-8, f2 6D to 1e-9, f1 8D without the relative-error filter to
 * 1e-6; Vegas f4 5D and f5 8D at 1e9 calls an iteration for 10
 * iterations; QMC on an 8-D oscillatory Genz integrand to 1e-8) with
 * epsabs 0, each after an untimed one-iteration run (its kernels
 * compiled) and stopped after SECONDS (default 30) by its progress
 * callback; METHOD:NAME (e.g. cubature:f4) runs only the rows named.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include "pagani_mpi.h"
#include "suite.h"
#include "qmc_suite.h"

typedef struct bench_case {
    pagani_method method;
    const char *name;
    const pagani_integrand_def *def;
    int n;
    double epsrel, quick_epsrel;
    double calls;           /* Vegas: calls per iteration */
    double truth;
    unsigned flags;         /* cubature flags */
    int iterations;         /* Vegas: a fixed count (0: to the tolerance) */
} bench_case;

/* Seconds a run of the "gpus" rows may take. */
static double gpus_cap = 30.0;

/* Stops a run once it has taken gpus_cap seconds (data: its start). */
static int cap_progress(int it, long long size, double value, double error, void *data)
{
    (void)it; (void)size; (void)value; (void)error;
    return MPI_Wtime() - *(const double *)data > gpus_cap;
}

/* Whether row c is among the METHOD:NAME arguments (all rows when none
 * is given). */
static int selected(const bench_case *c, int argc, char **argv)
{
    char name[64];
    int any = 0;

    snprintf(name, sizeof name, "%s:%s", pagani_method_name(c->method), c->name);
    for (int i = 1; i < argc; i++)
        if (strchr(argv[i], ':')) {
            any = 1;
            if (!strcmp(argv[i], name)) return 1;
        }
    return !any;
}

/* One run: rank 0 prints its row. */
static void run(pagani_context *ctx, const bench_case *c, int quick,
                int capped, int ranks, int rank)
{
    double lower[PAGANI_MAX_DIM] = {0}, upper[PAGANI_MAX_DIM];
    pagani_options opt = pagani_options_default(c->method);
    pagani_integrand *f = NULL;
    pagani_result r;
    double start, mine, slowest = 0.0, comm;
    int rc;

    for (int i = 0; i < c->n; i++) upper[i] = 1.0;
    memset(&r, 0, sizeof r);
    opt.epsrel = quick ? c->quick_epsrel : c->epsrel;
    if (c->calls > 0) opt.vegas_calls = quick ? c->calls / 10 : c->calls;
    if (c->iterations > 0) opt.max_iterations = c->iterations;
    opt.flags |= c->flags;
    rc = pagani_integrand_create(ctx, &f, c->n, c->def);
    if (capped) {
        pagani_options once = opt;
        once.max_iterations = 1;
        if (rc == PAGANI_OK) pagani_integrate(ctx, f, lower, upper, &once, &r);
        opt.epsabs = 0.0;
        opt.progress = cap_progress;
        opt.progress_data = &start;
    }
    comm = pagani_mpi_seconds(ctx);
    MPI_Barrier(MPI_COMM_WORLD);
    start = MPI_Wtime();
    if (rc == PAGANI_OK) rc = pagani_integrate(ctx, f, lower, upper, &opt, &r);
    mine = MPI_Wtime() - start;
    MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    comm = pagani_mpi_seconds(ctx) - comm;
    if (rank == 0) {
        if (rc != PAGANI_OK)
            printf("%-8s %-12s %2d %7.0e %-4s %2d error %s: %s\n",
                   pagani_method_name(c->method), c->name, c->n, opt.epsrel,
                   pagani_backend_name(pagani_context_backend(ctx)), ranks,
                   pagani_strerror(rc), pagani_context_message(ctx));
        else
            printf("%-8s %-12s %2d %7.0e %-4s %2d %9.4f %9.4f %4d %-24a "
                   "%-24a %-20s %.2e %.2f\n",
                   pagani_method_name(c->method), c->name, c->n, opt.epsrel,
                   pagani_backend_name(pagani_context_backend(ctx)), ranks,
                   slowest, comm, r.iterations, r.value, r.error,
                   pagani_status_name(r.status),
                   fabs(r.value - c->truth) / fabs(c->truth),
                   c->method == PAGANI_CUBATURE ? pagani_mpi_imbalance(ctx)
                                                : 1.0);
        fflush(stdout);
    }
    pagani_integrand_destroy(f);
}

int main(int argc, char **argv)
{
    const bench_case gpus_cases[] = {
        {PAGANI_CUBATURE, "f4", &suite_f4, 8, 1e-8, 1e-8, 0, suite_truth(4, 8), 0, 0},
        {PAGANI_CUBATURE, "f5", &suite_f5, 8, 1e-8, 1e-8, 0, suite_truth(5, 8), 0, 0},
        {PAGANI_CUBATURE, "f2", &suite_f2, 6, 1e-9, 1e-9, 0, suite_truth(2, 6), 0, 0},
        {PAGANI_CUBATURE, "f1", &suite_f1, 8, 1e-6, 1e-6, 0, suite_truth(1, 8),
         PAGANI_FLAG_NO_RELERR_FILTER, 0},
        {PAGANI_VEGAS, "f4", &suite_f4, 5, 1e-12, 1e-12, 1e9, suite_truth(4, 5), 0, 10},
        {PAGANI_VEGAS, "f5", &suite_f5, 8, 1e-12, 1e-12, 1e9, suite_truth(5, 8), 0, 10},
        {PAGANI_QMC, "qmc_genz_osc", &qmc_genz_osc, 8, 1e-8, 1e-8, 0,
         qmc_genz_osc_exact(8, 0.0, 1.0), 0, 0},
    };
    const bench_case cases[] = {
        {PAGANI_QMC, "qmc_genz_osc", &qmc_genz_osc, 8, 1e-7, 1e-5, 0,
         qmc_genz_osc_exact(8, 0.0, 1.0), 0, 0},
        {PAGANI_QMC, "f5", &suite_f5, 8, 1e-4, 1e-2, 0, suite_truth(5, 8), 0, 0},
        {PAGANI_VEGAS, "f4", &suite_f4, 5, 1e-3, 1e-3, 1e7,
         suite_truth(4, 5), 0, 0},
        {PAGANI_VEGAS, "f5", &suite_f5, 8, 1e-3, 1e-3, 1e7,
         suite_truth(5, 8), 0, 0},
        {PAGANI_CUBATURE, "f4", &suite_f4, 5, 1e-7, 1e-5, 0,
         suite_truth(4, 5), 0, 0},
        {PAGANI_CUBATURE, "f2", &suite_f2, 6, 1e-6, 1e-2, 0,
         suite_truth(2, 6), 0, 0},
    };
    pagani_backend backend = PAGANI_BACKEND_CPU;
    pagani_context *ctx = NULL;
    int rank, ranks, quick = 0, gpus = 0, rc;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "cuda")) backend = PAGANI_BACKEND_CUDA;
        else if (!strcmp(argv[i], "quick")) quick = 1;
        else if (!strcmp(argv[i], "gpus")) gpus = 1;
        else if (gpus && atof(argv[i]) > 0.0) gpus_cap = atof(argv[i]);
    }
    rc = pagani_mpi_context_create(&ctx, backend, MPI_COMM_WORLD);
    if (rc != PAGANI_OK) {
        if (rank == 0)
            printf("context: %s: %s\n", pagani_strerror(rc),
                   pagani_context_message(ctx));
    } else {
        const bench_case *list = gpus ? gpus_cases : cases;
        size_t count = gpus ? sizeof gpus_cases / sizeof gpus_cases[0]
                            : sizeof cases / sizeof cases[0];
        for (size_t i = 0; i < count; i++)
            if (selected(&list[i], argc, argv)) run(ctx, &list[i], quick, gpus, ranks, rank);
    }
    pagani_context_destroy(ctx);
    MPI_Finalize();
    return rc != PAGANI_OK;
}
