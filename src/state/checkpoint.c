/*
 * checkpoint.c - a driver's checkpoints (checkpoint.h) over the state
 * file (state_file.h).
 */
#include <math.h>
#include "state/checkpoint.h"
#include "state/identity.h"
#include "state/state_file.h"

void pagani_checkpoint_open(pagani_checkpoint *cp, const pagani_integrand *f,
                            const struct pagani_batch *batch,
                            const pagani_options *opt)
{
    pagani_options judged = *opt;

    cp->path = opt->state_path;
    cp->interval = opt->state_interval;
    cp->last = pagani_now();
    cp->method = opt->method;
    judged.max_evaluations = 0; /* limits end a run: a resume may raise them */
    judged.max_iterations = 0;
    pagani_call_identity_of(&cp->id, f, batch, &judged, 0);
}

/* The header of cp's file: one process writes it. */
static pagani_state_header header_of(const pagani_checkpoint *cp)
{
    pagani_state_header h;
    h.method = cp->method;
    h.id = cp->id;
    h.rank = 0;
    h.ranks = 1;
    return h;
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
    rc = pagani_state_read(ctx, cp->path, &want, &payload, &bytes, &found);
    if (rc == PAGANI_OK && found) {
        in->data = payload;
        in->size = bytes;
    }
    return rc;
}

int pagani_checkpoint_due(const pagani_checkpoint *cp)
{
    return cp->path && cp->interval > 0 &&
           pagani_now() - cp->last >= cp->interval;
}

int pagani_checkpoint_write(pagani_context *ctx, pagani_checkpoint *cp,
                            const pagani_state_out *out)
{
    pagani_state_header h = header_of(cp);
    int rc;

    if (!cp->path) return PAGANI_OK;
    if (out->failed)
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "checkpoint %s: the "
                           "state could not be gathered in memory", cp->path);
    rc = pagani_state_write(ctx, cp->path, &h, out->data, out->size);
    cp->last = pagani_now();
    return rc;
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
    if (opt->method != PAGANI_QMC && opt->method != PAGANI_VEGAS)
        return pagani_fail(ctx, PAGANI_ERR_OPTION, "checkpoints (state_path) "
                           "are implemented for QMC and Vegas only so far, "
                           "not %s", pagani_method_name(opt->method));
    if (opt->method == PAGANI_VEGAS && (opt->flags & PAGANI_FLAG_VEGAS_PLUS))
        return pagani_fail(ctx, PAGANI_ERR_OPTION, "checkpoints (state_path) "
                           "of Vegas+ (PAGANI_FLAG_VEGAS_PLUS: its per-cube "
                           "sample counts live in the backend) are not "
                           "implemented yet");
    if (ctx->layer.run_batch || ctx->layer.call_start)
        return pagani_fail(ctx, PAGANI_ERR_OPTION, "checkpoints (state_path) "
                           "are not implemented on an MPI context yet");
    return PAGANI_OK;
}
