/*
 * call_identity.c - what a collective call computes, as fingerprints
 * (internal.h, pagani_call_identity): what the ranks of an MPI context
 * must agree on before they share its work.
 */
#include "methods.h"
#include "state/identity.h"

/* Field i's name in a message, in enum pagani_call_field's order. */
static const char *const field_names[PAGANI_CALL_FIELDS] = {
    "the method",
    "the dimension n",
    "the components ncomp",
    "the count of integrals",
    "the integrand (its source, or a host function's form)",
    "the parameter blocks",
    "the boxes",
    "the options (tolerances, limits, seed or a method's settings)",
    "the QMC part (part, parts or points)",
};

const char *pagani_call_field_name(int field)
{
    return field >= 0 && field < PAGANI_CALL_FIELDS ? field_names[field] : "";
}

/* The fingerprint of the batch's parameter blocks: each of
 * params_stride bytes, or the integrand's one block. */
static unsigned long long params_identity(const pagani_integrand *f,
                                          const pagani_batch *batch)
{
    pagani_hash h = pagani_hash_start();
    size_t bytes = batch->params_stride
                       ? batch->params_stride
                       : pagani_params_padded(f->params_size);
    int blocks = batch->params_stride ? batch->count : 1;

    for (int k = 0; k < blocks; k++)
        pagani_hash_bytes(&h, pagani_batch_params(batch, k),
                          batch->params ? bytes : 0);
    return h.state;
}

/* The fingerprint of the batch's boxes (every integral's, in order). */
static unsigned long long boxes_identity(const pagani_integrand *f,
                                         const pagani_batch *batch)
{
    pagani_hash h = pagani_hash_start();
    int boxes = batch->box_stride ? batch->count : 1;

    for (int k = 0; k < boxes; k++)
        pagani_hash_box(&h, f->n, pagani_batch_lower(batch, k),
                        pagani_batch_upper(batch, k));
    return h.state;
}

void pagani_call_identity_of(pagani_call_identity *id,
                             const pagani_integrand *f,
                             const pagani_batch *batch,
                             const pagani_options *opt,
                             unsigned long long part)
{
    id->field[PAGANI_CALL_METHOD] = (unsigned long long)opt->method;
    id->field[PAGANI_CALL_N] = (unsigned long long)f->n;
    id->field[PAGANI_CALL_NCOMP] = (unsigned long long)f->ncomp;
    id->field[PAGANI_CALL_COUNT] = (unsigned long long)batch->count;
    id->field[PAGANI_CALL_INTEGRAND] = pagani_identity_integrand(f);
    id->field[PAGANI_CALL_PARAMS] = params_identity(f, batch);
    id->field[PAGANI_CALL_BOXES] = boxes_identity(f, batch);
    id->field[PAGANI_CALL_OPTIONS] = pagani_identity_options(opt, f->n);
    id->field[PAGANI_CALL_PART] = part;
}
