/*
 * test_vegas_batch.c - batches of PAGANI_VEGAS integrals
 * (pagani_integrate_batch) on the CPU backend, and on the CUDA backend
 * where a GPU is usable (skipped, never passed, without one): every result
 * of a batch equals bit for bit the single call with its parameter block
 * and box (plain m-Cubes and Vegas+), is within 5 reported sigma of the
 * analytic value when converged, and members leave the batch on their own
 * iteration; NaN from one member's parameters spoils only that member
 * (PAGANI_ERR_NONFINITE naming it); the progress callback sees the running
 * integrals and stops them all; batches of 1 and 1000 integrals with one
 * box equal their single calls; a batch too large for memory is
 * PAGANI_ERR_NO_MEMORY; the GPU's members agree with the CPU's.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include "pagani.h"
#include "tap.h"

#define DIM 3
#define K 6

/* p[2] times a Gaussian of centre p[0] and width p[1] on every axis; NaN
 * where x_0 < p[3] (none when p[3] < 0). */
PAGANI_INTEGRAND(batch_gauss, {
    double s = 0.0;
    if (x[0] < p[3]) return sqrt(-1.0 - x[0]);
    for (int i = 0; i < n; i++) s += (x[i] - p[0]) * (x[i] - p[0]);
    return p[2] * exp(-s / (2.0 * p[1] * p[1]));
})

/* One member: {centre, width, amplitude, NaN below} and its box. */
typedef struct member {
    double p[4];
    double lo, hi;
} member;

/* Easy and hard members: a wide one converges at once, a narrow one
 * off-centre needs many iterations, the last cannot converge in the
 * iteration limit. */
static const member members[K] = {
    {{0.5, 0.2, 1.0, -1.0}, 0.0, 1.0},  {{0.3, 0.1, 2.0, -1.0}, 0.0, 1.0},
    {{0.5, 5.0, 1.0, -1.0}, -1.0, 2.0}, {{0.7, 0.15, 0.5, -1.0}, 0.2, 1.5},
    {{1.0, 0.3, 3.0, -1.0}, -0.5, 0.5}, {{0.4, 0.0008, 1.0, -1.0}, 0.0, 1.0},
};

/* The integral of member m over its box. */
static double truth(const member *m)
{
    const double c = m->p[0], w = m->p[1], r = sqrt(2.0) * w;
    double axis =
        sqrt(M_PI / 2.0) * w * (erf((m->hi - c) / r) - erf((m->lo - c) / r));
    return m->p[2] * axis * axis * axis;
}

/* The batch's parameter blocks and boxes (box_stride DIM). */
static void layout(const member *ms, int count, double *params, double *lo,
                   double *hi)
{
    for (int k = 0; k < count; k++) {
        memcpy(params + 4 * k, ms[k].p, sizeof ms[k].p);
        for (int i = 0; i < DIM; i++) {
            lo[DIM * k + i] = ms[k].lo;
            hi[DIM * k + i] = ms[k].hi;
        }
    }
}

static pagani_options options(unsigned flags)
{
    pagani_options o = pagani_options_default(PAGANI_VEGAS);
    o.epsrel = 2e-3;
    o.epsabs = 0.0;
    o.vegas_calls = 2e4;
    o.max_iterations = 15;
    o.vegas_adjust_iterations = 2;
    o.flags = flags;
    o.seed = 5;
    return o;
}

/* The integrand on ctx's backend with member 0's parameters. */
static pagani_integrand *make(pagani_context *ctx)
{
    pagani_integrand *f = NULL;
    int rc = pagani_integrand_create(ctx, &f, DIM, &batch_gauss);
    if (rc == PAGANI_OK)
        rc = pagani_integrand_set_params(f, members[0].p, sizeof members[0].p);
    if (rc != PAGANI_OK) {
        tap_diag("integrand: %s: %s", pagani_strerror(rc),
                 pagani_context_message(ctx));
        pagani_integrand_destroy(f);
        return NULL;
    }
    return f;
}

/* Everything but the timing is the same bits. */
static int same(const pagani_result *a, const pagani_result *b)
{
    return memcmp(&a->value, &b->value, sizeof a->value) == 0 &&
           memcmp(&a->error, &b->error, sizeof a->error) == 0 &&
           memcmp(&a->chi2_dof, &b->chi2_dof, sizeof a->chi2_dof) == 0 &&
           a->status == b->status && a->evaluations == b->evaluations &&
           a->iterations == b->iterations && a->regions == b->regions;
}

/* The single call of member k (0 with a wrong parameter block). */
static int single(pagani_context *ctx, pagani_integrand *f, const member *m,
                  const pagani_options *o, pagani_result *r)
{
    double lo[DIM], hi[DIM];
    for (int i = 0; i < DIM; i++) {
        lo[i] = m->lo;
        hi[i] = m->hi;
    }
    if (pagani_integrand_set_params(f, m->p, sizeof m->p) != PAGANI_OK)
        return -1;
    return pagani_integrate(ctx, f, lo, hi, o, r);
}

/* The batch of `members` with `flags` against its single calls and the
 * analytic values; the results go to out. */
static void check_batch(pagani_context *ctx, pagani_integrand *f,
                        unsigned flags, const char *name, pagani_result *out)
{
    double params[4 * K], lo[DIM * K], hi[DIM * K];
    pagani_options o = options(flags);
    int rc, equal = 0, converged = 0, within = 0, fewest = 1000, most = 0;

    layout(members, K, params, lo, hi);
    rc = pagani_integrate_batch(ctx, f, K, params, sizeof members[0].p, lo, hi,
                                DIM, &o, out);
    if (!tap_ok(rc == PAGANI_OK, "%s: batch of %d returns PAGANI_OK (%s)", name,
                K, pagani_context_message(ctx)))
        return;
    for (int k = 0; k < K; k++) {
        pagani_result s;
        double t = truth(&members[k]);
        int ok = single(ctx, f, &members[k], &o, &s) == PAGANI_OK &&
                 same(&out[k], &s);
        equal += ok;
        if (!ok)
            tap_diag("%s member %d: batch %.17g +- %g (%s, %d it, %lld ev), "
                     "single %.17g +- %g (%s, %d it, %lld ev)",
                     name, k, out[k].value, out[k].error,
                     pagani_status_name(out[k].status), out[k].iterations,
                     out[k].evaluations, s.value, s.error,
                     pagani_status_name(s.status), s.iterations, s.evaluations);
        if (out[k].status == PAGANI_CONVERGED) {
            converged++;
            within += fabs(out[k].value - t) <= 5.0 * out[k].error;
            if (out[k].iterations < fewest) fewest = out[k].iterations;
        }
        if (out[k].iterations > most) most = out[k].iterations;
        tap_diag(
            "%s member %d: %.10g +- %.3g (true %.10g), %s after %d iterations",
            name, k, out[k].value, out[k].error, t,
            pagani_status_name(out[k].status), out[k].iterations);
    }
    tap_ok(equal == K,
           "%s: %d of %d members equal their single calls bit for bit", name,
           equal, K);
    tap_ok(converged >= K - 2 && within == converged,
           "%s: %d converged, %d of them within 5 sigma of the truth", name,
           converged, within);
    tap_ok(out[K - 1].status != PAGANI_CONVERGED &&
               out[K - 1].iterations == 15 && fewest < most,
           "%s: members leave on their own iteration (%d .. %d), the hard one "
           "runs to the limit (%s)",
           name, fewest, most, pagani_status_name(out[K - 1].status));
}

/* Member 2 returns NaN: it alone is spoilt, the call says which. */
static void check_nan(pagani_context *ctx, pagani_integrand *f,
                      const pagani_result *good)
{
    member ms[K];
    double params[4 * K], lo[DIM * K], hi[DIM * K];
    pagani_options o = options(0);
    pagani_result r[K];
    int rc, others = 1;

    memcpy(ms, members, sizeof ms);
    ms[2].p[3] = 0.5;
    layout(ms, K, params, lo, hi);
    rc = pagani_integrate_batch(ctx, f, K, params, sizeof ms[0].p, lo, hi, DIM,
                                &o, r);
    tap_ok(rc == PAGANI_ERR_NONFINITE &&
               strncmp(pagani_context_message(ctx),
                       "integral 2: the integrand returned", 34) == 0,
           "NaN in one member: PAGANI_ERR_NONFINITE naming it (%s)",
           pagani_context_message(ctx));
    tap_ok(isnan(r[2].value) && isinf(r[2].error) && r[2].error > 0 &&
               r[2].status == PAGANI_NO_PROGRESS,
           "its result is NaN +- inf, PAGANI_NO_PROGRESS (%g +- %g, %s)",
           r[2].value, r[2].error, pagani_status_name(r[2].status));
    for (int k = 0; k < K; k++)
        if (k != 2) others &= same(&r[k], &good[k]);
    tap_ok(others, "the other members' results are those of the clean batch");
}

/* The callback's record. */
typedef struct seen {
    int calls;
    long long size[8];
    double estimate[8];
} seen;

static int stop_third(int iteration, long long size, double estimate,
                      double error, void *data)
{
    seen *s = data;
    (void)error;
    if (s->calls < 8) {
        s->size[s->calls] = size;
        s->estimate[s->calls] = estimate;
    }
    s->calls++;
    return iteration >= 3;
}

/* A callback that stops at iteration 3 stops every member there, with
 * the values that 3 iterations give; it saw K integrals running. */
static void check_stop(pagani_context *ctx, pagani_integrand *f)
{
    double params[4 * K], lo[DIM * K], hi[DIM * K];
    pagani_options o = options(0);
    pagani_result r[K];
    seen s;
    int rc, stopped = 0, values = 0;

    memset(&s, 0, sizeof s);
    layout(members, K, params, lo, hi);
    o.epsrel = 1e-9; /* none converges */
    o.progress = stop_third;
    o.progress_data = &s;
    rc = pagani_integrate_batch(ctx, f, K, params, sizeof members[0].p, lo, hi,
                                DIM, &o, r);
    o.progress = NULL;
    o.max_iterations = 3;
    for (int k = 0; k < K; k++) {
        pagani_result one;
        stopped += r[k].status == PAGANI_STOPPED && r[k].iterations == 3;
        values += single(ctx, f, &members[k], &o, &one) == PAGANI_OK &&
                  r[k].value == one.value && r[k].error == one.error &&
                  (k || s.estimate[2] == one.value);
    }
    tap_ok(rc == PAGANI_OK && s.calls == 3 && s.size[0] == K && s.size[2] == K,
           "the callback is called once an iteration with the %d running "
           "integrals (%d calls, size %lld)",
           K, s.calls, s.size[0]);
    tap_ok(stopped == K, "stopping at iteration 3 stops all %d (%d stopped)", K,
           stopped);
    tap_ok(values == K,
           "with the values of 3 iterations, the first one's "
           "estimate passed to the callback (%d of %d)",
           values, K);
}

/* K = 1 and K = 1000 (centres and widths over a grid, one box for all,
 * few samples): every member equals its single call. */
static void check_sizes(pagani_context *ctx, pagani_integrand *f)
{
    enum { MANY = 1000 };
    static member ms[MANY];
    static double params[4 * MANY];
    static pagani_result r[MANY];
    const double lo[DIM] = {0, 0, 0}, hi[DIM] = {1, 1, 1};
    pagani_options o = options(0);
    int sizes[2] = {1, MANY};

    o.vegas_calls = 2000;
    o.epsrel = 1e-2;
    for (int k = 0; k < MANY; k++) {
        member m = {{0.2 + 0.6 * (k % 40) / 39.0, 0.05 + 0.3 * (k / 40) / 24.0,
                     1.0, -1.0},
                    0.0,
                    1.0};
        ms[k] = m;
        memcpy(params + 4 * k, m.p, sizeof m.p);
    }
    for (int i = 0; i < 2; i++) {
        int rc = pagani_integrate_batch(ctx, f, sizes[i], params,
                                        sizeof ms[0].p, lo, hi, 0, &o, r);
        int equal = 0;
        for (int k = 0; k < sizes[i] && rc == PAGANI_OK; k++) {
            pagani_result one;
            equal += single(ctx, f, &ms[k], &o, &one) == PAGANI_OK &&
                     same(&r[k], &one);
        }
        tap_ok(rc == PAGANI_OK && equal == sizes[i],
               "batch of %d with one box: %d members equal their single calls",
               sizes[i], equal);
    }
}

/* A batch whose grids do not fit in memory (1000 x 64 x 65536 bins, 67
 * GB, under a 2 GB address-space limit): PAGANI_ERR_NO_MEMORY. Run last:
 * the limit stays. */
static void check_memory(pagani_context *ctx)
{
    enum { MANY = 1000, WIDE = 64 };
    static double lo[WIDE], hi[WIDE];
    static pagani_result r[MANY];
    pagani_options o = options(0);
    pagani_integrand *f = NULL;
    struct rlimit lim;
    int rc;

    for (int i = 0; i < WIDE; i++) hi[i] = 1.0;
    o.vegas_bins = 65536;
    o.vegas_calls = 1000;
#ifdef __SANITIZE_ADDRESS__
    /* AddressSanitizer's own mappings (its leak check's stack at exit)
     * find no room under the limit (tests/sanitize.sh) */
    tap_skip("AddressSanitizer build: no address-space limit");
    return;
#endif
    lim.rlim_cur = lim.rlim_max = 2ULL << 30;
    if (setrlimit(RLIMIT_AS, &lim) != 0) {
        tap_skip("cannot limit the address space");
        return;
    }
    rc = pagani_integrand_create(ctx, &f, WIDE, &batch_gauss);
    if (rc == PAGANI_OK) {
        double p[4] = {0.5, 0.2, 1.0, -1.0};
        rc = pagani_integrand_set_params(f, p, sizeof p);
    }
    if (rc == PAGANI_OK)
        rc = pagani_integrate_batch(ctx, f, MANY, NULL, 0, lo, hi, 0, &o, r);
    tap_ok(rc == PAGANI_ERR_NO_MEMORY &&
               strstr(pagani_context_message(ctx), "MB"),
           "grids beyond memory: PAGANI_ERR_NO_MEMORY saying the size (%s)",
           pagani_context_message(ctx));
    pagani_integrand_destroy(f);
}

/* The GPU: the same equalities, and agreement with the CPU's members
 * within 4 combined sigma. */
static void check_gpu(const pagani_result *cpu)
{
    pagani_context *ctx = NULL;
    pagani_integrand *f;
    pagani_result r[K], plus[K];
    int agree = 0;

    if (pagani_context_create(&ctx, PAGANI_BACKEND_CUDA) != PAGANI_OK) {
        pagani_context_destroy(ctx);
        for (int i = 0; i < 12; i++) tap_skip("no usable GPU");
        return;
    }
    if (!(f = make(ctx))) {
        tap_ok(0, "GPU integrand");
        pagani_context_destroy(ctx);
        return;
    }
    check_batch(ctx, f, 0, "GPU m-Cubes", r);
    check_batch(ctx, f, PAGANI_FLAG_VEGAS_PLUS, "GPU Vegas+", plus);
    for (int k = 0; k < K; k++) {
        double sigma = hypot(r[k].error, cpu[k].error);
        agree += r[k].status != PAGANI_CONVERGED ||
                 cpu[k].status != PAGANI_CONVERGED ||
                 fabs(r[k].value - cpu[k].value) <= 4.0 * sigma;
    }
    tap_ok(agree == K, "GPU and CPU members agree within 4 sigma (%d of %d)",
           agree, K);
    check_nan(ctx, f, r);
    pagani_integrand_destroy(f);
    pagani_context_destroy(ctx);
}

int main(void)
{
    pagani_context *ctx = NULL;
    pagani_integrand *f;
    pagani_result r[K], plus[K];

    if (pagani_context_create(&ctx, PAGANI_BACKEND_CPU) != PAGANI_OK ||
        !(f = make(ctx))) {
        tap_ok(0, "CPU context and integrand: %s", pagani_context_message(ctx));
        tap_done();
        return 1;
    }
    check_batch(ctx, f, 0, "CPU m-Cubes", r);
    check_batch(ctx, f, PAGANI_FLAG_VEGAS_PLUS, "CPU Vegas+", plus);
    check_nan(ctx, f, r);
    check_stop(ctx, f);
    check_sizes(ctx, f);
    check_gpu(r);
    pagani_integrand_destroy(f);
    check_memory(ctx);
    pagani_context_destroy(ctx);
    tap_done();
    return tap_exit_code();
}
