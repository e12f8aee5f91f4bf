/*
 * message.c - the per-context detail message behind every error code, and
 * the wall clock.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "internal.h"

int pagani_fail(pagani_context *ctx, int code, const char *fmt, ...)
{
    va_list ap;
    int len;
    char *text;

    if (!ctx) return code;
    va_start(ap, fmt);
    len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (len < 0) return code;
    text = malloc((size_t)len + 1);
    if (!text) return code; /* keep the old message rather than lose the code */
    va_start(ap, fmt);
    vsnprintf(text, (size_t)len + 1, fmt, ap);
    va_end(ap);
    free(ctx->message);
    ctx->message = text;
    return code;
}

int pagani_message_integral(const pagani_context *ctx, int count,
                            const char **rest)
{
    const char *msg = pagani_context_message(ctx);
    int i = 0, used = 0;

    *rest = msg;
    if (!*msg || strcmp(msg, PAGANI_STOP_MESSAGE) == 0) return -1;
    if (count == 1) return 0;
    if (sscanf(msg, "integral %d: %n", &i, &used) < 1 || used == 0 || i < 0 ||
        i >= count)
        return -1;
    *rest = msg + used;
    return i;
}

void pagani_clear_message(pagani_context *ctx)
{
    if (!ctx) return;
    free(ctx->message);
    ctx->message = NULL;
}

double pagani_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
