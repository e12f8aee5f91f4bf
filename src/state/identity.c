/*
 * identity.c - fingerprints (identity.h): FNV-1a of canonical bytes.
 */
#include <string.h>
#include "internal.h"
#include "state/identity.h"

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

/* The forms of an integrand, as its identity names them. */
enum { FORM_SOURCE = 1, FORM_VECTOR_SOURCE, FORM_FUNCTION,
       FORM_VECTOR_FUNCTION };

pagani_hash pagani_hash_start(void)
{
    pagani_hash h = {FNV_OFFSET};
    return h;
}

static void add_byte(pagani_hash *h, unsigned char b)
{
    h->state = (h->state ^ b) * FNV_PRIME;
}

void pagani_hash_word(pagani_hash *h, unsigned long long word)
{
    for (int i = 0; i < 8; i++) add_byte(h, (unsigned char)(word >> (8 * i)));
}

void pagani_hash_double(pagani_hash *h, double v)
{
    unsigned long long bits;
    memcpy(&bits, &v, sizeof bits);
    pagani_hash_word(h, bits);
}

void pagani_hash_bytes(pagani_hash *h, const void *data, size_t bytes)
{
    const unsigned char *b = data;
    pagani_hash_word(h, bytes);
    for (size_t i = 0; i < bytes; i++) add_byte(h, b[i]);
}

unsigned long long pagani_identity_integrand(const pagani_integrand *f)
{
    pagani_hash h = pagani_hash_start();
    int form = f->source ? (f->vector_form ? FORM_VECTOR_SOURCE : FORM_SOURCE)
                         : (f->vector_function ? FORM_VECTOR_FUNCTION
                                               : FORM_FUNCTION);

    pagani_hash_word(&h, (unsigned long long)form);
    pagani_hash_word(&h, (unsigned long long)f->n);
    pagani_hash_word(&h, (unsigned long long)f->ncomp);
    if (f->source) pagani_hash_bytes(&h, f->source, strlen(f->source));
    return h.state;
}

unsigned long long pagani_identity_block(const void *data, size_t bytes)
{
    pagani_hash h = pagani_hash_start();
    pagani_hash_bytes(&h, data, bytes);
    return h.state;
}

void pagani_hash_box(pagani_hash *h, int n, const double *lower,
                     const double *upper)
{
    pagani_hash_word(h, (unsigned long long)n);
    for (int i = 0; i < n; i++) {
        pagani_hash_double(h, lower[i]);
        pagani_hash_double(h, upper[i]);
    }
}

unsigned long long pagani_identity_options(const pagani_options *o, int n)
{
    pagani_hash h = pagani_hash_start();
    const double reals[] = {o->epsrel, o->epsabs, o->vegas_calls,
                            o->vegas_alpha, o->vegas_beta, o->chi2_max,
                            o->mc_sigmas, o->domain_scale};
    const long long ints[] = {o->method, o->max_evaluations,
                              o->max_iterations, o->flags,
                              (long long)o->seed, o->rule_degree,
                              o->initial_splits, o->vegas_adjust_iterations,
                              o->vegas_bins, o->qmc_shifts,
                              o->qmc_initial_points, o->qmc_transform,
                              o->norm, o->domain_map};

    for (size_t i = 0; i < sizeof reals / sizeof reals[0]; i++)
        pagani_hash_double(&h, reals[i]);
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        pagani_hash_word(&h, (unsigned long long)ints[i]);
    for (int i = 0, at = 0; o->break_counts && o->breaks && i < n; i++) {
        const int count = o->break_counts[i];
        pagani_hash_word(&h, (unsigned long long)count);
        for (int j = 0; j < count && count <= PAGANI_MAX_BREAKS; j++)
            pagani_hash_double(&h, o->breaks[at + j]);
        at += count > 0 && count <= PAGANI_MAX_BREAKS ? count : 0;
    }
    /* per axis: whether each array is given, then its entries */
    pagani_hash_word(&h, (unsigned long long)(!!o->domain_centers +
                                              2 * !!o->domain_scales));
    for (int i = 0; i < n; i++) {
        if (o->domain_centers) pagani_hash_double(&h, o->domain_centers[i]);
        if (o->domain_scales) pagani_hash_double(&h, o->domain_scales[i]);
    }
    if (o->vegas_grid_in) { /* a warm start: the grid it starts from */
        const pagani_vegas_grid *g = o->vegas_grid_in;
        pagani_hash_word(&h, (unsigned long long)g->rows);
        pagani_hash_word(&h, (unsigned long long)g->bins);
        for (long long i = 0; i < (long long)g->rows * (g->bins + 1); i++)
            pagani_hash_double(&h, g->edges[i]);
    }
    return h.state;
}
