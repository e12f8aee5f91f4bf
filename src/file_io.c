/*
 * file_io.c - whole reads and writes of a file descriptor (file_io.h).
 */
#include <errno.h>
#include <unistd.h>
#include "file_io.h"

int pagani_write_all(int fd, const void *buf, size_t size)
{
    const char *b = buf;
    while (size > 0) {
        ssize_t put = write(fd, b, size);
        if (put < 0 && errno == EINTR) continue;
        if (put <= 0) return -1;
        b += put;
        size -= (size_t)put;
    }
    return 0;
}

size_t pagani_read_upto(int fd, void *buf, size_t size)
{
    char *b = buf;
    size_t done = 0;
    while (done < size) {
        ssize_t got = read(fd, b + done, size - done);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        done += (size_t)got;
    }
    return done;
}
