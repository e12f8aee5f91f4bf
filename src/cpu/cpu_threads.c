/*
 * cpu_threads.c - how many OpenMP threads the CPU backend's method files
 * use, and the check that they can be started. Below both cpu_backend.c
 * (the operation table) and the method files (cpu_cubature.c, cpu_vegas.c,
 * cpu_qmc.c), so that they do not call each other.
 *
 * libgomp ends the process (after printing "Thread creation failed") when
 * a parallel region cannot start its threads, for example under a limit on
 * processes (RLIMIT_NPROC) or memory. So before the first parallel region
 * with a new thread count, the backend starts that many threads itself,
 * all alive at once, and returns PAGANI_ERR_SYSTEM if it cannot. The check
 * is conservative: threads that libgomp keeps from an earlier region are
 * counted again.
 */
#ifdef _OPENMP
#include <errno.h>
#include <omp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
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

int cpu_team(const cpu_state *s, double work)
{
    return work < CPU_SERIAL_WORK ? 1 : cpu_threads(s);
}

#ifdef _OPENMP
/* Holds the threads of try_threads until the last has started. */
typedef struct start_gate {
    pthread_mutex_t lock;
    pthread_cond_t opened;
    int open;
} start_gate;

/* A thread of try_threads: returns once the gate is open. */
static void *wait_at_gate(void *arg)
{
    start_gate *gate = arg;
    pthread_mutex_lock(&gate->lock);
    while (!gate->open) pthread_cond_wait(&gate->opened, &gate->lock);
    pthread_mutex_unlock(&gate->lock);
    return NULL;
}

/* Starts `extra` threads (with the default attributes, as libgomp's) that
 * live until all have started, then joins them. Returns 0, or the error of
 * the first pthread_create that failed; *started says how many ran. */
static int try_threads(int extra, int *started)
{
    start_gate gate = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
    pthread_t *ids = malloc((size_t)extra * sizeof *ids);
    int err = 0;

    *started = 0;
    if (!ids) return ENOMEM;
    while (*started < extra) {
        err = pthread_create(&ids[*started], NULL, wait_at_gate, &gate);
        if (err) break;
        ++*started;
    }
    pthread_mutex_lock(&gate.lock);
    gate.open = 1;
    pthread_cond_broadcast(&gate.opened);
    pthread_mutex_unlock(&gate.lock);
    for (int i = 0; i < *started; i++) pthread_join(ids[i], NULL);
    free(ids);
    return err;
}
#endif

int cpu_start_threads(cpu_state *s)
{
#ifdef _OPENMP
    int count = cpu_threads(s), started, err;

    if (count > omp_get_thread_limit()) count = omp_get_thread_limit();
    if (count <= 1 || count <= s->started_threads) return PAGANI_OK;
    err = try_threads(count - 1, &started);
    if (err)
        return pagani_fail(s->ctx, PAGANI_ERR_SYSTEM,
                           "cannot start %d CPU threads: only %d could run "
                           "(%s); lower the count with "
                           "pagani_context_set_threads or PAGANI_THREADS",
                           count, started + 1, strerror(err));
    s->started_threads = count;
#else
    (void)s;
#endif
    return PAGANI_OK;
}
