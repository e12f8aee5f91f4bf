/*
 * test_faults.c - numeric faults and limits on the CPU backend end with a
 * specific code, or a status that is not PAGANI_CONVERGED and an infinite
 * error, in bounded time: sums that overflow while f stays finite, boxes
 * whose width or volume leaves the range of a double, thread counts that
 * cannot be started, and the options that used to overflow an int.
 *
 * Every run has an evaluation or iteration cap, which bounds it, and a
 * progress callback that counts its calls; an alarm ends the program
 * should a run hang (tap_hang_seconds: a hang bound, not a time limit,
 * so that no verdict depends on how busy the machine is).
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include "pagani.h"
#include "tap.h"

/* The child of check_thread_limit: its exit codes. */
#define CHILD_OK 0
#define CHILD_NO_SETUID 77
#define CHILD_NOT_ENFORCED 78

/* p[0] * x[0] */
static double scaled_x0(const double *x, int n, const void *params)
{
    (void)n;
    return *(const double *)params * x[0];
}

/* p[0] everywhere */
static double constant(const double *x, int n, const void *params)
{
    (void)x; (void)n;
    return *(const double *)params;
}

static double steep_exp(const double *x, int n, const void *params)
{
    (void)n; (void)params;
    return exp(709.0 * x[0]);
}

static double axis1(const double *x, int n, const void *params)
{
    (void)n; (void)params;
    return x[1];
}

/* What the progress callback saw of one run. */
typedef struct watch {
    int calls, last_iteration;
    double error;
} watch;

/* Counts the calls and keeps what the last one saw. */
static int watch_progress(int iteration, long long size, double estimate,
                          double error, void *data)
{
    watch *w = data;
    (void)size; (void)estimate;
    w->calls++;
    w->last_iteration = iteration;
    w->error = error;
    return 0;
}

static void on_alarm(int sig)
{
    static const char text[] = "Bail out! test_faults: a run hung\n";
    (void)sig;
    if (write(STDOUT_FILENO, text, sizeof text - 1) < 0) _exit(2);
    _exit(1);
}

static int has(const pagani_context *ctx, const char *text)
{
    return strstr(pagani_context_message(ctx), text) != NULL;
}

/* The options of `method` with caps and the watch as progress callback
 * (and Vegas iterations of 1e5 calls, for speed). */
static pagani_options capped(pagani_method method, watch *w)
{
    pagani_options o = pagani_options_default(method);
    o.max_evaluations = 200000000;
    o.vegas_calls = 1e5;
    o.progress = watch_progress;
    o.progress_data = w;
    memset(w, 0, sizeof *w);
    return o;
}

/* Integrates f(x; param) over [lo, hi]^n with options o (watched by w). */
static int run(pagani_context *ctx, pagani_function f, double param, int n,
               double lo, double hi, const pagani_options *o,
               pagani_result *r)
{
    double lower[PAGANI_MAX_DIM], upper[PAGANI_MAX_DIM];
    pagani_integrand *g;
    int rc;

    for (int i = 0; i < n; i++) {
        lower[i] = lo;
        upper[i] = hi;
    }
    rc = pagani_integrand_from_function(ctx, &g, n, f, &param, sizeof param);
    if (rc != PAGANI_OK) return rc;
    memset(r, 0, sizeof *r);
    rc = pagani_integrate(ctx, g, lower, upper, o, r);
    pagani_integrand_destroy(g);
    return rc;
}

/* An overflow's outcome: PAGANI_OK, status PAGANI_NO_PROGRESS, an infinite
 * error, a progress call for every iteration (the last with the infinite
 * error) and a message that says so. */
static void expect_overflow(const pagani_context *ctx, int rc,
                            const pagani_result *r, const watch *w,
                            const char *what)
{
    tap_ok(rc == PAGANI_OK && r->status == PAGANI_NO_PROGRESS &&
               isinf(r->error) && r->error > 0 &&
               w->calls == r->iterations &&
               w->last_iteration == r->iterations && isinf(w->error) &&
               has(ctx, "overflow"),
           "%s: rc %d, %s, %g +- %g after %d iterations (%d progress "
           "calls): %s",
           what, rc, pagani_status_name(r->status), r->value, r->error,
           r->iterations, w->calls, pagani_context_message(ctx));
}

/* A converged run's value is within epsrel of the truth. */
static void expect_converged(int rc, const pagani_result *r,
                             double truth, double epsrel, const char *what)
{
    tap_ok(rc == PAGANI_OK && r->status == PAGANI_CONVERGED &&
               isfinite(r->value) && fabs(r->value - truth) <= epsrel * truth,
           "%s: rc %d, %s, %.15g +- %g (true %g)", what, rc,
           pagani_status_name(r->status), r->value, r->error, truth);
}

/* One run of f(x; param) over [lo, hi]^n, and what it should give. */
typedef struct fault_case {
    pagani_method method;
    pagani_function f;
    double param;
    int n;
    double lo, hi;
    int qmc_transform;
    double truth;            /* the integral, when it should converge */
    const char *what;
} fault_case;

/* Items 1, 2 and 8: finite values whose sums overflow a double. */
static const fault_case overflows[] = {
    {PAGANI_CUBATURE, scaled_x0, 1e308, 3, 0, 1, 1, 0, "cubature, 1e308 x0"},
    {PAGANI_CUBATURE, steep_exp, 0, 5, 0, 1, 1, 0, "cubature, exp(709 x0)"},
    {PAGANI_VEGAS, scaled_x0, 1e307, 2, 0, 1, 1, 0, "Vegas, 1e307 x0"},
    {PAGANI_VEGAS, scaled_x0, 1e200, 2, 0, 1, 1, 0,
     "Vegas, 1e200 x0 (its square overflows)"},
    {PAGANI_VEGAS, constant, DBL_MAX, 2, 0, 1, 1, 0, "Vegas, f = DBL_MAX"},
    {PAGANI_VEGAS, constant, -DBL_MAX, 2, 0, 1, 1, 0, "Vegas, f = -DBL_MAX"},
    {PAGANI_QMC, constant, DBL_MAX, 2, 0, 2, 1, 0,
     "QMC, DBL_MAX over a box of volume 4 (+inf)"},
    {PAGANI_QMC, constant, -DBL_MAX, 2, 0, 1, 2, 0,
     "QMC, -DBL_MAX times Korobov's Jacobian (-inf)"},
};

/* Item 2: large finite values that still converge: QMC's exact sums are
 * scaled, Vegas's squares stay below DBL_MAX. */
static const fault_case large[] = {
    {PAGANI_VEGAS, scaled_x0, 1e150, 2, 0, 1, 1, 5e149, "Vegas, 1e150 x0"},
    {PAGANI_QMC, scaled_x0, 1e307, 2, 0, 1, 1, 5e306, "QMC, 1e307 x0"},
    {PAGANI_QMC, scaled_x0, 1e308, 3, 0, 1, 1, 5e307, "QMC, 1e308 x0 in 3D"},
};

/* Runs one case under caps and the watch. */
static int run_case(pagani_context *ctx, const fault_case *c, watch *w,
                    pagani_result *r)
{
    pagani_options o = capped(c->method, w);
    o.qmc_transform = c->qmc_transform;
    return run(ctx, c->f, c->param, c->n, c->lo, c->hi, &o, r);
}

/* Items 1, 2 and 8: each overflow ends at once, without converging and
 * without blaming f; large values converge where the sums allow. */
static void check_overflows(pagani_context *ctx)
{
    const double epsrel = pagani_options_default(PAGANI_AUTO).epsrel;
    double lower[2] = {0.0, -1e300}, upper[2] = {1.0, 1e300};
    pagani_options o;
    pagani_integrand *g;
    pagani_result r;
    watch w;
    int rc;

    for (size_t i = 0; i < sizeof overflows / sizeof overflows[0]; i++) {
        rc = run_case(ctx, &overflows[i], &w, &r);
        expect_overflow(ctx, rc, &r, &w, overflows[i].what);
        if (overflows[i].method == PAGANI_QMC)
            tap_ok(r.value == copysign(INFINITY, overflows[i].param),
                   "%s: the value is %g", overflows[i].what, r.value);
    }
    for (size_t i = 0; i < sizeof large / sizeof large[0]; i++) {
        rc = run_case(ctx, &large[i], &w, &r);
        expect_converged(rc, &r, large[i].truth, epsrel, large[i].what);
    }

    /* the squares of QMC's deviations are scaled: no error of 0 */
    o = capped(PAGANI_QMC, &w);
    o.epsabs = 0.0;
    rc = run(ctx, scaled_x0, 1e-300, 2, 0.0, 1.0, &o, &r);
    expect_converged(rc, &r, 5e-301, epsrel, "QMC, 1e-300 x0");
    tap_ok(r.error > 0.0 && r.error <= epsrel * 5e-301,
           "QMC, 1e-300 x0: its error %g is neither 0 nor above the "
           "tolerance", r.error);

    /* the case: an integral of 0 whose halves overflow */
    o = capped(PAGANI_CUBATURE, &w);
    pagani_integrand_from_function(ctx, &g, 2, axis1, NULL, 0);
    rc = pagani_integrate(ctx, g, lower, upper, &o, &r);
    pagani_integrand_destroy(g);
    expect_overflow(ctx, rc, &r, &w, "cubature, x1 over [0,1]x[-1e300,1e300]");
}

/* Item 8: boxes beyond a double, and finite values that are not faults. */
static void check_bounds_and_blame(pagani_context *ctx)
{
    watch w;
    pagani_options o = capped(PAGANI_CUBATURE, &w);
    pagani_result r;
    int rc;

    rc = run(ctx, scaled_x0, 1.0, 2, -DBL_MAX, DBL_MAX, &o, &r);
    tap_ok(rc == PAGANI_ERR_BOUNDS && has(ctx, "axis 0") && has(ctx, "width"),
           "[-DBL_MAX, DBL_MAX] is PAGANI_ERR_BOUNDS: %s",
           pagani_context_message(ctx));
    rc = run(ctx, scaled_x0, 1.0, 2, 0.0, 1e200, &o, &r);
    tap_ok(rc == PAGANI_ERR_BOUNDS && has(ctx, "volume"),
           "a volume of 1e400 is PAGANI_ERR_BOUNDS: %s",
           pagani_context_message(ctx));
    rc = run(ctx, scaled_x0, 1.0, 2, 0.0, 1e-200, &o, &r);
    tap_ok(rc == PAGANI_ERR_BOUNDS && has(ctx, "volume"),
           "a volume of 1e-400 is PAGANI_ERR_BOUNDS: %s",
           pagani_context_message(ctx));

    o = capped(PAGANI_VEGAS, &w);
    rc = run(ctx, constant, NAN, 2, 0.0, 1.0, &o, &r);
    tap_ok(rc == PAGANI_ERR_NONFINITE, "Vegas: f = NaN is still "
           "PAGANI_ERR_NONFINITE: %s", pagani_context_message(ctx));
    o = capped(PAGANI_QMC, &w);
    rc = run(ctx, constant, INFINITY, 2, 0.0, 1.0, &o, &r);
    tap_ok(rc == PAGANI_ERR_NONFINITE, "QMC: f = inf is still "
           "PAGANI_ERR_NONFINITE: %s", pagani_context_message(ctx));
}

/* Item 9: options that overflowed an int (an abort under UBSan). */
static void check_int_overflows(pagani_context *ctx)
{
    watch w;
    pagani_options o = capped(PAGANI_CUBATURE, &w);
    pagani_result r;
    int rc;

    o.initial_splits = 64;
    rc = run(ctx, scaled_x0, 1.0, 20, 0.0, 1.0, &o, &r);
    tap_ok(rc == PAGANI_ERR_NO_MEMORY && has(ctx, "64^20"),
           "cubature: 64^20 initial regions is PAGANI_ERR_NO_MEMORY: %s",
           pagani_context_message(ctx));
    o = capped(PAGANI_VEGAS, &w);
    o.vegas_adjust_iterations = INT_MAX;
    o.max_evaluations = 100000;
    rc = run(ctx, scaled_x0, 1.0, 2, 0.0, 1.0, &o, &r);
    tap_ok(rc == PAGANI_OK && r.status != PAGANI_CONVERGED &&
               r.evaluations <= o.max_evaluations,
           "Vegas: vegas_adjust_iterations = INT_MAX with max_evaluations "
           "ends unconverged: %s after %lld evaluations",
           pagani_status_name(r.status), r.evaluations);
}

/* Issue 30 item 4: parameter blocks whose size, padded to whole doubles
 * or times a batch's count, leaves a size_t (the padding wrapped round to
 * a few bytes: a crash in the copy, or heap corruption). */
static void check_params_sizes(pagani_context *ctx)
{
    static const size_t sizes[] = {SIZE_MAX, SIZE_MAX - 3};
    double param = 2.0, lo[1] = {0}, hi[1] = {1};
    pagani_options o = pagani_options_default(PAGANI_CUBATURE);
    pagani_integrand *g = NULL;
    pagani_result r[2];
    int rc;

    for (int i = 0; i < 2; i++) {
        rc = pagani_integrand_from_function(ctx, &g, 1, scaled_x0, &param,
                                            sizes[i]);
        tap_ok(rc == PAGANI_ERR_NO_MEMORY && !g && has(ctx, "address space"),
               "from_function, params_size SIZE_MAX - %d: "
               "PAGANI_ERR_NO_MEMORY: %s", 3 * i, pagani_context_message(ctx));
        rc = pagani_integrand_from_source(ctx, &g, 1, "return p[0] * x[0];",
                                          &param, sizes[i]);
        tap_ok(rc == PAGANI_ERR_NO_MEMORY && !g,
               "from_source, params_size SIZE_MAX - %d: PAGANI_ERR_NO_MEMORY",
               3 * i);
    }
    if (pagani_integrand_from_function(ctx, &g, 1, scaled_x0, &param,
                                       sizeof param) != PAGANI_OK) {
        tap_ok(0, "an integrand with a parameter block");
        return;
    }
    rc = pagani_integrand_set_params(g, &param, SIZE_MAX - 3);
    tap_ok(rc == PAGANI_ERR_NO_MEMORY, "set_params, params_size SIZE_MAX - "
           "3: PAGANI_ERR_NO_MEMORY: %s", pagani_context_message(ctx));
    rc = pagani_integrate(ctx, g, lo, hi, &o, &r[0]);
    tap_ok(rc == PAGANI_OK && fabs(r[0].value - 1.0) < 1e-12,
           "after it the integrand keeps its block: 2 x over [0,1] = %.15g",
           r[0].value);
    rc = pagani_integrate_batch(ctx, g, 1, &param, SIZE_MAX - 3, lo, hi, 0,
                                &o, r);
    tap_ok(rc == PAGANI_ERR_NO_MEMORY, "batch of 1, params_size SIZE_MAX - "
           "3: PAGANI_ERR_NO_MEMORY: %s", pagani_context_message(ctx));
    rc = pagani_integrate_batch(ctx, g, 2, &param, SIZE_MAX / 2 - 3, lo, hi,
                                0, &o, r);
    tap_ok(rc == PAGANI_ERR_NO_MEMORY && has(ctx, "2 parameter blocks"),
           "batch of 2, params_size SIZE_MAX / 2 - 3 (the product "
           "overflows): PAGANI_ERR_NO_MEMORY: %s", pagani_context_message(ctx));
    pagani_integrand_destroy(g);
}

/* Item 7: thread counts are capped, PAGANI_THREADS included. */
static void check_thread_counts(pagani_context *ctx)
{
    static const char *bad[] = {"4097", "-1", "abc", "8x",
                                "99999999999999999999"};
    pagani_context *other;
    watch w;
    pagani_options o = capped(PAGANI_CUBATURE, &w);
    pagani_result r;
    int rc;

    rc = pagani_context_set_threads(ctx, INT_MAX) == PAGANI_ERR_OPTION &&
         pagani_context_set_threads(ctx, 4097) == PAGANI_ERR_OPTION &&
         has(ctx, "0..4096") &&
         pagani_context_set_threads(ctx, 4096) == PAGANI_OK;
    tap_ok(rc, "threads above 4096 are PAGANI_ERR_OPTION, 4096 is not");
    pagani_context_set_threads(ctx, 8);
    rc = run(ctx, scaled_x0, 1.0, 2, 0.0, 1.0, &o, &r);
    expect_converged(rc, &r, 0.5, o.epsrel, "8 threads on this machine");
    pagani_context_set_threads(ctx, 0);

    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        setenv("PAGANI_THREADS", bad[i], 1);
        rc = pagani_context_create(&other, PAGANI_BACKEND_CPU);
        tap_ok(rc == PAGANI_ERR_OPTION && other && has(other, "PAGANI_THREADS"),
               "PAGANI_THREADS=%s is PAGANI_ERR_OPTION: %s", bad[i],
               pagani_context_message(other));
        pagani_context_destroy(other);
    }
    setenv("PAGANI_THREADS", "3", 1);
    rc = pagani_context_create(&other, PAGANI_BACKEND_CPU);
    tap_ok(rc == PAGANI_OK, "PAGANI_THREADS=3 is accepted");
    pagani_context_destroy(other);
    unsetenv("PAGANI_THREADS");
}

/* In the child: under RLIMIT_NPROC = 0 (as a user other than root, whom
 * the limit does not bind) no thread can start; 64 threads must be
 * PAGANI_ERR_SYSTEM, not libgomp ending the process, and 1 thread must
 * still integrate. */
static int thread_limit_child(void)
{
    struct rlimit none = {0, 0};
    pagani_context *ctx;
    pagani_integrand *g;
    pagani_result r;
    double lo[1] = {0.0}, hi[1] = {1.0}, param = 1.0;
    pid_t probe;
    int rc;

    if (geteuid() == 0) {
        uid_t id = 54321 + (uid_t)(getpid() % 1000);
        if (setgid(id) != 0 || setuid(id) != 0) return CHILD_NO_SETUID;
    }
    if (setrlimit(RLIMIT_NPROC, &none) != 0) return CHILD_NOT_ENFORCED;
    probe = fork();
    if (probe == 0) _exit(0);
    if (probe > 0) {
        waitpid(probe, NULL, 0);
        return CHILD_NOT_ENFORCED;
    }
    if (pagani_context_create(&ctx, PAGANI_BACKEND_CPU) != PAGANI_OK) return 1;
    pagani_integrand_from_function(ctx, &g, 1, scaled_x0, &param, sizeof param);
    pagani_context_set_threads(ctx, 64);
    rc = pagani_integrate(ctx, g, lo, hi, NULL, &r);
    if (rc != PAGANI_ERR_SYSTEM || !has(ctx, "64 CPU threads")) return 2;
    pagani_context_set_threads(ctx, 1);
    rc = pagani_integrate(ctx, g, lo, hi, NULL, &r);
    if (rc != PAGANI_OK || r.status != PAGANI_CONVERGED ||
        fabs(r.value - 0.5) > 1e-12)
        return 3;
    pagani_integrand_destroy(g);
    pagani_context_destroy(ctx);
    return CHILD_OK;
}

/* Item 7: threads that cannot be started. Runs first, in a child forked
 * before this process has started any OpenMP thread. */
static void check_thread_limit(void)
{
    pid_t child;
    int status = 0;

    fflush(stdout);
    child = fork();
    if (child == 0) _exit(thread_limit_child());
    if (child < 0 || waitpid(child, &status, 0) != child) {
        tap_ok(0, "fork for the thread-limit check");
        return;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == CHILD_NO_SETUID)
        tap_skip("RLIMIT_NPROC: running as root and setuid failed, so the "
                 "limit cannot bind");
    else if (WIFEXITED(status) && WEXITSTATUS(status) == CHILD_NOT_ENFORCED)
        tap_skip("RLIMIT_NPROC = 0 does not stop fork() here");
    else
        tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == CHILD_OK,
               "under RLIMIT_NPROC, 64 threads are PAGANI_ERR_SYSTEM and 1 "
               "thread integrates (child %s %d)",
               WIFEXITED(status) ? "exit" : "signal",
               WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
}

int main(void)
{
    pagani_context *ctx;

    signal(SIGALRM, on_alarm);
    alarm(tap_hang_seconds());
    unsetenv("PAGANI_THREADS");
    check_thread_limit();
    if (pagani_context_create(&ctx, PAGANI_BACKEND_CPU) != PAGANI_OK) return 1;
    check_overflows(ctx);
    check_bounds_and_blame(ctx);
    check_int_overflows(ctx);
    check_thread_counts(ctx);
    check_params_sizes(ctx);
    pagani_context_destroy(ctx);
    tap_done();
    return tap_exit_code();
}
