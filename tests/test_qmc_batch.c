/*
 * test_qmc_batch.c - PAGANI_QMC batches (pagani_integrate_batch): K
 * Gaussians, each with its own centre, width and box, against K single
 * calls (bit for bit: the sums are exact) and their analytic values; the
 * integrand's calls counted (a batch costs its members' evaluations and no
 * more); NaN in one member; the progress callback stopping the batch; the
 * K x R exact sums refused by an address-space limit. Then the same on the
 * CUDA backend, skipped without a usable GPU.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include "pagani.h"
#include "batch_cases.h"
#include "tap.h"

#define DIM 4
#define K 6
#define BOX_STRIDE (DIM + 2)  /* boxes with a gap, as the API allows */
#define HARD 4                /* the member too narrow for the limits */
#define NAN_MEMBER 2          /* the member given a NaN centre */

typedef struct gauss_params {
    double centre, width;
} gauss_params;

/* Calls of counted_gauss, from any thread. */
static long long calls;

/* batch_gaussian, counting its calls. */
static double counted_gauss(const double *x, int n, const void *params)
{
    __atomic_fetch_add(&calls, 1, __ATOMIC_RELAXED);
    return batch_gaussian.function(x, n, params);
}

/* The integral of batch_gaussian over [lower, upper] (batch_cases.h). */
static double gauss_exact(const gauss_params *g, const double *lower,
                          const double *upper)
{
    const double p[BATCH_PARAMS] = {g->centre, g->width};
    return batch_gaussian_truth(p, DIM, lower, upper);
}

/* A batch: K parameter blocks and boxes, and the options. */
typedef struct batch_case {
    gauss_params params[K];
    double lower[K * BOX_STRIDE], upper[K * BOX_STRIDE];
    pagani_options opt;
} batch_case;

static void make_case(batch_case *c)
{
    memset(c, 0, sizeof *c);
    for (int k = 0; k < K; k++) {
        c->params[k].centre = 0.3 + 0.08 * k;
        c->params[k].width = k == HARD ? 0.01 : 0.3 + 0.05 * k;
        for (int i = 0; i < DIM; i++) {
            c->lower[k * BOX_STRIDE + i] = -0.2 + 0.05 * k - 0.02 * i;
            c->upper[k * BOX_STRIDE + i] = 0.9 + 0.04 * k + 0.03 * i;
        }
    }
    c->opt = pagani_options_default(PAGANI_QMC);
    c->opt.epsrel = 1e-4;
    c->opt.epsabs = 0.0;
    c->opt.seed = 7;
    c->opt.qmc_initial_points = 4096;
    c->opt.max_iterations = 8;
}

static int run_batch(pagani_context *ctx, pagani_integrand *f,
                     const batch_case *c, pagani_result *results)
{
    return pagani_integrate_batch(ctx, f, K, c->params, sizeof c->params[0],
                                  c->lower, c->upper, BOX_STRIDE, &c->opt,
                                  results);
}

/* Member k alone: its block set into f, its box, the same options. */
static int run_single(pagani_context *ctx, pagani_integrand *f,
                      const batch_case *c, int k, pagani_result *result)
{
    int rc = pagani_integrand_set_params(f, &c->params[k], sizeof c->params[k]);
    if (rc != PAGANI_OK) return rc;
    return pagani_integrate(ctx, f, c->lower + k * BOX_STRIDE,
                            c->upper + k * BOX_STRIDE, &c->opt, result);
}

/* Whether two results are the same bits (all but the time). */
static int same_result(const pagani_result *a, const pagani_result *b)
{
    return memcmp(&a->value, &b->value, sizeof a->value) == 0 &&
           memcmp(&a->error, &b->error, sizeof a->error) == 0 &&
           a->status == b->status && a->iterations == b->iterations &&
           a->evaluations == b->evaluations && a->method == b->method &&
           a->backend == b->backend;
}

/* Every member of the batch equals its single call; the singles' results
 * in singles. Prints each member. */
static int equals_singles(pagani_context *ctx, pagani_integrand *f,
                          const batch_case *c, const pagani_result *batch,
                          pagani_result *singles)
{
    int same = 0;
    for (int k = 0; k < K; k++) {
        int rc = run_single(ctx, f, c, k, &singles[k]);
        int ok = rc == PAGANI_OK && same_result(&batch[k], &singles[k]);
        tap_diag("member %d: %.17g +- %.3g %s, %d iterations, %lld "
                 "evaluations; single: %.17g %s", k, batch[k].value,
                 batch[k].error, pagani_status_name(batch[k].status),
                 batch[k].iterations, batch[k].evaluations, singles[k].value,
                 ok ? "(same bits)" : "(DIFFERENT)");
        same += ok;
    }
    return same == K;
}

/* The progress callback's view: calls, and the last size and estimate. */
typedef struct progress_seen {
    int calls, stop_at;
    long long size;
    double value;
} progress_seen;

static int progress_record(int iteration, long long size, double value,
                           double error, void *data)
{
    progress_seen *s = data;
    (void)error;
    s->calls++;
    s->size = size;
    s->value = value;
    return iteration >= s->stop_at;
}

/* The batch against single calls and the analytic values; the calls of
 * the integrand against the evaluations reported. */
static void check_batch(pagani_context *ctx, pagani_integrand *f,
                        const batch_case *c, pagani_result *batch)
{
    pagani_result singles[K];
    long long batch_calls, single_calls, evaluations = 0;
    int rc, converged = 0, honest = 0;

    calls = 0;
    rc = run_batch(ctx, f, c, batch);
    batch_calls = calls;
    calls = 0;
    tap_ok(rc == PAGANI_OK && equals_singles(ctx, f, c, batch, singles),
           "CPU: each of %d batch results is bit for bit its single call", K);
    single_calls = calls;
    for (int k = 0; k < K; k++) {
        double exact = gauss_exact(&c->params[k], c->lower + k * BOX_STRIDE,
                                   c->upper + k * BOX_STRIDE);
        double off = fabs(batch[k].value - exact);
        evaluations += batch[k].evaluations;
        if (batch[k].status != PAGANI_CONVERGED) continue;
        converged++;
        honest += off <= c->opt.epsrel * fabs(exact);
        tap_diag("member %d: true error %.3g (%.3g relative)", k, off,
                 off / fabs(exact));
    }
    tap_ok(converged == K - 1 && honest == converged &&
           batch[HARD].status == PAGANI_MAX_ITERATIONS,
           "CPU: %d of %d converged (the narrow one: %s), %d within epsrel of "
           "the analytic value", converged, K,
           pagani_status_name(batch[HARD].status), honest);
    tap_ok(batch_calls == evaluations && single_calls == evaluations,
           "CPU: the batch calls f %lld times, its evaluations (%lld), as "
           "the single calls together (%lld)", batch_calls, evaluations,
           single_calls);
}

/* A NaN centre in one member: PAGANI_ERR_NONFINITE naming it; that member
 * NaN, +inf, PAGANI_NO_PROGRESS; the others as in the clean batch. */
static int check_nan(pagani_context *ctx, pagani_integrand *f,
                     const batch_case *clean, const pagani_result *expect)
{
    batch_case c = *clean;
    pagani_result r[K];
    const char *msg;
    int rc, others = 0;

    c.params[NAN_MEMBER].centre = NAN;
    rc = run_batch(ctx, f, &c, r);
    msg = pagani_context_message(ctx);
    tap_diag("%s", msg);
    for (int k = 0; k < K; k++)
        others += k != NAN_MEMBER && same_result(&r[k], &expect[k]);
    return rc == PAGANI_ERR_NONFINITE && strstr(msg, "integral 2: ") &&
           strstr(msg, "x = (") && isnan(r[NAN_MEMBER].value) &&
           r[NAN_MEMBER].error == INFINITY &&
           r[NAN_MEMBER].status == PAGANI_NO_PROGRESS && others == K - 1;
}

/* The callback stops the batch at iteration 3: every member still running
 * then is STOPPED there, the others converged before (as each single call
 * with the same callback); the callback was called 3 times, last with the
 * number still running and the first one's estimate. */
static void check_stop(pagani_context *ctx, pagani_integrand *f,
                       const batch_case *clean)
{
    batch_case c = *clean;
    progress_seen seen = {0, 3, 0, 0.0}, alone = {0, 3, 0, 0.0};
    pagani_result r[K], single;
    int rc, stopped = 0, ended = 0, same = 0, first = -1;

    c.opt.progress = progress_record;
    c.opt.progress_data = &seen;
    rc = run_batch(ctx, f, &c, r);
    c.opt.progress_data = &alone;
    for (int k = 0; k < K; k++) {
        if (r[k].status == PAGANI_STOPPED && r[k].iterations == 3) {
            stopped++;
            if (first < 0) first = k;
        }
        ended += r[k].status == PAGANI_CONVERGED && r[k].iterations < 3;
        same += run_single(ctx, f, &c, k, &single) == PAGANI_OK &&
                same_result(&r[k], &single);
    }
    tap_ok(rc == PAGANI_OK && stopped > 0 && ended > 0 &&
           stopped + ended == K && same == K && seen.calls == 3 &&
           seen.size == stopped && seen.value == r[first].value,
           "CPU: the callback stops the %d still running at iteration 3 (%d "
           "converged before; %d as their single calls; %d calls, last size "
           "%lld)", stopped, ended, same, seen.calls, seen.size);
}

/* The K x R exact sums cannot be had: PAGANI_ERR_NO_MEMORY with a message.
 * 1000 integrals x 4096 shifts need 4.5 GB of sums, under an address-space
 * limit 256 MB above what the process maps now (lifted again after). */
static void check_no_memory(pagani_context *ctx, pagani_integrand *f,
                            const batch_case *c)
{
    enum { MANY = 1000 };
    static pagani_result r[MANY];
    pagani_options opt = c->opt;
    struct rlimit old, tight;
    unsigned long pages = 0;
    FILE *statm = fopen("/proc/self/statm", "r");
    int have_size = statm && fscanf(statm, "%lu", &pages) == 1, rc;

    if (statm) fclose(statm);
#if defined(__SANITIZE_ADDRESS__)
    have_size = 0;  /* AddressSanitizer's shadow needs the address space */
#endif
    if (!have_size || getrlimit(RLIMIT_AS, &old) != 0) {
        tap_skip("no /proc/self/statm or RLIMIT_AS here");
        return;
    }
    tight = old;
    tight.rlim_cur = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) +
                     ((rlim_t)256 << 20);
    if ((old.rlim_cur != RLIM_INFINITY && old.rlim_cur < tight.rlim_cur) ||
        setrlimit(RLIMIT_AS, &tight) != 0) {
        tap_skip("cannot set an address-space limit");
        return;
    }
    opt.qmc_shifts = 4096;
    rc = pagani_integrate_batch(ctx, f, MANY, NULL, 0, c->lower, c->upper, 0,
                                &opt, r);
    setrlimit(RLIMIT_AS, &old);
    tap_ok(rc == PAGANI_ERR_NO_MEMORY &&
           strstr(pagani_context_message(ctx), "QMC sums"),
           "CPU: %d integrals x 4096 shifts beyond memory: "
           "PAGANI_ERR_NO_MEMORY (%s)", MANY, pagani_context_message(ctx));
}

/* The checks on the CPU; the clean batch's results in batch. */
static void cpu_checks(pagani_context *ctx, const batch_case *c,
                       pagani_result *batch)
{
    pagani_integrand *f = NULL;
    int rc = pagani_integrand_from_function(ctx, &f, DIM, counted_gauss,
                                            &c->params[0], sizeof c->params[0]);

    if (rc != PAGANI_OK) {
        tap_diag("integrand: %s", pagani_context_message(ctx));
        for (int i = 0; i < 6; i++) tap_ok(0, "CPU integrand");
        return;
    }
    check_batch(ctx, f, c, batch);
    tap_ok(check_nan(ctx, f, c, batch), "CPU: NaN in member %d: "
           "PAGANI_ERR_NONFINITE naming it, its result NaN/inf/NO_PROGRESS, "
           "the others unchanged", NAN_MEMBER);
    check_stop(ctx, f, c);
    check_no_memory(ctx, f, c);
    pagani_integrand_destroy(f);
}

/* Throughput, for the log: 1000 6-D Gaussians to 1e-5 in one batch. */
static void report_rate(pagani_context *gpu)
{
    enum { COUNT = 1000, N6 = 6 };
    static gauss_params params[COUNT];
    static pagani_result r[COUNT];
    double lower[N6], upper[N6], worst = 0.0;
    pagani_options opt = pagani_options_default(PAGANI_QMC);
    pagani_integrand *f = NULL;

    for (int i = 0; i < N6; i++) {
        lower[i] = 0.0;
        upper[i] = 1.0;
    }
    for (int k = 0; k < COUNT; k++) {
        params[k].centre = 0.3 + 0.4 * k / COUNT;
        params[k].width = 0.3 + 0.2 * k / COUNT;
    }
    opt.epsrel = 1e-5;
    if (pagani_integrand_create(gpu, &f, N6, &batch_gaussian) != PAGANI_OK ||
        pagani_integrate_batch(gpu, f, COUNT, params, sizeof params[0], lower,
                               upper, 0, &opt, r) != PAGANI_OK) {
        tap_diag("rate: %s", pagani_context_message(gpu));
        pagani_integrand_destroy(f);
        return;
    }
    for (int k = 0; k < COUNT; k++) {
        double exact = 1.0, e1 = 0.5 * sqrt(M_PI) * params[k].width *
            (erf((1.0 - params[k].centre) / params[k].width) +
             erf(params[k].centre / params[k].width));
        for (int i = 0; i < N6; i++) exact *= e1;
        worst = fmax(worst, fabs(r[k].value - exact) / exact);
    }
    tap_diag("throughput: %d 6-D integrals to 1e-5 in %.3f s: %.3g "
             "integrals/s, worst true relative error %.2g", COUNT,
             r[0].seconds, COUNT / r[0].seconds, worst);
    pagani_integrand_destroy(f);
}

/* The same on the GPU: batch = singles bit for bit, the CPU's results up
 * to the integrand's rounding (FMA contraction on the GPU), NaN in one
 * member. */
static void gpu_checks(const batch_case *c, const pagani_result *cpu)
{
    pagani_context *gpu = NULL;
    pagani_integrand *f = NULL;
    pagani_result batch[K], singles[K];
    int rc, close = 0;

    if (pagani_context_create(&gpu, PAGANI_BACKEND_CUDA) != PAGANI_OK) {
        tap_diag("%s", pagani_context_message(gpu));
        pagani_context_destroy(gpu);
        for (int i = 0; i < 3; i++) tap_skip("no usable GPU");
        return;
    }
    rc = pagani_integrand_create(gpu, &f, DIM, &batch_gaussian);
    if (rc == PAGANI_OK) rc = run_batch(gpu, f, c, batch);
    tap_ok(rc == PAGANI_OK && equals_singles(gpu, f, c, batch, singles),
           "CUDA: each of %d batch results is bit for bit its single call", K);
    for (int k = 0; k < K && rc == PAGANI_OK; k++) {
        double off = fabs(batch[k].value - cpu[k].value);
        close += batch[k].status == cpu[k].status &&
                 off <= 1e-12 * fabs(cpu[k].value) &&
                 fabs(batch[k].error - cpu[k].error) <= 1e-6 * cpu[k].error;
    }
    tap_ok(close == K, "CUDA: the batch agrees with the CPU's (%d of %d)",
           close, K);
    tap_ok(rc == PAGANI_OK && check_nan(gpu, f, c, batch),
           "CUDA: NaN in member %d: PAGANI_ERR_NONFINITE naming it, the "
           "others unchanged", NAN_MEMBER);
    report_rate(gpu);
    pagani_integrand_destroy(f);
    pagani_context_destroy(gpu);
}

int main(void)
{
    pagani_context *cpu = NULL;
    pagani_result batch[K];
    batch_case c;

    tap_plan(9);
    make_case(&c);
    if (pagani_context_create(&cpu, PAGANI_BACKEND_CPU) != PAGANI_OK) {
        tap_ok(0, "CPU context: %s", pagani_context_message(cpu));
        return 1;
    }
    cpu_checks(cpu, &c, batch);
    gpu_checks(&c, batch);
    pagani_context_destroy(cpu);
    return tap_exit_code();
}
