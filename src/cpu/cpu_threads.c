/*
 * cpu_threads.c - how many OpenMP threads the CPU backend's method files
 * use. Below both cpu_backend.c (the operation table) and the method files
 * (cpu_cubature.c, cpu_vegas.c, cpu_qmc.c), so that they do not call each
 * other.
 */
#ifdef _OPENMP
#include <omp.h>
#endif
#include "cpu/cpu_backend.h"

int cpu_threads(const cpu_state *s)
{
    if (s->ctx->threads > 0) return s->ctx->threads;
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}
