/*
 * report.h - what pagani prints: the result as text or as one JSON object,
 * the --progress lines, and a library error with its details.
 */
#ifndef PAGANI_CLI_REPORT_H
#define PAGANI_CLI_REPORT_H

#include <stdio.h>
#include "pagani.h"

/* Below, ncomp > 0 means a vector integrand whose components' estimates
 * and errors are values[0..ncomp-1] and errors[0..ncomp-1]; with ncomp 0
 * the result's value and error are printed. */

/* "estimate +- error" (with components, "f[k] = estimate +- error", one
 * line each), then one "name: value" line per field. `status` names how
 * the run ended (pagani_status_name, or "interrupted"). */
void report_text(FILE *out, const pagani_result *r, const char *status,
                 int ncomp, const double *values, const double *errors);

/* The one line of an integral of --params-file: "estimate +- error
 * status" (with components, every "estimate +- error" before the status,
 * separated by ", "). */
void report_line(FILE *out, const pagani_result *r, const char *status,
                 int ncomp, const double *values, const double *errors);

/* One JSON object on one line, keys: value, error, status, evaluations,
 * regions, iterations, chi2_dof, method, backend, rule, seconds (with
 * components, value and error are arrays of ncomp numbers); with params
 * (not NULL) also line and params, the input line number of the integral
 * of --params-file and its nparams numbers. A value that is not finite is
 * written as null. */
void report_json(FILE *out, const pagani_result *r, const char *status,
                 int line, const double *params, int nparams, int ncomp,
                 const double *values, const double *errors, int nderiv,
                 const double *gradient, const double *gradient_error);

/* With --gradient: "d/dp[j] = estimate +- error" (with components,
 * "df[k]/dp[j] = ..."), one line each, the derivatives of value k at
 * gradient[k * nparams + j]. The JSON object has them as the arrays
 * gradient and gradient_error (nderiv numbers each; none when 0). */
void report_gradient(FILE *out, int ncomp, int nparams,
                     const double *gradient, const double *gradient_error);

/* One --progress line: iteration, the size of the work (`size_name`:
 * active regions, sub-cubes, ...), estimate, error. */
void report_progress(FILE *out, int iteration, const char *size_name,
                     long long size, double estimate, double error);

/* "pagani: WHAT: <pagani_strerror(code)>", then the context's message
 * (e.g. the compiler's log) when there is one, on stderr. */
void report_error(const char *what, int code, const pagani_context *ctx);

#endif /* PAGANI_CLI_REPORT_H */
