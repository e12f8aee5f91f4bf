/*
 * test_vegas_batch_messages.c - the context message of a Vegas batch run
 * in two waves (options.batch_warm_stride) against the batch run as one,
 * on the CPU, with x^-a e^(-bx) over [0,1] (power_family.h): a = 0.9 has
 * a heavy tail (the run ends PAGANI_OK with a warning naming the
 * integral), a = 0 is smooth, a = NaN returns NaN.
 *  - warnings: a batch of 4 with one pilot in 3 (pilots 0 and 3, then
 *    1 and 2), the heavy tail in a pilot only, in both waves, and in the
 *    second wave first: PAGANI_OK and a warning naming the batch's first
 *    such integral (the first wave's is not dropped when the second wave
 *    has none); where that is a pilot (the bits of its single call), the
 *    message of the batch run as one;
 *  - a wave of one integral: a stop request in a pilot wave of one says
 *    the batch run as one's message, naming no integral, and one in a
 *    second wave of one names none either; a NaN in a
 *    wave of one (a batch of 2, one pilot in 2) names the batch's
 *    integral; a single integral's NaN names none.
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

/* The options of every run: seed 1, one pilot in `stride` (0: the batch
 * run as one). */
static pagani_options options(int stride)
{
    pagani_options o = pagani_options_default(PAGANI_VEGAS);
    o.seed = 1;
    o.vegas_calls = CALLS;
    o.max_iterations = ITERATIONS;
    o.batch_warm_stride = stride;
    return o;
}

/* The batch of `count` integrals of f with a[k] and b = 1.5 + k / 10,
 * with options o; its code, its message into said. */
static int batch(pagani_integrand *f, int count, const double *a,
                 pagani_options o, char *said, size_t size, pagani_result *r)
{
    double p[2 * MOST], lower = 0.0, upper = 1.0;
    int rc;

    for (int k = 0; k < count; k++) {
        p[2 * k] = a[k];
        p[2 * k + 1] = 1.5 + 0.1 * k;
    }
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
    rc_waves = batch(f, MOST, a, options(3), waves, sizeof waves, r);
    if (first % 3 == 0)
        rc_one = batch(f, MOST, a, options(0), one, sizeof one, r);
    snprintf(names, sizeof names, "integral %d: in ", first);
    tap_ok(rc_waves == PAGANI_OK && rc_one == PAGANI_OK &&
               strncmp(waves, names, strlen(names)) == 0 &&
               strstr(waves, "heavy tail") &&
               (first % 3 != 0 || strcmp(waves, one) == 0),
           "the heavy tail %s: PAGANI_OK, a warning naming integral %d%s: %s",
           what, first, first % 3 == 0 ? " as the batch run as one's" : "",
           waves);
}

/* A stop request before a batch of 3 with one pilot in 3 (a pilot wave
 * of one): every integral stopped, and the message of the batch run as
 * one, naming no integral. */
static void stop_check(pagani_integrand *f)
{
    const double a[3] = {SMOOTH, SMOOTH, SMOOTH};
    char waves[1024], one[1024];
    pagani_result r[3];
    int rc_waves, rc_one, stopped = 0;

    pagani_context_request_stop(ctx);
    rc_waves = batch(f, 3, a, options(3), waves, sizeof waves, r);
    for (int k = 0; k < 3; k++) stopped += r[k].status == PAGANI_STOPPED;
    pagani_context_request_stop(ctx);
    rc_one = batch(f, 3, a, options(0), one, sizeof one, r);
    tap_ok(rc_waves == PAGANI_OK && rc_one == PAGANI_OK && stopped == 3 &&
               strcmp(waves, one) == 0 && strstr(waves, "stopped") &&
               strncmp(waves, "integral", 8) != 0,
           "a stop request in a pilot wave of one: %d of 3 stopped, the "
           "message of the batch run as one, naming no integral: %s",
           stopped, waves);
}

/* Asks for a stop at the second wave's first iteration (the second
 * time the callback sees iteration 1). */
static int waves_seen;
static int stop_second_wave(int iteration, long long size, double estimate,
                            double error, void *data)
{
    (void)size; (void)estimate; (void)error; (void)data;
    if (iteration == 1 && ++waves_seen == 2) pagani_context_request_stop(ctx);
    return 0;
}

/* A stop request in the second wave of a batch of 2 with one pilot in
 * 2 (a wave of one): the pilot converged, integral 1 stopped, and the
 * message the stop request's, naming no integral. */
static void second_wave_stop_check(pagani_integrand *f)
{
    const double a[2] = {SMOOTH, SMOOTH};
    pagani_options o = options(2);
    pagani_result r[2];
    char said[1024];
    int rc;

    o.progress = stop_second_wave;
    waves_seen = 0;
    rc = batch(f, 2, a, o, said, sizeof said, r);
    tap_ok(rc == PAGANI_OK && r[0].status == PAGANI_CONVERGED &&
               r[1].status == PAGANI_STOPPED &&
               strncmp(said, "stopped on request", 18) == 0,
           "a stop request in a second wave of one: the pilot %s, integral "
           "1 %s, the message naming no integral: %s",
           pagani_status_name(r[0].status), pagani_status_name(r[1].status),
           said);
}

/* A NaN in integral `bad` of `count` (1 or 2) with one pilot in 2 (each
 * wave of one): PAGANI_ERR_NONFINITE naming the batch's integral, or in
 * a single integral none. */
static void nan_check(pagani_integrand *f, int count, int bad)
{
    double a[2] = {SMOOTH, SMOOTH};
    char said[1024], names[32] = "the integrand returned";
    pagani_result r[2];
    int rc;

    a[bad] = NAN;
    if (count > 1) snprintf(names, sizeof names, "integral %d: the integrand", bad);
    rc = batch(f, count, a, options(2), said, sizeof said, r);
    tap_ok(rc == PAGANI_ERR_NONFINITE && strncmp(said, names, strlen(names)) == 0,
           "NaN in integral %d of %d, one pilot in 2: PAGANI_ERR_NONFINITE, "
           "the message begins \"%s\": %s", bad, count, names, said);
}

int main(void)
{
    pagani_integrand *f = NULL;

    alarm(tap_hang_seconds());
    if (pagani_context_create(&ctx, PAGANI_BACKEND_CPU) != PAGANI_OK ||
        pagani_integrand_create(ctx, &f, 1, &power_family) != PAGANI_OK)
        return tap_skip_all(pagani_context_message(ctx));
    pagani_context_set_threads(ctx, 2);
    tap_plan(9);
    warning_check(f, 1u << 0, 0, "in pilot 0 only");
    warning_check(f, 1u << 3, 3, "in pilot 3 only");
    warning_check(f, 1u << 0 | 1u << 2, 0, "in pilot 0 and integral 2");
    warning_check(f, 1u << 1 | 1u << 3, 1, "in integral 1 and pilot 3");
    stop_check(f);
    second_wave_stop_check(f);
    nan_check(f, 2, 0);
    nan_check(f, 2, 1);
    nan_check(f, 1, 0);
    pagani_integrand_destroy(f);
    pagani_context_destroy(ctx);
    return tap_exit_code();
}
