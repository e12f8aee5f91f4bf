/*
 * domain_batch.c - a batch in the variables of the map (domain.h): boxes
 * in t, each parameter block behind its header, and the wrappers that run
 * a host function under the map.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "domain/domain.h"

/* The caller's block behind header h (NULL when there is none). */
static const void *user_block(const double *h)
{
    return h[2] != 0.0 ? h + (size_t)h[2] : NULL;
}

/* A host function under the map: params is its header (the function's
 * bytes in [0]) in front of the caller's block. */
static double domain_function(const double *t, int n, const void *params)
{
    const double *h = params;
    double x[PAGANI_MAX_DIM], jacobian;
    pagani_function user;

    memcpy(&user, h, sizeof user);
    if (h[1] == 0.0) return user(t, n, user_block(h));
    jacobian = pagani_domain_map(h, n, t, x);
    return jacobian == 0.0 ? 0.0 : user(x, n, user_block(h)) * jacobian;
}

/* The vector form: every component times the Jacobian, or 0 where the
 * map has none (the header's [3] holds ncomp). */
static void domain_vector_function(const double *t, int n, const void *params,
                                   double *f)
{
    const double *h = params;
    const int ncomp = (int)h[3];
    double x[PAGANI_MAX_DIM], jacobian;
    pagani_vector_function user;

    memcpy(&user, h, sizeof user);
    if (h[1] == 0.0) {
        user(t, n, user_block(h), f);
        return;
    }
    jacobian = pagani_domain_map(h, n, t, x);
    if (jacobian == 0.0) {
        for (int c = 0; c < ncomp; c++) f[c] = 0.0;
        return;
    }
    user(x, n, user_block(h), f);
    for (int c = 0; c < ncomp; c++) f[c] *= jacobian;
}

/* An axis [lower, upper] in t under map, and its three entries of the
 * header at h (kind, finite end or centre, scale s). */
static void map_axis(double lower, double upper, pagani_map map, double s,
                     double centre, double *t_lower, double *t_upper,
                     double *h)
{
    const int exponential = map == PAGANI_MAP_EXPONENTIAL;

    h[0] = PAGANI_DOMAIN_FINITE;
    h[1] = 0.0;
    h[2] = 0.0;
    *t_lower = lower;
    *t_upper = upper;
    if (!pagani_domain_unbounded(lower, upper)) return;
    h[2] = s;
    *t_lower = 0.0;
    *t_upper = 1.0;
    if (isinf(lower) && isinf(upper)) {
        h[0] = exponential ? PAGANI_DOMAIN_BOTH_EXPONENTIAL
                           : PAGANI_DOMAIN_BOTH_INFINITE;
        h[1] = centre;
        *t_lower = -1.0;
    } else if (isinf(upper)) {
        h[0] = exponential ? PAGANI_DOMAIN_UPPER_EXPONENTIAL
                           : PAGANI_DOMAIN_UPPER_INFINITE;
        h[1] = lower;
    } else {
        h[0] = exponential ? PAGANI_DOMAIN_LOWER_EXPONENTIAL
                           : PAGANI_DOMAIN_LOWER_INFINITE;
        h[1] = upper;
    }
}

/* What every header of a batch shares. */
typedef struct header_plan {
    const pagani_options *opt;
    int breaks;              /* cubature with break points */
    int parts;               /* cells per axis of cubature's first split */
    size_t doubles;          /* the header's size, tables included */
    const void *host_form;   /* the host function under the wrappers */
    size_t host_form_size;
} header_plan;

/* Integral k's header, and its box in t at t_lower, t_upper:
 * PAGANI_ERR_OPTION when its break points do not fit it. */
static int fill_header(pagani_context *ctx, const pagani_integrand *f,
                       const pagani_batch *b, int k, const header_plan *plan,
                       double *h, double *t_lower, double *t_upper)
{
    const double *lower = pagani_batch_lower(b, k);
    const double *upper = pagani_batch_upper(b, k);
    const pagani_options *opt = plan->opt;
    const double scale = opt->domain_scale > 0.0 ? opt->domain_scale : 1.0;
    size_t table = PAGANI_DOMAIN_HEADER(f->n);
    int mapped = 0;

    memset(h, 0, plan->doubles * sizeof *h);
    h[0] = PAGANI_DOMAIN_MARK;
    if (plan->host_form) memcpy(h, plan->host_form, plan->host_form_size);
    for (int i = 0; i < f->n; i++) {
        double *axis = h + 4 + 3 * i;
        int segments = 0;
        map_axis(lower[i], upper[i], opt->domain_map,
                 opt->domain_scales && opt->domain_scales[i] > 0.0
                     ? opt->domain_scales[i] : scale,
                 opt->domain_centers ? opt->domain_centers[i] : 0.0,
                 &t_lower[i], &t_upper[i], axis);
        if (plan->breaks && opt->break_counts[i] > 0 &&
            pagani_domain_unbounded(lower[i], upper[i]))
            return pagani_fail(ctx, PAGANI_ERR_OPTION, "axis %d: break "
                               "points on an unbounded axis are not "
                               "supported", i);
        if (plan->breaks)
            segments = pagani_breaks_axis(opt, i, lower[i], upper[i],
                                          plan->parts, h + table);
        if (segments < 0)
            return pagani_fail(ctx, PAGANI_ERR_OPTION, "axis %d: its break "
                               "points cut it into more segments than the "
                               "%d cells of the first split (raise "
                               "initial_splits)", i, plan->parts);
        if (segments > 0) {
            axis[0] = PAGANI_DOMAIN_PIECEWISE;
            axis[1] = (double)table;
            axis[2] = segments;
            t_lower[i] = 0.0;
            t_upper[i] = 1.0;
            table += 2 * (size_t)(segments + 1);
        }
        mapped += axis[0] != PAGANI_DOMAIN_FINITE;
    }
    h[1] = mapped;
    h[2] = b->params ? (double)plan->doubles : 0.0;
    h[3] = f->ncomp;
    return PAGANI_OK;
}

/* Whether some integral of the batch has an unbounded axis, or an axis
 * with break points (when they apply). */
static int needs_map(int n, const pagani_batch *b, const header_plan *plan)
{
    for (int i = 0; plan->breaks && i < n; i++)
        if (plan->opt->break_counts[i] > 0) return 1;
    for (int k = 0; k < b->count; k++) {
        for (int i = 0; i < n; i++)
            if (pagani_domain_unbounded(pagani_batch_lower(b, k)[i],
                                        pagani_batch_upper(b, k)[i]))
                return 1;
        if (!b->box_stride) break;
    }
    return 0;
}

int pagani_domain_batch_make(pagani_context *ctx, pagani_integrand *f,
                             const pagani_batch *batch,
                             const pagani_options *opt,
                             pagani_domain_batch *out)
{
    const size_t user_bytes = batch->params_stride
                                  ? batch->params_stride
                                  : pagani_params_padded(f->params_size);
    const size_t user = batch->params ? user_bytes / sizeof(double) : 0;
    const size_t count = (size_t)batch->count;
    const size_t boxes = batch->box_stride ? count : 1;
    /* the host functions run under the wrappers on the CPU; compiled
     * source and the GPU read the header themselves */
    const int wrap = ctx->kind == PAGANI_BACKEND_CPU && !f->host_module;
    header_plan plan = {opt, 0, 0, PAGANI_DOMAIN_HEADER(f->n), NULL, 0};
    double *blocks, *t_lower, *t_upper;
    size_t header;
    int rc;

    memset(out, 0, sizeof *out);
    out->integrand = *f;
    out->f = f;
    if (opt->method == PAGANI_CUBATURE && opt->break_counts) {
        plan.breaks = 1;
        plan.parts = pagani_cubature_initial_parts(f->n, opt->initial_splits);
        plan.doubles += pagani_breaks_table_doubles(f->n, opt);
    }
    header = plan.doubles;
    if (!needs_map(f->n, batch, &plan)) {
        out->batch = *batch;
        return PAGANI_OK;
    }
    if (wrap && f->function) {
        plan.host_form = &f->function;
        plan.host_form_size = sizeof f->function;
        out->integrand.function = domain_function;
        out->f = &out->integrand;
    } else if (wrap && f->vector_function) {
        plan.host_form = &f->vector_function;
        plan.host_form_size = sizeof f->vector_function;
        out->integrand.vector_function = domain_vector_function;
        out->f = &out->integrand;
    }
    if (count > (SIZE_MAX / sizeof(double) - 2 * boxes * (size_t)f->n) /
                    (header + user) ||
        !(out->storage = malloc(((header + user) * count +
                                 2 * boxes * (size_t)f->n) * sizeof(double))))
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "%d parameter blocks "
                           "with the map of unbounded axes", batch->count);
    if (!(out->mapped = malloc(count)))
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "%d integrals' maps",
                           batch->count);
    blocks = out->storage;
    t_lower = blocks + (header + user) * count;
    t_upper = t_lower + boxes * (size_t)f->n;
    for (size_t k = 0; k < count; k++) {
        double *h = blocks + (header + user) * k;
        size_t box = batch->box_stride ? k : 0;
        rc = fill_header(ctx, f, batch, (int)k, &plan, h,
                         t_lower + box * (size_t)f->n,
                         t_upper + box * (size_t)f->n);
        if (rc != PAGANI_OK) return rc;
        out->mapped[k] = h[1] != 0.0;
        if (user)
            memcpy(h + header, pagani_batch_params(batch, (int)k),
                   user * sizeof(double));
    }
    out->batch = *batch;
    out->batch.params = blocks;
    out->batch.params_stride = (header + user) * sizeof(double);
    out->batch.lower = t_lower;
    out->batch.upper = t_upper;
    out->batch.box_stride = batch->box_stride ? (size_t)f->n : 0;
    out->batch.mapped = out->mapped;
    return PAGANI_OK;
}

void pagani_domain_batch_free(pagani_domain_batch *d)
{
    free(d->storage);
    free(d->mapped);
    d->storage = NULL;
    d->mapped = NULL;
}
