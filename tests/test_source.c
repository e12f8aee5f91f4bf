/*
 * test_source.c - integrand source on the CPU: the wrapped source computes
 * what the same C code computes, PAGANI_INTEGRAND's two forms agree, the
 * compiled object is cached, compile errors carry the user's line numbers
 * (and no cache path), source is refused before it compiles when it would
 * read a missing parameter block, include a file or is not what the
 * environment takes, source with names of its own (a local p) is not, and
 * bad arguments get their codes. Runs in a private cache directory.
 */
#define _GNU_SOURCE
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
#include "pagani.h"
#include "internal.h"
#include "jit/source_env.h"
#include "tap.h"

#define TOL 1e-14

static const double points[][4] = {
    {0.1, 0.2, 0.3, 0.4}, {0.9, 0.5, 0.25, 0.125}, {0.0, 1.0, 0.5, 0.75},
    {0.33, 0.66, 0.99, 0.01}, {0.5, 0.5, 0.5, 0.5}
};
#define NPOINTS (int)(sizeof points / sizeof points[0])

static double eval(const pagani_integrand *f, const double *x)
{
    return f->function(x, f->n, f->params);
}

static int close_to(double a, double b)
{
    return fabs(a - b) <= TOL * (fabs(b) > 1 ? fabs(b) : 1);
}

/* Truth for the source forms below. */
static double expr_truth(const double *x, const double *p)
{
    return x[0] * x[1] + p[0] * sin(x[2]);
}

static double body_truth(const double *x, int n, const double *p)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) s += p[i] * cos(M_PI * x[i]);
    return s / n;
}

static double scaled(const double *x, int n, const void *params)
{
    (void)n;
    return ((const double *)params)[0] * x[0];
}

/* 2 p[0] x[0] x[1]: its integral over the unit square is p[0] / 2. */
PAGANI_INTEGRAND(scaled_def, {
    return 2.0 * p[0] * x[0] * x[1];
})

PAGANI_INTEGRAND(gauss, {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += (x[i] - 0.5) * (x[i] - 0.5);
    return exp(-25.0 * s) + M_E * x[0];
})

/* The one compiled object in dir ("" when there is not exactly one). */
static int find_object(const char *dir, char *path, size_t size)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int count = 0;
    path[0] = '\0';
    if (!d) return 0;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len > 3 && strcmp(e->d_name + len - 3, ".so") == 0) {
            snprintf(path, size, "%s/%s", dir, e->d_name);
            count++;
        }
    }
    closedir(d);
    if (count != 1) path[0] = '\0';
    return count;
}

/* Entries of dir other than . and .. whose name starts with prefix. */
static int count_prefixed(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int count = 0;
    if (!d) return -1;
    while ((e = readdir(d)))
        if (strncmp(e->d_name, prefix, strlen(prefix)) == 0) count++;
    closedir(d);
    return count;
}

static int remove_entry(const char *path, const struct stat *st, int flag,
                        struct FTW *ftw)
{
    (void)st; (void)flag; (void)ftw;
    return remove(path);
}

static void test_forms(pagani_context *ctx)
{
    pagani_integrand *f = NULL;
    double p1[1] = {2.5}, p4[4] = {1.0, -2.0, 0.5, 3.0};
    int rc, good;

    rc = pagani_integrand_from_source(ctx, &f, 3,
                                      "x[0] * x[1] + p[0] * sin(x[2]);\n",
                                      p1, sizeof p1);
    if (tap_ok(rc == PAGANI_OK && f && f->function,
               "expression form compiles (rc %d: %s)", rc,
               pagani_context_message(ctx))) {
        good = 1;
        for (int k = 0; k < NPOINTS; k++)
            good &= close_to(eval(f, points[k]), expr_truth(points[k], p1));
        tap_ok(good, "expression form matches C at %d points", NPOINTS);
    } else {
        tap_skip("expression form did not compile");
    }
    pagani_integrand_destroy(f);

    rc = pagani_integrand_from_source(ctx, &f, 4,
        "double s = 0.0;\n"
        "for (int i = 0; i < n; i++) s += p[i] * cos(M_PI * x[i]);\n"
        "return s / n;\n", p4, sizeof p4);
    if (tap_ok(rc == PAGANI_OK && f && f->function,
               "body form compiles (rc %d: %s)", rc,
               pagani_context_message(ctx))) {
        good = 1;
        for (int k = 0; k < NPOINTS; k++)
            good &= close_to(eval(f, points[k]), body_truth(points[k], 4, p4));
        tap_ok(good, "body form with n, p, M_PI matches C at %d points",
               NPOINTS);
    } else {
        tap_skip("body form did not compile");
    }
    pagani_integrand_destroy(f);

    /* "return" inside a comment or string does not make a body. */
    rc = pagani_integrand_from_source(ctx, &f, 1,
        "x[0] /* return */ + M_SQRT2 + (double)sizeof(\"return\")", NULL, 0);
    tap_ok(rc == PAGANI_OK && f &&
           close_to(eval(f, points[1]), 0.9 + M_SQRT2 + 7.0),
           "return in a comment or string is not a body");
    pagani_integrand_destroy(f);
}

static void test_macro(pagani_context *ctx)
{
    pagani_integrand *host = NULL, *src = NULL, *both = NULL;
    pagani_integrand_def source_only = {NULL, gauss.source};
    int rc1, rc2, rc3, good = 1;

    rc1 = pagani_integrand_create(ctx, &both, 4, &gauss);
    rc2 = pagani_integrand_create(ctx, &src, 4, &source_only);
    rc3 = pagani_integrand_from_function(ctx, &host, 4, gauss.function,
                                         NULL, 0);
    tap_ok(rc1 == PAGANI_OK && rc2 == PAGANI_OK && rc3 == PAGANI_OK,
           "PAGANI_INTEGRAND: create from def, source-only def, function "
           "(%s)", pagani_context_message(ctx));
    tap_ok(both && both->function == gauss.function &&
           both->host_module == NULL,
           "create(def) on the CPU uses the host function, no compilation");
    if (rc1 || rc2 || rc3) {
        tap_skip("PAGANI_INTEGRAND forms not made");
    } else {
        for (int k = 0; k < NPOINTS; k++)
            good &= close_to(eval(src, points[k]), eval(host, points[k])) &&
                    eval(both, points[k]) == eval(host, points[k]);
        tap_ok(good, "PAGANI_INTEGRAND: compiled source and host function "
               "agree at %d points", NPOINTS);
    }
    pagani_integrand_destroy(both);
    pagani_integrand_destroy(src);
    pagani_integrand_destroy(host);
}

static void test_cache(pagani_context *ctx, const char *root)
{
    char dir[4096], so[4200];
    const char *text = "exp(-x[0] * x[1]) * 3.0";
    pagani_integrand *f = NULL, *g = NULL;
    struct stat st1, st2;
    double t0, t1, t2;
    int rc1, rc2;

    snprintf(dir, sizeof dir, "%s/cache-test/sub", root);
    setenv("PAGANI_CACHE_DIR", dir, 1);
    t0 = pagani_now();
    rc1 = pagani_integrand_from_source(ctx, &f, 2, text, NULL, 0);
    t1 = pagani_now();
    tap_ok(rc1 == PAGANI_OK && find_object(dir, so, sizeof so) == 1 &&
           stat(so, &st1) == 0,
           "first compilation creates the cache dir and one object");
    tap_ok(count_prefixed(dir, ".build") == 0, "no build leftovers");
    rc2 = pagani_integrand_from_source(ctx, &g, 2, text, NULL, 0);
    t2 = pagani_now();
    tap_ok(rc2 == PAGANI_OK && so[0] && stat(so, &st2) == 0 &&
           st1.st_ino == st2.st_ino &&
           st1.st_mtim.tv_sec == st2.st_mtim.tv_sec &&
           st1.st_mtim.tv_nsec == st2.st_mtim.tv_nsec &&
           find_object(dir, so, sizeof so) == 1,
           "second creation of the same source is a cache hit");
    tap_diag("compile %.1f ms, cache hit %.2f ms", 1e3 * (t1 - t0),
             1e3 * (t2 - t1));
    tap_ok(f && g && eval(f, points[0]) == eval(g, points[0]) &&
           close_to(eval(g, points[0]), exp(-0.02) * 3.0),
           "cached object computes the same");
    pagani_integrand_destroy(f);
    pagani_integrand_destroy(g);

    /* An unwritable cache directory falls back to $TMPDIR/pagani-UID. */
    setenv("PAGANI_CACHE_DIR", "/proc/pagani-not-writable", 1);
    rc1 = pagani_integrand_from_source(ctx, &f, 2, "x[0] - x[1]", NULL, 0);
    snprintf(dir, sizeof dir, "%s/pagani-%lu", root, (unsigned long)getuid());
    tap_ok(rc1 == PAGANI_OK && find_object(dir, so, sizeof so) == 1,
           "unwritable cache dir falls back to $TMPDIR/pagani-UID (%s)",
           pagani_context_message(ctx));
    pagani_integrand_destroy(f);
    snprintf(dir, sizeof dir, "%s/cache", root);
    setenv("PAGANI_CACHE_DIR", dir, 1);
}

static void test_errors(pagani_context *ctx)
{
    pagani_integrand *f = (pagani_integrand *)&f;
    const char *msg;
    double one = 1.0;
    int rc;

    rc = pagani_integrand_from_source(ctx, &f, 2,
        "double a = x[0];\n"
        "double b = x[1];\n"
        "double c = a +* ;\n"
        "return a + b + c;\n", NULL, 0);
    msg = pagani_context_message(ctx);
    tap_ok(rc == PAGANI_ERR_COMPILE && f == NULL,
           "syntax error gives PAGANI_ERR_COMPILE (rc %d)", rc);
    tap_ok(strstr(msg, "integrand:3") != NULL,
           "compiler log names the user's line 3");
    if (!strstr(msg, "integrand:3")) tap_diag("message: %s", msg);
    rc = pagani_integrand_from_source(ctx, &f, 2, "(x[0] * x[1]", NULL, 0);
    msg = pagani_context_message(ctx);
    if (!tap_ok(rc == PAGANI_ERR_COMPILE &&
                strstr(msg, "integrand-wrapper.c:") &&
                !strstr(msg, getenv("PAGANI_CACHE_DIR")) &&
                !strstr(msg, ".build-"),
                "an unclosed parenthesis: the compiler's note on the "
                "wrapper shows no cache path"))
        tap_diag("rc %d: %s", rc, msg);

    rc = pagani_integrand_from_source(ctx, &f, 2, "x[0] * no_such_thing",
                                      NULL, 0);
    msg = pagani_context_message(ctx);
    tap_ok(rc == PAGANI_ERR_COMPILE && strstr(msg, "no_such_thing") &&
           strstr(msg, "integrand:1"),
           "undefined identifier gives PAGANI_ERR_COMPILE with its name");

    setenv("PAGANI_CC", "/nonexistent/pagani-cc", 1);
    rc = pagani_integrand_from_source(ctx, &f, 2, "x[0]", NULL, 0);
    tap_ok(rc == PAGANI_ERR_SYSTEM && strstr(pagani_context_message(ctx),
                                             "pagani-cc"),
           "missing compiler gives PAGANI_ERR_SYSTEM naming it");
    unsetenv("PAGANI_CC");

    tap_ok(pagani_integrand_from_source(NULL, &f, 2, "x[0]", NULL, 0) ==
           PAGANI_ERR_NULL_POINTER, "NULL context");
    tap_ok(pagani_integrand_from_source(ctx, NULL, 2, "x[0]", NULL, 0) ==
           PAGANI_ERR_NULL_POINTER, "NULL integrand address");
    tap_ok(pagani_integrand_from_source(ctx, &f, 2, NULL, NULL, 0) ==
           PAGANI_ERR_NULL_POINTER, "NULL source");
    tap_ok(pagani_integrand_from_function(ctx, &f, 2, NULL, NULL, 0) ==
           PAGANI_ERR_NULL_POINTER, "NULL function");
    tap_ok(pagani_integrand_create(ctx, &f, 2, NULL) ==
           PAGANI_ERR_NULL_POINTER, "NULL definition");
    tap_ok(pagani_integrand_from_function(ctx, &f, 2, scaled, NULL, 8) ==
           PAGANI_ERR_NULL_POINTER, "params NULL with params_size 8");
    f = (pagani_integrand *)&f;
    rc = pagani_integrand_from_source(ctx, &f, 0, "x[0]", NULL, 0);
    tap_ok(rc == PAGANI_ERR_DIMENSION && f == NULL, "n = 0");
    tap_ok(pagani_integrand_from_function(ctx, &f, PAGANI_MAX_DIM + 1,
                                          scaled, &one, sizeof one) ==
           PAGANI_ERR_DIMENSION, "n = PAGANI_MAX_DIM + 1");
    tap_ok(pagani_integrand_create(ctx, &f, -3, &gauss) ==
           PAGANI_ERR_DIMENSION, "create with n = -3");
    {
        pagani_integrand_def empty = {NULL, NULL};
        tap_ok(pagani_integrand_create(ctx, &f, 2, &empty) ==
               PAGANI_ERR_NO_FORM, "a definition with no form");
    }
}

/* Sources that would crash or run wrong (n = 2), and how each is refused:
 * the code, and the line and the fault the message names. */
static const struct refusal {
    const char *source;
    int nparams;          /* doubles in the parameter block (0: none) */
    int code;
    const char *line, *fault;
    const char *name;
} refusals[] = {
    {"p[0] * x[0]", 0, PAGANI_ERR_PARAMS, "integrand:1", "parameter block",
     "p[0] with no parameter block"},
    {"*p", 0, PAGANI_ERR_PARAMS, "integrand:1", "parameter block",
     "*p with no parameter block"},
    {"double a = x[0];\nreturn a * p [0];", 0, PAGANI_ERR_PARAMS,
     "integrand:2", "parameter block", "p [0] on line 2, no block"},
    {"x[0] * *(const double *)params", 0, PAGANI_ERR_PARAMS, "integrand:1",
     "parameter block", "params with no parameter block"},
    {"p[0] * x[0] + p[1]", 1, PAGANI_ERR_PARAMS, "integrand:1", "p[1]",
     "p[1] with one parameter"},
    {"x[0] * x[2]", 0, PAGANI_ERR_COMPILE, "integrand:1", "x[2]",
     "x[2] with n = 2"},
    {"double a = x[0];\n\nreturn a * x[-1];", 0, PAGANI_ERR_COMPILE,
     "integrand:3", "x[-1]", "x[-1] on line 3"},
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
    {"double s = 0.0;\nfor (int i = 0; i < 3; i++) s += x[i];\nreturn s;",
     0, PAGANI_ERR_COMPILE, "integrand:2", "array bounds",
     "GCC: a loop reading x[2] with n = 2"},
#endif
    {"if (x[0] > 2) return 1;", 0, PAGANI_ERR_COMPILE, "end-of-integrand",
     "return", "a path without a return value"},
    {"return;", 0, PAGANI_ERR_COMPILE, "integrand:1", "return",
     "return; in a function returning double"},
    {"double s;\nreturn s + x[0];", 0, PAGANI_ERR_COMPILE, "integrand:2",
     "uninitialized", "a variable read before it is set"},
    {"x[0] +\nsinn(x[1])", 0, PAGANI_ERR_COMPILE, "integrand:2", "sinn",
     "a misspelt function, sinn"},
    {"double exq(double);\nreturn exq(x[0]);", 0, PAGANI_ERR_COMPILE, "exq",
     "undefined", "an undefined symbol, at link time"},
    /* p of the environment after a local p's scope ended, or before it
     * began */
    {"{ double p = 2; if (p < 0) return 0; }\nreturn p[0] * x[0];", 0,
     PAGANI_ERR_PARAMS, "integrand:2", "parameter block",
     "p[0] after the block of a local p ended"},
    {"double y = p[0];\ndouble p = 2;\nreturn y * p;", 0, PAGANI_ERR_PARAMS,
     "integrand:1", "parameter block", "p[0] before a local p is declared"},
    {"double s = 0;\nfor (int p = 0; p < 2; p++) s += x[p];\n"
     "return s * p[0];", 0, PAGANI_ERR_PARAMS, "integrand:3",
     "parameter block", "p[0] after a for loop's own p"},
    {"double a = 1, b = p[0];\nreturn a * b;", 0, PAGANI_ERR_PARAMS,
     "integrand:1", "parameter block", "p[0] in a second declarator"},
    {"double p = 1;\nreturn p; }\n{ return p[0];", 0, PAGANI_ERR_PARAMS,
     "integrand:3", "parameter block",
     "p[0] after the source closed the wrapper's block"},
    {"double p = 1;\n{ const double *q = params; return q[0]; }", 0,
     PAGANI_ERR_PARAMS, "integrand:2", "parameter block",
     "params with a local p and no block"},
    /* directives that read files, and statements without return */
    {"#include \"/dev/zero\"\nreturn x[0];", 0, PAGANI_ERR_COMPILE,
     "integrand:1", "include", "#include \"/dev/zero\""},
    {"x[0] +\n  #  include \"/dev/urandom\"\n0", 0, PAGANI_ERR_COMPILE,
     "integrand:2", "include", "#include \"/dev/urandom\" on line 2"},
    {"/* c */ %:include </dev/stdin>\nreturn x[0];", 0, PAGANI_ERR_COMPILE,
     "integrand:1", "include", "%:include </dev/stdin> (a digraph)"},
    {"#\\\ninclude_next <math.h>\nreturn x[0];", 0, PAGANI_ERR_COMPILE,
     "integrand:2", "include", "#include_next split by a line splice"},
    {"#pragma GCC dependency \"/dev/zero\"\nreturn x[0];", 0,
     PAGANI_ERR_COMPILE, "integrand:1", "include",
     "#pragma GCC dependency"},
    {"double s = x[0]", 0, PAGANI_ERR_COMPILE, "integrand:1",
     "no `return`", "a declaration without return"},
    {"x[0];\nx[1]", 0, PAGANI_ERR_COMPILE, "integrand:2", "no `return`",
     "two statements without return"},
    {"if (x[0] > 0.5) 1.0", 0, PAGANI_ERR_COMPILE, "integrand:1",
     "no `return`", "an if without return"},
};
#define NREFUSALS (int)(sizeof refusals / sizeof refusals[0])

/* Valid source whose own names are those of the environment (n = 2, no
 * parameter block): its value at x = (0.25, 0.5) (x[0] + 2 x[1] = 1.25,
 * x[0] x[1] = 0.125). */
static const struct acceptance {
    const char *source;
    double value;
    const char *name;
} accepted[] = {
    {"double p=1; for(int i=0;i<2;i++) p*=x[i]; return p;", 0.125,
     "a local product named p (issue 30)"},
    {"double p = 2;\n{ double p = -3; if (p > 0) return 0; }\n"
     "return p * x[1];", 1.0,
     "p shadowed in an inner block"},
    {"double s = 0;\nfor (int p = 1; p <= 2; p++) s += p * x[p - 1];\n"
     "return s;", 1.25, "p declared in a for loop's header"},
    {"struct { double p; } s = {4}; return s.p * x[0];", 1.0,
     "a struct member named p"},
    {"struct pt { double p, q; };\nstruct pt s = {.p = 2, .q = 1};\n"
     "return s.p * x[1] + s.q;", 2.0, "members and designators named p"},
    {"typedef double real; real p = 4; return p * x[0];", 1.0,
     "p of a typedef'd type"},
    {"double a = 1, p = a * 2, *q = &p; return *q * x[1];", 1.0,
     "p as a second declarator"},
    {"/* p[0] */ x[0] + (double)sizeof(\"p[1]\") - 5 // p\n", 0.25,
     "p in comments and strings"},
    {"double x[4] = {1, 2, 3, 4}; return x[3];", 4.0,
     "a local array named x, read past n"},
    {"double\\\n p = 0.5; return p + x[0];", 0.75,
     "a local p behind a line splice"},
};
#define NACCEPTED (int)(sizeof accepted / sizeof accepted[0])

/* Source that declares its own x or p compiles and computes its value. */
static void test_own_names(pagani_context *ctx)
{
    const double at[2] = {0.25, 0.5};
    for (int i = 0; i < NACCEPTED; i++) {
        const struct acceptance *c = &accepted[i];
        pagani_integrand *f = NULL;
        int rc = pagani_integrand_from_source(ctx, &f, 2, c->source, NULL, 0);
        double value = rc == PAGANI_OK ? eval(f, at) : NAN;
        if (!tap_ok(rc == PAGANI_OK && close_to(value, c->value),
                    "%s: compiles, %g (want %g)", c->name, value, c->value))
            tap_diag("rc %d: %s", rc, pagani_context_message(ctx));
        pagani_integrand_destroy(f);
    }
}

/* Source that would crash or run wrong is refused before it runs, and
 * leaves nothing in the cache. */
static void test_checks(pagani_context *ctx, const char *cache)
{
    pagani_integrand *f = NULL;
    double ones[2] = {1.0, 1.0};
    int objects, rc;

    rc = pagani_integrand_from_source(ctx, &f, 2,
        "x[0] + /* p[0] */ (double)sizeof(\"p\") + s.p", NULL, 0);
    tap_ok(rc == PAGANI_ERR_COMPILE &&
           strstr(pagani_context_message(ctx), "integrand:1") &&
           !strstr(pagani_context_message(ctx), "parameter block"),
           "p in a comment, a string or as a member is not the parameter "
           "block (the source goes on to the compiler)");
    objects = count_prefixed(cache, "cpu-");
    for (int i = 0; i < NREFUSALS; i++) {
        const struct refusal *c = &refusals[i];
        const char *msg;
        f = (pagani_integrand *)&f;
        rc = pagani_integrand_from_source(ctx, &f, 2, c->source,
                                          c->nparams ? ones : NULL,
                                          c->nparams * sizeof ones[0]);
        msg = pagani_context_message(ctx);
        if (!tap_ok(rc == c->code && f == NULL && strstr(msg, c->line) &&
                    strstr(msg, c->fault), "%s: %s naming %s", c->name,
                    pagani_strerror(c->code), c->line))
            tap_diag("rc %d: %s", rc, msg);
        if (rc == PAGANI_OK) pagani_integrand_destroy(f);
    }
    tap_ok(count_prefixed(cache, "cpu-") == objects &&
           count_prefixed(cache, ".build") == 0,
           "the refused sources left no object and no build folder");
}

/* PAGANI_INTEGRAND definitions get their parameters later: integrating
 * without a block that fits is refused, never a crash. */
static void test_late_params(pagani_context *ctx)
{
    pagani_integrand *f = NULL, *g = NULL;
    pagani_options opt = pagani_options_default(PAGANI_CUBATURE);
    double lo[2] = {0.0, 0.0}, hi[2] = {1.0, 1.0}, two = 2.0;
    float small = 3.0f;
    pagani_result r;
    int rc;

    rc = pagani_integrand_create(ctx, &f, 2, &scaled_def);
    tap_ok(rc == PAGANI_OK &&
           pagani_integrate(ctx, f, lo, hi, &opt, &r) == PAGANI_ERR_PARAMS &&
           strstr(pagani_context_message(ctx), "set_params"),
           "create(def using p), no parameters: integrate gives "
           "PAGANI_ERR_PARAMS");
    rc = pagani_integrand_set_params(f, &two, sizeof two);
    if (rc == PAGANI_OK) rc = pagani_integrate(ctx, f, lo, hi, &opt, &r);
    tap_ok(rc == PAGANI_OK && fabs(r.value - 1.0) < 1e-12,
           "after set_params(p[0] = 2) it integrates: %.15g (want 1)",
           r.value);
    pagani_integrand_set_params(f, NULL, 0);
    tap_ok(pagani_integrate(ctx, f, lo, hi, &opt, &r) == PAGANI_ERR_PARAMS,
           "after set_params(NULL, 0): PAGANI_ERR_PARAMS again");
    pagani_integrand_destroy(f);

    rc = pagani_integrand_from_source(ctx, &g, 2, "p[0] * x[0]", &small,
                                      sizeof small);
    tap_ok(rc == PAGANI_OK && g && g->params_size == sizeof small &&
           isfinite(eval(g, points[0])),
           "a 4-byte block covers p[0] (padded to a double)");
    pagani_integrand_destroy(g);
}

static void test_params(pagani_context *ctx)
{
    pagani_integrand *f = NULL, *g = NULL;
    double p = 2.0, q = 3.0, x[1] = {0.5};
    int rc;

    rc = pagani_integrand_from_source(ctx, &f, 1, "p[0] * x[0]", &p, sizeof p);
    rc |= pagani_integrand_from_function(ctx, &g, 1, scaled, &p, sizeof p);
    p = 100.0; /* the blocks were copied */
    tap_ok(rc == PAGANI_OK && eval(f, x) == 1.0 && eval(g, x) == 1.0,
           "parameter blocks are copied at creation");
    rc = pagani_integrand_set_params(f, &q, sizeof q);
    rc |= pagani_integrand_set_params(g, &q, sizeof q);
    tap_ok(rc == PAGANI_OK && eval(f, x) == 1.5 && eval(g, x) == 1.5,
           "set_params changes the results");
    tap_ok(pagani_integrand_set_params(NULL, &q, sizeof q) ==
           PAGANI_ERR_NULL_POINTER &&
           pagani_integrand_set_params(f, NULL, sizeof q) ==
           PAGANI_ERR_NULL_POINTER && eval(f, x) == 1.5,
           "set_params rejects NULL and keeps the old block");
    tap_ok(pagani_integrand_set_params(g, NULL, 0) == PAGANI_OK &&
           g->params == NULL && g->params_size == 0,
           "set_params(NULL, 0) clears the block");
    pagani_integrand_destroy(f);
    pagani_integrand_destroy(g);
    pagani_integrand_destroy(NULL);
    tap_ok(1, "destroy(NULL) is safe");
}

/* A host function cannot run on CUDA; a CUDA context that did not open
 * takes no integrands at all. */
static void test_cuda_context(void)
{
    pagani_context *cu = NULL;
    pagani_integrand *f = NULL;
    pagani_integrand_def host_only = {scaled, NULL};
    int rc = pagani_context_create(&cu, PAGANI_BACKEND_CUDA);
    int frc = cu ? pagani_integrand_from_function(cu, &f, 2, scaled, NULL, 0)
                 : -1;

    if (!cu) {
        tap_skip("no CUDA context object (rc %d)", rc);
    } else if (rc == PAGANI_OK) {
        tap_ok(frc == PAGANI_ERR_NO_FORM && f == NULL &&
               strstr(pagani_context_message(cu), "PAGANI_INTEGRAND"),
               "CUDA: a host function gives PAGANI_ERR_NO_FORM");
        tap_ok(pagani_integrand_create(cu, &f, 2, &host_only) ==
               PAGANI_ERR_NO_FORM, "CUDA: a definition without source");
    } else {
        tap_ok(frc == PAGANI_ERR_BACKEND_UNAVAILABLE && f == NULL,
               "CUDA context that did not open: BACKEND_UNAVAILABLE");
        tap_ok(pagani_integrand_from_source(cu, &f, 2, "x[0]", NULL, 0) ==
               PAGANI_ERR_BACKEND_UNAVAILABLE && f == NULL,
               "the same for source");
    }
    pagani_context_destroy(cu);
}

static void test_wrap(void)
{
    char *cuda = pagani_source_wrap("return x[0];", 3, 0, PAGANI_TARGET_CUDA);
    char *host = pagani_source_wrap("x[0]", 3, 0, PAGANI_TARGET_HOST);
    tap_ok(cuda && strstr(cuda, "__device__ __forceinline__ double") &&
           strstr(cuda, "pagani_integrand_device(const double *t, "
                        "const void *params)") &&
           strstr(cuda, "const int n = 3;") && strstr(cuda, "M_SQRT1_2") &&
           strstr(cuda, "#line 1 \"integrand\"\nreturn x[0];") &&
           !strstr(cuda, "#include"),
           "CUDA unit: device function, n constant, constants, no headers");
    tap_ok(host && strstr(host, "#include <math.h>") &&
           strstr(host, PAGANI_HOST_ENTRY "(const double *t, int n_arg") &&
           strstr(host, "return (\n#line 1 \"integrand\"\nx[0]\n"),
           "host unit: math.h, entry, expression wrapped in return");
    free(cuda);
    free(host);
}

int main(void)
{
    char root[] = "/tmp/pagani-test-source-XXXXXX", cache[4096];
    pagani_context *ctx = NULL;
    int rc;

    if (!mkdtemp(root)) return tap_skip_all("cannot create a temp dir");
    snprintf(cache, sizeof cache, "%s/cache", root);
    setenv("PAGANI_CACHE_DIR", cache, 1);
    setenv("TMPDIR", root, 1);
    unsetenv("PAGANI_CC");

    rc = pagani_context_create(&ctx, PAGANI_BACKEND_CPU);
    tap_ok(rc == PAGANI_OK && ctx, "CPU context");
    if (rc == PAGANI_OK) {
        test_forms(ctx);
        test_macro(ctx);
        test_cache(ctx, root);
        test_errors(ctx);
        test_checks(ctx, cache);
        test_own_names(ctx);
        test_late_params(ctx);
        test_params(ctx);
    }
    test_cuda_context();
    test_wrap();
    pagani_context_destroy(ctx);
    nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    tap_done();
    return tap_exit_code();
}
