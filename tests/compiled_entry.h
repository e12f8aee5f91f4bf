/*
 * compiled_entry.h - calls the host form of an integrand (f->function)
 * at one point x, as the library does on a finite box: compiled source
 * gets its parameter block behind the header of the map of unbounded
 * axes (src/domain/domain.h) with no axis mapped, so that x reaches the
 * user's code unchanged; a host function of the caller's gets the block
 * itself.
 */
#ifndef PAGANI_TEST_COMPILED_ENTRY_H
#define PAGANI_TEST_COMPILED_ENTRY_H

#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "domain/domain.h"

/* f's host form at x with f's own parameter block; NAN when memory runs
 * out. */
static inline double compiled_entry(const pagani_integrand *f, const double *x)
{
    const size_t header = PAGANI_DOMAIN_HEADER(f->n) * sizeof(double);
    const size_t user = pagani_params_padded(f->params_size);
    double *block, value;

    if (!f->host_module) return f->function(x, f->n, f->params);
    if (!(block = calloc(1, header + user))) return NAN;
    block[2] = f->params ? PAGANI_DOMAIN_HEADER(f->n) : 0; /* its start */
    block[3] = f->ncomp;
    if (f->params) memcpy((char *)block + header, f->params, user);
    value = f->function(x, f->n, block);
    free(block);
    return value;
}

#endif /* PAGANI_TEST_COMPILED_ENTRY_H */
