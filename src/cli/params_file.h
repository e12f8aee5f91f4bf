/*
 * params_file.h - the parameter blocks of `pagani --params-file FILE`: one
 * block a line, all lines integrated in one pagani_integrate_batch call.
 */
#ifndef PAGANI_CLI_PARAMS_FILE_H
#define PAGANI_CLI_PARAMS_FILE_H

#include <stdio.h>

/* What a parameter file may hold, so that what pagani reads and the
 * batch it makes are bounded whatever FILE is (`--params-file /dev/zero`
 * included): lines of at most 64 KiB (their newline aside), at most a
 * million lines (blank and comment lines included), at most 2^22
 * (4,194,304) numbers in all. pagani --help and pagani.1 say so. */
#define PARAMS_MAX_LINE_BYTES 65536
#define PARAMS_MAX_LINES 1000000
#define PARAMS_MAX_NUMBERS 4194304

/* The blocks of a parameter file, in the order of its lines. */
typedef struct params_table {
    const char *name; /* the file, for messages (not owned) */
    int count;       /* blocks (lines with numbers) */
    int width;       /* numbers per block, the same on every line */
    double *values;  /* count * width numbers, block k at k * width */
    int *lines;      /* the line number (from 1) of each block */
} params_table;

/* Reads the file `in`, named `name` for messages, into *t: on each line,
 * numbers (the reals of numbers.h: 2.5, -1e-3, 2*pi) separated by spaces,
 * tabs or commas; blank lines and everything from a '#' to the end of its
 * line are skipped. Returns 0, or CLI_EXIT_USAGE after printing
 * "pagani: NAME:LINE: what is wrong" on stderr (a malformed number or a
 * byte that is none, a NUL byte, a line whose count differs from the
 * first line's, a limit above passed, no numbers at all). Free with
 * params_table_free() in every case. */
int params_table_read(FILE *in, const char *name, params_table *t);

void params_table_free(params_table *t);

#endif /* PAGANI_CLI_PARAMS_FILE_H */
