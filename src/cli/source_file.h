/*
 * source_file.h - reads EXPR from the file of `pagani -f FILE`, with a
 * bound on what is read.
 */
#ifndef PAGANI_CLI_SOURCE_FILE_H
#define PAGANI_CLI_SOURCE_FILE_H

/* The most bytes EXPR may have in a file (1 MiB): more than any integrand
 * needs, and a bound on what `-f /dev/zero` or a runaway pipe makes pagani
 * read. */
#define CLI_MAX_SOURCE_BYTES (1 << 20)

/* Reads all of FILE ("-": standard input) into a malloc'd string: at most
 * CLI_MAX_SOURCE_BYTES bytes of text (no NUL byte). NULL after printing
 * why on stderr ("pagani: FILE: ..."), a usage error. */
char *cli_read_source(const char *path);

#endif /* PAGANI_CLI_SOURCE_FILE_H */
