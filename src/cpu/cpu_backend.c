/*
 * cpu_backend.c - the OpenMP backend: opening it, and its table of
 * operations (the method files hold the operations themselves).
 */
#include <stdlib.h>
#include "cpu/cpu_backend.h"
#include "qmc_backend.h"
#include "vegas_backend.h"

static int cpu_open(pagani_context *ctx, void **state)
{
    cpu_state *s = calloc(1, sizeof *s);
    if (!s) return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "CPU backend state");
    s->ctx = ctx;
    *state = s;
    return PAGANI_OK;
}

static void cpu_close(void *state)
{
    cpu_state *s = state;
    if (!s) return;
    cpu_cubature_free(s->cubature);
    free(s);
}

/* Host memory is not probed: the driver's CPU default budget applies. */
static size_t cpu_free_memory(void *state)
{
    (void)state;
    return 0;
}

const backend_ops pagani_cpu_backend = {
    PAGANI_BACKEND_CPU,
    cpu_open,
    cpu_close,
    cpu_free_memory,
    NULL, /* prepare_integrand: host functions run as they are */
    NULL, /* release_integrand */
    &pagani_cpu_cubature_ops,
    &pagani_cpu_vegas_ops,
    &pagani_cpu_qmc_ops,
};
