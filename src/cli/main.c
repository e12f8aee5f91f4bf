/*
 * main.c - `pagani [options] 'EXPR'`: integrates a C expression typed at the
 * shell through the public API of libpagani (pagani.h) and nothing else.
 *
 * Steps: parse the command line (args.c), read EXPR, create a context on
 * the chosen backend, compile EXPR into an integrand, integrate, print the
 * result (report.c). The exit status says how it ended (args.h).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pagani.h"
#include "args.h"
#include "report.h"

/* Set by the first Ctrl-C during an integration; read by on_iteration. */
static volatile sig_atomic_t interrupted = 0;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

/* The progress callback: prints a --progress line when asked and stops the
 * integration (non-zero) after a Ctrl-C. */
static int on_iteration(int iteration, long long active_regions,
                        double estimate, double error, void *data)
{
    const cli_args *a = data;
    if (a->progress)
        report_progress(stderr, iteration, active_regions, estimate, error);
    return interrupted != 0;
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

/* Whether EXPR indexes the parameter block: the identifier p followed by
 * '['. Without -p that would read through a null pointer, so main refuses. */
static int uses_params(const char *expr)
{
    for (const char *s = expr; (s = strchr(s, 'p')) != NULL; s++) {
        const char *t = s + 1;
        if (s > expr && (isalnum((unsigned char)s[-1]) || s[-1] == '_'))
            continue;
        while (isspace((unsigned char)*t)) t++;
        if (*t == '[') return 1;
    }
    return 0;
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
    o.progress = on_iteration;
    o.progress_data = (void *)a;
    return o;
}

/* Creates the context, compiles EXPR and integrates. Returns a pagani
 * error code; on failure the error has been reported. */
static int integrate(const cli_args *a, const char *expr, pagani_result *r)
{
    pagani_context *ctx = NULL;
    pagani_integrand *f = NULL;
    pagani_options o = make_options(a);
    struct sigaction sa, old;
    int rc;

    rc = pagani_context_create(&ctx, a->backend);
    if (rc != PAGANI_OK) {
        report_error("creating the context", rc, ctx);
        goto done;
    }
    if (a->threads >= 0 &&
        (rc = pagani_context_set_threads(ctx, (int)a->threads)) != PAGANI_OK) {
        report_error("--threads", rc, ctx);
        goto done;
    }
    if (a->memory >= 0 &&
        (rc = pagani_context_set_memory(ctx, (size_t)a->memory)) != PAGANI_OK) {
        report_error("--memory", rc, ctx);
        goto done;
    }
    rc = pagani_integrand_from_source(ctx, &f, a->dim, expr, a->params,
                                      (size_t)a->nparams * sizeof(double));
    if (rc != PAGANI_OK) {
        report_error("EXPR", rc, ctx);
        goto done;
    }

    /* A first Ctrl-C stops after the current iteration; a second kills. */
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old);
    rc = pagani_integrate(ctx, f, a->lower, a->upper, &o, r);
    sigaction(SIGINT, &old, NULL);
    if (rc != PAGANI_OK) report_error("integrating", rc, ctx);
    else if (interrupted) fprintf(stderr, "pagani: interrupted\n");

done:
    if (f) pagani_integrand_destroy(f);
    if (ctx) pagani_context_destroy(ctx);
    return rc;
}

int main(int argc, char **argv)
{
    cli_args a;
    pagani_result r;
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

    if (a.nparams == 0 && uses_params(expr)) {
        fprintf(stderr, "pagani: EXPR uses p[] but no -p/--params given\n");
        status = CLI_EXIT_USAGE;
        goto done;
    }

    memset(&r, 0, sizeof r);
    if (integrate(&a, expr, &r) != PAGANI_OK) {
        status = CLI_EXIT_LIBRARY;
        goto done;
    }
    if (a.json) report_json(stdout, &r);
    else report_text(stdout, &r);
    status = r.status == PAGANI_CONVERGED ? CLI_EXIT_CONVERGED
                                          : CLI_EXIT_NOT_CONVERGED;
done:
    free(text);
    cli_args_free(&a);
    if (fflush(stdout) != 0 && status == 0) {
        perror("pagani: standard output");
        status = CLI_EXIT_USAGE;
    }
    return status;
}
