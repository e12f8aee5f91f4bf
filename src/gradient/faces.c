/*
 * faces.c - the derivatives of an integral with respect to its finite
 * limits (pagani_integrate_limits_gradient): d/db_i of the integral over
 * [a, b] is the integral of f over the face x_i = b_i, an (n-1)-D
 * integral, and d/da_i minus the face at a_i. The 2n faces are one batch
 * of one face integrand of n - 1 coordinates, whose parameter block says
 * which face: (axis, position, then f's own block). For source, the face
 * integrand is source (so it runs on every backend): the user's code in
 * a block of its own that sees x as the face's point and n, p and params
 * as f's; for a host function, a host function around it.
 */
#define _GNU_SOURCE /* open_memstream */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gradient/gradient.h"

/* The face's point from its n - 1 coordinates (%d: n, n), then the
 * user's code seeing it (%d: n). */
static const char face_head[] =
    "const double *pagani_face = (const double *)params;\n"
    "double pagani_point[%d];\n"
    "for (int i = 0, j = 0; i < %d; i++)\n"
    "    pagani_point[i] = i == (int)pagani_face[0] ? pagani_face[1] "
    ": x[j++];\n"
    "{\n"
    "    const double *x = pagani_point;\n"
    "    const int n = %d;\n"
    "    const void *params = (const void *)(pagani_face + 2);\n"
    "    const double *p = pagani_face + 2;\n"
    "    (void)x; (void)n; (void)params; (void)p;\n";
static const char face_expr_open[] = "    return (\n";
static const char face_expr_close[] = "\n    );\n}\n";
static const char face_body_close[] = "\n}\n";

/* The source of f's face integrand, malloc'd (NULL: out of memory). */
static char *face_source(const pagani_integrand *f)
{
    pagani_source_facts facts;
    int body = f->vector_form ||
               (pagani_source_scan(f->source, f->n, 0, &facts) == 0 &&
                facts.is_body);
    size_t len = body ? strlen(f->source) :
                 pagani_source_expression_length(f->source);
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);

    if (!out) return NULL;
    fprintf(out, face_head, f->n, f->n, f->n);
    if (!body) fputs(face_expr_open, out);
    fwrite(f->source, 1, len, out);
    fputs(body ? face_body_close : face_expr_close, out);
    if (fclose(out) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* The block of a host function's face integrand. */
typedef struct host_face {
    const pagani_integrand *f;
    int axis;
    double position;
} host_face;

/* A host function's face: f at the face's point. */
static void host_face_values(const double *x, int n, const void *params,
                             double *out)
{
    const host_face *face = (const host_face *)params;
    double point[PAGANI_MAX_DIM];
    for (int i = 0, j = 0; i <= n; i++)
        point[i] = i == face->axis ? face->position : x[j++];
    pagani_integrand_eval(face->f, point, face->f->params, out);
}

/* The face integrand of f (n - 1 coordinates, f's components) into
 * *face, made with the block `first` (block_size bytes: the batch gives
 * the others). */
static int make_face(pagani_context *ctx, const pagani_integrand *f,
                     const void *first, size_t block_size,
                     pagani_integrand **face)
{
    char *source;
    int rc;

    if (!f->source)
        return pagani_integrand_from_vector_function(
            ctx, face, f->n - 1, f->ncomp, host_face_values, first,
            block_size);
    if (!(source = face_source(f)))
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "out of memory");
    if (f->vector_form)
        rc = pagani_integrand_from_vector_source(ctx, face, f->n - 1,
                                                 f->ncomp, source, first,
                                                 block_size);
    else
        rc = pagani_integrand_from_source(ctx, face, f->n - 1, source, first,
                                          block_size);
    free(source);
    return rc;
}

/* Face k's block (axis k mod n, at the lower bound for k < n, else the
 * upper) at `block`, and its box without that axis at lo and hi. */
static void face_block(const pagani_integrand *f, int k, const double *lower,
                       const double *upper, char *block, double *lo,
                       double *hi)
{
    int n = f->n, axis = k % n;
    double position = k < n ? lower[axis] : upper[axis];

    for (int i = 0, j = 0; i < n; i++)
        if (i != axis) {
            lo[j] = lower[i];
            hi[j++] = upper[i];
        }
    if (!f->source) {
        host_face face = {f, axis, position};
        memcpy(block, &face, sizeof face);
        return;
    }
    ((double *)block)[0] = axis;
    ((double *)block)[1] = position;
    if (f->params_size > 0)
        memcpy(block + 2 * sizeof(double), f->params, f->params_size);
}

/* What pagani_integrate_limits_gradient refuses, before any work. */
static int check(pagani_context *ctx, const pagani_integrand *f,
                 const double *lower, const double *upper,
                 const pagani_result *results, const double *dlower,
                 const double *dlower_error, const double *dupper,
                 const double *dupper_error)
{
    if (!f || !lower || !upper || !results || !dlower || !dlower_error ||
        !dupper || !dupper_error)
        return pagani_fail(ctx, PAGANI_ERR_NULL_POINTER,
                           "pagani_integrate_limits_gradient: a pointer "
                           "argument is NULL");
    if (f->ctx != ctx)
        return pagani_fail(ctx, PAGANI_ERR_CONTEXT_MISMATCH, "the integrand "
                           "belongs to another context");
    if (f->n < 2)
        return pagani_fail(ctx, PAGANI_ERR_DIMENSION, "n = %d: the limits' "
                           "derivatives of a 1-D integral are f at the "
                           "limits, not integrals", f->n);
    if (f->gradient)
        return pagani_fail(ctx, PAGANI_ERR_COMPONENTS, "a gradient "
                           "integrand: take its limits' derivatives from a "
                           "plain integrand of the same source or function");
    if (f->block_function && !f->function && !f->vector_function)
        return pagani_fail(ctx, PAGANI_ERR_NO_FORM, "a block function: the "
                           "limits' derivatives need source or a one-point "
                           "host function");
    for (int i = 0; i < f->n; i++)
        if (!isfinite(lower[i]) || !isfinite(upper[i]) ||
            !(lower[i] < upper[i]))
            return pagani_fail(ctx, PAGANI_ERR_BOUNDS, "axis %d: [%g, %g]: "
                               "the limits' derivatives need finite limits, "
                               "lower < upper", i, lower[i], upper[i]);
    return PAGANI_OK;
}

/* The 2n faces of f as one batch into results, values and errors. */
static int integrate_faces(pagani_context *ctx, const pagani_integrand *f,
                           const double *lower, const double *upper,
                           const pagani_options *options,
                           pagani_result *results, double *values,
                           double *errors)
{
    int n = f->n, faces = 2 * n, rc;
    size_t block_size = f->source ?
        2 * sizeof(double) + pagani_params_padded(f->params_size) :
        sizeof(host_face);
    char *blocks = calloc((size_t)faces, block_size);
    double *lo = malloc((size_t)faces * (size_t)(n - 1) * sizeof *lo);
    double *hi = malloc((size_t)faces * (size_t)(n - 1) * sizeof *hi);
    pagani_integrand *face = NULL;

    if (!blocks || !lo || !hi) {
        rc = pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "out of memory");
        goto done;
    }
    for (int k = 0; k < faces; k++)
        face_block(f, k, lower, upper, blocks + (size_t)k * block_size,
                   lo + (size_t)k * (size_t)(n - 1),
                   hi + (size_t)k * (size_t)(n - 1));
    rc = make_face(ctx, f, blocks, block_size, &face);
    if (rc == PAGANI_OK)
        rc = pagani_integrate_batch_vector(ctx, face, faces, blocks,
                                           block_size, lo, hi,
                                           (size_t)(n - 1), options, results,
                                           values, errors);
done:
    pagani_integrand_destroy(face);
    free(blocks);
    free(lo);
    free(hi);
    return rc;
}

int pagani_integrate_limits_gradient(pagani_context *ctx, pagani_integrand *f,
                                     const double *lower, const double *upper,
                                     const pagani_options *options,
                                     pagani_result *results, double *dlower,
                                     double *dlower_error, double *dupper,
                                     double *dupper_error)
{
    double *values, *errors;
    size_t count;
    int rc;

    if (!ctx) return PAGANI_ERR_NULL_POINTER;
    pagani_clear_message(ctx);
    rc = check(ctx, f, lower, upper, results, dlower, dlower_error, dupper,
               dupper_error);
    if (rc != PAGANI_OK) return pagani_collective_end(ctx, rc);
    count = (size_t)f->n * (size_t)f->ncomp;
    values = malloc(2 * count * sizeof *values);
    errors = malloc(2 * count * sizeof *errors);
    if (!values || !errors)
        rc = pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "out of memory");
    else
        rc = integrate_faces(ctx, f, lower, upper, options, results, values,
                             errors);
    if (rc == PAGANI_OK || rc == PAGANI_ERR_NONFINITE)
        for (size_t k = 0; k < count; k++) {
            dlower[k] = -values[k];
            dlower_error[k] = errors[k];
            dupper[k] = values[count + k];
            dupper_error[k] = errors[count + k];
        }
    free(values);
    free(errors);
    return rc;
}