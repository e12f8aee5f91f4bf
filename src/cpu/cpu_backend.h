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
    int started_threads;      /* the most threads cpu_start_threads saw run */
} cpu_state;

/* The thread count for parallel regions: the context's, else OpenMP's. */
int cpu_threads(const cpu_state *s);

/* Work below which a parallel region runs on the calling thread alone:
 * about a millisecond of integrand evaluations (a unit is one evaluation,
 * or one region or sample visited by a cheap pass). A thread team costs
 * microseconds on an idle machine but can wait a scheduler slice or more
 * for a core that another process holds, once per region; small
 * integrals must not pay that, whatever the machine's load. */
#define CPU_SERIAL_WORK 65536.0

/* The thread count for a parallel region of `work` units: 1 below
 * CPU_SERIAL_WORK, else cpu_threads(s). Use as num_threads(cpu_team(...)). */
int cpu_team(const cpu_state *s, double work);

/* Checks, once per context and larger count, that cpu_threads(s) threads
 * can run at once (libgomp would end the process if not): PAGANI_OK, or
 * PAGANI_ERR_SYSTEM with a message naming the count and the reason. Every
 * operation's setup calls it before its first parallel region. */
int cpu_start_threads(cpu_state *s);

void cpu_cubature_free(cpu_cubature *c);

extern const cubature_ops pagani_cpu_cubature_ops;

#endif /* PAGANI_CPU_BACKEND_H */
