/*
 * vegas_passes.c - the sampling passes of one PAGANI_VEGAS iteration for
 * the members of a batch still running (vegas_driver.c says what each
 * pass is for): the pilot that sizes a first bin scale, the pass of all,
 * and the repeat of those whose bins overflowed the scale; each a single
 * backend call over the members that need it. Also the message that names
 * the point where f was NaN or infinite.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "vegas/vegas.h"
#include "sampling/vegas_point.h"

/* Member k's NaN or infinity (in iteration it; the coordinates as the
 * backends compute them) into the context's message: PAGANI_ERR_NONFINITE. */
int pagani_vegas_report_fault(pagani_context *ctx, const vegas_run *r, int k)
{
    const vegas_job *job = &r->plan.job;
    const vegas_member *m = &r->members[k];
    const vegas_sums *s = &m->fault;
    const double *grid = r->grids + (size_t)k * r->grid_size;
    const int it = m->fault_iteration;
    char text[1024], which[32] = "", component[32] = "";
    size_t len = 0;
    long long c = s->fault_cube;
    double factor;
    int b;

    for (int i = 0; i < job->n && len < sizeof text - 64; i++) {
        const pagani_u32 w = pagani_vegas_word(
            job->seed, (pagani_u32)it, (pagani_u64)s->fault_cube, job->n,
            (pagani_u64)s->fault_sample, i);
        const unsigned row = job->grid_axes > 1 ? (unsigned)(i * (job->bins + 1)) : 0;
        double u = pagani_vegas_axis((double)(c % job->g) - PAGANI_VEGAS_K_BIAS, w,
                                     (double)job->bins / job->g, job->bins, grid,
                                     row, &factor, &b);
        c /= job->g;
        len += (size_t)snprintf(
            text + len, sizeof text - len, "%s%.17g", i ? ", " : "",
            pagani_vegas_coord(r->lower[(size_t)k * job->n + i],
                               r->width[(size_t)k * job->n + i], u));
    }
    if (r->count > 1) snprintf(which, sizeof which, "integral %d: ", k);
    if (r->ncomp > 1)
        snprintf(component, sizeof component, " in component %d",
                 s->fault_component);
    return pagani_fail(ctx, PAGANI_ERR_NONFINITE,
                       "%sthe integrand returned %g%s at x = (%s%s) (Vegas "
                       "iteration %d, sub-cube %lld, sample %lld)",
                       which, s->fault_value, component, text,
                       len >= sizeof text - 64 ? ", ..." : "", it + 1,
                       s->fault_cube, s->fault_sample);
}

/* Samples the `count` integrals list[] with the pass's settings and the
 * bin scales scale[] into sums[]; adds the evaluations to the members and
 * takes those where f was NaN or infinite out of the run. */
static int sample(vegas_run *r, vegas_pass *pass, int it, const int *list,
                  int count, const double *scale, vegas_sums *sums,
                  double *components)
{
    int rc;

    if (count == 0) return PAGANI_OK;
    pass->iteration = (unsigned)it;
    pass->params =
        r->own_params ? r->plan.job.integrand->params : r->batch->params;
    pass->params_stride = r->own_params ? 0 : r->batch->params_stride;
    pass->count = count;
    pass->members = list;
    pass->bin_scale = scale;
    rc = r->ops->sample(r->state, pass, sums, r->bins, components);
    if (rc != PAGANI_OK) return rc;
    for (int i = 0; i < count; i++) {
        vegas_member *m = &r->members[list[i]];
        m->evaluations += sums[i].evaluations;
        if (sums[i].fault_cube >= 0) {
            m->running = 0;
            m->fault_iteration = it;
            m->fault = sums[i];
        }
    }
    return PAGANI_OK;
}

/* The pilot of the first adjusting iteration: every 16th piece of the
 * members that have no bin scale yet, for their largest v^2. */
static int pilot(vegas_run *r, int it, const int *list, int count)
{
    vegas_pass pass;
    int n = 0, rc;

    for (int i = 0; i < count; i++)
        if (!(r->members[list[i]].vmax > 0.0)) {
            r->again[n] = list[i];
            r->scale[n++] = 0.0;
        }
    memset(&pass, 0, sizeof pass);
    pass.stride = VEGAS_PILOT_STRIDE;
    rc = sample(r, &pass, it, r->again, n, r->scale, r->repeat,
                r->components_repeat);
    if (rc != PAGANI_OK) return rc;
    for (int i = 0; i < n; i++)
        r->members[r->again[i]].vmax = r->repeat[i].vmax;
    return PAGANI_OK;
}

/* Keeps the members of list[0..count) still running; returns how many. */
static int keep_running(const vegas_run *r, int *list, int count)
{
    int n = 0;
    for (int i = 0; i < count; i++)
        if (r->members[list[i]].running) list[n++] = list[i];
    return n;
}

/* Declared in vegas.h; a member whose pass met NaN stays in r->list,
 * no longer running. */
int pagani_vegas_passes(vegas_run *r, int it, int count, int *left)
{
    const int adjusting = it < r->plan.ita;
    const long long limit = r->plan.max_evaluations;
    vegas_pass pass;
    int again = 0, rc;

    if (adjusting && (rc = pilot(r, it, r->list, count)) != PAGANI_OK)
        return rc;
    count = keep_running(r, r->list, count);
    for (int i = 0; i < count; i++) {
        double vmax = r->members[r->list[i]].vmax;
        r->scale[i] = vmax > 0.0 ? VEGAS_SCALE_TARGET / vmax : 0.0;
    }
    memset(&pass, 0, sizeof pass);
    pass.stride = 1;
    pass.accumulate = adjusting;
    pass.stratify = adjusting && r->plan.job.plus;
    rc = sample(r, &pass, it, r->list, count, r->scale, r->sums, r->components);
    if (rc != PAGANI_OK) return rc;
    for (int i = 0; i < count; i++) {
        vegas_member *m = &r->members[r->list[i]];
        const vegas_sums *s = &r->sums[i];

        r->bins_valid[i] = 0;
        if (!m->running || !isfinite(s->value) || !isfinite(s->variance))
            continue; /* a fault, or the sums overflowed: the run stops */
        if (adjusting &&
            (s->overflow || (r->scale[i] == 0.0 && s->vmax > 0.0))) {
            /* the bins lack the largest contributions: repeat the pass,
             * or when the evaluation budget forbids that, keep the grid */
            m->vmax = s->vmax;
            if (limit > 0 && m->evaluations + s->evaluations > limit) continue;
            r->again[again] = r->list[i];
            r->scale[count + again++] = VEGAS_SCALE_TARGET / s->vmax;
        } else {
            r->bins_valid[i] = adjusting;
            m->vmax = s->vmax;
        }
    }
    rc = sample(r, &pass, it, r->again, again, r->scale + count, r->repeat,
                r->components_repeat);
    if (rc != PAGANI_OK) return rc;
    for (int i = 0, j = 0; j < again; i++)
        if (r->list[i] == r->again[j]) { /* both lists increase */
            if (r->components)
                memcpy(r->components + 2 * (size_t)i * r->ncomp,
                       r->components_repeat + 2 * (size_t)j * r->ncomp,
                       2 * (size_t)r->ncomp * sizeof(double));
            r->sums[i] = r->repeat[j++];
            r->bins_valid[i] = 1;
            r->members[r->list[i]].vmax = r->sums[i].vmax;
        }
    *left = count;
    return PAGANI_OK;
}
