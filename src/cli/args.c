/*
 * args.c - parses the pagani command line (getopt_long) into a cli_args.
 *
 * Each value is checked strictly: the whole argument must be a number
 * in one of the formats of numbers.h (decimals; bounds and parameters
 * may use constants such as pi), finite and in range, and a problem is
 * reported as "pagani: --option: what is wrong" on stderr.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "args.h"
#include "numbers.h"

/* Codes of the options that have no short form. */
enum {
    OPT_LOWER = 256, OPT_UPPER, OPT_BOUNDS, OPT_EPSREL, OPT_EPSABS,
    OPT_METHOD, OPT_BACKEND, OPT_RULE, OPT_MAX_EVALS, OPT_MAX_ITERATIONS,
    OPT_THREADS, OPT_MEMORY, OPT_NO_RELERR_FILTER, OPT_NO_PROBES, OPT_SEED,
    OPT_CALLS, OPT_PROGRESS, OPT_JSON, OPT_TRANSFORM, OPT_PARAMS_FILE,
    OPT_NCOMP, OPT_COMPONENTS, OPT_NORM, OPT_SIGMAS, OPT_DOMAIN_SCALE,
    OPT_DOMAIN_MAP, OPT_DOMAIN_CENTER, OPT_BREAKS, OPT_STATE,
    OPT_STATE_INTERVAL, OPT_GRADIENT, OPT_STRATEGY, OPT_BATCH_WARM
};

/* The most CPU threads a context takes (pagani_context_set_threads). */
#define MAX_THREADS 4096

static const struct option long_options[] = {
    {"dim",             required_argument, NULL, 'n'},
    {"lower",           required_argument, NULL, OPT_LOWER},
    {"upper",           required_argument, NULL, OPT_UPPER},
    {"bounds",          required_argument, NULL, OPT_BOUNDS},
    {"epsrel",          required_argument, NULL, OPT_EPSREL},
    {"epsabs",          required_argument, NULL, OPT_EPSABS},
    {"method",          required_argument, NULL, OPT_METHOD},
    {"backend",         required_argument, NULL, OPT_BACKEND},
    {"rule",            required_argument, NULL, OPT_RULE},
    {"strategy",        required_argument, NULL, OPT_STRATEGY},
    {"max-evals",       required_argument, NULL, OPT_MAX_EVALS},
    {"max-iterations",  required_argument, NULL, OPT_MAX_ITERATIONS},
    {"threads",         required_argument, NULL, OPT_THREADS},
    {"memory",          required_argument, NULL, OPT_MEMORY},
    {"no-relerr-filter", no_argument,      NULL, OPT_NO_RELERR_FILTER},
    {"no-probes",        no_argument,      NULL, OPT_NO_PROBES},
    {"seed",            required_argument, NULL, OPT_SEED},
    {"params",          required_argument, NULL, 'p'},
    {"params-file",     required_argument, NULL, OPT_PARAMS_FILE},
    {"batch-warm",      required_argument, NULL, OPT_BATCH_WARM},
    {"transform",       required_argument, NULL, OPT_TRANSFORM},
    {"calls",           required_argument, NULL, OPT_CALLS},
    {"sigmas",          required_argument, NULL, OPT_SIGMAS},
    {"domain-scale",    required_argument, NULL, OPT_DOMAIN_SCALE},
    {"domain-map",      required_argument, NULL, OPT_DOMAIN_MAP},
    {"domain-center",   required_argument, NULL, OPT_DOMAIN_CENTER},
    {"breaks",          required_argument, NULL, OPT_BREAKS},
    {"state",           required_argument, NULL, OPT_STATE},
    {"state-interval",  required_argument, NULL, OPT_STATE_INTERVAL},
    {"progress",        no_argument,       NULL, OPT_PROGRESS},
    {"json",            no_argument,       NULL, OPT_JSON},
    {"gradient",        no_argument,       NULL, OPT_GRADIENT},
    {"file",            required_argument, NULL, 'f'},
    {"ncomp",           required_argument, NULL, OPT_NCOMP},
    {"components",      required_argument, NULL, OPT_COMPONENTS},
    {"norm",            required_argument, NULL, OPT_NORM},
    {"help",            no_argument,       NULL, 'h'},
    {"version",         no_argument,       NULL, 'V'},
    {NULL, 0, NULL, 0}
};

/* Prints "pagani: OPTION: <message>" to stderr; returns CLI_EXIT_USAGE. */
static int bad(const char *option, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static int bad(const char *option, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "pagani: %s: ", option);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return CLI_EXIT_USAGE;
}

/* How a number is read: a decimal (tolerances, --calls, --sigmas), a
 * real, which may also use constants (parameters, --domain-scale and the
 * other per-axis lists), or a
 * bound, a real or an infinity; numbers.h. */
typedef int (*scan_fn)(const char *s, const char **end, double *value);

/* What each format looks like, for messages. */
static const char *format_example(scan_fn scan)
{
    return scan == cli_scan_bound  ? "a number such as 2, -0.5, 1e-3, pi, "
                                     "2*pi/3, inf or -inf"
           : scan == cli_scan_real ? "a number such as 2, -0.5, 1e-3, pi or "
                                     "2*pi/3"
                                   : "a decimal number such as 2, -0.5 or "
                                     "1e-3";
}

/* Reads a finite number (a bound: or an infinity written as one) from
 * the start of s with `scan`; *end is left after it. `arg`, the whole
 * argument, is quoted in messages. */
static int read_number(const char *option, const char *arg, const char *s,
                       scan_fn scan, const char **end, double *out)
{
    if (!scan(s, end, out))
        return bad(option, "expected %s, got '%s'", format_example(scan), arg);
    if (!isfinite(*out) && !(scan == cli_scan_bound && cli_infinity_at(s)))
        return bad(option, "'%.*s' is not a finite number", (int)(*end - s), s);
    return 0;
}

/* The whole of s as a finite number read with `scan`. */
static int parse_number(const char *option, const char *s, scan_fn scan,
                        double *out)
{
    const char *end;
    if (read_number(option, s, s, scan, &end, out)) return CLI_EXIT_USAGE;
    if (*end != '\0')
        return bad(option, "expected %s, got '%s'", format_example(scan), s);
    return 0;
}

/* The whole of s as an integer in [min, max]: digits (read exactly), or
 * a whole number in decimal with an exponent or a sign such as 1e6 or -5
 * (numbers.h). */
static int parse_count(const char *option, const char *s, long long min,
                       long long max, long long *out)
{
    int too_big = 0;

    if (cli_all_digits(s)) {
        errno = 0;
        *out = strtoll(s, NULL, 10);
        too_big = errno == ERANGE;
    } else {
        const char *end;
        double v;
        if (!cli_scan_decimal(s, &end, &v) || *end != '\0' || !isfinite(v) ||
            v != floor(v))
            return bad(option, "expected a whole number in decimal, such as "
                       "100 or 1e6, got '%s'", s);
        if (v < (double)min) *out = min - 1;
        else if (v >= 0x1p63 || v > (double)max) too_big = 1;
        else *out = (long long)v;
    }
    if (!too_big && *out < min)
        return bad(option, min == 0 ? "'%s' is negative" : "'%s' is below %lld",
                   s, min);
    if (too_big || *out > max)
        return bad(option, "'%s' is above %lld", s, max);
    return 0;
}

/* The factor of a size suffix: 1 for none; 1024, 1024^2, 1024^3, 1024^4
 * for K, M, G, T (either case, also followed by B or iB); 0 for anything
 * else. */
static double size_scale(const char *suffix)
{
    static const char units[] = "KMGT";
    const char *at;

    if (*suffix == '\0') return 1.0;
    at = strchr(units, toupper((unsigned char)*suffix));
    if (!at) return 0.0;
    suffix++;
    if (strcmp(suffix, "") != 0 && strcmp(suffix, "B") != 0 &&
        strcmp(suffix, "iB") != 0)
        return 0.0;
    return ldexp(1.0, 10 * (int)(at - units + 1));
}

/* A size of at least one byte, with an optional suffix (size_scale);
 * "1.5G" is allowed, a fraction of a byte is rounded down. */
static int parse_bytes(const char *option, const char *s, long long *out)
{
    const char *end = s;
    double v = 0.0, scale;

    if (!cli_scan_decimal(s, &end, &v)) end = s;
    scale = size_scale(end);
    if (end == s || scale == 0.0 || !(v * scale >= 1.0))
        return bad(option, "'%s' is not a size: give a number of bytes, at "
                   "least 1, with an optional suffix K, M, G or T (powers "
                   "of 1024), e.g. 512M", s);
    v *= scale;
    if (v >= 9.2e18 || v > (double)SIZE_MAX)
        return bad(option, "'%s' is too large", s);
    *out = (long long)v;
    return 0;
}

/* An unsigned 64-bit seed, digits only; strtoull would silently wrap
 * "-1". */
static int parse_seed(const char *option, const char *s,
                      unsigned long long *out)
{
    if (*s == '-' && cli_all_digits(s + 1))
        return bad(option, "'%s' is negative", s);
    if (!cli_all_digits(s))
        return bad(option, "expected a whole number in digits, got '%s'", s);
    errno = 0;
    *out = strtoull(s, NULL, 10);
    if (errno == ERANGE)
        return bad(option, "'%s' is out of range", s);
    return 0;
}

/* Past the comma at s and the spaces or tabs after it: a list may say
 * "1, 2" as well as "1,2", but not "1 ,2". */
static const char *after_comma(const char *s)
{
    s++;
    while (*s == ' ' || *s == '\t') s++;
    return s;
}

/* A comma-separated list of reals (-p): "1.5,2,-3", "1, 2*pi". */
static int parse_list(const char *option, const char *s, double **values,
                      int *count)
{
    const char *at = s;
    int n = 0, cap = 0;
    double *v = NULL;

    for (;;) {
        const char *end;
        double x;
        if (read_number(option, s, at, cli_scan_real, &end, &x)) goto fail;
        if (*end != ',' && *end != '\0') {
            bad(option, "expected numbers separated by commas, got '%s'", s);
            goto fail;
        }
        if (n == cap) {
            double *grown;
            cap = cap ? 2 * cap : 8;
            grown = realloc(v, (size_t)cap * sizeof *v);
            if (!grown) { bad(option, "out of memory"); goto fail; }
            v = grown;
        }
        v[n++] = x;
        if (*end == '\0') break;
        at = after_comma(end);
    }
    free(*values);
    *values = v;
    *count = n;
    return 0;
fail:
    free(v);
    return CLI_EXIT_USAGE;
}

/* --breaks "B0;B1;...": per axis (";" between axes) a comma-separated
 * list of reals, which may be empty ("0.3;;0.5,0.7"): the points one
 * after another into *breaks, their counts per axis into *counts. */
static int parse_breaks(const char *option, const char *s, double **breaks,
                        int **counts, int *axes)
{
    double *all = NULL;
    int *per_axis = malloc(PAGANI_MAX_DIM * sizeof *per_axis), n = 0, used = 0;
    const char *group = s;

    if (!per_axis) return bad(option, "out of memory");
    for (;;) {
        const char *end = strchr(group, ';');
        size_t length = end ? (size_t)(end - group) : strlen(group);
        char *text;
        double *values = NULL, *grown;
        int count = 0;

        if (n == PAGANI_MAX_DIM) {
            bad(option, "more than %d axes", PAGANI_MAX_DIM);
            goto fail;
        }
        if (strspn(group, " \t") < length) {
            if (!(text = malloc(length + 1))) {
                bad(option, "out of memory");
                goto fail;
            }
            memcpy(text, group, length);
            text[length] = '\0';
            if (parse_list(option, text, &values, &count)) {
                free(text);
                goto fail;
            }
            free(text);
        }
        if (count > PAGANI_MAX_BREAKS) {
            free(values);
            bad(option, "axis %d: more than %d break points", n,
                PAGANI_MAX_BREAKS);
            goto fail;
        }
        grown = realloc(all, (size_t)(used + count + 1) * sizeof *all);
        if (!grown) {
            free(values);
            bad(option, "out of memory");
            goto fail;
        }
        all = grown;
        if (count) memcpy(all + used, values, (size_t)count * sizeof *all);
        free(values);
        used += count;
        per_axis[n++] = count;
        if (!end) break;
        group = end + 1;
    }
    free(*breaks);
    free(*counts);
    *breaks = all;
    *counts = per_axis;
    *axes = n;
    return 0;
fail:
    free(all);
    free(per_axis);
    return CLI_EXIT_USAGE;
}

/* --bounds "a1:b1,a2:b2,...": one lower:upper pair of reals per axis. */
static int parse_bounds(const char *option, const char *s, double **lower,
                        double **upper, int *count)
{
    const char *at = s;
    int n = 0;
    double *lo = malloc(PAGANI_MAX_DIM * sizeof *lo);
    double *hi = malloc(PAGANI_MAX_DIM * sizeof *hi);

    if (!lo || !hi) { bad(option, "out of memory"); goto fail; }
    for (;;) {
        const char *end;
        if (n == PAGANI_MAX_DIM) {
            bad(option, "more than %d axes", PAGANI_MAX_DIM);
            goto fail;
        }
        if (read_number(option, s, at, cli_scan_bound, &end, &lo[n]))
            goto fail;
        if (*end != ':') {
            bad(option, "axis %d: expected LOWER:UPPER, got '%s'", n, s);
            goto fail;
        }
        at = end + 1;
        if (read_number(option, s, at, cli_scan_bound, &end, &hi[n]))
            goto fail;
        if (*end != ',' && *end != '\0') {
            bad(option, "axis %d: expected LOWER:UPPER, got '%s'", n, s);
            goto fail;
        }
        n++;
        if (*end == '\0') break;
        at = after_comma(end);
    }
    free(*lower);
    free(*upper);
    *lower = lo;
    *upper = hi;
    *count = n;
    return 0;
fail:
    free(lo);
    free(hi);
    return CLI_EXIT_USAGE;
}

/* Looks `s` up among `names` (NULL-terminated); the index, or -1. */
static int lookup(const char *s, const char *const *names)
{
    for (int i = 0; names[i]; i++)
        if (strcmp(s, names[i]) == 0) return i;
    return -1;
}

static int parse_method(const char *option, const char *s, pagani_method *m)
{
    static const char *const names[] = {"auto", "cubature", "vegas", "qmc",
                                        NULL};
    static const pagani_method values[] = {PAGANI_AUTO, PAGANI_CUBATURE,
                                           PAGANI_VEGAS, PAGANI_QMC};
    int i = lookup(s, names);
    if (i < 0)
        return bad(option, "unknown method '%s' (auto, cubature, vegas, qmc)",
                   s);
    *m = values[i];
    return 0;
}

static int parse_backend(const char *option, const char *s, pagani_backend *b)
{
    static const char *const names[] = {"auto", "cpu", "cuda", NULL};
    static const pagani_backend values[] = {PAGANI_BACKEND_AUTO,
                                            PAGANI_BACKEND_CPU,
                                            PAGANI_BACKEND_CUDA};
    int i = lookup(s, names);
    if (i < 0)
        return bad(option, "unknown backend '%s' (auto, cpu, cuda)", s);
    *b = values[i];
    return 0;
}

static int parse_rule(const char *option, const char *s, int *rule)
{
    static const char *const names[] = {"7", "9", "11", "13", NULL};
    static const int values[] = {7, 9, 11, 13};
    int i = lookup(s, names);
    if (i < 0)
        return bad(option, "unknown rule degree '%s' (7, 9, 11, 13)", s);
    *rule = values[i];
    return 0;
}

/* --strategy: cubature's refinement (pagani_strategy). */
static int parse_strategy(const char *option, const char *s, pagani_strategy *strategy)
{
    static const char *const names[] = {"auto", "breadth", "worst", NULL};
    static const pagani_strategy values[] = {
        PAGANI_STRATEGY_AUTO, PAGANI_STRATEGY_BREADTH, PAGANI_STRATEGY_WORST_FIRST};
    int i = lookup(s, names);
    if (i < 0)
        return bad(option, "unknown strategy '%s' (auto, breadth, worst)", s);
    *strategy = values[i];
    return 0;
}

/* --transform: QMC's periodizing transform, qmc_transform 0 to 3. */
static int parse_transform(const char *option, const char *s, int *transform)
{
    static const char *const names[] = {"none", "tent", "korobov", "korobov3",
                                        NULL};
    int i = lookup(s, names);
    if (i < 0)
        return bad(option,
                   "unknown transform '%s' (none, tent, korobov, korobov3)", s);
    *transform = i;
    return 0;
}

/* --domain-map: the map of unbounded axes (a pagani_map). */
static int parse_domain_map(const char *option, const char *s, int *map)
{
    static const char *const names[] = {"rational", "exponential", NULL};
    int i = lookup(s, names);
    if (i < 0)
        return bad(option, "unknown map '%s' (rational, exponential)", s);
    *map = i;
    return 0;
}

/* --norm: how the components' errors are judged (a pagani_norm). */
static int parse_norm(const char *option, const char *s, int *norm)
{
    static const char *const names[] = {"individual", "paired", "l2", "l1",
                                        "max", NULL};
    int i = lookup(s, names);
    if (i < 0)
        return bad(option, "unknown norm '%s' (individual, paired, l2, l1, "
                   "max)", s);
    *norm = i;
    return 0;
}

/* --components 'E1; E2; ...': the body "f[0] = (E1);\nf[1] = (E2);\n..."
 * into a->components and its count into a->ncomp. The list splits at the
 * semicolons outside parentheses and brackets; empty items are refused. */
static int parse_components(const char *option, const char *list, cli_args *a)
{
    size_t cap = 4 * strlen(list) + 64 * (PAGANI_MAX_COMPONENTS + 1), used = 0;
    const char *item = list;
    int depth = 0;

    free(a->components);
    a->ncomp = 0;
    if (!(a->components = malloc(cap))) return bad(option, "out of memory");
    for (const char *s = list;; s++) {
        if (*s == '(' || *s == '[') depth++;
        if ((*s == ')' || *s == ']') && depth > 0) depth--;
        if (*s && (*s != ';' || depth > 0)) continue;
        while (item < s && isspace((unsigned char)*item)) item++;
        if (item == s && !*s && a->ncomp > 0) break; /* a trailing ';' */
        if (item == s)
            return bad(option, "component %d is empty", a->ncomp);
        if (a->ncomp == PAGANI_MAX_COMPONENTS)
            return bad(option, "more than %d components",
                       PAGANI_MAX_COMPONENTS);
        used += (size_t)snprintf(a->components + used, cap - used,
                                 "f[%d] = (%.*s);\n", a->ncomp, (int)(s - item),
                                 item);
        a->ncomp++;
        item = s + 1;
        if (!*s) break;
    }
    return 0;
}

/* Handles one option returned by getopt_long. */
static int parse_option(int c, const char *arg, cli_args *a, long long *dim,
                        int *lower_set, int *upper_set, int *nbounds)
{
    /* The option's names, for messages: "-n/--dim" or "--epsrel". */
    char option[40] = "option";
    for (const struct option *o = long_options; o->name; o++) {
        if (o->val != c) continue;
        if (c < 256) snprintf(option, sizeof option, "-%c/--%s", c, o->name);
        else snprintf(option, sizeof option, "--%s", o->name);
        break;
    }

    switch (c) {
    case 'h': a->help = 1; return 0;
    case 'V': a->version = 1; return 0;
    case 'n': return parse_count(option, arg, 1, PAGANI_MAX_DIM, dim);
    case 'f': a->file = arg; return 0;
    case 'p': return parse_list(option, arg, &a->params, &a->nparams);
    case OPT_LOWER:
        *lower_set = 1;
        return parse_number(option, arg, cli_scan_bound, &a->lower[0]);
    case OPT_UPPER:
        *upper_set = 1;
        return parse_number(option, arg, cli_scan_bound, &a->upper[0]);
    case OPT_BOUNDS:
        return parse_bounds(option, arg, &a->lower, &a->upper, nbounds);
    case OPT_EPSREL:
    case OPT_EPSABS: {
        double *eps = c == OPT_EPSREL ? &a->epsrel : &a->epsabs;
        if (parse_number(option, arg, cli_scan_decimal, eps))
            return CLI_EXIT_USAGE;
        if (*eps < 0.0) return bad(option, "tolerance %s is negative", arg);
        return 0;
    }
    case OPT_METHOD: return parse_method(option, arg, &a->method);
    case OPT_BACKEND: return parse_backend(option, arg, &a->backend);
    case OPT_RULE: return parse_rule(option, arg, &a->rule);
    case OPT_STRATEGY: return parse_strategy(option, arg, &a->strategy);
    case OPT_MAX_EVALS:
        return parse_count(option, arg, 0, LLONG_MAX, &a->max_evals);
    case OPT_MAX_ITERATIONS:
        return parse_count(option, arg, 0, INT_MAX, &a->max_iterations);
    case OPT_THREADS:
        return parse_count(option, arg, 0, MAX_THREADS, &a->threads);
    case OPT_MEMORY: return parse_bytes(option, arg, &a->memory);
    case OPT_NO_RELERR_FILTER: a->no_relerr_filter = 1; return 0;
    case OPT_NO_PROBES: a->no_probes = 1; return 0;
    case OPT_SEED:
        a->seed_set = 1;
        return parse_seed(option, arg, &a->seed);
    case OPT_CALLS:
        if (parse_number(option, arg, cli_scan_decimal, &a->calls))
            return CLI_EXIT_USAGE;
        if (a->calls < 1.0) return bad(option, "%s is below 1", arg);
        return 0;
    case OPT_SIGMAS:
        if (parse_number(option, arg, cli_scan_decimal, &a->sigmas))
            return CLI_EXIT_USAGE;
        if (!(a->sigmas > 0.0 && a->sigmas <= PAGANI_MC_SIGMAS_MAX))
            return bad(option, "%s is not in (0, %g]", arg, PAGANI_MC_SIGMAS_MAX);
        return 0;
    case OPT_DOMAIN_SCALE:
        if (parse_list(option, arg, &a->domain_scales, &a->nscales))
            return CLI_EXIT_USAGE;
        for (int i = 0; i < a->nscales; i++)
            if (!(a->domain_scales[i] > 0.0))
                return bad(option, "%g is not a length > 0",
                           a->domain_scales[i]);
        return 0;
    case OPT_DOMAIN_MAP: return parse_domain_map(option, arg, &a->domain_map);
    case OPT_DOMAIN_CENTER:
        return parse_list(option, arg, &a->domain_centers, &a->ncenters);
    case OPT_BREAKS:
        return parse_breaks(option, arg, &a->breaks, &a->break_counts,
                            &a->break_axes);
    case OPT_STATE:
        if (!arg[0]) return bad(option, "names no file");
        a->state = arg;
        return 0;
    case OPT_STATE_INTERVAL:
        if (parse_number(option, arg, cli_scan_decimal, &a->state_interval))
            return CLI_EXIT_USAGE;
        if (!(a->state_interval >= 0.0 && isfinite(a->state_interval)))
            return bad(option, "%s is not a number of seconds >= 0", arg);
        return 0;
    case OPT_TRANSFORM: return parse_transform(option, arg, &a->transform);
    case OPT_PARAMS_FILE: a->params_file = arg; return 0;
    case OPT_BATCH_WARM:
        return parse_count(option, arg, 2, INT_MAX, &a->batch_warm);
    case OPT_PROGRESS: a->progress = 1; return 0;
    case OPT_JSON: a->json = 1; return 0;
    case OPT_GRADIENT: a->gradient = 1; return 0;
    case OPT_NCOMP: {
        long long ncomp;
        if (a->components)
            return bad(option, "cannot be combined with --components");
        if (parse_count(option, arg, 1, PAGANI_MAX_COMPONENTS, &ncomp))
            return CLI_EXIT_USAGE;
        a->ncomp = (int)ncomp;
        return 0;
    }
    case OPT_COMPONENTS:
        if (a->ncomp && !a->components)
            return bad(option, "cannot be combined with --ncomp");
        return parse_components(option, arg, a);
    case OPT_NORM: return parse_norm(option, arg, &a->norm);
    default: return CLI_EXIT_USAGE; /* getopt_long has said what */
    }
}

/* After all options: refuses options that do not go together, and the
 * tolerances 0 and 0, which no run can meet. */
static int check_combinations(const cli_args *a)
{
    if (a->epsrel == 0.0 && a->epsabs == 0.0)
        return bad("--epsrel/--epsabs", "both tolerances are 0, which no "
                   "estimate can meet; give one above 0");
    if (a->transform >= 0 && a->method != PAGANI_QMC)
        return bad("--transform", "applies to --method qmc only");
    if (a->params_file && a->params)
        return bad("--params-file", "cannot be combined with -p");
    if (a->batch_warm && (!a->params_file || a->method != PAGANI_VEGAS))
        return bad("--batch-warm", "applies to a Vegas batch only "
                   "(--method vegas --params-file FILE)");
    if (a->gradient && !a->params && !a->params_file)
        return bad("--gradient", "differentiates by the parameters: give "
                   "them with -p or --params-file");
    if (a->components && (a->expr || a->file))
        return bad("--components", "gives the integrand: no EXPR or --file "
                   "with it");
    if (a->norm == PAGANI_NORM_PAIRED && a->ncomp % 2)
        return bad("--norm", "paired needs an even number of components, "
                   "not %d", a->ncomp);
    if (a->params_file && a->file && strcmp(a->params_file, "-") == 0 &&
        strcmp(a->file, "-") == 0)
        return bad("--params-file", "and -f cannot both read standard "
                   "input");
    return 0;
}

/* Once n is known: the per-axis lists name one value for every axis or
 * one per axis (--domain-center's one value is copied to every axis),
 * --breaks one group per axis. */
static int settle_per_axis(cli_args *a)
{
    if (a->nscales > 1 && a->nscales != a->dim)
        return bad("--domain-scale", "gives %d scales for %d axes (give one "
                   "for every axis, or one per axis)", a->nscales, a->dim);
    if (a->ncenters > 1 && a->ncenters != a->dim)
        return bad("--domain-center", "gives %d centres for %d axes (give "
                   "one for every axis, or one per axis)", a->ncenters,
                   a->dim);
    if (a->ncenters == 1 && a->dim > 1) {
        double *all = realloc(a->domain_centers,
                              (size_t)a->dim * sizeof *all);
        if (!all) return bad("--domain-center", "out of memory");
        for (int i = 1; i < a->dim; i++) all[i] = all[0];
        a->domain_centers = all;
        a->ncenters = a->dim;
    }
    if (a->break_axes && a->break_axes != a->dim)
        return bad("--breaks", "gives %d axes (groups separated by ';') for "
                   "%d axes", a->break_axes, a->dim);
    return 0;
}

/* After all options: settles n and the bounds of every axis. */
static int settle_box(cli_args *a, long long dim, int lower_set,
                      int upper_set, int nbounds)
{
    if (nbounds) {
        if (lower_set || upper_set)
            return bad("--bounds", "cannot be combined with --lower/--upper");
        if (dim && dim != nbounds)
            return bad("--bounds", "gives %d axes but --dim is %lld",
                       nbounds, dim);
        dim = nbounds;
        a->dim_given = 1;
    } else {
        a->dim_given = dim != 0;
        if (!dim) dim = 1;
        for (int i = 1; i < dim; i++) {
            a->lower[i] = a->lower[0];
            a->upper[i] = a->upper[0];
        }
    }
    a->dim = (int)dim;
    if (settle_per_axis(a)) return CLI_EXIT_USAGE;
    for (int i = 0; i < a->dim; i++) {
        if (a->lower[i] >= a->upper[i]) {
            const char *option = nbounds ? "--bounds" : "--lower/--upper";
            return bad(option, "axis %d: lower bound %g is not below upper "
                       "bound %g", i, a->lower[i], a->upper[i]);
        }
    }
    return 0;
}

int cli_parse(int argc, char **argv, cli_args *a)
{
    long long dim = 0;
    int lower_set = 0, upper_set = 0, nbounds = 0, c;

    memset(a, 0, sizeof *a);
    a->epsrel = a->epsabs = -1.0;
    a->max_evals = a->max_iterations = a->threads = a->memory = -1;
    a->transform = -1;
    a->norm = -1;
    a->domain_map = -1;
    a->state_interval = -1.0;
    a->lower = malloc(PAGANI_MAX_DIM * sizeof *a->lower);
    a->upper = malloc(PAGANI_MAX_DIM * sizeof *a->upper);
    if (!a->lower || !a->upper) return bad("pagani", "out of memory");
    a->lower[0] = 0.0;
    a->upper[0] = 1.0;

    /* getopt_long names the program by argv[0], which under libtool's
     * wrapper is a long path. */
    static char program[] = "pagani";
    argv[0] = program;
    opterr = 1;
    optind = 1;
    while ((c = getopt_long(argc, argv, "n:p:f:hV", long_options, NULL))
           != -1) {
        if (parse_option(c, optarg, a, &dim, &lower_set, &upper_set, &nbounds))
            goto usage;
        if (a->help || a->version) return 0;
    }

    if (optind < argc) a->expr = argv[optind++];
    if (optind < argc) {
        fprintf(stderr, "pagani: more than one EXPR ('%s' and '%s'); quote "
                "the expression as one argument\n", a->expr, argv[optind]);
        goto usage;
    }
    if (a->expr && a->file) {
        fprintf(stderr, "pagani: both EXPR and --file given; use one\n");
        goto usage;
    }
    if (!a->expr && !a->file && !a->components) {
        fprintf(stderr, "pagani: no EXPR given\n");
        goto usage;
    }
    if (check_combinations(a)) goto usage;
    if (settle_box(a, dim, lower_set, upper_set, nbounds)) goto usage;
    return 0;

usage:
    fprintf(stderr, "Try 'pagani --help' for more information.\n");
    return CLI_EXIT_USAGE;
}

void cli_args_free(cli_args *a)
{
    free(a->lower);
    free(a->upper);
    free(a->params);
    free(a->components);
    free(a->domain_scales);
    free(a->domain_centers);
    free(a->breaks);
    free(a->break_counts);
    a->domain_scales = a->domain_centers = a->breaks = NULL;
    a->break_counts = NULL;
    a->lower = a->upper = a->params = NULL;
    a->components = NULL;
}
