/*
 * params_file.c - reads the parameter blocks of --params-file: one block a
 * line, numbers separated by spaces, tabs or commas, # comments.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "args.h"
#include "params_file.h"

/* Whether c separates two numbers of a line. */
static int is_separator(char c)
{
    return c == ' ' || c == '\t' || c == ',' || c == '\r';
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

/* Reads the numbers of one line, [line, end), onto the table's values.
 * Returns how many, or -1 after printing what is wrong (number `lineno`
 * of file `name`). */
static int read_line(params_table *t, size_t *capacity, size_t used,
                     const char *line, const char *end, const char *name,
                     int lineno)
{
    const char *at = line;
    int count = 0;

    for (;;) {
        char *after;
        double v;
        while (at < end && is_separator(*at)) at++;
        if (at == end || *at == '#') return count;
        errno = 0;
        v = strtod(at, &after);
        if (after == at ||
            (after < end && !is_separator(*after) && *after != '#')) {
            fprintf(stderr, "pagani: %s:%d: expected numbers separated by "
                    "spaces or commas, got '%.*s'\n", name, lineno,
                    (int)(end - line), line);
            return -1;
        }
        if (!isfinite(v) || (errno == ERANGE && fabs(v) > 1.0)) {
            fprintf(stderr, "pagani: %s:%d: '%.*s' is not a finite number\n",
                    name, lineno, (int)(after - at), at);
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

int params_table_read(const char *text, const char *name, params_table *t)
{
    size_t capacity = 0, used = 0;
    int lineno = 0;

    memset(t, 0, sizeof *t);
    t->name = name;
    while (*text) {
        const char *end = strchr(text, '\n');
        int count;
        if (!end) end = text + strlen(text);
        lineno++;
        count = read_line(t, &capacity, used, text, end, name, lineno);
        if (count < 0) return CLI_EXIT_USAGE;
        if (count > 0 && t->count > 0 && count != t->width) {
            fprintf(stderr, "pagani: %s:%d: %d numbers, but line %d has %d; "
                    "every line needs the same count\n", name, lineno, count,
                    t->lines[0], t->width);
            return CLI_EXIT_USAGE;
        }
        if (count > 0) {
            if (t->count == INT_MAX || append_line(t, lineno)) {
                fprintf(stderr, "pagani: %s:%d: out of memory\n", name,
                        lineno);
                return CLI_EXIT_USAGE;
            }
            t->width = count;
            used += (size_t)count;
        }
        text = *end ? end + 1 : end;
    }
    if (t->count == 0) {
        fprintf(stderr, "pagani: %s: no parameters: every line is blank or "
                "a comment\n", name);
        return CLI_EXIT_USAGE;
    }
    return 0;
}

void params_table_free(params_table *t)
{
    free(t->values);
    free(t->lines);
    t->values = NULL;
    t->lines = NULL;
}
