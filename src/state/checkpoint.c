/*
 * checkpoint.c - a driver's checkpoints (checkpoint.h) over the state
 * file (state_file.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "state/checkpoint.h"
#include "state/identity.h"
#include "state/state_file.h"
#include "vegas_backend.h"

void pagani_checkpoint_open(pagani_checkpoint *cp, pagani_context *ctx,
                            const pagani_integrand *f,
                            const struct pagani_batch *batch,
                            const pagani_options *opt)
{
    pagani_options judged = *opt;

    memset(cp, 0, sizeof *cp);
    cp->ctx = ctx;
    cp->path = cp->given = opt->state_path;
    cp->interval = opt->state_interval;
    cp->last = pagani_now();
    cp->method = opt->method;
    cp->ranks = ctx->layer.ranks > 0 ? ctx->layer.ranks : 1;
    cp->rank = ctx->layer.ranks > 0 ? ctx->layer.rank : 0;
    judged.max_evaluations = 0; /* limits end a run: a resume may raise them */
    judged.max_iterations = 0;
    pagani_call_identity_of(&cp->id, f, batch, &judged, 0);
    if (cp->path && ctx->layer.ranks > 0) {
        size_t size = strlen(cp->path) + 32;
        if ((cp->rank_path = malloc(size))) {
            snprintf(cp->rank_path, size, "%s.rank%d", cp->path, cp->rank);
            cp->path = cp->rank_path;
        } else
            cp->unnamed = 1;
    }
}

void pagani_checkpoint_close(pagani_checkpoint *cp)
{
    free(cp->rank_path);
    cp->rank_path = NULL;
    cp->path = cp->given = NULL;
}

/* The header of cp's file. */
static pagani_state_header header_of(const pagani_checkpoint *cp)
{
    pagani_state_header h;
    h.method = cp->method;
    h.id = cp->id;
    h.rank = cp->rank;
    h.ranks = cp->ranks;
    return h;
}

int pagani_checkpoint_agree(const pagani_checkpoint *cp, int rc)
{
    const pagani_layer *layer = &cp->ctx->layer;
    return layer->checkpoint_agree ? layer->checkpoint_agree(cp->ctx, rc) : rc;
}

/* Whether flag is set on any of the ranks that run cp's driver together. */
static int on_any(const pagani_checkpoint *cp, int flag)
{
    const pagani_layer *layer = &cp->ctx->layer;
    return layer->checkpoint_any ? layer->checkpoint_any(cp->ctx, flag) : flag;
}

/* This rank's code rc of reading its file, which it found or not, agreed
 * among the ranks that run cp's driver together: PAGANI_ERR_STATE where
 * one found none while another found its own. */
static int agree_found(pagani_context *ctx, const pagani_checkpoint *cp,
                       int rc, int found)
{
    /* first the code, a step that pairs with the call's end on a rank
     * that failed before it read (mpi_layer.h) */
    rc = pagani_checkpoint_agree(cp, rc);
    if (rc != PAGANI_OK) return rc;
    if (on_any(cp, found) && !found)
        rc = pagani_fail(ctx, PAGANI_ERR_STATE, "checkpoint %s is missing "
                         "while other ranks of the %d have theirs",
                         cp->path, cp->ranks);
    return pagani_checkpoint_agree(cp, rc);
}

/* The failure of a rank whose name of its file could not be had. */
static int unnamed(pagani_context *ctx, const pagani_checkpoint *cp)
{
    return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "checkpoint %s: no memory "
                       "for this rank's name of it", cp->path);
}

int pagani_checkpoint_resume(pagani_context *ctx, const pagani_checkpoint *cp,
                             pagani_state_in *in)
{
    pagani_state_header want = header_of(cp);
    void *payload = NULL;
    size_t bytes = 0;
    int found = 0, rc;

    in->data = NULL;
    in->size = in->at = 0;
    if (!cp->path) return PAGANI_OK;
    if (cp->unnamed)
        rc = unnamed(ctx, cp);
    else
        rc = pagani_state_read(ctx, cp->path, &want, &payload, &bytes, &found);
    rc = agree_found(ctx, cp, rc, found);
    if (rc == PAGANI_OK && found) {
        in->data = payload;
        in->size = bytes;
    } else
        free(payload);
    return rc;
}

int pagani_checkpoint_agree_resume(const pagani_checkpoint *cp, int rc,
                                   long long iteration)
{
    const pagani_layer *layer = &cp->ctx->layer;

    rc = pagani_checkpoint_agree(cp, rc);
    if (rc == PAGANI_OK && layer->checkpoint_same &&
        !layer->checkpoint_same(cp->ctx, iteration))
        rc = pagani_fail(cp->ctx, PAGANI_ERR_STATE, "the ranks' checkpoints "
                         "(%s.rank<k>) hold different iterations (ranks "
                         "killed while writing them?): remove them to start "
                         "again", cp->given);
    return rc;
}

int pagani_checkpoint_due(const pagani_checkpoint *cp)
{
    return cp->path && cp->interval > 0 &&
           on_any(cp, pagani_now() - cp->last >= cp->interval);
}

int pagani_checkpoint_write(pagani_context *ctx, pagani_checkpoint *cp,
                            const pagani_state_out *out)
{
    pagani_state_header h = header_of(cp);
    int rc;

    if (!cp->path) return PAGANI_OK;
    if (out->failed)
        rc = pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "checkpoint %s: the "
                         "state could not be gathered in memory", cp->path);
    else
        rc = pagani_state_write(ctx, cp->path, &h, out->data, out->size);
    cp->last = pagani_now();
    return pagani_checkpoint_agree(cp, rc);
}

int pagani_checkpoint_open_read(pagani_context *ctx, const pagani_checkpoint *cp,
                                pagani_state_reader **r)
{
    pagani_state_header want = header_of(cp);
    size_t bytes;
    int rc;

    *r = NULL;
    if (!cp->path) return PAGANI_OK;
    rc = cp->unnamed ? unnamed(ctx, cp)
                     : pagani_state_open(ctx, cp->path, &want, r, &bytes);
    rc = agree_found(ctx, cp, rc, *r != NULL);
    if (rc != PAGANI_OK && *r) {
        pagani_state_close(ctx, *r, rc);
        *r = NULL;
    }
    return rc;
}

int pagani_checkpoint_begin(pagani_context *ctx, const pagani_checkpoint *cp,
                            size_t bytes, pagani_state_writer **w)
{
    pagani_state_header h = header_of(cp);
    *w = NULL;
    return cp->path ? pagani_state_begin(ctx, cp->path, &h, bytes, w) : PAGANI_OK;
}

int pagani_checkpoint_finish(pagani_context *ctx, pagani_checkpoint *cp,
                             pagani_state_writer *w, int rc)
{
    if (!cp->path) return rc;
    if (w) rc = pagani_state_finish(ctx, w, rc);
    cp->last = pagani_now();
    return pagani_checkpoint_agree(cp, rc);
}

int pagani_checkpoint_check_options(pagani_context *ctx,
                                    const pagani_options *opt)
{
    if (opt->state_path && !opt->state_path[0])
        return pagani_fail(ctx, PAGANI_ERR_OPTION, "state_path is empty: "
                           "name a file, or NULL for no checkpoints");
    if (!(opt->state_interval >= 0.0 && isfinite(opt->state_interval)))
        return pagani_fail(ctx, PAGANI_ERR_OPTION, "state_interval must be "
                           "a finite number of seconds >= 0 (got %g)",
                           opt->state_interval);
    return PAGANI_OK;
}

int pagani_checkpoint_check_run(pagani_context *ctx, const pagani_options *opt)
{
    if (!opt->state_path) return PAGANI_OK;
    if (opt->method == PAGANI_VEGAS && (opt->flags & PAGANI_FLAG_VEGAS_PLUS) &&
        ctx->backend->vegas && !ctx->backend->vegas->counts_out)
        return pagani_fail(ctx, PAGANI_ERR_OPTION, "checkpoints (state_path) "
                           "of Vegas+ (PAGANI_FLAG_VEGAS_PLUS) are not "
                           "implemented on the %s backend yet",
                           pagani_backend_name(ctx->kind));
    if (opt->method == PAGANI_CUBATURE && !ctx->backend->cubature->export_regions)
        return pagani_fail(ctx, PAGANI_ERR_OPTION, "cubature checkpoints "
                           "(state_path) are not implemented on the %s "
                           "backend yet", pagani_backend_name(ctx->kind));
    return PAGANI_OK;
}
