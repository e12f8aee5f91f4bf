/*
 * report.c - the text and JSON forms of a result, the --progress lines and
 * the report of a library error.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "report.h"

/* What follows the status of a result that epsabs, not epsrel, made
 * converged. */
static const char *by_epsabs(const pagani_result *r)
{
    return r->by_epsabs ? " (by epsabs)" : "";
}

void report_text(FILE *out, const pagani_result *r, const char *status,
                 int ncomp, const double *values, const double *errors)
{
    if (ncomp == 0) fprintf(out, "%.15g +- %.3g\n", r->value, r->error);
    for (int k = 0; k < ncomp; k++)
        fprintf(out, "f[%d] = %.15g +- %.3g\n", k, values[k], errors[k]);
    fprintf(out, "status:      %s%s\n", status, by_epsabs(r));
    fprintf(out, "evaluations: %lld\n", r->evaluations);
    if (r->method == PAGANI_CUBATURE)
        fprintf(out, "regions:     %lld\n", r->regions);
    if (r->method == PAGANI_VEGAS)
        fprintf(out, "chi2/dof:    %.3g\n", r->chi2_dof);
    fprintf(out, "iterations:  %d\n", r->iterations);
    fprintf(out, "time:        %.3g s\n", r->seconds);
    fprintf(out, "method:      %s", pagani_method_name(r->method));
    if (r->method == PAGANI_CUBATURE && r->rule_degree > 0)
        fprintf(out, " (rule of degree %d)", r->rule_degree);
    fprintf(out, " on %s", pagani_backend_name(r->backend));
    if (r->auto_reason != PAGANI_AUTO_NOT_USED)
        fprintf(out, ", chosen by auto: %s", pagani_auto_reason_name(r->auto_reason));
    fputc('\n', out);
}

void report_line(FILE *out, const pagani_result *r, const char *status,
                 int ncomp, const double *values, const double *errors)
{
    if (ncomp == 0) fprintf(out, "%.15g +- %.3g ", r->value, r->error);
    for (int k = 0; k < ncomp; k++)
        fprintf(out, "%.15g +- %.3g%s", values[k], errors[k],
                k + 1 < ncomp ? ", " : " ");
    fprintf(out, "%s%s\n", status, by_epsabs(r));
}

/* A JSON number, or null when x is not finite (JSON has no NaN). */
static void json_number(FILE *out, const char *key, double x)
{
    if (isfinite(x)) fprintf(out, "\"%s\": %.17g", key, x);
    else fprintf(out, "\"%s\": null", key);
}

/* A JSON string with the characters JSON requires escaped. */
static void json_string(FILE *out, const char *key, const char *s)
{
    fprintf(out, "\"%s\": \"", key);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(out, "\\%c", c);
        else if (c < 0x20) fprintf(out, "\\u%04x", c);
        else fputc(c, out);
    }
    fputc('"', out);
}

/* A JSON array of the numbers x[0..count-1] (null where not finite). */
static void json_array(FILE *out, const char *key, const double *x, int count)
{
    fprintf(out, "\"%s\": [", key);
    for (int k = 0; k < count; k++) {
        if (isfinite(x[k])) fprintf(out, "%s%.17g", k ? ", " : "", x[k]);
        else fprintf(out, "%snull", k ? ", " : "");
    }
    fputc(']', out);
}

void report_json(FILE *out, const pagani_result *r, const char *status,
                 int line, const double *params, int nparams, int ncomp,
                 const double *values, const double *errors, int nderiv,
                 const double *gradient, const double *gradient_error)
{
    fputc('{', out);
    if (ncomp > 0) {
        json_array(out, "value", values, ncomp);
        fputs(", ", out);
        json_array(out, "error", errors, ncomp);
    } else {
        json_number(out, "value", r->value);
        fputs(", ", out);
        json_number(out, "error", r->error);
    }
    fputs(", ", out);
    json_string(out, "status", status);
    fprintf(out, ", \"by_epsabs\": %s", r->by_epsabs ? "true" : "false");
    fprintf(out, ", \"evaluations\": %lld, \"regions\": %lld, "
            "\"iterations\": %d, ", r->evaluations, r->regions, r->iterations);
    json_number(out, "chi2_dof", r->chi2_dof);
    fputs(", ", out);
    json_string(out, "method", pagani_method_name(r->method));
    fputs(", ", out);
    json_string(out, "backend", pagani_backend_name(r->backend));
    fputs(", ", out);
    json_string(out, "auto_reason", pagani_auto_reason_name(r->auto_reason));
    fprintf(out, ", \"rule\": %d, ", r->rule_degree);
    json_number(out, "seconds", r->seconds);
    if (params) {
        fprintf(out, ", \"line\": %d, ", line);
        json_array(out, "params", params, nparams);
    }
    if (nderiv > 0) {
        fputs(", ", out);
        json_array(out, "gradient", gradient, nderiv);
        fputs(", ", out);
        json_array(out, "gradient_error", gradient_error, nderiv);
    }
    fputs("}\n", out);
}

void report_gradient(FILE *out, int ncomp, int nparams,
                     const double *gradient, const double *gradient_error)
{
    for (int k = 0; k < (ncomp ? ncomp : 1); k++)
        for (int j = 0; j < nparams; j++) {
            size_t at = (size_t)k * (size_t)nparams + (size_t)j;
            if (ncomp) fprintf(out, "df[%d]/dp[%d] = ", k, j);
            else fprintf(out, "d/dp[%d] = ", j);
            fprintf(out, "%.15g +- %.3g\n", gradient[at], gradient_error[at]);
        }
}

void report_progress(FILE *out, int iteration, const char *size_name,
                     long long size, double estimate, double error)
{
    fprintf(out, "iteration %d: %s %lld, estimate %.15g, error %.3g\n",
            iteration, size_name, size, estimate, error);
    fflush(out);
}

void report_error(const char *what, int code, const pagani_context *ctx)
{
    const char *detail = ctx ? pagani_context_message(ctx) : NULL;
    size_t len = detail ? strlen(detail) : 0;

    fprintf(stderr, "pagani: %s: %s\n", what, pagani_strerror(code));
    if (len) {
        fputs(detail, stderr);
        if (detail[len - 1] != '\n') fputc('\n', stderr);
    }
}
