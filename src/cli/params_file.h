/*
 * params_file.h - the parameter blocks of `pagani --params-file FILE`: one
 * block a line, all lines integrated in one pagani_integrate_batch call.
 */
#ifndef PAGANI_CLI_PARAMS_FILE_H
#define PAGANI_CLI_PARAMS_FILE_H

/* The blocks of a parameter file, in the order of its lines. */
typedef struct params_table {
    const char *name; /* the file, for messages (not owned) */
    int count;       /* blocks (lines with numbers) */
    int width;       /* numbers per block, the same on every line */
    double *values;  /* count * width numbers, block k at k * width */
    int *lines;      /* the line number (from 1) of each block */
} params_table;

/* Reads `text`, the contents of the file `name` (for messages), into *t:
 * on each line, numbers separated by spaces, tabs or commas; blank lines
 * and everything from a '#' to the end of its line are skipped. Returns 0,
 * or CLI_EXIT_USAGE after printing "pagani: NAME:LINE: what is wrong" on
 * stderr (a malformed number, a line whose count differs from the first
 * line's, no numbers at all). Free with params_table_free() in every
 * case. */
int params_table_read(const char *text, const char *name, params_table *t);

void params_table_free(params_table *t);

#endif /* PAGANI_CLI_PARAMS_FILE_H */
