/*
 * test_vegas_batch_messages.c - the context message of a Vegas batch run
 * in two waves (options.batch_warm_stride) against the batch run as one,
 * on the CPU, with x^-a e^(-bx) over [0,1] (power_family.h): a = 0.9 has
 * a heavy tail (the run ends PAGANI_OK with a warning naming the
 * integral), a = 0 is smooth.
 *  - warnings: a batch of 4 with one pilot in 3 (pilots 0 and 3, then
 *    1 and 2), the heavy tail in a pilot only, in both waves, and in the
 *    second wave first: PAGANI_OK and a warning naming the batch's first
 *    such integral (the first wave's is not dropped when the second wave
 *    has none); where that is a pilot (the bits of its single call), the
 *    message of the batch run as one.
 */
#include <math.h>
#include <string.h>
#include <unistd.h>
#include "pagani.h"
#include "power_family.h"
#include "tap.h"

#define MOST 4
#define SMOOTH 0.0
#define HEAVY 0.9
/* Calls per iteration, and iterations: the heavy tail's runs end at the
 * limit, past the 16 iterations its error needs. */
#define CALLS 20000.0
#define ITERATIONS 40

static pagani_context *ctx;

/* The batch of `count` integrals of f with a[k] and b = 1.5 + k / 10,
 * one pilot in `stride` (0: run as one), seed 1; its code, its message
 * into said. */
static int batch(pagani_integrand *f, int count, const double *a, int stride,
                 char *said, size_t size, pagani_result *r)
{
    double p[2 * MOST], lower = 0.0, upper = 1.0;
    pagani_options o = pagani_options_default(PAGANI_VEGAS);
    int rc;

    for (int k = 0; k < count; k++) {
        p[2 * k] = a[k];
        p[2 * k + 1] = 1.5 + 0.1 * k;
    }
    o.seed = 1;
    o.vegas_calls = CALLS;
    o.max_iterations = ITERATIONS;
    o.batch_warm_stride = stride;
    rc = pagani_integrate_batch(ctx, f, count, p, sizeof p[0] * 2, &lower,
                                &upper, 0, &o, r);
    snprintf(said, size, "%s", pagani_context_message(ctx));
    return rc;
}

/* A batch of 4 with one pilot in 3, the integrals `heavy` (a bit set)
 * with the heavy tail: PAGANI_OK and a warning naming integral `first`;
 * where that is a pilot, the message of the batch run as one. */
static void warning_check(pagani_integrand *f, unsigned heavy, int first,
                          const char *what)
{
    char waves[1024], one[1024] = "", names[32];
    pagani_result r[MOST];
    double a[MOST];
    int rc_waves, rc_one = PAGANI_OK;

    for (int k = 0; k < MOST; k++) a[k] = heavy >> k & 1 ? HEAVY : SMOOTH;
    rc_waves = batch(f, MOST, a, 3, waves, sizeof waves, r);
    if (first % 3 == 0) rc_one = batch(f, MOST, a, 0, one, sizeof one, r);
    snprintf(names, sizeof names, "integral %d: in ", first);
    tap_ok(rc_waves == PAGANI_OK && rc_one == PAGANI_OK &&
               strncmp(waves, names, strlen(names)) == 0 &&
               strstr(waves, "heavy tail") &&
               (first % 3 != 0 || strcmp(waves, one) == 0),
           "the heavy tail %s: PAGANI_OK, a warning naming integral %d%s: %s",
           what, first, first % 3 == 0 ? " as the batch run as one's" : "",
           waves);
}

int main(void)
{
    pagani_integrand *f = NULL;

    alarm(tap_hang_seconds());
    if (pagani_context_create(&ctx, PAGANI_BACKEND_CPU) != PAGANI_OK)
        return tap_skip_all("no CPU context");
    pagani_context_set_threads(ctx, 2);
    if (pagani_integrand_create(ctx, &f, 1, &power_family) != PAGANI_OK)
        return tap_skip_all(pagani_context_message(ctx));
    tap_plan(4);
    warning_check(f, 1u << 0, 0, "in pilot 0 only");
    warning_check(f, 1u << 3, 3, "in pilot 3 only");
    warning_check(f, 1u << 0 | 1u << 2, 0, "in pilot 0 and integral 2");
    warning_check(f, 1u << 1 | 1u << 3, 1, "in integral 1 and pilot 3");
    pagani_integrand_destroy(f);
    pagani_context_destroy(ctx);
    return tap_exit_code();
}
