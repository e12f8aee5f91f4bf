/*
 * mpi_qmc.c - one integral across the ranks of an MPI job: an 8-D smooth
 * integrand with PAGANI_QMC, whose points are spread over the ranks; every
 * rank gets the same result, bit for bit that of one process, and rank 0
 * prints it with the exact value, 1.
 *
 *   mpicc mpi_qmc.c $(pkg-config --cflags --libs pagani-mpi)
 *   mpirun -np 4 ./a.out
 */
#include <stdio.h>
#include <pagani_mpi.h>

PAGANI_INTEGRAND(cubic, {
    double v = 1.0;
    for (int i = 0; i < n; i++) v *= x[i] * x[i] * x[i] + 0.75;
    return v;
})

int main(int argc, char **argv)
{
    double lo[8] = {0}, hi[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    pagani_context *ctx = NULL;
    pagani_integrand *f = NULL;
    pagani_result r;
    int rank, rc;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    /* collective: every rank makes the same calls */
    rc = pagani_mpi_context_create(&ctx, PAGANI_BACKEND_AUTO, MPI_COMM_WORLD);
    if (rc == PAGANI_OK) rc = pagani_integrand_create(ctx, &f, 8, &cubic);
    if (rc == PAGANI_OK) {
        pagani_options opt = pagani_options_default(PAGANI_QMC);
        opt.epsrel = 1e-6;
        rc = pagani_integrate(ctx, f, lo, hi, &opt, &r);
    }
    if (rank == 0) {
        if (rc != PAGANI_OK)
            fprintf(stderr, "%s: %s\n", pagani_strerror(rc),
                    pagani_context_message(ctx));
        else
            printf("%.15g +- %.2g (%s, %s) exact 1\n", r.value, r.error,
                   pagani_status_name(r.status),
                   pagani_backend_name(r.backend));
    }
    pagani_integrand_destroy(f);
    pagani_context_destroy(ctx);
    MPI_Finalize();
    return rc != PAGANI_OK;
}
