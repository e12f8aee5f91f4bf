/*
 * state_file.h - a checkpoint file (DESIGN.md section 12): what wrote it,
 * what it belongs to, a method's payload and a checksum; written
 * atomically, read back with every check. It knows no method's layout:
 * the payload is bytes (state_payload.h) that a driver makes and takes
 * apart; only in which format each method's payload last changed.
 *
 * Layout, in 64-bit words of the byte order of the machine that wrote it
 * (a file from the other byte order is refused as such):
 *   magic "PGNSTATE", format version, library version (major << 32 |
 *   minor << 16 | patch), method, the identity's PAGANI_CALL_FIELDS words
 *   (pagani_call_identity), rank, ranks, payload bytes; then the payload,
 *   zero-padded to whole words; then the checksum of every word before
 *   it (since format 2: word i taken as FNV-1a takes a byte into lane
 *   i mod 4, the four lanes combined the same way; state_file.c).
 * A file is refused, PAGANI_ERR_STATE, when it is shorter than its header
 * says (truncated), longer, or its checksum does not match (damaged),
 * its magic is not ours (foreign), its format is one this libpagani no
 * longer or not yet reads, its method's payload is of an older layout
 * (state_file.c: payload_changes), or it belongs to another call: the
 * message names the first field that differs.
 */
#ifndef PAGANI_STATE_FILE_H
#define PAGANI_STATE_FILE_H

#include <stddef.h>
#include "internal.h"

/* What a checkpoint belongs to. */
typedef struct pagani_state_header {
    pagani_method method;
    pagani_call_identity id;  /* pagani_call_identity_of the run */
    int rank, ranks;          /* this process among the ranks that write */
} pagani_state_header;

/* Writes header and payload (bytes of it) to path, atomically: into a
 * temporary file beside path, fsync, rename over path, fsync of the
 * directory. A process killed at any point leaves path as it was or as
 * written. PAGANI_OK, or PAGANI_ERR_SYSTEM naming the step and errno's
 * reason (path left as it was). */
int pagani_state_write(pagani_context *ctx, const char *path,
                       const pagani_state_header *header,
                       const void *payload, size_t bytes);

/* The same write streamed, for a payload too large to hold at once:
 * begin with its size in bytes, append every byte of it in order, then
 * finish, which makes the file (with rc PAGANI_OK and every byte
 * appended) or removes the temporary file (rc another code: returned)
 * and frees the writer. begin: PAGANI_ERR_SYSTEM, PAGANI_ERR_NO_MEMORY
 * (then no writer); a failed write is reported by finish. Memory: one
 * word. */
typedef struct pagani_state_writer pagani_state_writer;
int pagani_state_begin(pagani_context *ctx, const char *path,
                       const pagani_state_header *header, size_t bytes,
                       pagani_state_writer **writer);
void pagani_state_append(pagani_state_writer *w, const void *data,
                         size_t bytes);
int pagani_state_finish(pagani_context *ctx, pagani_state_writer *w, int rc);

/* The same read streamed, for a payload too large to hold at once:
 * open checks the header (*reader NULL, PAGANI_OK, when path does not
 * exist; *bytes: the payload's size); next reads the next bytes of the
 * payload (1, or 0 when fewer are left or the file shrank); close
 * checks, with rc PAGANI_OK and the payload read whole, that the file
 * ends there and that its checksum matches (PAGANI_ERR_STATE otherwise:
 * what was read must then be dropped), and frees the reader. Memory:
 * what the caller reads into. */
typedef struct pagani_state_reader pagani_state_reader;
int pagani_state_open(pagani_context *ctx, const char *path,
                      const pagani_state_header *want,
                      pagani_state_reader **reader, size_t *bytes);
int pagani_state_next(pagani_state_reader *r, void *data, size_t bytes);
int pagani_state_close(pagani_context *ctx, pagani_state_reader *r, int rc);

/* Reads path when it exists: *found 0 (and PAGANI_OK) when it does not;
 * else the file must be a checkpoint of `want` (every check above), and
 * then *payload (malloc'd, the caller frees it) and *bytes hold its
 * payload. PAGANI_ERR_STATE naming what does not fit, PAGANI_ERR_SYSTEM
 * when the file cannot be read, PAGANI_ERR_NO_MEMORY. */
int pagani_state_read(pagani_context *ctx, const char *path,
                      const pagani_state_header *want, void **payload,
                      size_t *bytes, int *found);

#endif /* PAGANI_STATE_FILE_H */
