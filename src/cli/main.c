/*
 * main.c - `pagani [options] 'EXPR'`: integrates a C expression typed at the
 * shell through the public API of libpagani (pagani.h) and nothing else.
 *
 * Steps: parse the command line (args.c), read EXPR (from -f FILE,
 * source_file.c; and the parameter file of --params-file, params_file.c),
 * create a context on the chosen backend, compile EXPR into an integrand
 * (when that fails for want of -n, say so: needs_more_axes), integrate
 * (every line of the parameter file in one pagani_integrate_batch call),
 * print the results (report.c). The exit status says how it ended
 * (args.h). Under mpirun the context spans the job and rank 0 alone
 * prints (mpi_launch.c).
 *
 * SIGINT (Ctrl-C), SIGTERM and SIGHUP are caught from before the context
 * is created: during the integration the handler asks the library to stop
 * (pagani_context_request_stop, which ends the work in flight within
 * about a second) and the estimate so far is printed; before
 * it (while EXPR compiles) nothing is integrated and the program ends by
 * the signal once the library has returned and cleaned up.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pagani.h"
#include "args.h"
#include "mpi_launch.h"
#include "params_file.h"
#include "report.h"
#include "source_file.h"

/* The signals that stop a run: Ctrl-C, kill's default, a closed terminal. */
static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define N_STOP_SIGNALS (sizeof stop_signals / sizeof stop_signals[0])

/* The first stop signal that came, or 0; read by on_iteration and run. */
static volatile sig_atomic_t stop_signal = 0;

/* The context while it integrates, else NULL: what a stop signal asks to
 * stop. */
static pagani_context *volatile integrating = NULL;

/* Records the first stop signal and asks the integration running, if
 * any, to stop (pagani_context_request_stop only sets a flag: safe in a
 * handler). It is installed with SA_RESETHAND, so a second signal of the
 * same kind gets the default action and ends the program at once. */
static void on_stop_signal(int sig)
{
    pagani_context *ctx = integrating;
    if (!stop_signal) stop_signal = sig;
    if (ctx) pagani_context_request_stop(ctx);
}

/* Catches each stop signal with on_stop_signal, keeping the previous
 * actions in saved[]. A signal that pagani started with ignored (nohup,
 * a background job of a script) stays ignored. */
static void catch_stop_signals(struct sigaction saved[N_STOP_SIGNALS])
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sa.sa_flags = SA_RESETHAND | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < N_STOP_SIGNALS; i++) {
        sigaction(stop_signals[i], NULL, &saved[i]);
        if (saved[i].sa_handler != SIG_IGN)
            sigaction(stop_signals[i], &sa, NULL);
    }
}

/* Puts back the actions that catch_stop_signals replaced. */
static void restore_signals(const struct sigaction saved[N_STOP_SIGNALS])
{
    for (size_t i = 0; i < N_STOP_SIGNALS; i++)
        sigaction(stop_signals[i], &saved[i], NULL);
}

/* The name of a stop signal, for messages. */
static const char *signal_name(int sig)
{
    switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    default: return "SIGHUP";
    }
}

/* Ends the program by `sig`, with its default action, so that the shell
 * sees how it ended (status 128 + the signal's number). */
static void end_by_signal(int sig)
{
    signal(sig, SIG_DFL);
    raise(sig);
}

/* What the progress callback needs: the command line and the name of the
 * size it is passed. */
typedef struct progress_state {
    const cli_args *args;
    const char *size_name;
} progress_state;

/* The name of the progress callback's `size` (pagani.h: pagani_progress_fn
 * and pagani_integrate_batch) for a run on `method`: in a batch of more
 * than one integral, the integrals still running; else what the method
 * counts. --method auto does not say beforehand which method runs, so
 * there it is the size. */
static const char *size_name(pagani_method method, int batch)
{
    if (batch) return "integrals running";
    switch (method) {
    case PAGANI_CUBATURE: return "active regions";
    case PAGANI_VEGAS: return "sub-cubes";
    case PAGANI_QMC: return "points per shift";
    default: return "size";
    }
}

/* The progress callback: prints a --progress line when asked and stops the
 * integration (non-zero) once a stop signal has come. */
static int on_iteration(int iteration, long long size, double estimate,
                        double error, void *data)
{
    const progress_state *state = data;
    if (state->args->progress)
        report_progress(stderr, iteration, state->size_name, size, estimate,
                        error);
    return stop_signal != 0;
}

/* The library's defaults for the method, with what the command line set
 * and the progress callback, which gets `state`. */
static pagani_options make_options(const cli_args *a, progress_state *state)
{
    pagani_options o = pagani_options_default(a->method);
    if (a->epsrel >= 0.0) o.epsrel = a->epsrel;
    if (a->epsabs >= 0.0) o.epsabs = a->epsabs;
    if (a->max_evals >= 0) o.max_evaluations = a->max_evals;
    if (a->max_iterations >= 0) o.max_iterations = (int)a->max_iterations;
    if (a->rule) o.rule_degree = a->rule;
    o.strategy = a->strategy;
    if (a->calls > 0.0) o.vegas_calls = a->calls;
    o.batch_warm_stride = (int)a->batch_warm;
    if (a->sigmas > 0.0) o.mc_sigmas = a->sigmas;
    if (a->nscales == 1) o.domain_scale = a->domain_scales[0];
    if (a->nscales > 1) o.domain_scales = a->domain_scales;
    if (a->domain_map >= 0) o.domain_map = (pagani_map)a->domain_map;
    o.domain_centers = a->domain_centers;
    o.breaks = a->breaks;
    o.break_counts = a->break_counts;
    if (a->seed_set) o.seed = a->seed;
    o.state_path = a->state;
    if (a->state_interval >= 0.0) o.state_interval = a->state_interval;
    if (a->no_relerr_filter) o.flags |= PAGANI_FLAG_NO_RELERR_FILTER;
    if (a->no_probes) o.flags |= PAGANI_FLAG_NO_PROBES;
    if (a->transform >= 0) o.qmc_transform = a->transform;
    if (a->norm >= 0) o.norm = (pagani_norm)a->norm;
    o.progress = on_iteration;
    o.progress_data = state;
    return o;
}

/* How an integral ended, in words: the program's callback stops a run
 * only after a stop signal, so PAGANI_STOPPED is "interrupted" here. */
static const char *status_text(const pagani_result *r)
{
    return r->status == PAGANI_STOPPED ? "interrupted"
                                       : pagani_status_name(r->status);
}

/* The exit status after the library refused something with `rc`: what a
 * bad option value or parameter block gives is a usage error. */
static int error_exit_status(int rc)
{
    switch (rc) {
    case PAGANI_ERR_DIMENSION:
    case PAGANI_ERR_BOUNDS:
    case PAGANI_ERR_TOLERANCE:
    case PAGANI_ERR_OPTION:
    case PAGANI_ERR_PARAMS:
    case PAGANI_ERR_COMPONENTS:
        return CLI_EXIT_USAGE;
    default:
        return CLI_EXIT_LIBRARY;
    }
}

/* Compiles EXPR (or the --components body) into *f, an integrand of
 * `dim` axes with the parameter block `params` (nparams numbers); a
 * pagani error code. */
static int make_integrand(const cli_args *a, pagani_context *ctx, int dim,
                          const char *expr, const double *params, int nparams,
                          pagani_integrand **f)
{
    size_t params_size = (size_t)nparams * sizeof(double);
    if (a->gradient)
        return pagani_integrand_gradient_from_source(ctx, f, dim, a->ncomp,
                                                     expr, params,
                                                     params_size, NULL, 0);
    if (a->ncomp > 0)
        return pagani_integrand_from_vector_source(ctx, f, dim, a->ncomp, expr,
                                                   params, params_size);
    return pagani_integrand_from_source(ctx, f, dim, expr, params,
                                        params_size);
}

/* Whether EXPR, refused with n = 1 because no -n or --bounds gave n, is
 * taken with the most axes the library has: then it reads x[1] or beyond
 * and what the command line lacks is the dimension. (Compiles EXPR once
 * more, on this error's path only.) */
static int needs_more_axes(const cli_args *a, pagani_context *ctx,
                           const char *expr, const double *params,
                           int nparams)
{
    pagani_integrand *probe = NULL;
    int rc = make_integrand(a, ctx, PAGANI_MAX_DIM, expr, params, nparams,
                            &probe);
    pagani_integrand_destroy(probe);
    return rc == PAGANI_OK || rc == PAGANI_ERR_PARAMS;
}

/* Creates the context on the chosen backend, applies --threads and --memory
 * and compiles EXPR into *f with the parameter block `params` (nparams
 * numbers). Returns a pagani error code, with *step naming the step that
 * failed, for the message. */
static int prepare(const cli_args *a, const char *expr, const double *params,
                   int nparams, pagani_context **ctx, pagani_integrand **f,
                   const char **step)
{
    int rc;

    *step = "creating the context";
    rc = cli_mpi_context_create(ctx, a->backend);
    if (rc != PAGANI_OK) return rc;
    *step = "--threads";
    if (a->threads >= 0 &&
        (rc = pagani_context_set_threads(*ctx, (int)a->threads)) != PAGANI_OK)
        return rc;
    *step = "--memory";
    if (a->memory >= 0 &&
        (rc = pagani_context_set_memory(*ctx, (size_t)a->memory)) != PAGANI_OK)
        return rc;
    *step = a->components ? "--components" : "EXPR";
    return make_integrand(a, *ctx, a->dim, expr, params, nparams, f);
}

/* Prints the results: one (text or JSON) without a parameter file, else
 * one line each, in the order of the file's lines; with components (ncomp
 * > 0) every component's estimate and error (values, errors: ncomp a
 * result). */
static void print_results(const cli_args *a, const params_table *t,
                          const pagani_result *r, const double *values,
                          const double *errors)
{
    const int nparams = t ? t->width : a->nparams;
    const int m = a->gradient ? (a->ncomp ? a->ncomp : 1) * nparams : 0;
    const size_t c = (size_t)(a->ncomp ? a->ncomp : 1) + (size_t)m;
    const int first = a->ncomp ? a->ncomp : 1; /* where derivatives start */
    if (!t) {
        if (a->json)
            report_json(stdout, r, status_text(r), 0, NULL, 0, a->ncomp,
                        values, errors, m, values + first, errors + first);
        else
            report_text(stdout, r, status_text(r), a->ncomp, values, errors);
        if (!a->json && m)
            report_gradient(stdout, a->ncomp, nparams, values + first,
                            errors + first);
        return;
    }
    for (int k = 0; k < t->count; k++) {
        if (a->json)
            report_json(stdout, &r[k], status_text(&r[k]), t->lines[k],
                        t->values + (size_t)k * (size_t)t->width, t->width,
                        a->ncomp, values + k * c, errors + k * c, m,
                        values + k * c + first, errors + k * c + first);
        else
            report_line(stdout, &r[k], status_text(&r[k]), a->ncomp,
                        values + k * c, errors + k * c);
        if (!a->json && m)
            report_gradient(stdout, a->ncomp, nparams,
                            values + k * c + first, errors + k * c + first);
    }
}

/* Prepares, integrates and prints the results: of EXPR with the -p values,
 * or, when t is not NULL, of EXPR with each block of t, in one batch.
 * Returns the exit status: CLI_EXIT_SIGNAL + the signal's number when a
 * stop signal came before the integration began (it does not begin
 * then). */
static int run(const cli_args *a, const char *expr, const params_table *t)
{
    int count = t ? t->count : 1, nparams = t ? t->width : a->nparams;
    const double *params = t ? t->values : a->params;
    progress_state state = {a, size_name(a->method, count > 1)};
    pagani_options o = make_options(a, &state);
    pagani_context *ctx = NULL;
    pagani_integrand *f = NULL;
    pagani_result *r = calloc((size_t)count, sizeof *r);
    size_t slots = (size_t)count * (size_t)(a->ncomp ? a->ncomp : 1) *
                   (size_t)(a->gradient ? 1 + nparams : 1);
    double *values = malloc(slots * sizeof *values);
    double *errors = malloc(slots * sizeof *errors);
    const char *step;
    int rc, status = CLI_EXIT_LIBRARY, stopped = 0, converged = 1;

    if (!r || !values || !errors) {
        fprintf(stderr, "pagani: out of memory for %d results\n", count);
        return CLI_EXIT_LIBRARY;
    }
    rc = prepare(a, expr, params, nparams, &ctx, &f, &step);
    if (stop_signal) {
        /* A compiler killed by the same Ctrl-C makes rc an error: the
         * signal is the news, not that. */
        fprintf(stderr, "pagani: %s before the integration began; nothing "
                "integrated\n", signal_name(stop_signal));
        status = CLI_EXIT_SIGNAL + stop_signal;
        goto done;
    }
    if (rc == PAGANI_ERR_PARAMS) {
        /* The library's message speaks of the API's parameter block. */
        report_error(step, rc, ctx);
        fprintf(stderr, "pagani: give EXPR's p[0], p[1], ... with -p or on "
                "each line of --params-file\n");
        status = CLI_EXIT_USAGE;
        goto done;
    }
    if (rc == PAGANI_ERR_COMPILE && !a->dim_given) {
        report_error(step, rc, ctx);
        status = CLI_EXIT_LIBRARY;
        if (needs_more_axes(a, ctx, expr, params, nparams)) {
            fprintf(stderr, "pagani: no -n or --bounds given, so n = 1: give "
                    "the dimension EXPR needs with -n N\n");
            status = CLI_EXIT_USAGE;
        }
        goto done;
    }
    if (rc != PAGANI_OK) {
        report_error(step, rc, ctx);
        status = error_exit_status(rc);
        goto done;
    }
    integrating = ctx;
    if (stop_signal) pagani_context_request_stop(ctx); /* it came just now */
    if (t)
        rc = pagani_integrate_batch_vector(ctx, f, count, params,
                                           (size_t)nparams * sizeof(double),
                                           a->lower, a->upper, 0, &o, r,
                                           values, errors);
    else
        rc = pagani_integrate_vector(ctx, f, a->lower, a->upper, &o, r,
                                     values, errors);
    integrating = NULL;
    /* A batch where the integrand returned NaN for some lines still has
     * every line's result: print them, then the error. */
    if (rc != PAGANI_OK && !(t && rc == PAGANI_ERR_NONFINITE)) {
        report_error("integrating", rc, ctx);
        status = error_exit_status(rc);
        goto done;
    }
    for (int k = 0; k < count; k++) {
        stopped |= r[k].status == PAGANI_STOPPED;
        converged &= r[k].status == PAGANI_CONVERGED;
    }
    if (stopped)
        fprintf(stderr, "pagani: interrupted by %s\n",
                signal_name(stop_signal));
    print_results(a, t, r, values, errors);
    status = converged ? CLI_EXIT_CONVERGED : CLI_EXIT_NOT_CONVERGED;
    if (rc != PAGANI_OK) {
        report_error("integrating", rc, ctx);
        for (int k = 0; k < count; k++)
            if (isnan(r[k].value))
                fprintf(stderr, "pagani: %s:%d: EXPR returned NaN or "
                        "infinity with these parameters\n", t->name,
                        t->lines[k]);
        status = CLI_EXIT_LIBRARY;
    }
done:
    pagani_integrand_destroy(f);
    pagani_context_destroy(ctx);
    free(r);
    free(values);
    free(errors);
    return status;
}

/* Reads the parameter file of --params-file ("-": stdin) into *t.
 * Returns 0, or CLI_EXIT_USAGE after saying why on stderr. */
static int read_params_file(const char *path, params_table *t)
{
    FILE *in = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    int status;

    if (!in) {
        fprintf(stderr, "pagani: %s: %s\n", path, strerror(errno));
        return CLI_EXIT_USAGE;
    }
    status = params_table_read(in, in == stdin ? "standard input" : path, t);
    if (in != stdin) fclose(in);
    return status;
}

int main(int argc, char **argv)
{
    cli_args a;
    struct sigaction saved[N_STOP_SIGNALS];
    params_table table = {NULL, 0, 0, NULL, NULL};
    char *text = NULL;
    const char *expr;
    int status;

    cli_mpi_start(&argc, &argv);
    status = cli_parse(argc, argv, &a);
    if (status != 0) goto done;
    if (a.help) {
        cli_print_help(stdout);
        goto done;
    }
    if (a.version) {
        printf("pagani (libpagani) %s\n", pagani_version());
        goto done;
    }
    expr = a.components ? a.components : a.expr;
    if (a.file) {
        if (!(text = cli_read_source(a.file))) {
            status = CLI_EXIT_USAGE;
            goto done;
        }
        expr = text;
    }
    if (a.params_file && (status = read_params_file(a.params_file, &table)))
        goto done;

    catch_stop_signals(saved);
    status = run(&a, expr, a.params_file ? &table : NULL);
    restore_signals(saved);
done:
    free(text);
    params_table_free(&table);
    cli_args_free(&a);
    if (fflush(stdout) != 0 && status == 0) {
        perror("pagani: standard output");
        status = CLI_EXIT_USAGE;
    }
    cli_mpi_end();
    if (status > CLI_EXIT_SIGNAL) end_by_signal(status - CLI_EXIT_SIGNAL);
    return status;
}
