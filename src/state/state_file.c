/*
 * state_file.c - a checkpoint file (state_file.h): its header and
 * checksum, the atomic write and the checked read.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "file_io.h"
#include "state/identity.h"
#include "state/state_file.h"

#define MAGIC 0x45544154534e4750ULL         /* "PGNSTATE" on a little-endian */
#define MAGIC_SWAPPED 0x50474e5354415445ULL /* ... read in the other order */
#define FORMAT 1ULL
#define LIBRARY_VERSION                                                    \
    ((unsigned long long)PAGANI_VERSION_MAJOR << 32 |                      \
     (unsigned long long)PAGANI_VERSION_MINOR << 16 | PAGANI_VERSION_PATCH)

/* The header's words. */
enum {
    W_MAGIC,
    W_FORMAT,
    W_LIBRARY,
    W_METHOD,
    W_ID,                              /* PAGANI_CALL_FIELDS words */
    W_RANK = W_ID + PAGANI_CALL_FIELDS,
    W_RANKS,
    W_PAYLOAD,
    HEADER_WORDS
};
#define WORD sizeof(unsigned long long)
#define HEADER_BYTES (HEADER_WORDS * WORD)

/* bytes rounded up to whole words */
static size_t padded(size_t bytes)
{
    return (bytes + WORD - 1) / WORD * WORD;
}

static unsigned long long checksum(const unsigned char *data, size_t bytes)
{
    pagani_hash h = pagani_hash_start();
    for (size_t i = 0; i < bytes / WORD; i++) {
        unsigned long long w;
        memcpy(&w, data + i * WORD, WORD);
        pagani_hash_word(&h, w);
    }
    return h.state;
}

static void make_header(const pagani_state_header *h, size_t bytes,
                        unsigned long long *w)
{
    w[W_MAGIC] = MAGIC;
    w[W_FORMAT] = FORMAT;
    w[W_LIBRARY] = LIBRARY_VERSION;
    w[W_METHOD] = (unsigned long long)h->method;
    for (int i = 0; i < PAGANI_CALL_FIELDS; i++) w[W_ID + i] = h->id.field[i];
    w[W_RANK] = (unsigned long long)h->rank;
    w[W_RANKS] = (unsigned long long)h->ranks;
    w[W_PAYLOAD] = bytes;
}

/* fsync of the directory that holds path (so that a rename lasts). */
static int sync_directory(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path))
                      : strdup(".");
    int fd, rc;

    if (!dir) return -1;
    fd = open(dir, O_RDONLY);
    free(dir);
    if (fd < 0) return -1;
    rc = fsync(fd);
    close(fd);
    return rc;
}

/* Fails with errno's reason for `step` on path; removes the temporary. */
static int system_fail(pagani_context *ctx, const char *step, const char *path,
                       const char *temporary)
{
    int err = errno;
    if (temporary) unlink(temporary);
    return pagani_fail(ctx, PAGANI_ERR_SYSTEM, "checkpoint %s: %s failed: %s",
                       path, step, strerror(err));
}

/* A file being written (state_file.h). */
struct pagani_state_writer {
    const char *path;
    char *temporary;
    int fd;
    int failed;                 /* a write failed: errno's reason kept */
    int err;
    size_t left;                /* payload bytes still to come */
    size_t bytes;               /* the payload's */
    pagani_hash sum;            /* of every whole word so far */
    unsigned char carry[WORD];  /* the bytes of the word begun */
    size_t carried;
};

/* Writes data to the temporary file and adds its words to the checksum
 * (a word begun is carried to the next call). */
static void put(pagani_state_writer *w, const void *data, size_t bytes)
{
    const unsigned char *p = data;
    if (!w->failed && pagani_write_all(w->fd, p, bytes) != 0) {
        w->failed = 1;
        w->err = errno;
    }
    while (bytes > 0) {
        size_t take = WORD - w->carried < bytes ? WORD - w->carried : bytes;
        memcpy(w->carry + w->carried, p, take);
        w->carried += take;
        p += take;
        bytes -= take;
        if (w->carried == WORD) {
            unsigned long long word;
            memcpy(&word, w->carry, WORD);
            pagani_hash_word(&w->sum, word);
            w->carried = 0;
        }
        while (w->carried == 0 && bytes >= WORD) { /* whole words: no copy */
            unsigned long long word;
            memcpy(&word, p, WORD);
            pagani_hash_word(&w->sum, word);
            p += WORD;
            bytes -= WORD;
        }
    }
}

int pagani_state_begin(pagani_context *ctx, const char *path,
                       const pagani_state_header *header, size_t bytes,
                       pagani_state_writer **writer)
{
    size_t name_bytes = strlen(path) + 32;
    pagani_state_writer *w = calloc(1, sizeof *w);
    unsigned long long words[HEADER_WORDS];

    *writer = NULL;
    if (!w || !(w->temporary = malloc(name_bytes))) {
        free(w);
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "checkpoint %s", path);
    }
    snprintf(w->temporary, name_bytes, "%s.tmp.%ld", path, (long)getpid());
    w->path = path;
    w->fd = open(w->temporary, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (w->fd < 0) {
        int rc = system_fail(ctx, "creating the temporary file", path, NULL);
        free(w->temporary);
        free(w);
        return rc;
    }
    w->sum = pagani_hash_start();
    w->left = w->bytes = bytes;
    make_header(header, bytes, words);
    put(w, words, HEADER_BYTES);
    *writer = w;
    return PAGANI_OK;
}

void pagani_state_append(pagani_state_writer *w, const void *data, size_t bytes)
{
    if (bytes > w->left) { /* more than begin said: the file is not made */
        w->failed = 1;
        w->err = EOVERFLOW;
        return;
    }
    w->left -= bytes;
    put(w, data, bytes);
}

int pagani_state_finish(pagani_context *ctx, pagani_state_writer *w, int rc)
{
    static const unsigned char zeros[WORD] = {0};
    unsigned long long sum;

    if (rc == PAGANI_OK && w->left > 0) {
        w->failed = 1;
        w->err = EIO;
    }
    if (rc == PAGANI_OK && !w->failed) {
        put(w, zeros, padded(w->bytes) - w->bytes);
        sum = w->sum.state;
        put(w, &sum, WORD);
    }
    errno = w->err;
    if (rc != PAGANI_OK) {
        close(w->fd);
        unlink(w->temporary);
    } else if (w->failed || fsync(w->fd) != 0) {
        rc = system_fail(ctx, "writing the temporary file", w->path, w->temporary);
        close(w->fd);
    } else if (close(w->fd) != 0)
        rc = system_fail(ctx, "closing the temporary file", w->path, w->temporary);
    else if (rename(w->temporary, w->path) != 0)
        rc = system_fail(ctx, "renaming the temporary file over it", w->path,
                         w->temporary);
    else if (sync_directory(w->path) != 0)
        rc = system_fail(ctx, "syncing its directory", w->path, NULL);
    free(w->temporary);
    free(w);
    return rc;
}

int pagani_state_write(pagani_context *ctx, const char *path,
                       const pagani_state_header *header,
                       const void *payload, size_t bytes)
{
    pagani_state_writer *w;
    int rc = pagani_state_begin(ctx, path, header, bytes, &w);
    if (rc != PAGANI_OK) return rc;
    pagani_state_append(w, payload, bytes);
    return pagani_state_finish(ctx, w, PAGANI_OK);
}

/* Reads all of path into *file (*size bytes): 0, -1 with errno. */
static int read_file(const char *path, unsigned char **file, size_t *size)
{
    struct stat st;
    int fd = open(path, O_RDONLY);

    if (fd < 0) return -1;
    errno = 0;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        int err = errno;
        close(fd);
        errno = err ? err : EINVAL;
        return -1;
    }
    *size = (size_t)st.st_size;
    *file = malloc(*size ? *size : 1);
    if (!*file) {
        close(fd);
        errno = ENOMEM;
        return -1;
    }
    /* a file that shrank while read is as short as what came */
    *size = pagani_read_upto(fd, *file, *size);
    close(fd);
    return 0;
}

/* Whether the file's framing holds: magic, format, length, checksum. */
static int check_frame(pagani_context *ctx, const char *path,
                       const unsigned char *file, size_t size)
{
    unsigned long long w[HEADER_WORDS], sum;
    size_t want;

    if (size >= WORD) memcpy(w, file, WORD);
    if (size >= WORD && w[W_MAGIC] == MAGIC_SWAPPED)
        return pagani_fail(ctx, PAGANI_ERR_STATE, "checkpoint %s was written "
                           "on a machine of the other byte order", path);
    if (size < WORD || w[W_MAGIC] != MAGIC)
        return pagani_fail(ctx, PAGANI_ERR_STATE, "%s is no libpagani "
                           "checkpoint (its first bytes are not the magic "
                           "PGNSTATE)", path);
    if (size < HEADER_BYTES + WORD)
        return pagani_fail(ctx, PAGANI_ERR_STATE, "checkpoint %s is "
                           "truncated: %zu bytes, shorter than its header",
                           path, size);
    memcpy(w, file, HEADER_BYTES);
    if (w[W_FORMAT] != FORMAT)
        return pagani_fail(ctx, PAGANI_ERR_STATE, "checkpoint %s is of format "
                           "%llu (libpagani %llu.%llu.%llu); this libpagani "
                           "reads format %llu", path, w[W_FORMAT],
                           w[W_LIBRARY] >> 32, w[W_LIBRARY] >> 16 & 0xffff,
                           w[W_LIBRARY] & 0xffff, FORMAT);
    want = w[W_PAYLOAD] <= size ? HEADER_BYTES + padded(w[W_PAYLOAD]) + WORD
                                : (size_t)-1;
    if (size < want)
        return pagani_fail(ctx, PAGANI_ERR_STATE, "checkpoint %s is "
                           "truncated: %zu bytes, its header says %llu bytes "
                           "of state", path, size, w[W_PAYLOAD]);
    if (size > want)
        return pagani_fail(ctx, PAGANI_ERR_STATE, "checkpoint %s is damaged: "
                           "%zu bytes, more than its header says (%zu)", path,
                           size, want);
    memcpy(&sum, file + size - WORD, WORD);
    if (sum != checksum(file, size - WORD))
        return pagani_fail(ctx, PAGANI_ERR_STATE, "checkpoint %s is damaged: "
                           "its checksum does not match its bytes", path);
    return PAGANI_OK;
}

/* Whether the header is want's, else the first difference. */
static int check_identity(pagani_context *ctx, const char *path,
                          const unsigned long long *w,
                          const pagani_state_header *want)
{
    if (w[W_METHOD] != (unsigned long long)want->method)
        return pagani_fail(ctx, PAGANI_ERR_STATE, "checkpoint %s belongs to "
                           "another method (%s; this call runs %s)", path,
                           pagani_method_name((pagani_method)w[W_METHOD]),
                           pagani_method_name(want->method));
    for (int i = 0; i < PAGANI_CALL_FIELDS; i++)
        if (w[W_ID + i] != want->id.field[i])
            return pagani_fail(ctx, PAGANI_ERR_STATE, "checkpoint %s belongs "
                               "to another integration: %s differ (%#llx in "
                               "the file, %#llx in this call)", path,
                               pagani_call_field_name(i), w[W_ID + i],
                               want->id.field[i]);
    if (w[W_RANKS] != (unsigned long long)want->ranks ||
        w[W_RANK] != (unsigned long long)want->rank)
        return pagani_fail(ctx, PAGANI_ERR_STATE, "checkpoint %s was written "
                           "by rank %llu of %llu ranks; this is rank %d of "
                           "%d", path, w[W_RANK], w[W_RANKS], want->rank,
                           want->ranks);
    return PAGANI_OK;
}

int pagani_state_read(pagani_context *ctx, const char *path,
                      const pagani_state_header *want, void **payload,
                      size_t *bytes, int *found)
{
    unsigned char *file = NULL;
    unsigned long long w[HEADER_WORDS];
    size_t size = 0;
    int rc;

    *payload = NULL;
    *bytes = 0;
    *found = 0;
    if (read_file(path, &file, &size) != 0) {
        if (errno == ENOENT) return PAGANI_OK;
        return pagani_fail(ctx, errno == ENOMEM ? PAGANI_ERR_NO_MEMORY
                                                : PAGANI_ERR_SYSTEM,
                           "checkpoint %s: reading failed: %s", path,
                           strerror(errno));
    }
    *found = 1;
    rc = check_frame(ctx, path, file, size);
    if (rc == PAGANI_OK) {
        memcpy(w, file, HEADER_BYTES);
        rc = check_identity(ctx, path, w, want);
    }
    if (rc == PAGANI_OK) {
        *bytes = w[W_PAYLOAD];
        memmove(file, file + HEADER_BYTES, *bytes);
        *payload = file;
        return PAGANI_OK;
    }
    free(file);
    return rc;
}
