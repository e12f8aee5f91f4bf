/*
 * params_file.c - reads the parameter blocks of --params-file: one block a
 * line, numbers separated by spaces, tabs or commas, # comments. The file
 * is read a line at a time into a buffer of fixed size, within the limits
 * of params_file.h.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "args.h"
#include "numbers.h"
#include "params_file.h"

/* The most bytes of a malformed number a message quotes. */
#define QUOTED_BYTES 40

/* Whether c separates two numbers of a line. */
static int is_separator(char c)
{
    return c == ' ' || c == '\t' || c == ',' || c == '\r';
}

/* How reading a line ended. */
typedef enum {
    LINE_READ,     /* a line is in the buffer */
    LINE_NONE,     /* the end of the file: no line */
    LINE_TOO_LONG, /* longer than PARAMS_MAX_LINE_BYTES */
    LINE_NUL,      /* a NUL byte, at *column */
    LINE_FAILED    /* a read error (errno) */
} line_status;

/* Reads the next line of `in` into buf (PARAMS_MAX_LINE_BYTES + 1 bytes)
 * without its newline, as a string. */
static line_status next_line(FILE *in, char *buf, size_t *column)
{
    size_t length = 0;
    int c;

    while ((c = getc(in)) != EOF && c != '\n') {
        if (c == '\0') {
            *column = length + 1;
            return LINE_NUL;
        }
        if (length == PARAMS_MAX_LINE_BYTES) return LINE_TOO_LONG;
        buf[length++] = (char)c;
    }
    buf[length] = '\0';
    if (ferror(in)) return LINE_FAILED;
    return c == EOF && length == 0 ? LINE_NONE : LINE_READ;
}

/* Prints the word at s (up to a separator, a '#' or the end, at most
 * QUOTED_BYTES bytes) with bytes other than printable ASCII as \xHH. */
static void print_word(const char *s)
{
    for (int i = 0; i < QUOTED_BYTES && s[i] && !is_separator(s[i]) &&
                    s[i] != '#'; i++) {
        unsigned char c = (unsigned char)s[i];
        if (isprint(c) && c < 0x80) fputc(c, stderr);
        else fprintf(stderr, "\\x%02x", c);
    }
}

/* Appends v to the table's values, growing them as needed; 0, or -1 when
 * memory runs out. */
static int append_value(params_table *t, size_t *capacity, size_t used,
                        double v)
{
    if (used == *capacity) {
        size_t grown_capacity = *capacity ? 2 * *capacity : 64;
        double *grown = realloc(t->values, grown_capacity * sizeof *grown);
        if (!grown) return -1;
        t->values = grown;
        *capacity = grown_capacity;
    }
    t->values[used] = v;
    return 0;
}

/* Reads the numbers of one line onto the table's values, after the `used`
 * there. Returns how many, or -1 after printing what is wrong (line
 * `lineno` of file `name`). */
static int read_numbers(params_table *t, size_t *capacity, size_t used,
                        const char *line, const char *name, int lineno)
{
    const char *at = line, *after;
    int count = 0;

    for (;;) {
        double v;
        while (is_separator(*at)) at++;
        if (!*at || *at == '#') return count;
        if (!cli_scan_real(at, &after, &v) ||
            (*after && !is_separator(*after) && *after != '#')) {
            fprintf(stderr, "pagani: %s:%d: expected numbers separated by "
                    "spaces or commas, got '", name, lineno);
            print_word(at);
            fprintf(stderr, "'\n");
            return -1;
        }
        if (!isfinite(v)) {
            fprintf(stderr, "pagani: %s:%d: '%.*s' is not a finite number\n",
                    name, lineno, (int)(after - at), at);
            return -1;
        }
        if (used + (size_t)count == PARAMS_MAX_NUMBERS) {
            fprintf(stderr, "pagani: %s:%d: more than %d numbers, the most "
                    "a parameter file may hold\n", name, lineno,
                    PARAMS_MAX_NUMBERS);
            return -1;
        }
        if (append_value(t, capacity, used + (size_t)count, v)) {
            fprintf(stderr, "pagani: %s: out of memory\n", name);
            return -1;
        }
        count++;
        at = after;
    }
}

/* Records that the block just read came from line `lineno`; 0, or -1
 * when memory runs out. */
static int append_line(params_table *t, int lineno)
{
    int *grown = realloc(t->lines, ((size_t)t->count + 1) * sizeof *grown);
    if (!grown) return -1;
    t->lines = grown;
    t->lines[t->count++] = lineno;
    return 0;
}

/* Says on stderr why line `lineno` could not be read (status). */
static void report_unread_line(line_status status, const char *name,
                               int lineno, size_t column)
{
    switch (status) {
    case LINE_TOO_LONG:
        fprintf(stderr, "pagani: %s:%d: longer than %d bytes (64 KiB), the "
                "most a line may have\n", name, lineno,
                PARAMS_MAX_LINE_BYTES);
        break;
    case LINE_NUL:
        fprintf(stderr, "pagani: %s:%d: a NUL byte (column %zu): a parameter "
                "file must be text\n", name, lineno, column);
        break;
    default:
        fprintf(stderr, "pagani: %s:%d: %s\n", name, lineno, strerror(errno));
        break;
    }
}

int params_table_read(FILE *in, const char *name, params_table *t)
{
    size_t capacity = 0, used = 0, column = 0;
    char *line = malloc(PARAMS_MAX_LINE_BYTES + 1);
    line_status status;
    int lineno = 0, result = CLI_EXIT_USAGE;

    memset(t, 0, sizeof *t);
    t->name = name;
    if (!line) {
        fprintf(stderr, "pagani: %s: out of memory\n", name);
        return CLI_EXIT_USAGE;
    }
    while ((status = next_line(in, line, &column)) != LINE_NONE) {
        int count;
        if (lineno == PARAMS_MAX_LINES) {
            fprintf(stderr, "pagani: %s: more than %d lines, the most a "
                    "parameter file may have\n", name, PARAMS_MAX_LINES);
            goto done;
        }
        lineno++;
        if (status != LINE_READ) {
            report_unread_line(status, name, lineno, column);
            goto done;
        }
        count = read_numbers(t, &capacity, used, line, name, lineno);
        if (count < 0) goto done;
        if (count > 0 && t->count > 0 && count != t->width) {
            fprintf(stderr, "pagani: %s:%d: %d numbers, but line %d has %d; "
                    "every line needs the same count\n", name, lineno, count,
                    t->lines[0], t->width);
            goto done;
        }
        if (count > 0) {
            if (append_line(t, lineno)) {
                fprintf(stderr, "pagani: %s:%d: out of memory\n", name,
                        lineno);
                goto done;
            }
            t->width = count;
            used += (size_t)count;
        }
    }
    if (t->count == 0)
        fprintf(stderr, "pagani: %s: no parameters: every line is blank or "
                "a comment\n", name);
    else
        result = 0;
done:
    free(line);
    return result;
}

void params_table_free(params_table *t)
{
    free(t->values);
    free(t->lines);
    t->values = NULL;
    t->lines = NULL;
}
