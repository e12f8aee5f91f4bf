/*
 * numbers.c - reads the numbers of the pagani command line in the
 * formats numbers.h defines, and nothing else.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "numbers.h"

/* The named constants a real may use: those of the integrand's source
 * environment (src/jit/source_env.c), and pi and e. */
static const struct {
    const char *name;
    double value;
} constants[] = {
    {"pi", M_PI}, {"e", M_E},
    {"M_E", M_E}, {"M_LOG2E", M_LOG2E}, {"M_LOG10E", M_LOG10E},
    {"M_LN2", M_LN2}, {"M_LN10", M_LN10}, {"M_PI", M_PI},
    {"M_PI_2", M_PI_2}, {"M_PI_4", M_PI_4}, {"M_1_PI", M_1_PI},
    {"M_2_PI", M_2_PI}, {"M_2_SQRTPI", M_2_SQRTPI}, {"M_SQRT2", M_SQRT2},
    {"M_SQRT1_2", M_SQRT1_2},
};

/* Past the digits at s (s itself when there are none). */
static const char *skip_digits(const char *s)
{
    while (isdigit((unsigned char)*s)) s++;
    return s;
}

/* Past the decimal without a sign at s, or s when there is none. */
static const char *unsigned_decimal_end(const char *s)
{
    const char *at = skip_digits(s), *exponent;

    if (*at == '.') {
        const char *fraction = skip_digits(at + 1);
        if (at == s && fraction == at + 1) return s; /* "." alone */
        at = fraction;
    }
    if (at == s) return s;
    if (*at != 'e' && *at != 'E') return at;
    exponent = at + 1;
    if (*exponent == '+' || *exponent == '-') exponent++;
    /* "2e" or "2e+" end before the e: what follows is not a number */
    return isdigit((unsigned char)*exponent) ? skip_digits(exponent) : at;
}

/* The value of the number [s, end) that unsigned_decimal_end (after a
 * sign) delimited. strtod reads the same characters, or more where they
 * begin "0x" (hexadecimal, which the format refuses: the number there is
 * the 0, and what follows it no caller takes). */
static double decimal_value(const char *s, const char *end)
{
    char *after;
    double v = strtod(s, &after);
    return after == end ? v : 0.0;
}

int cli_scan_decimal(const char *s, const char **end, double *value)
{
    const char *digits = s + (*s == '+' || *s == '-');
    const char *after = unsigned_decimal_end(digits);

    if (after == digits) return 0;
    *end = after;
    *value = decimal_value(s, after);
    return 1;
}

/* Reads one factor of a real at s: a decimal without a sign or a
 * constant. 1 with *end and *value, or 0. */
static int scan_factor(const char *s, const char **end, double *value)
{
    const char *after = unsigned_decimal_end(s);
    size_t length;

    if (after != s) {
        *end = after;
        *value = decimal_value(s, after);
        return 1;
    }
    if (!isalpha((unsigned char)*s) && *s != '_') return 0;
    while (isalnum((unsigned char)*after) || *after == '_') after++;
    length = (size_t)(after - s);
    for (size_t i = 0; i < sizeof constants / sizeof constants[0]; i++) {
        if (strlen(constants[i].name) == length &&
            strncmp(s, constants[i].name, length) == 0) {
            *end = after;
            *value = constants[i].value;
            return 1;
        }
    }
    return 0;
}

int cli_scan_real(const char *s, const char **end, double *value)
{
    const char *at = s + (*s == '+' || *s == '-');
    double sign = *s == '-' ? -1.0 : 1.0, v, factor;

    if (!scan_factor(at, &at, &v)) return 0;
    while ((*at == '*' || *at == '/') && scan_factor(at + 1, end, &factor)) {
        v = *at == '*' ? v * factor : v / factor;
        at = *end;
    }
    *end = at;
    *value = sign * v;
    return 1;
}

int cli_infinity_at(const char *s)
{
    const char *at = s + (*s == '+' || *s == '-');

    if (strncmp(at, "inf", 3) != 0 || isalnum((unsigned char)at[3]) ||
        at[3] == '_')
        return 0;
    return (int)(at + 3 - s);
}

int cli_scan_bound(const char *s, const char **end, double *value)
{
    int length = cli_infinity_at(s);

    if (!length) return cli_scan_real(s, end, value);
    *end = s + length;
    *value = *s == '-' ? -INFINITY : INFINITY;
    return 1;
}

int cli_all_digits(const char *s)
{
    return isdigit((unsigned char)*s) && *skip_digits(s) == '\0';
}
