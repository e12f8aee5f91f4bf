/*
 * compiler_limits.c - PAGANI_CC_MEMORY and PAGANI_CC_SECONDS
 * (compiler_limits.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include "jit/compiler_limits.h"

/* The most either variable takes: 2^40 MiB of memory is 2^60 bytes, which
 * rlim_t holds; 2^40 s is far beyond any compilation. */
#define MAX_SETTING (1ULL << 40)

/* The variable `name` as a whole number of `unit` (RLIM_INFINITY for 0),
 * `fallback` when it is unset or empty; PAGANI_ERR_OPTION otherwise. */
static int read_setting(pagani_context *ctx, const char *name,
                        unsigned long long fallback, unsigned long long unit,
                        const char *unit_name, rlim_t *value)
{
    const char *text = getenv(name);
    unsigned long long number = fallback;

    if (text && *text) {
        const char *s = text;
        number = 0;
        for (; *s >= '0' && *s <= '9' && number <= MAX_SETTING; s++)
            number = number * 10 + (unsigned long long)(*s - '0');
        if (*s || number > MAX_SETTING)
            return pagani_fail(ctx, PAGANI_ERR_OPTION, "%s = \"%s\" is not a "
                               "whole number of %s from 0 (no limit) to %llu",
                               name, text, unit_name, MAX_SETTING);
    }
    *value = number == 0 ? RLIM_INFINITY : (rlim_t)(number * unit);
    return PAGANI_OK;
}

int pagani_compiler_limits_read(pagani_context *ctx,
                                pagani_compiler_limits *limits)
{
    int rc = read_setting(ctx, "PAGANI_CC_MEMORY", PAGANI_CC_MEMORY_DEFAULT,
                          1ULL << 20, "MiB", &limits->memory_bytes);
    if (rc != PAGANI_OK) return rc;
    return read_setting(ctx, "PAGANI_CC_SECONDS", PAGANI_CC_SECONDS_DEFAULT,
                        1, "seconds", &limits->cpu_seconds);
}

void pagani_compiler_limits_describe(const pagani_compiler_limits *limits,
                                     char *buf, size_t size)
{
    char memory[48] = "no limit", seconds[48] = "no limit";
    if (limits->memory_bytes != RLIM_INFINITY)
        snprintf(memory, sizeof memory, "%llu MiB",
                 (unsigned long long)(limits->memory_bytes >> 20));
    if (limits->cpu_seconds != RLIM_INFINITY)
        snprintf(seconds, sizeof seconds, "%llu s",
                 (unsigned long long)limits->cpu_seconds);
    snprintf(buf, size, "the compiler runs with a memory limit of %s "
             "(PAGANI_CC_MEMORY) and a CPU time limit of %s "
             "(PAGANI_CC_SECONDS) for each of its processes", memory,
             seconds);
}
