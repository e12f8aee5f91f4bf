/*
 * mpi_launch.c - `pagani` under mpirun (mpi_launch.h). A launcher is known
 * by the environment it gives its processes: Open MPI's
 * OMPI_COMM_WORLD_SIZE, PMIx's PMIX_RANK, MPICH's and Slurm's PMI_SIZE.
 * Without the MPI layer (configure found no mpicc) a plain run.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include "mpi_launch.h"
#ifdef PAGANI_HAVE_MPI
#include "pagani_mpi.h"

/* Whether this process joined an MPI job. */
static int joined = 0;

/* Whether an MPI launcher started this process. */
static int launched(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") ||
           getenv("PMI_SIZE");
}

void cli_mpi_start(int *argc, char ***argv)
{
    int rank = 0;

    if (!launched() || MPI_Init(argc, argv) != MPI_SUCCESS) return;
    joined = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank != 0) {
        if (!freopen("/dev/null", "w", stdout)) fclose(stdout);
        if (!freopen("/dev/null", "w", stderr)) fclose(stderr);
    }
}

int cli_mpi_context_create(pagani_context **ctx, pagani_backend backend)
{
    if (joined)
        return pagani_mpi_context_create(ctx, backend, MPI_COMM_WORLD);
    return pagani_context_create(ctx, backend);
}

void cli_mpi_end(void)
{
    if (joined) MPI_Finalize();
    joined = 0;
}

#else /* no MPI layer: a plain run */

void cli_mpi_start(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
}

int cli_mpi_context_create(pagani_context **ctx, pagani_backend backend)
{
    return pagani_context_create(ctx, backend);
}

void cli_mpi_end(void)
{
}

#endif
