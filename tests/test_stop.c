/*
 * test_stop.c - pagani_context_request_stop: on the CPU a request ends the
 * pass in flight within a chunk of work per thread, not at the end of the
 * iteration, with status PAGANI_STOPPED and the estimate of the last
 * iteration completed; on the GPU (skipped without one) between launches.
 *
 * The integrand itself asks to stop after `trigger` evaluations (it
 * counts them), so the test does not depend on timing: every evaluation
 * after the request is counted, and there may be at most what the
 * threads hold in hand (a chunk each: 64 cubature regions, or a QMC or
 * Vegas chunk) -- far less than the pass, which a stop at the end of the
 * iteration would have finished.
 *
 * With a slow integrand (50 ms a call) the request comes from another
 * thread, as a signal handler's would, while the threads are inside f:
 * a stop must take effect within one evaluation a thread whatever f
 * costs, so at most one call a thread may begin after the request.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include "pagani.h"
#include "tap.h"

#define THREADS 2

static pagani_context *ctx;
static long long calls, trigger, at_request;

/* exp(-sum x_i^2) with a loop that makes each call cost something, and
 * the stop request after `trigger` calls (0: never). */
static double counted(const double *x, int n, const void *params)
{
    double s = 0.0;
    long long k = __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
    (void)params;
    if (trigger > 0 && k == trigger) {
        at_request = k;
        pagani_context_request_stop(ctx);
    }
    for (int i = 0; i < n; i++) s += x[i] * x[i];
    return exp(-s);
}

/* One integral over [0,1]^n with the request after `after` calls; returns
 * the result, the calls made in all in *made. */
static int run(pagani_method method, int n, double epsrel, int max_iterations,
               long long after, pagani_result *r, long long *made)
{
    double lower[8] = {0}, upper[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    pagani_options o = pagani_options_default(method);
    pagani_integrand *f = NULL;
    int rc;

    o.epsrel = epsrel;
    o.epsabs = 0.0;
    o.max_iterations = max_iterations;
    if (method == PAGANI_VEGAS) o.vegas_calls = 2000000;
    rc = pagani_integrand_from_function(ctx, &f, n, counted, NULL, 0);
    if (rc != PAGANI_OK) return rc;
    calls = 0;
    at_request = 0;
    trigger = after;
    rc = pagani_integrate(ctx, f, lower, upper, &o, r);
    trigger = 0;
    *made = calls;
    pagani_integrand_destroy(f);
    return rc;
}

/* The stop after `after` calls of a run that would go on: stopped within
 * `slack` calls of the request, with the estimate of the iterations
 * before, which a run of that many iterations gives bit for bit
 * (`same_as_shorter`; Vegas: its estimate is finite and honest). */
static void check_stop(const char *name, pagani_method method, int n,
                       long long after, long long slack, int same_as_shorter)
{
    const double truth1 = 0.7468241328124270; /* int_0^1 exp(-x^2) dx */
    pagani_result r, shorter;
    long long made = 0, made_shorter = 0;
    int rc = run(method, n, 1e-14, 0, after, &r, &made);

    if (!tap_ok(rc == PAGANI_OK && r.status == PAGANI_STOPPED,
                "%s: a request after %lld calls stops the run (rc %d, %s)", name,
                after, rc, pagani_status_name(r.status)))
        return;
    tap_ok(at_request == after && made - at_request <= slack,
           "%s: %lld calls after the request (at most %lld: a chunk a thread)",
           name, made - at_request, slack);
    if (r.iterations == 0) {
        tap_ok(isnan(r.value) && isinf(r.error),
               "%s: no iteration completed: NaN +- infinity (%g +- %g)", name,
               r.value, r.error);
        return;
    }
    tap_ok(isfinite(r.value) && isfinite(r.error) &&
               fabs(r.value - pow(truth1, n)) <= 5.0 * r.error,
           "%s: the estimate of %d iterations, %.12g +- %.2g, holds the truth "
           "%.12g", name, r.iterations, r.value, r.error, pow(truth1, n));
    if (!same_as_shorter) return;
    rc = run(method, n, 1e-14, r.iterations, 0, &shorter, &made_shorter);
    tap_ok(rc == PAGANI_OK && shorter.value == r.value && shorter.error == r.error,
           "%s: the same bits as a run of %d iterations (%.17g +- %.3g)", name,
           r.iterations, shorter.value, shorter.error);
}

/* ---- a slow integrand, stopped from another thread ------------------- */

#define SLOW_NS 50000000L /* 50 ms a call until the request */
#define SLOW_BEFORE 6     /* calls begun before the request */

static long long slow_begun;   /* calls of slow() begun */
static int slow_requested;     /* the request was made */
static int slow_done;          /* pagani_integrate returned */

/* exp(-sum x_i^2), 50 ms a call until the stop is requested; after that
 * at once, so that a backend that went on after the request fails the
 * count below in a moment instead of running for minutes. */
static double slow(const double *x, int n, const void *params)
{
    const struct timespec pause = {0, SLOW_NS};
    double s = 0.0;
    (void)params;
    __atomic_add_fetch(&slow_begun, 1, __ATOMIC_SEQ_CST);
    if (!__atomic_load_n(&slow_requested, __ATOMIC_SEQ_CST)) nanosleep(&pause, NULL);
    for (int i = 0; i < n; i++) s += x[i] * x[i];
    return exp(-s);
}

/* The stopping thread: once SLOW_BEFORE calls have begun, requests the
 * stop and returns the count of calls begun by then (-1 when the
 * integration ended first). */
static void *stopper(void *begun_at_request)
{
    const struct timespec tick = {0, 1000000L};
    long long *at = begun_at_request;

    *at = -1;
    while (__atomic_load_n(&slow_begun, __ATOMIC_SEQ_CST) < SLOW_BEFORE)
        if (__atomic_load_n(&slow_done, __ATOMIC_SEQ_CST)) return NULL;
        else nanosleep(&tick, NULL);
    pagani_context_request_stop(ctx);
    __atomic_thread_fence(__ATOMIC_SEQ_CST); /* the flag is seen from here */
    *at = __atomic_load_n(&slow_begun, __ATOMIC_SEQ_CST);
    __atomic_store_n(&slow_requested, 1, __ATOMIC_SEQ_CST);
    return NULL;
}

/* One integral of slow() over [0,1]^n, stopped from another thread after
 * SLOW_BEFORE calls: PAGANI_STOPPED before any iteration completed, with
 * at most THREADS calls begun after the request (a thread may have read
 * the flag just before it was set); with chunks of points or regions
 * between the checks it would be hundreds or thousands. max_evaluations
 * bounds a run that ignored the request. */
static void check_slow_stop(const char *name, pagani_method method, int n,
                            unsigned flags)
{
    double lower[8] = {0}, upper[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    pagani_options o = pagani_options_default(method);
    pagani_integrand *f = NULL;
    pagani_result r;
    pthread_t thread;
    long long at = -1, made;
    int rc;

    o.epsrel = 1e-14;
    o.epsabs = 0.0;
    o.flags |= flags;
    o.max_evaluations = 20000000;
    if (method == PAGANI_VEGAS) o.vegas_calls = 2000000;
    if (!tap_ok(pagani_integrand_from_function(ctx, &f, n, slow, NULL, 0) == PAGANI_OK,
                "%s, 50 ms a call: the integrand", name))
        return;
    slow_begun = 0;
    slow_requested = slow_done = 0;
    if (!tap_ok(pthread_create(&thread, NULL, stopper, &at) == 0,
                "%s, 50 ms a call: the stopping thread starts", name)) {
        pagani_integrand_destroy(f);
        return;
    }
    rc = pagani_integrate(ctx, f, lower, upper, &o, &r);
    __atomic_store_n(&slow_done, 1, __ATOMIC_SEQ_CST);
    pthread_join(thread, NULL);
    made = __atomic_load_n(&slow_begun, __ATOMIC_SEQ_CST);
    pagani_integrand_destroy(f);
    tap_ok(rc == PAGANI_OK && r.status == PAGANI_STOPPED && at >= SLOW_BEFORE &&
               r.iterations == 0 && isnan(r.value) && isinf(r.error),
           "%s, 50 ms a call: a request from another thread after %lld calls "
           "stops the first pass (rc %d, %s, %d iterations, %g +- %g)",
           name, at, rc, pagani_status_name(r.status), r.iterations, r.value,
           r.error);
    tap_ok(at >= SLOW_BEFORE && made - at <= THREADS,
           "%s, 50 ms a call: %lld calls begun after the request (at most "
           "%d: one a thread)", name, made - at, THREADS);
}

/* The CUDA backend checks for a request between its launches: one made
 * before the call stops each method at its first pass; the next call
 * converges. Skipped without a usable GPU. */
static void check_gpu(void)
{
    const pagani_method methods[] = {PAGANI_CUBATURE, PAGANI_VEGAS, PAGANI_QMC};
    double lower[4] = {0}, upper[4] = {1, 1, 1, 1};
    pagani_context *gpu = NULL;
    pagani_integrand *f = NULL;

    if (pagani_context_create(&gpu, PAGANI_BACKEND_CUDA) != PAGANI_OK) {
        tap_skip("CUDA stop requests: %s", pagani_context_message(gpu));
        pagani_context_destroy(gpu);
        return;
    }
    if (!tap_ok(pagani_integrand_from_source(gpu, &f, 4, "exp(-x[0] * x[1] - x[2] * x[3])",
                                             NULL, 0) == PAGANI_OK,
                "CUDA: the integrand compiles")) {
        pagani_context_destroy(gpu);
        return;
    }
    for (int i = 0; i < 3; i++) {
        pagani_options o = pagani_options_default(methods[i]);
        pagani_result r, next;
        int rc;
        pagani_context_request_stop(gpu);
        rc = pagani_integrate(gpu, f, lower, upper, &o, &r);
        tap_ok(rc == PAGANI_OK && r.status == PAGANI_STOPPED && isnan(r.value) &&
                   isinf(r.error),
               "CUDA %s: a request before the call stops it at its first pass "
               "(%s, %g +- %g)", pagani_method_name(methods[i]),
               pagani_status_name(r.status), r.value, r.error);
        rc = pagani_integrate(gpu, f, lower, upper, &o, &next);
        tap_ok(rc == PAGANI_OK && next.status == PAGANI_CONVERGED,
               "CUDA %s: the next call converges (%s)", pagani_method_name(methods[i]),
               pagani_status_name(next.status));
    }
    pagani_integrand_destroy(f);
    pagani_context_destroy(gpu);
}

int main(void)
{
    pagani_result r;
    long long made = 0;
    int rc;

    if (pagani_context_create(&ctx, PAGANI_BACKEND_CPU) != PAGANI_OK ||
        pagani_context_set_threads(ctx, THREADS) != PAGANI_OK)
        return tap_skip_all("no CPU context");

    /* cubature 6-D: 453 points and 64 probes a region, 64 regions a chunk */
    check_stop("cubature", PAGANI_CUBATURE, 6, 3000000, THREADS * 64LL * 517, 1);
    check_stop("cubature, first iteration", PAGANI_CUBATURE, 6, 1000,
               THREADS * 64LL * 517, 0);
    /* QMC 5-D: chunks of 4096 points of one shift */
    check_stop("QMC", PAGANI_QMC, 5, 3000000, THREADS * 4096LL, 1);
    check_stop("QMC, first block", PAGANI_QMC, 5, 1000, THREADS * 4096LL, 0);
    /* Vegas 4-D at 2e6 calls an iteration: chunks of 4096 samples */
    check_stop("Vegas", PAGANI_VEGAS, 4, 5000000, THREADS * 4096LL, 0);

    /* a slow integrand: the stop within one evaluation a thread */
    check_slow_stop("cubature", PAGANI_CUBATURE, 6, 0);
    check_slow_stop("QMC", PAGANI_QMC, 5, 0);
    check_slow_stop("Vegas", PAGANI_VEGAS, 4, 0);
    check_slow_stop("Vegas+", PAGANI_VEGAS, 4, PAGANI_FLAG_VEGAS_PLUS);

    /* A request made while nothing runs stops the next call at once, and
     * that call clears it. */
    pagani_context_request_stop(ctx);
    rc = run(PAGANI_QMC, 5, 1e-14, 0, 0, &r, &made);
    tap_ok(rc == PAGANI_OK && r.status == PAGANI_STOPPED && made == 0 &&
               isnan(r.value),
           "a request made before the call stops it before any evaluation "
           "(%s, %lld calls)", pagani_status_name(r.status), made);
    rc = run(PAGANI_QMC, 5, 1e-6, 0, 0, &r, &made);
    tap_ok(rc == PAGANI_OK && r.status == PAGANI_CONVERGED,
           "the next call runs to its end (%s)", pagani_status_name(r.status));

    /* pagani_qmc_part has no status: a stopped part is an error, its
     * record incomplete; the next part runs. */
    {
        static long long record[PAGANI_QMC_PART_WORDS(16)];
        double lower[5] = {0}, upper[5] = {1, 1, 1, 1, 1};
        pagani_integrand *f = NULL;
        int part_rc = PAGANI_ERR_NULL_POINTER;
        rc = pagani_integrand_from_function(ctx, &f, 5, counted, NULL, 0);
        if (rc == PAGANI_OK) {
            pagani_context_request_stop(ctx);
            rc = pagani_qmc_part(ctx, f, lower, upper, NULL, 100000, 0, 2, record);
            part_rc = pagani_qmc_part(ctx, f, lower, upper, NULL, 100000, 0, 2, record);
        }
        tap_ok(rc == PAGANI_ERR_STOPPED && part_rc == PAGANI_OK,
               "pagani_qmc_part: stopped is PAGANI_ERR_STOPPED (%s), the next "
               "part runs (%s)", pagani_strerror(rc), pagani_strerror(part_rc));
        pagani_integrand_destroy(f);
    }

    pagani_context_destroy(ctx);
    check_gpu();
    tap_done();
    return tap_exit_code();
}
