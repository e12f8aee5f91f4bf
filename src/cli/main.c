/*
 * main.c - `pagani [options] 'EXPR'`: integrates a C expression typed at the
 * shell through the public API of libpagani (pagani.h) and nothing else.
 *
 * Steps: parse the command line (args.c), read EXPR, create a context on
 * the chosen backend, compile EXPR into an integrand, integrate, print the
 * result (report.c). The exit status says how it ended (args.h).
 *
 * SIGINT (Ctrl-C), SIGTERM and SIGHUP are caught from before the context
 * is created: during the integration the progress callback then stops it
 * after the current iteration and the estimate so far is printed; before
 * it (while EXPR compiles) nothing is integrated and the program ends by
 * the signal once the library has returned and cleaned up.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pagani.h"
#include "args.h"
#include "report.h"

/* The signals that stop a run: Ctrl-C, kill's default, a closed terminal. */
static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define N_STOP_SIGNALS (sizeof stop_signals / sizeof stop_signals[0])

/* The first stop signal that came, or 0; read by on_iteration and run. */
static volatile sig_atomic_t stop_signal = 0;

/* Records the first stop signal, and does nothing else. It is installed
 * with SA_RESETHAND, so a second signal of the same kind gets the default
 * action and ends the program at once. */
static void on_stop_signal(int sig)
{
    if (!stop_signal) stop_signal = sig;
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

/* The progress callback: prints a --progress line when asked and stops the
 * integration (non-zero) once a stop signal has come. */
static int on_iteration(int iteration, long long active_regions,
                        double estimate, double error, void *data)
{
    const cli_args *a = data;
    if (a->progress)
        report_progress(stderr, iteration, active_regions, estimate, error);
    return stop_signal != 0;
}

/* Reads all of FILE ("-": stdin) into a malloc'd string; NULL after
 * printing why on stderr. */
static char *read_file(const char *path)
{
    FILE *in = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    char *text = NULL;
    size_t len = 0, cap = 0;

    if (!in) {
        fprintf(stderr, "pagani: %s: %s\n", path, strerror(errno));
        return NULL;
    }
    for (;;) {
        if (cap - len < 4096) {
            char *grown = realloc(text, cap = 2 * cap + 4096);
            if (!grown) {
                fprintf(stderr, "pagani: %s: out of memory\n", path);
                free(text);
                text = NULL;
                break;
            }
            text = grown;
        }
        len += fread(text + len, 1, cap - len - 1, in);
        if (ferror(in)) {
            fprintf(stderr, "pagani: %s: %s\n", path, strerror(errno));
            free(text);
            text = NULL;
            break;
        }
        if (feof(in)) {
            text[len] = '\0';
            break;
        }
    }
    if (in != stdin) fclose(in);
    return text;
}

/* The library's defaults for the method, with what the command line set. */
static pagani_options make_options(const cli_args *a)
{
    pagani_options o = pagani_options_default(a->method);
    if (a->epsrel >= 0.0) o.epsrel = a->epsrel;
    if (a->epsabs >= 0.0) o.epsabs = a->epsabs;
    if (a->max_evals >= 0) o.max_evaluations = a->max_evals;
    if (a->max_iterations >= 0) o.max_iterations = (int)a->max_iterations;
    if (a->rule) o.rule_degree = a->rule;
    if (a->calls > 0.0) o.vegas_calls = a->calls;
    if (a->seed_set) o.seed = a->seed;
    if (a->no_relerr_filter) o.flags |= PAGANI_FLAG_NO_RELERR_FILTER;
    if (a->no_probes) o.flags |= PAGANI_FLAG_NO_PROBES;
    o.progress = on_iteration;
    o.progress_data = (void *)a;
    return o;
}

/* Creates the context on the chosen backend, applies --threads and --memory
 * and compiles EXPR into *f. Returns a pagani error code, with *step
 * naming the step that failed, for the message. */
static int prepare(const cli_args *a, const char *expr, pagani_context **ctx,
                   pagani_integrand **f, const char **step)
{
    int rc;

    *step = "creating the context";
    rc = pagani_context_create(ctx, a->backend);
    if (rc != PAGANI_OK) return rc;
    *step = "--threads";
    if (a->threads >= 0 &&
        (rc = pagani_context_set_threads(*ctx, (int)a->threads)) != PAGANI_OK)
        return rc;
    *step = "--memory";
    if (a->memory >= 0 &&
        (rc = pagani_context_set_memory(*ctx, (size_t)a->memory)) != PAGANI_OK)
        return rc;
    *step = "EXPR";
    return pagani_integrand_from_source(*ctx, f, a->dim, expr, a->params,
                                        (size_t)a->nparams * sizeof(double));
}

/* Prepares, integrates and prints the result. Returns the exit status:
 * CLI_EXIT_SIGNAL + the signal's number when a stop signal came before
 * the integration began (it does not begin then). */
static int run(const cli_args *a, const char *expr)
{
    pagani_context *ctx = NULL;
    pagani_integrand *f = NULL;
    pagani_options o = make_options(a);
    pagani_result r;
    const char *step;
    int rc, status = CLI_EXIT_LIBRARY;

    rc = prepare(a, expr, &ctx, &f, &step);
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
        fprintf(stderr, "pagani: give EXPR's p[0], p[1], ... with -p\n");
        status = CLI_EXIT_USAGE;
        goto done;
    }
    if (rc != PAGANI_OK) {
        report_error(step, rc, ctx);
        goto done;
    }
    memset(&r, 0, sizeof r);
    rc = pagani_integrate(ctx, f, a->lower, a->upper, &o, &r);
    if (rc != PAGANI_OK) {
        report_error("integrating", rc, ctx);
        goto done;
    }
    if (r.status == PAGANI_STOPPED)
        fprintf(stderr, "pagani: interrupted by %s\n",
                signal_name(stop_signal));
    if (a->json) report_json(stdout, &r);
    else report_text(stdout, &r);
    status = r.status == PAGANI_CONVERGED ? CLI_EXIT_CONVERGED
                                          : CLI_EXIT_NOT_CONVERGED;
done:
    pagani_integrand_destroy(f);
    pagani_context_destroy(ctx);
    return status;
}

int main(int argc, char **argv)
{
    cli_args a;
    struct sigaction saved[N_STOP_SIGNALS];
    char *text = NULL;
    const char *expr;
    int status;

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
    expr = a.expr;
    if (a.file) {
        if (!(text = read_file(a.file))) {
            status = CLI_EXIT_USAGE;
            goto done;
        }
        expr = text;
    }

    catch_stop_signals(saved);
    status = run(&a, expr);
    restore_signals(saved);
done:
    free(text);
    cli_args_free(&a);
    if (fflush(stdout) != 0 && status == 0) {
        perror("pagani: standard output");
        status = CLI_EXIT_USAGE;
    }
    if (status > CLI_EXIT_SIGNAL) end_by_signal(status - CLI_EXIT_SIGNAL);
    return status;
}
