/*
 * test_state.c - checkpoints (pagani_options.state_path, README
 * "Checkpoints and warm starts"), QMC and Vegas on the CPU, and on the
 * GPU when there is one (skipped without):
 *  - a run interrupted after its first block (QMC) or iteration (Vegas),
 *    mid-run and one before it converges, by max_iterations, by the
 *    progress callback, by a stop request and by max_evaluations, then
 *    run again with the limits lifted, ends with the bits of the run
 *    never interrupted (value, error, status, evaluations, iterations;
 *    the components of a vector integrand), for one integral, a batch of
 *    three and a vector integrand; also resumed twice in a row, and
 *    writing every block or iteration. Vegas stopped by max_evaluations
 *    only where the cap leaves vegas_calls as they are (at least
 *    vegas_calls x (vegas_adjust_iterations + 3)); a lower cap lowers the
 *    calls and its file is refused (below). The same for Vegas+
 *    (PAGANI_FLAG_VEGAS_PLUS), whose file holds the per-cube sample
 *    counts, stopped in its adjusting iterations (where they change)
 *    and after them;
 *  - Vegas: a file resumed under a cap that lowers the calls (and with
 *    them the pass's sizes), or with max_iterations below the
 *    iterations it holds, is PAGANI_ERR_STATE; a cap that lowers the
 *    calls but keeps the pass resumes to the same bits; a Vegas+ file
 *    resumed as plain Vegas, and the reverse, is PAGANI_ERR_STATE;
 *  - a file of another integrand, parameter block, box, seed, method
 *    (forged), number of ranks (forged), a truncated, corrupted (one byte
 *    flipped), foreign (random bytes), newer- or older-format (forged) file is
 *    refused with PAGANI_ERR_STATE and a message naming the difference,
 *    and left as it was; so is a QMC file of format 3 (forged: its
 *    payload without the heavy-tail guard's state), with a message that
 *    says so, while a Vegas file of format 3 (the same payload) resumes;
 *  - a writer killed with SIGKILL at arbitrary moments leaves a file that
 *    resumes to the same bits;
 *  - bad options and a method without checkpoints are PAGANI_ERR_OPTION,
 *    an unwritable path PAGANI_ERR_SYSTEM.
 * The file's layout (src/state/state_file.h) is used to forge files:
 * 64-bit words, method at word 3, ranks at 13 and 14, the payload's
 * bytes at 15, the payload after the 16 header words (padded to a
 * word), the FNV-1a checksum last.
 */
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "pagani.h"
#include "tap.h"
#include "state_cases.h"

#define KILLS 6           /* writers killed */
#define W_FORMAT 1
#define W_METHOD 3
#define W_RANK 13
#define W_RANKS 14
#define W_PAYLOAD 15
#define HEADER_BYTES 128

static pagani_context *ctx;
static pagani_method method = PAGANI_QMC; /* of the checks running */
static int plus; /* Vegas with PAGANI_FLAG_VEGAS_PLUS */
static int counting = 1; /* the integrand counts its calls (host forms) */
static char dir[256], path[300];
static const double params[K][2] = {{0.4, 0.5}, {0.5, 0.7}, {0.6, 0.45}};

typedef struct stopper {
    int at;          /* stop at this block (0: never) */
    int request;     /* by a stop request, else the callback's return */
} stopper;

static int progress(int iteration, long long size, double value, double error,
                    void *data)
{
    stopper *s = data;
    (void)size, (void)value, (void)error;
    if (!s->at || iteration < s->at) return 0;
    if (s->request) {
        pagani_context_request_stop(ctx);
        return 0;
    }
    return 1;
}

/* Vegas: the calls per iteration and adjusting iterations. */
#define VEGAS_CALLS 4000.0
#define VEGAS_ITA 2

static pagani_options options(void)
{
    pagani_options o = pagani_options_default(method);
    o.seed = 11;
    o.state_interval = 0.0;
    if (method == PAGANI_VEGAS) {
        o.epsrel = 2e-4;
        o.vegas_calls = VEGAS_CALLS;
        o.vegas_adjust_iterations = VEGAS_ITA;
        o.vegas_bins = 64;
        if (plus) { /* its vector integrand's second component, which
                     * the grid does not follow, needs more than 100
                     * iterations for 2e-4 */
            o.flags |= PAGANI_FLAG_VEGAS_PLUS;
            o.epsrel = 3e-4;
        }
        return o;
    }
    o.epsrel = 1e-5;
    o.qmc_shifts = 8;
    o.qmc_initial_points = 256;
    return o;
}

/* The method of the checks running, as the messages name it. */
static const char *method_label(void)
{
    return method == PAGANI_VEGAS && plus ? "vegas+" : pagani_method_name(method);
}

/* What the method's steps are called. */
static const char *step_name(void)
{
    return method == PAGANI_VEGAS ? "iteration" : "block";
}

/* Runs `which` with options o (state_path: file, or none). */
static outcome run(pagani_integrand *f, form which, pagani_options o,
                   const char *file)
{
    return run_on(ctx, f, which, params, o, file);
}

/* Whether every integral of the outcome converged. */
static int all_converged(const outcome *o, int count)
{
    for (int k = 0; k < count; k++)
        if (o->r[k].status != PAGANI_CONVERGED) return 0;
    return 1;
}

/* The most blocks any integral of the outcome summed. */
static int blocks_of(const outcome *o, int count)
{
    int most = 0;
    for (int k = 0; k < count; k++)
        if (o->r[k].iterations > most) most = o->r[k].iterations;
    return most;
}

/* Vegas: a cap on evaluations that stops `which` before iteration at + 1
 * (midway between the evaluations of integral 0 after at and at + 1
 * iterations), or 0 when such a cap would lower the calls per iteration
 * (below VEGAS_CALLS x (VEGAS_ITA + 3)). */
static long long vegas_cap(pagani_integrand *f, form which, int at)
{
    pagani_options o = options();
    long long before, after, cap;

    o.max_iterations = at;
    before = run(f, which, o, NULL).r[0].evaluations;
    o.max_iterations = at + 1;
    after = run(f, which, o, NULL).r[0].evaluations;
    cap = before + (after - before) / 2;
    return cap >= (long long)(VEGAS_CALLS * (VEGAS_ITA + 3)) ? cap : 0;
}

/* The options that interrupt a run of `which` at block `at` in `how`
 * (Vegas by max_evaluations: max_evaluations 0 when it cannot). */
static pagani_options interrupting(pagani_integrand *f, form which, way how,
                                   int at, stopper *s)
{
    pagani_options o = options();
    memset(s, 0, sizeof *s);
    switch (how) {
    case BY_ITERATIONS: o.max_iterations = at; break;
    case BY_CALLBACK:
    case BY_REQUEST:
        s->at = at;
        s->request = how == BY_REQUEST;
        o.progress = progress;
        o.progress_data = s;
        break;
    default: { /* a cap inside block at + 1: that block is cut */
        long long points = o.qmc_initial_points << at; /* after at + 1 */
        o.max_evaluations = method == PAGANI_VEGAS
                                ? vegas_cap(f, which, at)
                                : (points - o.qmc_initial_points / 2) *
                                      o.qmc_shifts;
    }
    }
    return o;
}

/* Whether a resumed run made the calls of the blocks after `at` alone:
 * one QMC integral sums (initial points) 2^(at - 1) per shift before
 * them (the first block, then each as large as all before it); one Vegas
 * integral, those the stopped run counted at a limit or stop between
 * iterations, or before iteration `at` when max_evaluations cut it; a
 * batch, fewer calls than all its integrals made in the whole run. */
static int resumed_work(long long made, const outcome *whole,
                        const outcome *cut, int at, int count)
{
    const pagani_options o = options();
    long long before = (o.qmc_initial_points << (at - 1)) * o.qmc_shifts;
    long long all = 0;

    for (int k = 0; k < count; k++) all += whole->r[k].evaluations;
    if (count > 1) return made < all;
    if (method == PAGANI_VEGAS) before = cut->r[0].evaluations;
    return made == all - before;
}

/* Interrupts `which` at `at` in every way, resumes it, compares. */
static void resume_checks(pagani_integrand *f, form which, int count,
                          const outcome *whole, int at)
{
    for (way how = 0; how < WAYS; how++) {
        stopper s;
        pagani_options o = interrupting(f, which, how, at, &s);
        outcome cut, resumed;
        struct stat st;
        long long made;

        if (how == BY_EVALUATIONS && !o.max_evaluations) {
            tap_skip("%s stopped by max_evaluations at %s %d: a cap there "
                     "lowers vegas_calls (the refusal checks cover it)",
                     form_names[which], step_name(), at);
            continue;
        }
        unlink(path);
        cut = run(f, which, o, path);
        calls = 0;
        resumed = run(f, which, options(), path);
        made = calls;
        tap_ok(cut.rc == PAGANI_OK && stat(path, &st) == 0 &&
                   (!counting || resumed_work(made, whole, &cut, at, count)) &&
                   (how == BY_EVALUATIONS || !all_converged(&cut, count)) &&
                   same(&resumed, whole, count),
               "%s %s stopped by %s at %s %d (status %s) and resumed: the "
               "bits of the run never stopped (%.17g +- %.3g, %d %ss)",
               method_label(), form_names[which],
               way_names[how], step_name(), at,
               pagani_status_name(cut.r[0].status), resumed.r[0].value,
               resumed.r[0].error, resumed.r[0].iterations, step_name());
    }
}

/* Resumed twice: stopped at 1, then at `mid`, then run to the end. */
static void chain_check(pagani_integrand *f, form which, int count,
                        const outcome *whole, int mid)
{
    pagani_options o = options();
    outcome last;
    int rc;

    unlink(path);
    o.max_iterations = 1;
    rc = run(f, which, o, path).rc;
    o.max_iterations = mid;
    rc |= run(f, which, o, path).rc;
    last = run(f, which, options(), path);
    tap_ok(rc == PAGANI_OK && same(&last, whole, count),
           "%s %s stopped at %s 1, resumed and stopped at %d, resumed to "
           "the end: the same bits", method_label(),
           form_names[which], step_name(), mid);
}

/* Vegas stopped by a request in the middle of its first iteration's
 * pass, after the pilot that sized its bin scale: the file is the state
 * before that iteration (pilot and all are made again on resume). */
static void mid_pass_check(pagani_integrand *f, const outcome *whole)
{
    outcome cut, resumed;
    long long made;

    unlink(path);
    calls = 0;
    stop_at = (long long)VEGAS_CALLS / 4; /* past the pilot's 1/16 */
    cut = run(f, SINGLE, options(), path);
    stop_at = 0;
    calls = 0;
    resumed = run(f, SINGLE, options(), path);
    made = calls;
    tap_ok(cut.rc == PAGANI_OK && cut.r[0].status == PAGANI_STOPPED &&
               cut.r[0].iterations == 0 && made == whole->r[0].evaluations &&
               same(&resumed, whole, 1),
           "vegas stopped by a request inside its first pass (after the "
           "pilot) and resumed: the bits of the run never stopped, made "
           "anew (%lld calls)", made);
}

/* Writing after every block changes nothing; the file it leaves resumes
 * to the same bits. */
static void interval_check(pagani_integrand *f, form which, int count,
                           const outcome *whole)
{
    pagani_options o = options();
    outcome every, again;
    struct stat st;

    unlink(path);
    o.state_interval = 1e-300;
    every = run(f, which, o, path);
    again = run(f, which, options(), path);
    tap_ok(same(&every, whole, count) && stat(path, &st) == 0 &&
               same(&again, whole, count),
           "%s %s writing its state after every %s: the same bits, and its "
           "last file resumes to them", method_label(),
           form_names[which], step_name());
}

static void form_checks(pagani_integrand *f, form which)
{
    const int count = which == BATCH ? K : 1;
    outcome whole = run(f, which, options(), NULL);
    int blocks = blocks_of(&whole, count);
    const int at[3] = {1, blocks / 2, blocks - 1};

    tap_ok(whole.rc == PAGANI_OK && whole.r[0].status == PAGANI_CONVERGED &&
               blocks >= 4,
           "%s %s converges in %d %ss without checkpoints",
           method_label(), form_names[which], blocks, step_name());
    for (int i = 0; i < 3; i++) resume_checks(f, which, count, &whole, at[i]);
    chain_check(f, which, count, &whole, blocks / 2);
    interval_check(f, which, count, &whole);
    if (method == PAGANI_VEGAS && which == SINGLE && counting)
        mid_pass_check(f, &whole);
}

/* ---- refusals -------------------------------------------------------- */

static size_t read_all(const char *file, unsigned char *buf, size_t cap)
{
    FILE *in = fopen(file, "rb");
    size_t got = in ? fread(buf, 1, cap, in) : 0;
    if (in) fclose(in);
    return got;
}

static void write_all(const char *file, const unsigned char *buf, size_t n)
{
    FILE *out = fopen(file, "wb");
    if (!out) return;
    fwrite(buf, 1, n, out);
    fclose(out);
}

/* The checksum of the file's words but the last (format2_sum), put
 * last. */
static void reseal(unsigned char *buf, size_t n)
{
    unsigned long long h = format2_sum(buf, n - 8);
    memcpy(buf + n - 8, &h, 8);
}

/* Writes the file `good` (n bytes) with `count` 64-bit words changed,
 * the one at byte at[i] to value[i], and its checksum made to fit them. */
static void forge(const unsigned char *good, size_t n, int count,
                  const size_t *at, const unsigned long long *value)
{
    static unsigned char bad[1 << 16];
    memcpy(bad, good, n);
    for (int i = 0; i < count; i++) memcpy(bad + at[i], &value[i], 8);
    reseal(bad, n);
    write_all(path, bad, n);
}

/* The QMC payload's last bytes in format 4 (qmc_checkpoint.c), which a
 * format-3 payload lacks: the heavy-tail guard's state, one integral's R
 * peaks, QMC_TAIL_BLOCKS (64) levels, its growth (doubles) and held flag
 * (an int). */
#define GUARD_BYTES(R) ((size_t)(R) * 8 + 64 * 8 + 8 + 4)

/* Writes the one-integral QMC file `good` (n bytes) as format 3 wrote it:
 * the payload without the guard's state, padded, the checksum made to
 * fit. */
static void write_qmc_format3(const unsigned char *good, size_t n)
{
    static unsigned char old[1 << 16];
    unsigned long long payload, three = 3;
    size_t bytes;

    memcpy(&payload, good + 8 * W_PAYLOAD, 8);
    if (n > sizeof old || payload < GUARD_BYTES(options().qmc_shifts) ||
        payload > n - HEADER_BYTES - 8)
        return;
    payload -= GUARD_BYTES(options().qmc_shifts);
    bytes = HEADER_BYTES + (payload + 7) / 8 * 8 + 8;
    memset(old, 0, bytes);
    memcpy(old, good, HEADER_BYTES + payload);
    memcpy(old + 8 * W_FORMAT, &three, 8);
    memcpy(old + 8 * W_PAYLOAD, &payload, 8);
    reseal(old, bytes);
    write_all(path, old, bytes);
}

/* A run of f with params p, box [0, top]^n and options o against the
 * file: refused with PAGANI_ERR_STATE and a message holding `says`, the
 * file left as it was. */
static void refused(pagani_integrand *f, const double *p, double top,
                    pagani_options o, const char *says, const char *what)
{
    static unsigned char before[1 << 16], after[1 << 16];
    double up[DIM] = {top, top, top, top};
    size_t n = read_all(path, before, sizeof before);
    pagani_result r;
    int rc;

    pagani_integrand_set_params(f, p, 2 * sizeof(double));
    o.state_path = path;
    rc = pagani_integrate(ctx, f, lower, up, &o, &r);
    tap_ok(rc == PAGANI_ERR_STATE &&
               strstr(pagani_context_message(ctx), says) &&
               read_all(path, after, sizeof after) == n &&
               !memcmp(before, after, n),
           "%s: PAGANI_ERR_STATE, file kept: %s", what,
           pagani_context_message(ctx));
}

static void refusal_checks(pagani_integrand *f)
{
    static unsigned char good[1 << 16], bad[1 << 16];
    pagani_options o = options(), seed = options();
    pagani_integrand *g = NULL, *h = NULL;
    size_t n;

    unlink(path);
    o.max_iterations = 2;
    pagani_integrand_set_params(f, params[0], sizeof params[0]);
    run(f, SINGLE, o, path);
    n = read_all(path, good, sizeof good);
    tap_ok(n > 128, "a checkpoint of %zu bytes", n);

    refused(f, params[1], 1.0, options(), "the parameter blocks",
            "another parameter block");
    refused(f, params[0], 0.9, options(), "the boxes", "another box");
    seed.seed = 12;
    refused(f, params[0], 1.0, seed, "the options", "another seed");

    forge(good, n, 1, (const size_t[]){8 * W_METHOD},
          (const unsigned long long[]){PAGANI_VEGAS});
    refused(f, params[0], 1.0, options(), "another method (vegas",
            "another method (forged)");

    forge(good, n, 2, (const size_t[]){8 * W_RANK, 8 * W_RANKS},
          (const unsigned long long[]){1, 4});
    refused(f, params[0], 1.0, options(), "rank 1 of 4 ranks",
            "another number of ranks (forged)");

    forge(good, n, 1, (const size_t[]){8 * W_FORMAT},
          (const unsigned long long[]){5});
    refused(f, params[0], 1.0, options(), "of format 5",
            "a newer format (forged)");

    write_qmc_format3(good, n);
    refused(f, params[0], 1.0, options(), "holds a qmc state of format 3",
            "a QMC file of format 3 (forged: without the guard's state)");
    tap_ok(strstr(pagani_context_message(ctx), "heavy-tail guard") &&
               strstr(pagani_context_message(ctx), "run the integration "
                                                   "again"),
           "its message says why and what to do: %s",
           pagani_context_message(ctx));

    forge(good, n, 1, (const size_t[]){8 * W_FORMAT},
          (const unsigned long long[]){2});
    refused(f, params[0], 1.0, options(), "of format 2",
            "an older format (forged)");

    write_all(path, good, n / 2);
    refused(f, params[0], 1.0, options(), "truncated", "half a file");
    write_all(path, good, 20);
    refused(f, params[0], 1.0, options(), "truncated", "20 bytes of a file");

    memcpy(bad, good, n);
    bad[n / 2] ^= 0x10;
    write_all(path, bad, n);
    refused(f, params[0], 1.0, options(), "damaged", "a byte flipped");

    srand(5);
    for (size_t i = 0; i < n; i++) bad[i] = (unsigned char)rand();
    write_all(path, bad, n);
    refused(f, params[0], 1.0, options(), "no libpagani checkpoint",
            "random bytes");

    /* source integrands: the source is the integrand's identity */
    if (pagani_integrand_from_source(ctx, &g, DIM, "return exp(-x[0]);",
                                     NULL, 0) == PAGANI_OK &&
        pagani_integrand_from_source(ctx, &h, DIM, "return exp(-x[1]);",
                                     NULL, 0) == PAGANI_OK) {
        pagani_result r;
        int rc;
        unlink(path);
        o.state_path = path;
        pagani_integrate(ctx, g, lower, upper, &o, &r);
        rc = pagani_integrate(ctx, h, lower, upper, &o, &r);
        tap_ok(rc == PAGANI_ERR_STATE &&
                   strstr(pagani_context_message(ctx), "the integrand"),
               "another source: PAGANI_ERR_STATE: %s",
               pagani_context_message(ctx));
    } else
        tap_skip("source integrands do not compile here: %s",
                 pagani_context_message(ctx));
    pagani_integrand_destroy(g);
    pagani_integrand_destroy(h);
    pagani_integrand_set_params(f, params[0], sizeof params[0]);
}

static void option_checks(pagani_integrand *f)
{
    pagani_options o = options();
    pagani_result r;
    int rc;

    o.state_path = "";
    rc = pagani_integrate(ctx, f, lower, upper, &o, &r);
    tap_ok(rc == PAGANI_ERR_OPTION, "an empty state_path is PAGANI_ERR_OPTION");
    o = options();
    o.state_path = path;
    o.state_interval = -1.0;
    rc = pagani_integrate(ctx, f, lower, upper, &o, &r);
    tap_ok(rc == PAGANI_ERR_OPTION, "state_interval -1 is PAGANI_ERR_OPTION");
    o.state_interval = NAN;
    rc = pagani_integrate(ctx, f, lower, upper, &o, &r);
    tap_ok(rc == PAGANI_ERR_OPTION, "state_interval NaN is PAGANI_ERR_OPTION");
    o = options();
    o.state_path = "/nonexistent-pagani-dir/run.state";
    o.max_iterations = 1;
    rc = pagani_integrate(ctx, f, lower, upper, &o, &r);
    tap_ok(rc == PAGANI_ERR_SYSTEM &&
               strstr(pagani_context_message(ctx), "temporary file"),
           "a path in a missing directory is PAGANI_ERR_SYSTEM: %s",
           pagani_context_message(ctx));
    tap_ok(pagani_options_default(PAGANI_QMC).state_interval == 600.0 &&
               !pagani_options_default(PAGANI_QMC).state_path,
           "the default: no file, an interval of 600 s");
    tap_ok(strcmp(pagani_strerror(PAGANI_ERR_STATE), "unknown error code") != 0,
           "PAGANI_ERR_STATE has a name: %s", pagani_strerror(PAGANI_ERR_STATE));
}

/* Vegas stopped by a cap that lowers vegas_calls (4000 to 3999) without
 * changing the pass (1296 sub-cubes of 3 samples), then resumed without
 * it: the bits of the run never stopped. */
static void vegas_lowered_calls(pagani_integrand *f)
{
    pagani_options o = options();
    outcome whole = run(f, SINGLE, options(), NULL), cut, resumed;

    unlink(path);
    o.max_evaluations = (long long)(VEGAS_CALLS * (VEGAS_ITA + 3)) - 1;
    cut = run(f, SINGLE, o, path);
    resumed = run(f, SINGLE, options(), path);
    tap_ok(cut.rc == PAGANI_OK &&
               cut.r[0].status == PAGANI_MAX_EVALUATIONS &&
               same(&resumed, &whole, 1),
           "vegas stopped by a cap that lowers vegas_calls to %lld but "
           "keeps the pass, resumed without it: the same bits (%d "
           "iterations, then %d)",
           o.max_evaluations / (VEGAS_ITA + 3), cut.r[0].iterations,
           resumed.r[0].iterations);
}

/* Vegas files resumed where they cannot be: under a cap that lowers the
 * calls per iteration, with max_iterations below the iterations the file
 * holds. */
static void vegas_refusals(pagani_integrand *f)
{
    pagani_options o = options();

    unlink(path);
    o.max_iterations = 3;
    run(f, SINGLE, o, path);
    o = options();
    o.max_evaluations = (long long)(VEGAS_CALLS * (VEGAS_ITA + 3)) / 2;
    refused(f, params[0], 1.0, o, "the calls are lowered",
            "Vegas resumed under a cap that lowers vegas_calls");
    o = options();
    o.max_iterations = 2;
    refused(f, params[0], 1.0, o, "holds 3 iterations, more than "
            "max_iterations 2", "Vegas resumed with fewer max_iterations");
}

/* A Vegas file of format 3 (its payload as format 4's: only QMC's
 * changed), forged from one stopped after 2 iterations: resumed to the
 * bits of the run never stopped. */
static void vegas_format3_resumes(pagani_integrand *f)
{
    static unsigned char file[1 << 16];
    const outcome whole = run(f, SINGLE, options(), NULL);
    pagani_options o = options();
    outcome resumed;
    size_t n;

    unlink(path);
    o.max_iterations = 2;
    run(f, SINGLE, o, path);
    n = read_all(path, file, sizeof file);
    forge(file, n, 1, (const size_t[]){8 * W_FORMAT},
          (const unsigned long long[]){3});
    resumed = run(f, SINGLE, options(), path);
    tap_ok(n > HEADER_BYTES && same(&resumed, &whole, 1),
           "a Vegas file of format 3 resumes to the bits of the run never "
           "stopped (%d iterations): %s", resumed.r[0].iterations,
           pagani_context_message(ctx));
}

/* A Vegas+ checkpoint (it holds the per-cube counts too) resumed by a
 * run without PAGANI_FLAG_VEGAS_PLUS, and a plain one by Vegas+: refused,
 * naming the options; one whose last sub-cube count (the payload's last
 * word) is raised by 1 or set to 1, the checksum made to fit: refused,
 * its counts no longer what the run sampled. */
static void vegas_plus_refusals(pagani_integrand *f)
{
    static unsigned char good[1 << 16];
    pagani_options o;
    unsigned long long payload, count;
    size_t n, last;

    for (int i = 0; i < 2; i++) { /* the Vegas+ file last */
        plus = i;
        o = options();
        o.max_iterations = 3;
        unlink(path);
        run(f, SINGLE, o, path);
        plus = !i;
        refused(f, params[0], 1.0, options(), "the options",
                i ? "a Vegas+ checkpoint resumed as plain Vegas"
                  : "a Vegas checkpoint resumed as Vegas+");
    }
    plus = 1;
    n = read_all(path, good, sizeof good); /* Vegas+, 3 iterations */
    memcpy(&payload, good + 8 * W_PAYLOAD, 8);
    last = HEADER_BYTES + payload - 8;
    memcpy(&count, good + last, 8);
    forge(good, n, 1, &last, (const unsigned long long[]){count + 1});
    refused(f, params[0], 1.0, options(), "no state of this Vegas run",
            "a Vegas+ file with a sub-cube count raised (forged)");
    forge(good, n, 1, &last, (const unsigned long long[]){1});
    refused(f, params[0], 1.0, options(), "no state of this Vegas run",
            "a Vegas+ file with a sub-cube count of 1 (forged)");
    plus = 0;
}

/* ---- a writer killed --------------------------------------------------- */

/* The child: resumes and writes after every block, over and over (when
 * the run is done, a copy of its first file is renamed over the file). */
static void writer(void)
{
    static unsigned char first[1 << 16];
    char reset[320];
    pagani_context *c = NULL;
    pagani_integrand *f = NULL;
    pagani_options o = options();
    pagani_result r;
    size_t n;

    pagani_context_create(&c, PAGANI_BACKEND_CPU);
    pagani_context_set_threads(c, 1);
    pagani_integrand_from_function(c, &f, DIM, gauss, params[0],
                                   sizeof params[0]);
    snprintf(reset, sizeof reset, "%s.reset", path);
    o.state_path = path;
    o.max_iterations = 1;
    pagani_integrate(c, f, lower, upper, &o, &r);
    n = read_all(path, first, sizeof first);
    o.max_iterations = 0;
    o.state_interval = 1e-300;
    for (;;) {
        pagani_integrate(c, f, lower, upper, &o, &r);
        write_all(reset, first, n);
        rename(reset, path);
    }
}

/* Kills KILLS writers after 1, 2, 4, ... ms of writing (the file exists
 * when the clock starts) and keeps what each left. Runs before this
 * process starts OpenMP threads, which a fork does not carry. */
static int killed[KILLS];
static unsigned char left[KILLS][1 << 16];
static size_t left_size[KILLS];

static void kill_writers(void)
{
    for (int i = 0; i < KILLS; i++) {
        struct stat st;
        pid_t pid;
        unlink(path);
        pid = fork();
        if (pid == 0) writer();
        if (pid < 0) continue;
        while (stat(path, &st) != 0) usleep(200);
        usleep(1000u << i);
        killed[i] = kill(pid, SIGKILL) == 0;
        waitpid(pid, NULL, 0);
        left_size[i] = read_all(path, left[i], sizeof left[i]);
    }
}

static void killed_checks(pagani_integrand *f, const outcome *whole)
{
    for (int i = 0; i < KILLS; i++) {
        outcome resumed;
        write_all(path, left[i], left_size[i]);
        resumed = run(f, SINGLE, options(), path);
        tap_ok(killed[i] && left_size[i] > 0 && same(&resumed, whole, 1),
               "a writer killed with SIGKILL after %u ms left a file of %zu "
               "bytes that resumes to the same bits", 1u << i, left_size[i]);
    }
}

/* ---- the GPU ----------------------------------------------------------- */

static const char gauss_source[] =
    "double s = 0.0;\n"
    "for (int i = 0; i < n; i++) s += (x[i] - p[0]) * (x[i] - p[0]);\n"
    "return exp(-s / (p[1] * p[1]));\n";
static const char gauss_moment_source[] =
    "double s = 0.0;\n"
    "for (int i = 0; i < n; i++) s += (x[i] - p[0]) * (x[i] - p[0]);\n"
    "f[0] = exp(-s / (p[1] * p[1]));\n"
    "f[1] = x[0] * f[0];\n";

/* The resume checks of QMC, Vegas and Vegas+ on the CUDA backend, with
 * source integrands (whose calls are not counted: the work a resumed run
 * made is not checked, its bits and counts are); skipped without a
 * usable GPU. */
static void gpu_checks(void)
{
    pagani_integrand *f = NULL, *v = NULL;

    if (pagani_context_create(&ctx, PAGANI_BACKEND_CUDA) != PAGANI_OK) {
        tap_skip("no usable GPU: the CUDA backend's resume checks");
        pagani_context_destroy(ctx);
        return;
    }
    counting = 0;
    if (pagani_integrand_from_source(ctx, &f, DIM, gauss_source, params[0],
                                     sizeof params[0]) != PAGANI_OK ||
        pagani_integrand_from_vector_source(ctx, &v, DIM, NCOMP,
                                            gauss_moment_source, params[0],
                                            sizeof params[0]) != PAGANI_OK)
        tap_ok(0, "the GPU's source integrands: %s",
               pagani_context_message(ctx));
    else
        for (int i = 0; i < 3; i++) { /* QMC, Vegas, Vegas+ */
            method = i ? PAGANI_VEGAS : PAGANI_QMC;
            plus = i == 2;
            form_checks(f, SINGLE);
            form_checks(f, BATCH);
            form_checks(v, VECTOR);
        }
    plus = 0;
    pagani_integrand_destroy(f);
    pagani_integrand_destroy(v);
    pagani_context_destroy(ctx);
}

/* Removes the directory's files (temporaries a killed writer left). */
static void clean(void)
{
    char command[400];
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    if (system(command) != 0) tap_diag("could not remove %s", dir);
}

int main(void)
{
    pagani_integrand *f = NULL, *v = NULL;
    const char *tmp = getenv("TMPDIR");

    alarm(tap_hang_seconds());
    snprintf(dir, sizeof dir, "%s/pagani-state-XXXXXX", tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) return tap_skip_all("cannot create a temp dir");
    snprintf(path, sizeof path, "%s/run.state", dir);
    kill_writers();

    if (pagani_context_create(&ctx, PAGANI_BACKEND_CPU) != PAGANI_OK)
        return tap_skip_all("no CPU context");
    pagani_context_set_threads(ctx, 2);
    stop_context = ctx;
    pagani_integrand_from_function(ctx, &f, DIM, gauss, params[0],
                                   sizeof params[0]);
    pagani_integrand_from_vector_function(ctx, &v, DIM, NCOMP, gauss_moment,
                                          params[0], sizeof params[0]);
    form_checks(f, SINGLE);
    form_checks(f, BATCH);
    form_checks(v, VECTOR);
    {
        outcome whole = run(f, SINGLE, options(), NULL);
        killed_checks(f, &whole);
    }
    refusal_checks(f);
    option_checks(f);
    method = PAGANI_VEGAS;
    form_checks(f, SINGLE);
    form_checks(f, BATCH);
    form_checks(v, VECTOR);
    vegas_lowered_calls(f);
    vegas_refusals(f);
    vegas_format3_resumes(f);
    plus = 1;
    form_checks(f, SINGLE);
    form_checks(f, BATCH);
    form_checks(v, VECTOR);
    plus = 0;
    vegas_plus_refusals(f);

    pagani_integrand_destroy(f);
    pagani_integrand_destroy(v);
    pagani_context_destroy(ctx);
    gpu_checks();
    clean();
    tap_done();
    return tap_exit_code();
}
