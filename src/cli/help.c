/*
 * help.c - the text of `pagani --help`. The man page (src/cli/pagani.1)
 * says the same things; change both together.
 */
#include <stdio.h>
#include "args.h"

/* Paragraphs, each below the 4095 characters C99 promises for a literal. */
static const char *const help_text[] = {
"Usage: pagani [OPTION]... 'EXPR'\n"
"       pagani [OPTION]... -f FILE\n"
"Integrate EXPR over the box [a1,b1] x ... x [an,bn] with libpagani and print\n"
"the estimate, its error and how the integration ended.\n"
"\n",
"EXPR is C source: one expression, or a function body that ends in\n"
"`return`. It may use x[0] .. x[n-1] (the point), n (the dimension),\n"
"p[0], p[1], ... (the values of -p), the <math.h> functions in double\n"
"(exp, sin, pow, erf, ...) and constants (M_PI, M_E, ...). The library\n"
"compiles it: the CPU backend with the system C compiler, the CUDA backend\n"
"with NVRTC. Quote EXPR for the shell; put -- before an EXPR that starts\n"
"with '-'.\n"
"\n",
"The box:\n"
"  -n, --dim N            dimension, 1 to 64 (default 1, or the number of\n"
"                         --bounds pairs)\n"
"      --lower A          lower bound of every axis (default 0)\n"
"      --upper B          upper bound of every axis (default 1)\n"
"      --bounds 'a1:b1,a2:b2,...'\n"
"                         one lower:upper pair per axis (not with\n"
"                         --lower/--upper)\n"
"  -p, --params 'v1,v2,...'\n"
"                         numbers seen by EXPR as p[0], p[1], ... (needed\n"
"                         when EXPR uses p)\n"
"  -f, --file FILE        read EXPR from FILE ('-': standard input)\n"
"\n",
"Accuracy and method:\n"
"      --epsrel E         relative tolerance (default 1e-3)\n"
"      --epsabs E         absolute tolerance (default 1e-12); the run\n"
"                         converges when error <= max(epsabs, epsrel*|value|)\n"
"      --method M         auto, cubature, vegas or qmc (default auto:\n"
"                         cubature in low dimensions, Monte Carlo above)\n"
"      --backend B        auto, cpu or cuda (default auto: cuda when a GPU\n"
"                         is usable)\n"
"      --rule D           cubature rule degree for n >= 2: 7, 9, 11 (n=3\n"
"                         only) or 13 (n=2 only) (default: 13 for n=2, 11\n"
"                         for n=3, 9 above; n=1 uses Gauss-Kronrod 7/15)\n"
"      --no-relerr-filter never finish cubature regions by relative error\n"
"                         (use for integrands that change sign)\n"
"      --no-probes        do not probe cubature regions next to their\n"
"                         vertices before finishing them (faster, but a\n"
"                         peak or jump the rule cannot see may be missed)\n"
"      --calls N          Vegas samples per iteration (default 1e6)\n"
"      --seed N           Monte Carlo seed (default 1)\n"
"\n",
"Limits:\n"
"      --max-evals N      stop after about N evaluations (default 0: none)\n"
"      --max-iterations N stop after N iterations (default 0: the method's\n"
"                         own: cubature 200, Vegas 100, QMC 40)\n"
"      --threads N        CPU threads (default 0: OpenMP's default, or\n"
"                         $PAGANI_THREADS)\n"
"      --memory SIZE      memory budget for the region lists: a number of\n"
"                         bytes, at least 1, with an optional suffix K, M,\n"
"                         G or T (powers of 1024), e.g. 512M or 1.5G\n"
"                         (default: 1G on the CPU, 80% of free GPU memory)\n"
"\n",
"Output:\n"
"      --json             print one JSON object on standard output: value,\n"
"                         error, status, evaluations, regions, iterations,\n"
"                         chi2_dof, method, backend, rule, seconds\n"
"                         (nothing on standard output after an error)\n"
"      --progress         print one line per iteration on standard error:\n"
"                         iteration, active regions, estimate, error\n"
"  -h, --help             print this help and exit\n"
"  -V, --version          print the version and exit\n"
"\n",
"Numbers are read whole: '1e-3x' or a negative count is an error. Counts\n"
"may be written as 1e6. Without --json the output is 'estimate +- error'\n"
"(estimate to 15 significant digits), then the status, evaluations,\n"
"regions (cubature) or chi2/dof (Vegas), iterations, time, method and\n"
"backend.\n"
"\n",
"Signals:\n"
"  SIGINT (Ctrl-C), SIGTERM and SIGHUP during the integration stop it after\n"
"  the current iteration and print the best estimate so far, with the\n"
"  status 'stopped by the progress callback' (exit status 1). One that\n"
"  comes while EXPR compiles takes effect when the compiler is done (Ctrl-C\n"
"  stops the compiler too): nothing is integrated and pagani ends by that\n"
"  signal. A second signal of the same kind ends pagani at once. A signal\n"
"  ignored when pagani starts (nohup) stays ignored.\n"
"\n",
"Exit status:\n"
"  0  converged: the tolerance was met\n"
"  1  an estimate was made but did not converge (see its status)\n"
"  2  usage error: a bad option or value, an unreadable FILE, or EXPR\n"
"     reads p[k] with fewer than k+1 values of -p\n"
"  3  library error, e.g. EXPR did not compile (the compiler's log is\n"
"     printed on standard error) or the CUDA backend is unavailable\n"
"  128+N  ended by signal N: see Signals\n"
"\n",
"Environment:\n"
"  PAGANI_CC         C compiler for EXPR on the CPU (default cc)\n"
"  PAGANI_CACHE_DIR  cache of compiled integrands (default\n"
"                    $XDG_CACHE_HOME/pagani or ~/.cache/pagani)\n"
"  PAGANI_THREADS    CPU threads when --threads is not given\n"
"\n",
"Examples:\n"
"  pagani -n 5 --epsrel 1e-6 \\\n"
"    'exp(-625*((x[0]-.5)*(x[0]-.5) + (x[1]-.5)*(x[1]-.5) +\n"
"     (x[2]-.5)*(x[2]-.5) + (x[3]-.5)*(x[3]-.5) + (x[4]-.5)*(x[4]-.5)))'\n"
"  pagani --bounds '0:3.14159265358979,-1:1' -p 2 --json \\\n"
"    'double s = 0; for (int i = 0; i < n; i++) s += x[i]*x[i];\n"
"     return sin(x[0]) * exp(-p[0]*s);'\n",
    NULL
};

void cli_print_help(FILE *out)
{
    for (int i = 0; help_text[i]; i++) fputs(help_text[i], out);
}
