/*
 * mpi_launch.h - `pagani` under mpirun (mpi_launch.c): where the program
 * was built with the MPI layer and started by an MPI launcher, it joins
 * the job, integrates on a context over MPI_COMM_WORLD, and every rank but
 * 0 is silent; otherwise these do what a plain run does.
 */
#ifndef PAGANI_CLI_MPI_LAUNCH_H
#define PAGANI_CLI_MPI_LAUNCH_H

#include "pagani.h"

/* Joins the MPI job when started by a launcher (MPI_Init), and on every
 * rank but 0 sends standard output and error to /dev/null. */
void cli_mpi_start(int *argc, char ***argv);

/* pagani_context_create, or pagani_mpi_context_create on MPI_COMM_WORLD
 * in an MPI job. */
int cli_mpi_context_create(pagani_context **ctx, pagani_backend backend);

/* Leaves the MPI job, if it was joined (MPI_Finalize). */
void cli_mpi_end(void);

#endif /* PAGANI_CLI_MPI_LAUNCH_H */
