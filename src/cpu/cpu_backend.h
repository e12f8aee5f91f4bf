/*
 * cpu_backend.h - private to the OpenMP backend: its state and helpers
 * shared by its method files (cpu_cubature.c, ...).
 */
#ifndef PAGANI_CPU_BACKEND_H
#define PAGANI_CPU_BACKEND_H

#include "internal.h"

typedef struct cpu_cubature cpu_cubature;

typedef struct cpu_state {
    pagani_context *ctx;
    cpu_cubature *cubature;   /* region lists, made by the first setup */
} cpu_state;

/* The thread count for parallel regions: the context's, else OpenMP's. */
int cpu_threads(const cpu_state *s);

void cpu_cubature_free(cpu_cubature *c);

extern const cubature_ops pagani_cpu_cubature_ops;

#endif /* PAGANI_CPU_BACKEND_H */
