/*
 * gradient_explain.c - names the construct that stopped a gradient unit
 * from compiling (gradient.h), from the compiler's log: the host C++
 * compiler and NVRTC word their errors differently, so each construct is
 * found by what both logs hold (a function's name followed by its
 * parameter list, the dual type and the type it would become).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gradient/dual_text.h"
#include "gradient/gradient.h"

/* The line of the user's source a log line names ("integrand:12:" from
 * GCC, "integrand(12)" from NVRTC), or 0. */
static int source_line(const char *line)
{
    const char *at = strstr(line, "integrand:");
    if (at && (at == line || at[-1] != '-')) return atoi(at + 10);
    at = strstr(line, "integrand(");
    if (at && (at == line || at[-1] != '-')) return atoi(at + 10);
    return 0;
}

/* Whether line names function `name`: with its parameter list (GCC's
 * "isnan(pagani_dual<2>&)") or in quotes, perhaps qualified (NVRTC's
 * `overloaded function "isnan"` or `"std::isnan"`). */
static int names_call(const char *line, const char *name)
{
    size_t len = strlen(name);
    for (const char *at = strstr(line, name); at; at = strstr(at + 1, name)) {
        int quoted = at > line && (at[-1] == '"' || at[-1] == ':') &&
                     at[len] == '"';
        if (quoted || (at[len] == '(' && (at == line ||
            !(isalnum((unsigned char)at[-1]) || at[-1] == '_'))))
            return 1;
    }
    return 0;
}

/* The name after "call to " in GCC's "no matching function for call to
 * 'name(...)'", or NVRTC's `overloaded function "name"`, into buf. */
static int unknown_call(const char *line, char *buf, size_t size)
{
    const char *at = strstr(line, "call to ");
    size_t len = 0;
    if (at) at += 8;
    else if ((at = strstr(line, "overloaded function ")))
        at += 20;
    else
        return 0;
    while (*at && !isalpha((unsigned char)*at) && *at != '_') at++;
    while ((isalnum((unsigned char)at[len]) || at[len] == '_') &&
           len + 1 < size)
        len++;
    memcpy(buf, at, len);
    buf[len] = '\0';
    return len > 0;
}

/* The words for an unmatched call in line, into buf; 0 when it names
 * none. */
static int unknown_call_words(const char *line, char *buf, size_t size)
{
    char name[64];
    if (!unknown_call(line, name, sizeof name)) return 0;
    snprintf(buf, size, "`%s` of a value that may depend on the "
             "parameters (no derivative is known for it)", name);
    return 1;
}

/* What the log line `line` (one error) shows, in words, into buf; 0 when
 * it is none of the refused constructs. NVRTC names the argument types of
 * an unmatched call on the next line, so a call is taken for one with a
 * dual argument when the log shows the dual type (`dual_in_log`). */
static int construct(const char *line, int dual_in_log, char *buf,
                     size_t size)
{
    if (strstr(line, "pagani_gradient_raw_params")) {
        snprintf(buf, size, "the parameter block read through `params` "
                 "(its bytes carry no derivatives): read the parameters "
                 "as p[k]");
        return 1;
    }
    if (strstr(line, "operator&")) {
        snprintf(buf, size, "the address of a value (`&`: a pointer to "
                 "it, or its bits, would lose its derivatives)");
        return 1;
    }
    for (const pagani_dual_refusal *r = pagani_dual_refused; r->name; r++)
        if (names_call(line, r->name)) {
            snprintf(buf, size, "`%s` of a value that may depend on the "
                     "parameters (it has no derivative: a step, remainder "
                     "or bit of a value)", r->name);
            return 1;
        }
    if (dual_in_log && strstr(line, "no instance of overloaded function"))
        return unknown_call_words(line, buf, size);
    if (!strstr(line, "pagani_dual")) return 0;
    if (strstr(line, "double*") || strstr(line, "double *")) {
        snprintf(buf, size, "a pointer to x taken as `double *` (in a "
                 "gradient, double means a dual number and x stays plain: "
                 "read x[i] directly)");
        return 1;
    }
    if (strstr(line, "convert") || strstr(line, "conversion") ||
        strstr(line, "cast")) {
        snprintf(buf, size, "a conversion of a value that may depend on the "
                 "parameters to an integer or other type (a truncation is "
                 "a step: it has no derivative)");
        return 1;
    }
    return unknown_call_words(line, buf, size);
}

int pagani_gradient_explain(pagani_context *ctx)
{
    const char *log = pagani_context_message(ctx);
    char what[320], *copy;
    int line = 0, found = 0;

    if (!log || !(copy = strdup(log))) return PAGANI_ERR_COMPILE;
    for (char *save = NULL, *l = strtok_r(copy, "\n", &save); l && !found;
         l = strtok_r(NULL, "\n", &save))
        if (strstr(l, "error") &&
            (found = construct(l, strstr(log, "pagani_dual") != NULL, what,
                               sizeof what)))
            line = source_line(l);
    free(copy);
    if (!found) return PAGANI_ERR_COMPILE;
    return pagani_fail(ctx, PAGANI_ERR_COMPILE, "integrand:%d: the gradient "
                       "cannot differentiate %s\n%s", line, what, log);
}
