/*
 * numbers.h - the number formats of the pagani command line, one
 * definition for the options (args.c) and the parameter file
 * (params_file.c). `pagani --help` and pagani.1 describe them; change
 * them together.
 *
 * A decimal is an optional sign, digits with an optional fraction (1,
 * 2.5, .5, 2.) and an optional exponent (e or E, an optional sign,
 * digits): no spaces, no hexadecimal, no inf or nan.
 *
 * A real (bounds, parameters) is a product or quotient of factors, each
 * a decimal without a sign or a constant of the integrand's source
 * environment (pi, e and the M_ constants of <math.h>: M_PI, M_E, ...),
 * with an optional sign in front, read from left to right: 2, -0.5,
 * pi, -pi/2, 2*M_PI, 2*pi/3.
 *
 * A bound (--bounds, --lower, --upper) is a real or an infinity: inf,
 * +inf or -inf (an unbounded axis; the library takes -inf below and +inf
 * above). A real that overflows is still no bound.
 */
#ifndef PAGANI_CLI_NUMBERS_H
#define PAGANI_CLI_NUMBERS_H

/* Reads the decimal at s: returns 1, *end after it and *value its value
 * (infinite when it overflows a double), or 0 when none starts at s. */
int cli_scan_decimal(const char *s, const char **end, double *value);

/* Reads the real at s as cli_scan_decimal reads a decimal. */
int cli_scan_real(const char *s, const char **end, double *value);

/* The length of the infinity written at s (inf, +inf, -inf), else 0. */
int cli_infinity_at(const char *s);

/* Reads the bound at s as cli_scan_decimal reads a decimal: an infinity
 * (cli_infinity_at) or a real. */
int cli_scan_bound(const char *s, const char **end, double *value);

/* Whether s is all digits (at least one): a count that strtoll and
 * strtoull read exactly. */
int cli_all_digits(const char *s);

#endif /* PAGANI_CLI_NUMBERS_H */
