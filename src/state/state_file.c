/*
 * state_file.c - a checkpoint file (state_file.h): its header and
 * checksum, the atomic write and the checked read.
 */
#define _GNU_SOURCE /* sync_file_range */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "file_io.h"
#include "state/state_file.h"

#define MAGIC 0x45544154534e4750ULL         /* "PGNSTATE" on a little-endian */
#define MAGIC_SWAPPED 0x50474e5354415445ULL /* ... read in the other order */
/* 4: a QMC payload ends with the heavy-tail guard's state (qmc_tail.h);
 * 3: a cubature payload holds the rank's regions of each integral after
 * its head; 2: the checksum of four lanes (state_file.h); 1: the checksum
 * was FNV-1a byte by byte. A format before OLDEST_FORMAT or after FORMAT
 * is refused, naming both; one between them is read where its method's
 * payload has not changed since (payload_changes). */
#define FORMAT 4ULL
#define OLDEST_FORMAT 3ULL
#define LIBRARY_VERSION                                                    \
    ((unsigned long long)PAGANI_VERSION_MAJOR << 32 |                      \
     (unsigned long long)PAGANI_VERSION_MINOR << 16 | PAGANI_VERSION_PATCH)

/* The payloads changed since OLDEST_FORMAT: a file of the method from a
 * format before `since` holds the old layout, refused as such. */
static const struct {
    pagani_method method;
    unsigned long long since;
    const char *added;         /* what the payload gained then */
} payload_changes[] = {
    {PAGANI_QMC, 4, "the heavy-tail guard's state"},
};

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

/* The checksum of a byte stream (state_file.h), taken in whole words: the
 * bytes of a word begun are carried to the next call. Word i goes into
 * lane i mod SUM_LANES as FNV-1a takes a byte, lane = (lane ^ word) *
 * prime (each step a bijection of the lane, so a changed word always
 * changes it); the lanes, independent chains of multiplies, sum a
 * region list at memory speed where FNV-1a byte by byte took 4 cycles a
 * byte; at the end they are combined the same way into one word. */
#define SUM_LANES 4 /* sum_rounds names each */
#define SUM_ROUND (WORD * SUM_LANES) /* bytes of one word per lane */
#define SUM_OFFSET 0xcbf29ce484222325ULL
#define SUM_PRIME 0x100000001b3ULL
typedef struct word_sum {
    unsigned long long lane[SUM_LANES];
    unsigned long long words;
    unsigned char carry[WORD];
    size_t carried;
} word_sum;

static void sum_start(word_sum *s)
{
    memset(s, 0, sizeof *s);
    for (int i = 0; i < SUM_LANES; i++) s->lane[i] = SUM_OFFSET + (unsigned)i;
}

static void sum_word(word_sum *s, unsigned long long word)
{
    unsigned long long *lane = &s->lane[s->words++ % SUM_LANES];
    *lane = (*lane ^ word) * SUM_PRIME;
}

static unsigned long long sum_end(const word_sum *s)
{
    unsigned long long h = SUM_OFFSET;
    for (int i = 0; i < SUM_LANES; i++) h = (h ^ s->lane[i]) * SUM_PRIME;
    return h;
}

/* Sums the whole rounds of p's bytes (lane 0 next), the lanes in
 * registers (four: the format's); returns the bytes taken. */
static size_t sum_rounds(word_sum *s, const unsigned char *p, size_t bytes)
{
    const size_t rounds = bytes / SUM_ROUND;
    unsigned long long l0 = s->lane[0], l1 = s->lane[1], l2 = s->lane[2],
                       l3 = s->lane[3], w[SUM_LANES];

    for (size_t r = 0; r < rounds; r++, p += SUM_ROUND) {
        memcpy(w, p, SUM_ROUND);
        l0 = (l0 ^ w[0]) * SUM_PRIME;
        l1 = (l1 ^ w[1]) * SUM_PRIME;
        l2 = (l2 ^ w[2]) * SUM_PRIME;
        l3 = (l3 ^ w[3]) * SUM_PRIME;
    }
    s->lane[0] = l0;
    s->lane[1] = l1;
    s->lane[2] = l2;
    s->lane[3] = l3;
    s->words += rounds * SUM_LANES;
    return rounds * SUM_ROUND;
}

static void sum_bytes(word_sum *s, const void *data, size_t bytes)
{
    const unsigned char *p = data;
    unsigned long long word;
    size_t take;

    while (bytes > 0) {
        if (s->carried == 0 && s->words % SUM_LANES == 0 && bytes >= SUM_ROUND)
            take = sum_rounds(s, p, bytes);
        else if (s->carried == 0 && bytes >= WORD) {
            memcpy(&word, p, WORD);
            sum_word(s, word);
            take = WORD;
        } else { /* a word begun here or before */
            take = WORD - s->carried < bytes ? WORD - s->carried : bytes;
            memcpy(s->carry + s->carried, p, take);
            s->carried += take;
            if (s->carried == WORD) {
                memcpy(&word, s->carry, WORD);
                sum_word(s, word);
                s->carried = 0;
            }
        }
        p += take;
        bytes -= take;
    }
}

/* Bytes summed and written, or read and summed, at once: the second step
 * finds them in the cache where the first left them (one pass over
 * memory, not two). */
#define PIECE ((size_t)1 << 18)

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
    word_sum sum;               /* of every byte so far */
    off_t written, flushed;     /* bytes written; those handed to the disk */
};

/* Bytes written between two starts of their write-back: the disk writes
 * while the caller makes the next chunk, where the kernel would start
 * only past its dirty threshold (10% of memory) or at the fsync, after
 * all of it; a 2 GB file took 2.3-3.1 s instead of 3.5-4.3 (ext4). */
#define FLUSH ((off_t)1 << 26)

/* Writes data to the temporary file and adds it to the checksum; starts
 * the write-back of every FLUSH bytes (Linux: its errors are fsync's). */
static void put(pagani_state_writer *w, const void *data, size_t bytes)
{
    const char *p = data;
    for (size_t at = 0; at < bytes; at += PIECE) {
        const size_t take = bytes - at < PIECE ? bytes - at : PIECE;
        sum_bytes(&w->sum, p + at, take);
        if (!w->failed && pagani_write_all(w->fd, p + at, take) != 0) {
            w->failed = 1;
            w->err = errno;
        }
    }
    w->written += (off_t)bytes;
#ifdef SYNC_FILE_RANGE_WRITE
    if (w->written - w->flushed >= FLUSH) {
        sync_file_range(w->fd, w->flushed, w->written - w->flushed, SYNC_FILE_RANGE_WRITE);
        w->flushed = w->written;
    }
#endif
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
    sum_start(&w->sum);
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
        sum = sum_end(&w->sum);
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

/* Whether the file's framing holds, from its first `got` bytes (w, at
 * most the header) and its size: magic, format, length. */
static int check_frame(pagani_context *ctx, const char *path,
                       const unsigned long long *w, size_t got, size_t size)
{
    size_t want;

    if (got >= WORD && w[W_MAGIC] == MAGIC_SWAPPED)
        return pagani_fail(ctx, PAGANI_ERR_STATE, "checkpoint %s was written "
                           "on a machine of the other byte order", path);
    if (got < WORD || w[W_MAGIC] != MAGIC)
        return pagani_fail(ctx, PAGANI_ERR_STATE, "%s is no libpagani "
                           "checkpoint (its first bytes are not the magic "
                           "PGNSTATE)", path);
    if (size < HEADER_BYTES + WORD || got < HEADER_BYTES)
        return pagani_fail(ctx, PAGANI_ERR_STATE, "checkpoint %s is "
                           "truncated: %zu bytes, shorter than its header",
                           path, size);
    if (w[W_FORMAT] < OLDEST_FORMAT || w[W_FORMAT] > FORMAT)
        return pagani_fail(ctx, PAGANI_ERR_STATE, "checkpoint %s is of format "
                           "%llu (libpagani %llu.%llu.%llu); this libpagani "
                           "reads formats %llu to %llu", path, w[W_FORMAT],
                           w[W_LIBRARY] >> 32, w[W_LIBRARY] >> 16 & 0xffff,
                           w[W_LIBRARY] & 0xffff, OLDEST_FORMAT, FORMAT);
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
    return PAGANI_OK;
}

/* Whether the payload of method in a file of the header's format has
 * this libpagani's layout (payload_changes), else the message. */
static int check_payload_format(pagani_context *ctx, const char *path,
                                const unsigned long long *w,
                                pagani_method method)
{
    for (size_t i = 0; i < sizeof payload_changes / sizeof payload_changes[0];
         i++)
        if (payload_changes[i].method == method &&
            w[W_FORMAT] < payload_changes[i].since)
            return pagani_fail(ctx, PAGANI_ERR_STATE, "checkpoint %s holds a "
                               "%s state of format %llu (libpagani %llu.%llu.%llu"
                               "), older than the layout with %s (format "
                               "%llu): it cannot be resumed; remove it and run "
                               "the integration again", path,
                               pagani_method_name(method), w[W_FORMAT],
                               w[W_LIBRARY] >> 32, w[W_LIBRARY] >> 16 & 0xffff,
                               w[W_LIBRARY] & 0xffff, payload_changes[i].added,
                               payload_changes[i].since);
    return PAGANI_OK;
}

/* Whether the header is want's, else the first difference. */
static int check_identity(pagani_context *ctx, const char *path,
                          const unsigned long long *w,
                          const pagani_state_header *want)
{
    int rc;

    if (w[W_METHOD] != (unsigned long long)want->method)
        return pagani_fail(ctx, PAGANI_ERR_STATE, "checkpoint %s belongs to "
                           "another method (%s; this call runs %s)", path,
                           pagani_method_name((pagani_method)w[W_METHOD]),
                           pagani_method_name(want->method));
    if ((rc = check_payload_format(ctx, path, w, want->method)) != PAGANI_OK)
        return rc;
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

/* A file being read (state_file.h). */
struct pagani_state_reader {
    const char *path;
    int fd;
    size_t left;                /* payload bytes still to come */
    size_t bytes;               /* the payload's */
    word_sum sum;               /* of every byte so far */
};

static int read_fail(pagani_context *ctx, const char *path, int err)
{
    return pagani_fail(ctx, err == ENOMEM ? PAGANI_ERR_NO_MEMORY
                                          : PAGANI_ERR_SYSTEM,
                       "checkpoint %s: reading failed: %s", path,
                       strerror(err));
}

/* Reads bytes into data and adds them to the checksum: 1, or 0 when
 * fewer came (the file shrank, or a read failed). */
static int take(pagani_state_reader *r, void *data, size_t bytes)
{
    char *p = data;
    for (size_t at = 0; at < bytes; at += PIECE) {
        const size_t piece = bytes - at < PIECE ? bytes - at : PIECE;
        if (pagani_read_upto(r->fd, p + at, piece) != piece) return 0;
        sum_bytes(&r->sum, p + at, piece);
    }
    return 1;
}

int pagani_state_open(pagani_context *ctx, const char *path,
                      const pagani_state_header *want,
                      pagani_state_reader **reader, size_t *bytes)
{
    unsigned long long w[HEADER_WORDS];
    pagani_state_reader *r;
    struct stat st;
    size_t got;
    int fd = open(path, O_RDONLY), rc;

    *reader = NULL;
    *bytes = 0;
    if (fd < 0) return errno == ENOENT ? PAGANI_OK : read_fail(ctx, path, errno);
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        int err = S_ISREG(st.st_mode) ? errno : EINVAL;
        close(fd);
        return read_fail(ctx, path, err);
    }
    got = pagani_read_upto(fd, w, HEADER_BYTES);
    rc = check_frame(ctx, path, w, got, (size_t)st.st_size);
    if (rc == PAGANI_OK) rc = check_identity(ctx, path, w, want);
    if (rc == PAGANI_OK && !(r = calloc(1, sizeof *r)))
        rc = pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "checkpoint %s", path);
    if (rc != PAGANI_OK) {
        close(fd);
        return rc;
    }
    r->path = path;
    r->fd = fd;
    r->left = r->bytes = *bytes = w[W_PAYLOAD];
    sum_start(&r->sum);
    sum_bytes(&r->sum, w, HEADER_BYTES);
    *reader = r;
    return PAGANI_OK;
}

int pagani_state_next(pagani_state_reader *r, void *data, size_t bytes)
{
    if (bytes > r->left) return 0;
    r->left -= bytes;
    return take(r, data, bytes);
}

int pagani_state_close(pagani_context *ctx, pagani_state_reader *r, int rc)
{
    unsigned char pad[WORD];
    unsigned long long sum = 0;

    if (rc == PAGANI_OK) {
        unsigned long long expected;
        int whole = r->left == 0 && take(r, pad, padded(r->bytes) - r->bytes);
        expected = sum_end(&r->sum);
        if (!whole || pagani_read_upto(r->fd, &sum, WORD) != WORD)
            rc = pagani_fail(ctx, PAGANI_ERR_STATE, "checkpoint %s is "
                             "truncated, or its state was not read whole",
                             r->path);
        else if (sum != expected)
            rc = pagani_fail(ctx, PAGANI_ERR_STATE, "checkpoint %s is "
                             "damaged: its checksum does not match its bytes",
                             r->path);
    }
    close(r->fd);
    free(r);
    return rc;
}

int pagani_state_read(pagani_context *ctx, const char *path,
                      const pagani_state_header *want, void **payload,
                      size_t *bytes, int *found)
{
    pagani_state_reader *r;
    void *data;
    int rc = pagani_state_open(ctx, path, want, &r, bytes);

    *payload = NULL;
    *found = rc != PAGANI_OK || r;
    if (rc != PAGANI_OK || !r) return rc;
    data = malloc(*bytes ? *bytes : 1);
    if (!data) rc = pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "checkpoint %s: "
                                "%zu bytes of state", path, *bytes);
    else if (!pagani_state_next(r, data, *bytes))
        rc = pagani_fail(ctx, PAGANI_ERR_STATE, "checkpoint %s is truncated "
                         "(it shrank while read)", path);
    rc = pagani_state_close(ctx, r, rc);
    if (rc == PAGANI_OK) *payload = data;
    else free(data);
    return rc;
}
