/*
 * report.h - what pagani prints: the result as text or as one JSON object,
 * the --progress lines, and a library error with its details.
 */
#ifndef PAGANI_CLI_REPORT_H
#define PAGANI_CLI_REPORT_H

#include <stdio.h>
#include "pagani.h"

/* "estimate +- error", then one "name: value" line per field. */
void report_text(FILE *out, const pagani_result *r);

/* One JSON object on one line, keys: value, error, status, evaluations,
 * regions, iterations, chi2_dof, method, backend, rule, seconds. A value
 * that is not finite is written as null. */
void report_json(FILE *out, const pagani_result *r);

/* One --progress line: iteration, active regions, estimate, error. */
void report_progress(FILE *out, int iteration, long long active_regions,
                     double estimate, double error);

/* "pagani: WHAT: <pagani_strerror(code)>", then the context's message
 * (e.g. the compiler's log) when there is one, on stderr. */
void report_error(const char *what, int code, const pagani_context *ctx);

#endif /* PAGANI_CLI_REPORT_H */
