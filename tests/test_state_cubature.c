/*
 * test_state_cubature.c - cubature checkpoints (pagani_options.state_path,
 * README "Checkpoints and warm starts") on the CPU, and on CUDA when a
 * GPU is there (skipped without one):
 *  - a run interrupted after its first iteration, mid-run and one
 *    iteration before it converges, by max_iterations, by the progress
 *    callback, by a stop request and by max_evaluations, then run again
 *    with the limits lifted, ends with the bits of the run never
 *    interrupted (value, error, status, evaluations, iterations, regions;
 *    the components of a vector integrand), for one integral, a batch of
 *    three and a vector integrand; a resume after max_iterations makes
 *    exactly the calls the cut run did not;
 *  - writing after every iteration changes nothing, and a file copied in
 *    the middle of such a run (a process killed there) resumes to the
 *    same bits;
 *  - a memory budget smaller than the file's list is PAGANI_ERR_STATE
 *    with a message that says so; so is a file with a byte of its region
 *    list flipped (the checksum, checked after the list is read) or cut
 *    short, and a batch's file whose per-integral counts were changed
 *    (the checksum made to fit);
 *  - the file's checksum is format 2's taken word by word.
 * (test_state.c checks the file's refusals and the atomic write, which
 * do not depend on the method.)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "pagani.h"
#include "state_cases.h"
#include "tap.h"

/* The memory budget of every context: a GPU's default (most of its free
 * memory) differs between two contexts, and a resume needs the budget of
 * the run it continues. */
#define BUDGET ((size_t)1 << 30)

/* Runs are cut on the context of CUT, resumed on that of RESUME, so that
 * a resume finds nothing of the run it continues in its buffers but what
 * it read; each has the integrands of every form. */
enum { CUT, RESUME, SIDES };
static pagani_context *ctx[SIDES];
static pagani_integrand *integrand[SIDES][FORMS];
static int counting; /* host functions count their calls (CPU) */
static char dir[256], path[300], copy[310];
#define MOST_ITERATIONS 64
static long long upto[MOST_ITERATIONS]; /* calls of the whole run after
                                           each iteration */

static const double params[K][2] = {{0.4, 0.3}, {0.5, 0.4}, {0.6, 0.25}};

/* What the progress callback does at iteration `at` (0: nothing). */
typedef struct stopper {
    int at;
    int request;      /* a stop request, else the callback's return */
    int copy;         /* copy the file to `copy` and go on */
    int record;       /* note the calls so far in upto */
} stopper;

static int progress(int iteration, long long size, double value, double error,
                    void *data)
{
    stopper *s = data;
    (void)size, (void)value, (void)error;
    if (s->record && iteration < MOST_ITERATIONS) upto[iteration] = calls;
    if (!s->at || iteration != s->at) return 0;
    if (s->copy) {
        char command[700];
        snprintf(command, sizeof command, "cp '%s' '%s'", path, copy);
        return system(command) != 0;
    }
    if (s->request) pagani_context_request_stop(ctx[CUT]);
    return !s->request;
}

static pagani_options options(void)
{
    pagani_options o = pagani_options_default(PAGANI_CUBATURE);
    o.epsrel = 1e-9;
    o.state_interval = 0.0;
    /* the refinement of every run with state_path: the runs never
     * stopped, without one, take it too */
    o.strategy = PAGANI_STRATEGY_BREADTH;
    return o;
}

/* Runs `which` on the context of `side` with options o (state_path:
 * file, or none). */
static outcome run(int side, form which, pagani_options o, const char *file)
{
    return run_on(ctx[side], integrand[side][which], which, params, o, file);
}

static int most_iterations(const outcome *o, int count)
{
    int most = 0;
    for (int k = 0; k < count; k++)
        if (o->r[k].iterations > most) most = o->r[k].iterations;
    return most;
}

/* The fewest evaluations of an integral of `which` after `at` iterations. */
static long long evaluations_after(form which, int count, int at)
{
    pagani_options o = options();
    outcome cut;
    long long least = -1;
    o.max_iterations = at;
    cut = run(CUT, which, o, NULL);
    for (int k = 0; k < count; k++)
        if (least < 0 || cut.r[k].evaluations < least) least = cut.r[k].evaluations;
    return least;
}

/* The options that interrupt a run at iteration `at` in `how`. */
static pagani_options interrupting(form which, int count, way how, int at,
                                   stopper *s)
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
    default: /* the split after iteration `at` would pass it */
        o.max_evaluations = evaluations_after(which, count, at) + 1;
    }
    return o;
}

/* Whether integral 0 or another of the outcome did not converge. */
static int cut_short(const outcome *o, int count)
{
    for (int k = 0; k < count; k++)
        if (o->r[k].status != PAGANI_CONVERGED) return 1;
    return 0;
}

/* Whether a resume that made `made` calls ran the whole run's iterations
 * after `from` alone (any: after some iteration up to at). */
static int resumed_after(long long made, long long whole_calls, int from,
                         int at, int any)
{
    for (int j = any ? 0 : from; j <= (any ? at : from); j++)
        if (made == whole_calls - (j ? upto[j] : 0)) return 1;
    return 0;
}

static void resume_checks(form which, int count, const outcome *whole,
                          long long whole_calls, int at)
{
    /* the iterations a resume runs again: a stop request cuts the
     * evaluation of iteration at + 1, the callback and max_evaluations
     * ends iteration at before its split, max_iterations after it;
     * max_evaluations stops the first iteration whose split would pass
     * it (at or before: evaluations count the probes not taken too) */
    const int from[WAYS] = {at, at - 1, at, 0};

    for (way how = 0; how < WAYS; how++) {
        stopper s;
        pagani_options o = interrupting(which, count, how, at, &s);
        outcome cut, resumed;
        long long cut_calls;
        struct stat st;
        int work;

        unlink(path);
        calls = 0;
        cut = run(CUT, which, o, path);
        cut_calls = calls;
        calls = 0;
        resumed = run(RESUME, which, options(), path);
        work = !counting ||
               (resumed_after(calls, whole_calls, from[how], at,
                              how == BY_EVALUATIONS) &&
                (how != BY_ITERATIONS || cut_calls + calls == whole_calls));
        tap_ok(cut.rc == PAGANI_OK && stat(path, &st) == 0 && work &&
                   cut_short(&cut, count) &&
                   same(&resumed, whole, count),
               "%s stopped by %s at iteration %d (status %s, %lld calls) "
               "and resumed (%lld calls): the bits of the run never stopped "
               "(%.17g +- %.3g, %d iterations)",
               form_names[which], way_names[how], at,
               pagani_status_name(cut.r[0].status), cut_calls, calls,
               resumed.r[0].value, resumed.r[0].error, resumed.r[0].iterations);
    }
}

/* Writing after every iteration changes nothing; a file copied at
 * iteration `at` of such a run, and the file it leaves, resume to the
 * same bits. */
static void interval_check(form which, int count, const outcome *whole, int at)
{
    pagani_options o = options();
    stopper s = {.at = at, .copy = 1};
    outcome every, again, killed;

    unlink(path);
    unlink(copy);
    o.state_interval = 1e-300;
    o.progress = progress;
    o.progress_data = &s;
    every = run(CUT, which, o, path);
    again = run(RESUME, which, options(), path);
    killed = run(RESUME, which, options(), copy);
    tap_ok(same(&every, whole, count) && same(&again, whole, count) &&
               access(copy, R_OK) == 0 && same(&killed, whole, count),
           "%s writing its state after every iteration: the same bits; its "
           "last file and its file at iteration %d resume to them",
           form_names[which], at);
}

static void form_checks(form which)
{
    const int count = which == BATCH ? K : 1;
    pagani_options o = options();
    stopper record = {.record = 1};
    outcome whole;
    long long whole_calls;
    int its;

    calls = 0;
    o.progress = progress;
    o.progress_data = &record;
    whole = run(CUT, which, o, NULL);
    whole_calls = calls;
    its = most_iterations(&whole, count);
    tap_ok(whole.rc == PAGANI_OK && whole.r[0].status == PAGANI_CONVERGED &&
               its >= 5,
           "%s converges in %d iterations without checkpoints (%lld calls)",
           form_names[which], its, whole_calls);
    if (its < 5) return;
    {
        const int at[3] = {1, its / 2, its - 1};
        for (int i = 0; i < 3; i++)
            resume_checks(which, count, &whole, whole_calls, at[i]);
        interval_check(which, count, &whole, its / 2);
    }
}

/* Worst-first refinement holds regions a checkpoint does not keep: a run
 * with state_path asking for it is refused, and AUTO refines
 * breadth-first (the bits of a BREADTH run). */
static void strategy_check(void)
{
    pagani_options o = options();
    outcome breadth, automatic;
    int rc;

    unlink(path);
    o.strategy = PAGANI_STRATEGY_WORST_FIRST;
    rc = run(CUT, SINGLE, o, path).rc;
    tap_ok(rc == PAGANI_ERR_OPTION &&
               strstr(pagani_context_message(ctx[CUT]), "state_path"),
           "worst-first with state_path: PAGANI_ERR_OPTION: %s",
           pagani_context_message(ctx[CUT]));
    o.strategy = PAGANI_STRATEGY_AUTO;
    o.epsrel = 1e-6;
    automatic = run(CUT, SINGLE, o, path);
    unlink(path);
    o.strategy = PAGANI_STRATEGY_BREADTH;
    breadth = run(CUT, SINGLE, o, path);
    unlink(path);
    tap_ok(automatic.rc == PAGANI_OK && breadth.rc == PAGANI_OK &&
               memcmp(&automatic.r[0].value, &breadth.r[0].value, sizeof(double)) == 0 &&
               automatic.r[0].evaluations == breadth.r[0].evaluations,
           "AUTO with state_path refines breadth-first (%lld and %lld evaluations)",
           automatic.r[0].evaluations, breadth.r[0].evaluations);
}

/* A file of a list larger than the memory budget holds is refused. */
static void budget_check(void)
{
    pagani_options o = options();
    outcome cut;
    int rc;

    unlink(path);
    o.max_iterations = 3;
    cut = run(CUT, SINGLE, o, path);
    pagani_context_set_memory(ctx[RESUME], BUDGET / 1024);
    rc = run(RESUME, SINGLE, options(), path).rc;
    tap_ok(cut.rc == PAGANI_OK && rc == PAGANI_ERR_STATE &&
               strstr(pagani_context_message(ctx[RESUME]), "raise it"),
           "a memory budget below the file's list: PAGANI_ERR_STATE: %s",
           pagani_context_message(ctx[RESUME]));
    pagani_context_set_memory(ctx[RESUME], BUDGET);
}

/* The file's bytes (malloc'd; *got of them), or NULL. */
static unsigned char *file_bytes(size_t *got)
{
    FILE *in = fopen(path, "rb");
    unsigned char *buf = NULL;
    struct stat st;

    *got = 0;
    if (in && stat(path, &st) == 0 && (buf = malloc((size_t)st.st_size + 1)))
        *got = fread(buf, 1, (size_t)st.st_size, in);
    if (in) fclose(in);
    return buf;
}

/* Copies `bytes` of the file (all: the file's size) over it with the
 * byte at `flip` (when < bytes) changed. */
static void spoil(size_t bytes, size_t flip)
{
    size_t got;
    unsigned char *buf = file_bytes(&got);
    FILE *out;

    if (!buf) return;
    if (bytes > got) bytes = got;
    if (flip < bytes) buf[flip] ^= 0x10;
    out = fopen(path, "wb");
    if (out) {
        fwrite(buf, 1, bytes, out);
        fclose(out);
    }
    free(buf);
}

/* A cubature file's last word is format 2's checksum of the words before
 * it taken one by one (format2_sum), for each form (the writer sums
 * whole rounds of a word per lane at once, from pieces that begin at any
 * lane and byte). */
static void checksum_check(form which)
{
    pagani_options o = options();
    unsigned long long sum = 0;
    unsigned char *buf;
    size_t got;

    unlink(path);
    o.max_iterations = 3;
    run(CUT, which, o, path);
    buf = file_bytes(&got);
    if (buf && got >= 16 && got % 8 == 0) memcpy(&sum, buf + got - 8, 8);
    tap_ok(buf && got > 2000 && got % 8 == 0 && sum == format2_sum(buf, got - 8),
           "the checksum of a cubature file of %s (%zu bytes) is format 2's "
           "taken word by word", form_names[which], got);
    free(buf);
}

/* A file whose region list is damaged (a byte flipped near its end) or
 * cut short is refused, the run's results cleared. */
static void damage_checks(void)
{
    static const char *const says[2] = {"damaged", "truncated"};
    for (int i = 0; i < 2; i++) {
        pagani_options o = options();
        outcome resumed;
        struct stat st;

        unlink(path);
        o.max_iterations = 3;
        run(CUT, SINGLE, o, path);
        if (stat(path, &st) != 0) st.st_size = 0;
        if (i == 0) spoil((size_t)st.st_size, (size_t)st.st_size - 100);
        else spoil((size_t)st.st_size - 1000, (size_t)-1);
        resumed = run(RESUME, SINGLE, options(), path);
        tap_ok(st.st_size > 2000 && resumed.rc == PAGANI_ERR_STATE &&
                   strstr(pagani_context_message(ctx[RESUME]), says[i]) &&
                   resumed.r[0].evaluations == 0,
               "a cubature file %s: PAGANI_ERR_STATE: %s",
               i ? "1000 bytes short" : "with a byte of its list flipped",
               pagani_context_message(ctx[RESUME]));
    }
}

/* The payload's per-integral region counts: after the file's header (16
 * words) and the payload's head (9 words; cubature_checkpoint.c). */
#define COUNTS_AT (8 * (16 + 9))

/* A batch's file whose region counts were moved between two integrals
 * (the total and their pairs kept; the checksum made to fit) is refused:
 * on one process the counts must be the runs'. */
static void forged_counts_check(void)
{
    pagani_options o = options();
    long long counts[2] = {0, 0};
    unsigned long long sum;
    unsigned char *buf;
    outcome resumed;
    size_t got;
    FILE *out;

    unlink(path);
    o.max_iterations = 3;
    run(CUT, BATCH, o, path);
    buf = file_bytes(&got);
    if (buf && got > COUNTS_AT + 16 && got % 8 == 0) {
        memcpy(counts, buf + COUNTS_AT, sizeof counts);
        counts[0] += 2;
        counts[1] -= 2;
        memcpy(buf + COUNTS_AT, counts, sizeof counts);
        sum = format2_sum(buf, got - 8);
        memcpy(buf + got - 8, &sum, 8);
        if ((out = fopen(path, "wb"))) {
            fwrite(buf, 1, got, out);
            fclose(out);
        }
    }
    free(buf);
    resumed = run(RESUME, BATCH, options(), path);
    tap_ok(counts[1] >= 0 && resumed.rc == PAGANI_ERR_STATE &&
               strstr(pagani_context_message(ctx[RESUME]), "no state"),
           "a batch's file with 2 regions moved between its integrals' "
           "counts (%lld, %lld): PAGANI_ERR_STATE: %s", counts[0], counts[1],
           pagani_context_message(ctx[RESUME]));
}

/* The integrands of a context: host functions on the CPU (their calls
 * counted), else source. */
static int make_integrands(int side, pagani_backend backend)
{
    static const char scalar[] =
        "double s = 0.0;\n"
        "for (int i = 0; i < n; i++) s += (x[i] - p[0]) * (x[i] - p[0]);\n"
        "return exp(-s / (p[1] * p[1]));";
    static const char vector[] =
        "double s = 0.0, t = 0.0;\n"
        "for (int i = 0; i < n; i++) {\n"
        "    s += (x[i] - p[0]) * (x[i] - p[0]);\n"
        "    t += x[i];\n"
        "}\n"
        "f[0] = exp(-s / (p[1] * p[1]));\n"
        "f[1] = cos(t);";
    pagani_context *c = ctx[side];
    pagani_integrand **f = integrand[side];
    const size_t bytes = sizeof params[0];

    pagani_context_set_memory(c, BUDGET);
    if (backend == PAGANI_BACKEND_CPU) {
        pagani_context_set_threads(c, 2);
        return pagani_integrand_from_function(c, &f[SINGLE], DIM, gauss, params[0],
                                              bytes) == PAGANI_OK &&
               pagani_integrand_from_vector_function(c, &f[VECTOR], DIM, NCOMP,
                                                     gauss_moment, params[0],
                                                     bytes) == PAGANI_OK;
    }
    return pagani_integrand_from_source(c, &f[SINGLE], DIM, scalar, params[0],
                                        bytes) == PAGANI_OK &&
           pagani_integrand_from_vector_source(c, &f[VECTOR], DIM, NCOMP, vector,
                                               params[0], bytes) == PAGANI_OK;
}

static void backend_checks(pagani_backend backend, const char *name)
{
    int made = 1;

    for (int side = 0; side < SIDES; side++) {
        made = made && pagani_context_create(&ctx[side], backend) == PAGANI_OK &&
               make_integrands(side, backend);
        integrand[side][BATCH] = integrand[side][SINGLE];
    }
    counting = backend == PAGANI_BACKEND_CPU;
    if (!made)
        tap_skip("no %s context: %s", name, pagani_context_message(ctx[CUT]));
    else {
        tap_diag("%s", name);
        form_checks(SINGLE);
        form_checks(BATCH);
        form_checks(VECTOR);
        budget_check();
        strategy_check();
        damage_checks();
        forged_counts_check();
        for (form which = SINGLE; which < FORMS; which++) checksum_check(which);
    }
    for (int side = 0; side < SIDES; side++) {
        pagani_integrand_destroy(integrand[side][SINGLE]);
        pagani_integrand_destroy(integrand[side][VECTOR]);
        memset(integrand[side], 0, sizeof integrand[side]);
        pagani_context_destroy(ctx[side]);
        ctx[side] = NULL;
    }
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");

    alarm(tap_hang_seconds());
    snprintf(dir, sizeof dir, "%s/pagani-cstate-XXXXXX", tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) return tap_skip_all("cannot create a temp dir");
    snprintf(path, sizeof path, "%s/run.state", dir);
    snprintf(copy, sizeof copy, "%s/copy.state", dir);
    backend_checks(PAGANI_BACKEND_CPU, "CPU");
    backend_checks(PAGANI_BACKEND_CUDA, "CUDA");
    unlink(path);
    unlink(copy);
    rmdir(dir);
    tap_done();
    return tap_exit_code();
}
