/*
 * source_file.c - reads EXPR from the file of `pagani -f FILE`: at most
 * CLI_MAX_SOURCE_BYTES bytes, whatever FILE is (a pipe or a device too).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "source_file.h"

/* The line (from 1) of text[at], for messages. */
static int line_of(const char *text, size_t at)
{
    int line = 1;
    for (size_t i = 0; i < at; i++) line += text[i] == '\n';
    return line;
}

char *cli_read_source(const char *path)
{
    FILE *in = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    const char *name = in == stdin ? "standard input" : path;
    /* one byte more than the limit tells a file at the limit from a
     * longer one */
    char *text = malloc(CLI_MAX_SOURCE_BYTES + 2);
    const char *nul;
    size_t length;

    if (!in) {
        fprintf(stderr, "pagani: %s: %s\n", path, strerror(errno));
        free(text);
        return NULL;
    }
    if (!text) {
        fprintf(stderr, "pagani: %s: out of memory\n", name);
        goto fail;
    }
    length = fread(text, 1, CLI_MAX_SOURCE_BYTES + 1, in);
    if (ferror(in)) {
        fprintf(stderr, "pagani: %s: %s\n", name, strerror(errno));
        goto fail;
    }
    if (length > CLI_MAX_SOURCE_BYTES) {
        fprintf(stderr, "pagani: %s: longer than %d bytes (1 MiB), the most "
                "EXPR may have\n", name, CLI_MAX_SOURCE_BYTES);
        goto fail;
    }
    if ((nul = memchr(text, '\0', length))) {
        fprintf(stderr, "pagani: %s:%d: a NUL byte: EXPR must be text\n",
                name, line_of(text, (size_t)(nul - text)));
        goto fail;
    }
    text[length] = '\0';
    if (in != stdin) fclose(in);
    return text;
fail:
    if (in != stdin) fclose(in);
    free(text);
    return NULL;
}
