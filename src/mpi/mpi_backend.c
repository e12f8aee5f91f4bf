/*
 * mpi_backend.c - the layer's table over a backend (mpi_layer.h): the
 * backend's own operations, called with its own state, and the methods'
 * operations of mpi_cubature.c, mpi_qmc.c and mpi_vegas.c in place of the
 * backend's.
 */
#include "mpi/mpi_layer.h"

/* Closes the backend (the layer itself is freed by mpi_layer_close). */
static void layer_backend_close(void *state)
{
    mpi_layer *L = state;
    L->inner->close(L->inner_state);
}

static size_t layer_free_memory(void *state)
{
    mpi_layer *L = state;
    return L->inner->free_memory(L->inner_state);
}

static int layer_prepare_integrand(void *state, struct pagani_integrand *f)
{
    mpi_layer *L = state;
    return L->inner->prepare_integrand(L->inner_state, f);
}

static void layer_release_integrand(void *state, struct pagani_integrand *f)
{
    mpi_layer *L = state;
    L->inner->release_integrand(L->inner_state, f);
}

void mpi_install(pagani_context *ctx, mpi_layer *L)
{
    pagani_layer layer = {L, mpi_call_start, mpi_call_end, mpi_run_batch,
                          mpi_layer_close, L->rank, L->size,
                          mpi_checkpoint_agree, mpi_checkpoint_any,
                          mpi_checkpoint_same, mpi_cubature_counts};

    L->inner = ctx->backend;
    L->inner_state = ctx->backend_state;
    L->ops = *L->inner;
    L->ops.close = layer_backend_close;
    L->ops.free_memory = layer_free_memory;
    if (L->inner->prepare_integrand)
        L->ops.prepare_integrand = layer_prepare_integrand;
    if (L->inner->release_integrand)
        L->ops.release_integrand = layer_release_integrand;
    if ((L->inner_cubature = L->inner->cubature)) {
        L->cubature = pagani_mpi_cubature_ops;
        if (!L->inner_cubature->export_regions) { /* no checkpoints */
            L->cubature.export_regions = NULL;
            L->cubature.import_regions = NULL;
        }
        L->ops.cubature = &L->cubature;
    }
    if ((L->inner_qmc = L->inner->qmc)) {
        L->qmc = pagani_mpi_qmc_ops;
        L->ops.qmc = &L->qmc;
    }
    if ((L->inner_vegas = L->inner->vegas)) {
        L->vegas = pagani_mpi_vegas_ops;
        if (!L->inner_vegas->counts_out) /* no Vegas+ checkpoints there */
            L->vegas.counts_out = NULL, L->vegas.counts_in = NULL;
        L->ops.vegas = &L->vegas;
    }
    pagani_context_add_layer(ctx, &L->ops, &layer);
}
