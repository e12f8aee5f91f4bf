/*
 * state_payload.h - a checkpoint's payload as a driver makes it (bytes
 * appended to a growing buffer) and takes it apart (bytes taken in the
 * same order, each take checked against what is left), so that a driver
 * serializes its state without knowing of files (state_file.h).
 */
#ifndef PAGANI_STATE_PAYLOAD_H
#define PAGANI_STATE_PAYLOAD_H

#include <stddef.h>

typedef struct pagani_state_out {
    unsigned char *data;
    size_t size, capacity;
    int failed;               /* an allocation failed: data incomplete */
} pagani_state_out;

typedef struct pagani_state_in {
    const unsigned char *data;
    size_t size, at;
} pagani_state_in;

/* Appends bytes of data (nothing once an allocation has failed). */
void pagani_state_put(pagani_state_out *out, const void *data, size_t bytes);

/* Frees the buffer and empties it. */
void pagani_state_out_free(pagani_state_out *out);

/* Copies the next bytes into data: 1, or 0 (nothing copied) when fewer
 * are left. */
int pagani_state_take(pagani_state_in *in, void *data, size_t bytes);

/* Whether every byte was taken. */
int pagani_state_done(const pagani_state_in *in);

#endif /* PAGANI_STATE_PAYLOAD_H */
