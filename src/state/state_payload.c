/*
 * state_payload.c - a checkpoint's payload, made and taken apart
 * (state_payload.h).
 */
#include <stdlib.h>
#include <string.h>
#include "state/state_payload.h"

void pagani_state_put(pagani_state_out *out, const void *data, size_t bytes)
{
    if (out->failed || bytes == 0) return;
    if (bytes > out->capacity - out->size) {
        size_t want = out->capacity ? out->capacity : 256;
        unsigned char *grown;
        while (want - out->size < bytes) {
            if (want > (size_t)-1 / 2) {
                out->failed = 1;
                return;
            }
            want *= 2;
        }
        grown = realloc(out->data, want);
        if (!grown) {
            out->failed = 1;
            return;
        }
        out->data = grown;
        out->capacity = want;
    }
    memcpy(out->data + out->size, data, bytes);
    out->size += bytes;
}

void pagani_state_out_free(pagani_state_out *out)
{
    free(out->data);
    memset(out, 0, sizeof *out);
}

int pagani_state_take(pagani_state_in *in, void *data, size_t bytes)
{
    if (bytes > in->size - in->at) return 0;
    memcpy(data, in->data + in->at, bytes);
    in->at += bytes;
    return 1;
}

int pagani_state_done(const pagani_state_in *in)
{
    return in->at == in->size;
}
