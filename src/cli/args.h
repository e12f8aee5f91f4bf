/*
 * args.h - the pagani command line, parsed into a struct.
 *
 * cli_parse() reads argv with getopt_long, checks every value strictly
 * (a number must be all number, in a format of numbers.h: "1e-3x", " 3"
 * and "0x10" are refused) and reports a bad one
 * on stderr naming the option. It does not touch the library beyond the
 * public names of pagani.h.
 */
#ifndef PAGANI_CLI_ARGS_H
#define PAGANI_CLI_ARGS_H

#include <stddef.h>
#include <stdio.h>
#include "pagani.h"

/* Exit statuses of the program. With --params-file they speak of every
 * line: 0 when all converged, 1 when one did not. */
enum {
    CLI_EXIT_CONVERGED = 0,   /* the requested tolerance was met */
    CLI_EXIT_NOT_CONVERGED = 1, /* an estimate, but status not CONVERGED */
    CLI_EXIT_USAGE = 2,       /* bad command line (an option value the
                               * library refuses included), unreadable,
                               * malformed or too large EXPR file or
                               * parameter file, EXPR reads p beyond the
                               * parameters given, or x[1] or beyond with
                               * no -n or --bounds */
    CLI_EXIT_LIBRARY = 3,     /* the library returned another error code */
    CLI_EXIT_SIGNAL = 128     /* + N: signal N came before the integration
                               * began; the program ends by that signal */
};

/* What the command line asked for. A field left at its "unset" value keeps
 * the library's default (pagani_options_default). */
typedef struct cli_args {
    int help;                 /* -h: print the help and exit 0 */
    int version;              /* -V: print the version and exit 0 */

    const char *expr;         /* EXPR operand, or NULL when -f or
                                 --components is used */
    const char *file;         /* -f FILE ("-": stdin), or NULL */
    int ncomp;                /* components: 0 for a scalar EXPR, else
                                 EXPR is a body writing f[0..ncomp-1]
                                 (--ncomp, or --components) */
    char *components;         /* --components' list as such a body
                                 (malloc'd), or NULL */
    int norm;                 /* --norm: a pagani_norm; negative: unset */

    int dim;                  /* n: -n, else the --bounds count, else 1 */
    int dim_given;            /* whether -n or --bounds gave n */
    double *lower;            /* dim lower bounds (malloc'd) */
    double *upper;            /* dim upper bounds (malloc'd) */

    double *params;           /* -p values (malloc'd), or NULL */
    int nparams;
    const char *params_file;  /* --params-file FILE ("-": stdin), or NULL */
    long long batch_warm;     /* --batch-warm M: batch_warm_stride; 0: unset */

    pagani_method method;
    pagani_backend backend;
    int rule;                 /* 0: the library's choice */
    pagani_strategy strategy; /* --strategy; PAGANI_STRATEGY_AUTO: unset */
    double epsrel;            /* negative: unset */
    double epsabs;            /* negative: unset */
    long long max_evals;      /* negative: unset */
    long long max_iterations; /* negative: unset */
    long long threads;        /* negative: unset */
    long long memory;         /* negative: unset; bytes */
    double calls;             /* 0: unset */
    double sigmas;            /* --sigmas: mc_sigmas; 0: unset */
    double *domain_scales;    /* --domain-scale: one for every axis or
                                 one per axis (malloc'd), or NULL */
    int nscales;              /* 0: unset, 1 or dim */
    int domain_map;           /* --domain-map: a pagani_map; negative: unset */
    double *domain_centers;   /* --domain-center: dim centres (malloc'd;
                                 one given is copied), or NULL */
    int ncenters;             /* 0: unset, else dim */
    double *breaks;           /* --breaks: the points, axis after axis
                                 (malloc'd), or NULL */
    int *break_counts;        /* their counts per axis (malloc'd), or NULL */
    int break_axes;           /* 0: unset, else dim */
    const char *state;        /* --state FILE: checkpoints; NULL: unset */
    double state_interval;    /* --state-interval; negative: unset */
    int seed_set;
    unsigned long long seed;
    int no_relerr_filter;
    int no_probes;
    int transform;            /* --transform: qmc_transform; negative: unset */
    int progress;             /* --progress */
    int json;                 /* --json */
    int gradient;             /* --gradient: the derivatives by every
                                 parameter too */
} cli_args;

/* Parses argv into *a. Returns 0 on success, or CLI_EXIT_USAGE after
 * printing the problem to stderr. On success with a->help or a->version set
 * nothing else need be valid. Free with cli_args_free() in every case. */
int cli_parse(int argc, char **argv, cli_args *a);

void cli_args_free(cli_args *a);

/* The --help text, written to `out`. */
void cli_print_help(FILE *out);

#endif /* PAGANI_CLI_ARGS_H */
