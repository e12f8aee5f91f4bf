/*
 * gpu_pair.h - how a GPU test starts: a CUDA context to test and a CPU
 * context to compare it with.
 */
#ifndef PAGANI_TESTS_GPU_PAIR_H
#define PAGANI_TESTS_GPU_PAIR_H

#include "pagani.h"
#include "tap.h"

/* Creates *gpu and *cpu and returns 1; or returns 0 with the test's exit
 * code in *exit_code, after saying why: without a usable GPU the whole
 * test is skipped; a CPU context that cannot be made is a failed check. */
static int gpu_pair_open(pagani_context **gpu, pagani_context **cpu, int *exit_code)
{
    *gpu = *cpu = NULL;
    if (pagani_context_create(gpu, PAGANI_BACKEND_CUDA) != PAGANI_OK) {
        tap_diag("%s", pagani_context_message(*gpu));
        pagani_context_destroy(*gpu);
        *exit_code = tap_skip_all("no usable GPU");
        return 0;
    }
    if (pagani_context_create(cpu, PAGANI_BACKEND_CPU) != PAGANI_OK) {
        tap_plan(1);
        tap_ok(0, "CPU context: %s", pagani_context_message(*cpu));
        *exit_code = 1;
        return 0;
    }
    return 1;
}

#endif /* PAGANI_TESTS_GPU_PAIR_H */
