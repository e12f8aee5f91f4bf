/*
 * tap.h - a minimal Test Anything Protocol writer for the test programs.
 * Each test program calls tap_plan(N) (or tap_done() at the end for a plan
 * printed last), then one tap_ok/tap_skip per check, and returns
 * tap_exit_code().
 */
#ifndef PAGANI_TAP_H
#define PAGANI_TAP_H

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int tap_count_ = 0;
static int tap_failed_ = 0;

static inline void tap_plan(int n) { printf("1..%d\n", n); fflush(stdout); }

/* Prints "ok N - name" or "not ok N - name"; returns cond. */
static inline int tap_ok(int cond, const char *fmt, ...)
{
    va_list ap;
    tap_count_++;
    if (!cond) tap_failed_++;
    printf("%sok %d - ", cond ? "" : "not ", tap_count_);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
    return cond;
}

/* A check known to fail, with the reason: "not ok N - name # TODO reason"
 * (the harness counts it as an expected failure) when cond is false, and
 * "ok N - name # TODO reason" when it passes, which the harness reports
 * as an unexpected pass, so that a fix updates the list of known failures.
 * Returns cond. */
static inline int tap_todo(int cond, const char *reason, const char *fmt, ...)
{
    va_list ap;
    tap_count_++;
    printf("%sok %d - ", cond ? "" : "not ", tap_count_);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf(" # TODO %s\n", reason);
    fflush(stdout);
    return cond;
}

/* Prints "ok N # SKIP reason": a check that could not run here. */
static inline void tap_skip(const char *fmt, ...)
{
    va_list ap;
    tap_count_++;
    printf("ok %d # SKIP ", tap_count_);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
}

/* Skips the whole program: "1..0 # SKIP reason". */
static inline int tap_skip_all(const char *reason)
{
    printf("1..0 # SKIP %s\n", reason);
    return 0;
}

/* Seconds after which a test program counts as hung (for alarm()): a
 * hang bound, not a time limit, far above what any correct run takes on
 * a busy 2-core machine, so that a verdict never depends on the load:
 * $PAGANI_TEST_HANG_SECONDS when it is a positive number, else 3600 (as
 * tests/tap.sh's bounded). */
static inline unsigned tap_hang_seconds(void)
{
    const char *text = getenv("PAGANI_TEST_HANG_SECONDS");
    long seconds = text ? strtol(text, NULL, 10) : 0;
    return seconds > 0 && (unsigned long)seconds <= UINT_MAX ? (unsigned)seconds
                                                           : 3600u;
}

/* A diagnostic line ("# ..."), ignored by the harness. */
static inline void tap_diag(const char *fmt, ...)
{
    va_list ap;
    printf("# ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
}

/* Prints the plan after the checks when it was not known in advance. */
static inline void tap_done(void) { printf("1..%d\n", tap_count_); fflush(stdout); }

static inline int tap_exit_code(void) { return tap_failed_ ? 1 : 0; }

#endif /* PAGANI_TAP_H */
