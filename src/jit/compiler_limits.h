/*
 * compiler_limits.h - the limits of the C compiler's memory and CPU time,
 * from the environment: PAGANI_CC_MEMORY (MiB of address space for each
 * process of the compiler, default 2048) and PAGANI_CC_SECONDS (CPU
 * seconds for each, default 60); 0 means no limit.
 */
#ifndef PAGANI_COMPILER_LIMITS_H
#define PAGANI_COMPILER_LIMITS_H

#include "internal.h"
#include "jit/compiler_process.h"

#define PAGANI_CC_MEMORY_DEFAULT 2048 /* MiB */
#define PAGANI_CC_SECONDS_DEFAULT 60

/* Reads the limits into *limits: PAGANI_OK, or PAGANI_ERR_OPTION naming
 * the variable when one is set to anything but a whole number in range. */
int pagani_compiler_limits_read(pagani_context *ctx,
                                pagani_compiler_limits *limits);

/* One line for a message: the limits the compiler ran under and the
 * variables that set them (into buf of size bytes). */
void pagani_compiler_limits_describe(const pagani_compiler_limits *limits,
                                     char *buf, size_t size);

#endif /* PAGANI_COMPILER_LIMITS_H */
