/*
 * file_io.h - whole reads and writes of a file descriptor, retried where a
 * signal interrupts them (the JIT cache's objects, checkpoints).
 */
#ifndef PAGANI_FILE_IO_H
#define PAGANI_FILE_IO_H

#include <stddef.h>

/* Writes all size bytes of buf to fd: 0, or -1 with errno set. */
int pagani_write_all(int fd, const void *buf, size_t size);

/* Reads up to size bytes from fd into buf, until the end of the file:
 * the count read (less than size at the end of the file or an error,
 * errno then set). */
size_t pagani_read_upto(int fd, void *buf, size_t size);

#endif
