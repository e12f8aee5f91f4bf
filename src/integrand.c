/*
 * integrand.c - creating and destroying integrands: from a host function
 * (one point a call, or a block of points), from C source, or from a
 * PAGANI_INTEGRAND definition. An integrand
 * belongs to the context that made it and runs on that context's backend:
 * on the CPU source is compiled by the system C compiler (jit_cpu.c); on
 * CUDA the backend's prepare_integrand compiles it (NVRTC).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "gradient/gradient.h"
#include "jit/jit_cpu.h"
#include "jit/source_env.h"

/* Checks what every constructor gets; have_form says whether the function,
 * source or definition (named `what` in the message) was given; ncomp the
 * components (1 for the scalar constructors). Clears *f first. */
static int validate(pagani_context *ctx, pagani_integrand **f, int n,
                    int ncomp, int have_form, const char *what,
                    const void *params, size_t params_size)
{
    if (!ctx) return PAGANI_ERR_NULL_POINTER;
    pagani_clear_message(ctx);
    if (!f) return pagani_fail(ctx, PAGANI_ERR_NULL_POINTER, "f is NULL");
    *f = NULL;
    if (n < 1 || n > PAGANI_MAX_DIM)
        return pagani_fail(ctx, PAGANI_ERR_DIMENSION, "n = %d is outside "
                           "1..%d", n, PAGANI_MAX_DIM);
    if (ncomp < 1 || ncomp > PAGANI_MAX_COMPONENTS)
        return pagani_fail(ctx, PAGANI_ERR_COMPONENTS, "ncomp = %d is outside "
                           "1..%d", ncomp, PAGANI_MAX_COMPONENTS);
    if (!have_form)
        return pagani_fail(ctx, PAGANI_ERR_NULL_POINTER, "%s is NULL", what);
    if (params_size > 0 && !params)
        return pagani_fail(ctx, PAGANI_ERR_NULL_POINTER, "params is NULL "
                           "but params_size is %zu", params_size);
    if (ctx->kind != PAGANI_BACKEND_CPU && !ctx->backend)
        return pagani_fail(ctx, PAGANI_ERR_BACKEND_UNAVAILABLE, "the %s "
                           "backend of this context did not open",
                           pagani_backend_name(ctx->kind));
    return PAGANI_OK;
}

/* Doubles in a parameter block of `bytes` bytes, a partial one counted
 * (for any size_t: no rounding up that wraps). */
static size_t param_doubles(size_t bytes)
{
    return bytes / sizeof(double) + (bytes % sizeof(double) != 0);
}

size_t pagani_params_padded(size_t params_size)
{
    return param_doubles(params_size) * sizeof(double);
}

int pagani_params_fit(pagani_context *ctx, size_t params_size, int count)
{
    if (param_doubles(params_size) <= SIZE_MAX / sizeof(double) / (size_t)count)
        return PAGANI_OK;
    return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "%d parameter block%s of "
                       "%zu bytes, padded to whole doubles, exceed%s the "
                       "address space", count, count > 1 ? "s" : "",
                       params_size, count > 1 ? "" : "s");
}

/* Copies a parameter block into f (NULL when params_size is 0), padded
 * with zeros to whole doubles, so that p[k] for every k the source check
 * allows lies inside the copy. */
static int copy_params(pagani_integrand *f, const void *params,
                       size_t params_size)
{
    size_t padded;
    void *copy = NULL;
    int rc = pagani_params_fit(f->ctx, params_size, 1);

    if (rc != PAGANI_OK) return rc;
    padded = pagani_params_padded(params_size);
    if (params_size > 0) {
        copy = calloc(1, padded);
        if (!copy)
            return pagani_fail(f->ctx, PAGANI_ERR_NO_MEMORY, "out of memory "
                               "copying %zu bytes of parameters", params_size);
        memcpy(copy, params, params_size);
    }
    free(f->params);
    f->params = copy;
    f->params_size = params_size;
    return PAGANI_OK;
}

/* Whether a parameter block of params_size bytes covers what f's source
 * reads (the facts its source scan left in f, so the check costs nothing
 * per call): PAGANI_ERR_PARAMS, with the line, when the source reads p or
 * params and there is no block, or reads a literal p[K] outside it; and
 * when a gradient's source reads more doubles as duals than it holds. */
int pagani_params_check(pagani_context *ctx, const pagani_integrand *f,
                        size_t params_size)
{
    size_t count = param_doubles(params_size);

    if (f->gradient && f->gradient->which &&
        count < (size_t)f->gradient->params_doubles)
        return pagani_fail(ctx, PAGANI_ERR_PARAMS, "a parameter block of "
                           "%zu bytes, but the gradient integrand reads %d "
                           "doubles of parameters as dual numbers: give it "
                           "blocks at least as large as the one it was "
                           "made with", params_size,
                           f->gradient->params_doubles);
    if (!f->params_line) return PAGANI_OK;
    if (params_size == 0)
        return pagani_fail(ctx, PAGANI_ERR_PARAMS, "integrand:%d: the "
                           "source reads the parameter block (p or params) "
                           "but the integrand has none: pass params and "
                           "params_size, or call "
                           "pagani_integrand_set_params", f->params_line);
    if (f->p_line && (f->p_index < 0 || (unsigned long long)f->p_index >= count))
        return pagani_fail(ctx, PAGANI_ERR_PARAMS, "integrand:%d: p[%lld] "
                           "is outside the parameter block of %zu bytes "
                           "(p[0] to p[%zu])", f->p_line, f->p_index,
                           params_size, count - 1);
    return PAGANI_OK;
}

/* Scans source before it compiles or runs: a directive that reads a
 * file, statements without `return`, a literal index of x outside 0..n-1
 * (or, in a vector form, of f outside 0..ncomp-1) are PAGANI_ERR_COMPILE;
 * what it reads of the parameter block goes into facts, for
 * pagani_params_check. vector_ncomp: 0 for the scalar form. */
static int scan_source(pagani_context *ctx, const char *source, int n,
                       int vector_ncomp, pagani_source_facts *facts)
{
    if (pagani_source_scan(source, n, vector_ncomp, facts) != 0)
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "out of memory "
                           "scanning the integrand's source");
    if (facts->include_line)
        return pagani_fail(ctx, PAGANI_ERR_COMPILE, "integrand:%d: integrand "
                           "source cannot include files (#include and the "
                           "like): it sees <math.h>, its constants, x, n, p "
                           "and params already, the same on every backend",
                           facts->include_line);
    if (facts->statement_line)
        return pagani_fail(ctx, PAGANI_ERR_COMPILE, "integrand:%d: a "
                           "declaration or statement, but the source has no "
                           "`return`: give one expression (say "
                           "`x[0] * x[1]`), or a function body that returns "
                           "its value (say `double s = x[0]; return s * s;`)",
                           facts->statement_line);
    if (facts->bad_x_line)
        return pagani_fail(ctx, PAGANI_ERR_COMPILE, "integrand:%d: x[%lld] "
                           "is out of range: the integrand has n = %d "
                           "coordinates, x[0] to x[%d]", facts->bad_x_line,
                           facts->bad_x, n, n - 1);
    if (facts->bad_f_line)
        return pagani_fail(ctx, PAGANI_ERR_COMPILE, "integrand:%d: f[%lld] "
                           "is out of range: the integrand has ncomp = %d "
                           "components, f[0] to f[%d]", facts->bad_f_line,
                           facts->bad_f, vector_ncomp, vector_ncomp - 1);
    return PAGANI_OK;
}

/* A new integrand with its parameters and (when given) a copy of source,
 * scanned; vector_ncomp: 0 for the scalar form, else the vector form's
 * components. */
static int make(pagani_context *ctx, int n, int vector_ncomp,
                const char *source, const void *params, size_t params_size,
                pagani_integrand **out)
{
    pagani_source_facts facts = {0};
    pagani_integrand *f;
    int rc;
    *out = NULL;
    if (source && (rc = scan_source(ctx, source, n, vector_ncomp, &facts)) !=
                      PAGANI_OK)
        return rc;
    if (!(f = calloc(1, sizeof *f)))
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "out of memory");
    f->params_line = facts.params_line;
    f->p_line = facts.p_line;
    f->p_index = facts.p_index;
    f->ctx = ctx;
    f->n = n;
    f->ncomp = vector_ncomp > 0 ? vector_ncomp : 1;
    f->vector_form = vector_ncomp > 0;
    if (source && !(f->source = strdup(source))) {
        free(f);
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "out of memory");
    }
    if ((rc = copy_params(f, params, params_size)) != PAGANI_OK) {
        free(f->source);
        free(f);
        return rc;
    }
    *out = f;
    return PAGANI_OK;
}

/* Compiles f->source for the host and sets f->function (scalar form) or
 * f->vector_function; a gradient's source as C++ with dual numbers. */
static int compile_host(pagani_integrand *f)
{
    char *unit = f->gradient ?
                 pagani_gradient_unit(f, PAGANI_TARGET_HOST_CXX) :
                 pagani_source_wrap(f->source, f->n,
                                    f->vector_form ? f->ncomp : 0,
                                    PAGANI_TARGET_HOST);
    int rc;
    if (!unit)
        return pagani_fail(f->ctx, PAGANI_ERR_NO_MEMORY, "out of memory");
    if (f->gradient) {
        rc = pagani_jit_cpu_load_cxx(f->ctx, unit, &f->host_module,
                                     &f->vector_function);
        if (rc == PAGANI_ERR_COMPILE) rc = pagani_gradient_explain(f->ctx);
    } else if (f->vector_form)
        rc = pagani_jit_cpu_load(f->ctx, unit, &f->host_module,
                                 &f->vector_function);
    else
        rc = pagani_jit_cpu_load(f->ctx, unit, &f->host_module, &f->function);
    free(unit);
    return rc;
}

/* Lets the backend prepare f, then hands it out; destroys it on failure. */
static int finish(int rc, pagani_integrand *f, pagani_integrand **out)
{
    const backend_ops *b = f->ctx->backend;
    if (rc == PAGANI_OK && b && b->prepare_integrand)
        rc = b->prepare_integrand(f->ctx->backend_state, f);
    if (rc != PAGANI_OK) {
        pagani_integrand_destroy(f);
        return rc;
    }
    *out = f;
    return PAGANI_OK;
}

/* PAGANI_ERR_NO_FORM unless ctx runs on the CPU: a host function cannot
 * run elsewhere (`kind`: "" or "vector_", for the message). */
static int host_only(pagani_context *ctx, const char *kind)
{
    if (ctx->kind == PAGANI_BACKEND_CPU) return PAGANI_OK;
    return pagani_fail(ctx, PAGANI_ERR_NO_FORM, "a host function cannot run "
                       "on the %s backend: give the integrand as source "
                       "(pagani_integrand_from_%ssource) or define it with "
                       "PAGANI_%sINTEGRAND", pagani_backend_name(ctx->kind),
                       kind, *kind ? "VECTOR_" : "");
}

/* pagani_integrand_from_function, up to the agreement of the ranks. */
static int from_function(pagani_context *ctx, pagani_integrand **f, int n,
                         pagani_function function, const void *params,
                         size_t params_size)
{
    pagani_integrand *g;
    int rc = validate(ctx, f, n, 1, function != NULL, "function", params,
                      params_size);
    if (rc == PAGANI_OK) rc = host_only(ctx, "");
    if (rc != PAGANI_OK) return rc;
    if ((rc = make(ctx, n, 0, NULL, params, params_size, &g)) != PAGANI_OK)
        return rc;
    g->function = function;
    return finish(PAGANI_OK, g, f);
}

/* pagani_integrand_from_vector_function, up to the agreement of the
 * ranks. */
static int from_vector_function(pagani_context *ctx, pagani_integrand **f,
                                int n, int ncomp,
                                pagani_vector_function function,
                                const void *params, size_t params_size)
{
    pagani_integrand *g;
    int rc = validate(ctx, f, n, ncomp, function != NULL, "function", params,
                      params_size);
    if (rc == PAGANI_OK) rc = host_only(ctx, "vector_");
    if (rc != PAGANI_OK) return rc;
    if ((rc = make(ctx, n, ncomp, NULL, params, params_size, &g)) != PAGANI_OK)
        return rc;
    g->vector_function = function;
    return finish(PAGANI_OK, g, f);
}

/* pagani_integrand_from_block_function, up to the agreement of the
 * ranks. */
static int from_block_function(pagani_context *ctx, pagani_integrand **f,
                               int n, int ncomp,
                               pagani_block_function function, void *data,
                               long long max_block, const void *params,
                               size_t params_size)
{
    pagani_integrand *g;
    int rc = validate(ctx, f, n, ncomp, function != NULL, "function", params,
                      params_size);
    if (rc == PAGANI_OK && max_block < 0)
        rc = pagani_fail(ctx, PAGANI_ERR_OPTION, "max_block = %lld is "
                         "negative (0: the default, %d points a call)",
                         max_block, PAGANI_DEFAULT_BLOCK);
    if (rc == PAGANI_OK) rc = host_only(ctx, ncomp > 1 ? "vector_" : "");
    if (rc != PAGANI_OK) return rc;
    if ((rc = make(ctx, n, ncomp > 1 ? ncomp : 0, NULL, params, params_size,
                   &g)) != PAGANI_OK)
        return rc;
    g->block_function = function;
    g->block_data = data;
    g->max_block = max_block > 0 ? max_block : PAGANI_DEFAULT_BLOCK;
    return finish(PAGANI_OK, g, f);
}

/* Both source constructors, up to the agreement of the ranks;
 * vector_ncomp: 0 for the scalar form. */
static int from_source(pagani_context *ctx, pagani_integrand **f, int n,
                       int vector_ncomp, const char *source,
                       const void *params, size_t params_size)
{
    pagani_integrand *g;
    int rc = validate(ctx, f, n, vector_ncomp ? vector_ncomp : 1,
                      source != NULL, "source", params, params_size);
    if (rc != PAGANI_OK) return rc;
    if ((rc = make(ctx, n, vector_ncomp, source, params, params_size, &g)) !=
        PAGANI_OK)
        return rc;
    rc = pagani_params_check(ctx, g, g->params_size);
    if (rc == PAGANI_OK && ctx->kind == PAGANI_BACKEND_CPU) rc = compile_host(g);
    return finish(rc, g, f);
}

/* pagani_integrand_with_gradient, up to the agreement of the ranks. */
static int with_gradient(pagani_context *ctx, pagani_integrand **f, int n,
                         const char *source, pagani_vector_function function,
                         const void *params, size_t params_size,
                         struct pagani_gradient *gradient)
{
    int ncomp = gradient->values * (1 + gradient->params);
    pagani_integrand *g;
    int rc = validate(ctx, f, n, ncomp, source || function,
                      "the source (or function)", params, params_size);
    if (rc == PAGANI_OK && !source) rc = host_only(ctx, "vector_");
    if (rc == PAGANI_OK)
        rc = make(ctx, n, source ? gradient->source_ncomp : ncomp, source,
                  params, params_size, &g);
    if (rc != PAGANI_OK) {
        pagani_gradient_free(gradient);
        return rc;
    }
    g->ncomp = ncomp;
    g->vector_form = 1;
    g->gradient = gradient;
    g->vector_function = function;
    if (source) rc = pagani_params_check(ctx, g, g->params_size);
    if (rc == PAGANI_OK && source && ctx->kind == PAGANI_BACKEND_CPU)
        rc = compile_host(g);
    return finish(rc, g, f);
}

/* Both definition constructors: the source and host function of a
 * scalar (vector_ncomp 0) or vector definition. */
static int from_definition(pagani_context *ctx, int n, int vector_ncomp,
                           const char *source, int has_function,
                           pagani_integrand **made)
{
    int cpu = ctx->kind == PAGANI_BACKEND_CPU;
    *made = NULL;
    if (!source && !(cpu && has_function))
        return pagani_fail(ctx, PAGANI_ERR_NO_FORM, "the definition has %s",
                           cpu ? "neither a function nor source" :
                           "no source, which the CUDA backend needs");
    /* Its parameters come later: they are checked by pagani_integrate. */
    return make(ctx, n, vector_ncomp, source, NULL, 0, made);
}

/* pagani_integrand_create, up to the agreement of the ranks. */
static int create(pagani_context *ctx, pagani_integrand **f, int n,
                  const pagani_integrand_def *def)
{
    pagani_integrand *g;
    int rc = validate(ctx, f, n, 1, def != NULL, "def", NULL, 0);
    if (rc == PAGANI_OK)
        rc = from_definition(ctx, n, 0, def->source, def->function != NULL,
                             &g);
    if (rc != PAGANI_OK) return rc;
    /* The host function is kept on every backend (it is the integrand's
     * host form); on the CPU it spares a compilation. */
    g->function = def->function;
    if (ctx->kind == PAGANI_BACKEND_CPU && !g->function) rc = compile_host(g);
    return finish(rc, g, f);
}

/* pagani_integrand_create_vector, up to the agreement of the ranks. */
static int create_vector(pagani_context *ctx, pagani_integrand **f, int n,
                         const pagani_vector_integrand_def *def)
{
    pagani_integrand *g;
    int rc = validate(ctx, f, n, def ? def->ncomp : 1, def != NULL, "def",
                      NULL, 0);
    if (rc == PAGANI_OK)
        rc = from_definition(ctx, n, def->ncomp, def->source,
                             def->function != NULL, &g);
    if (rc != PAGANI_OK) return rc;
    g->vector_function = def->function;
    if (ctx->kind == PAGANI_BACKEND_CPU && !g->vector_function)
        rc = compile_host(g);
    return finish(rc, g, f);
}

/* The code every rank of an MPI context agrees on (pagani_collective_end)
 * for a constructor that returned rc; the integrand this rank made is
 * destroyed when another rank failed. */
static int agreed(pagani_context *ctx, int rc, pagani_integrand **f)
{
    int all = pagani_collective_end(ctx, rc);
    if (rc == PAGANI_OK && all != PAGANI_OK) {
        pagani_integrand_destroy(*f);
        *f = NULL;
    }
    return all;
}

int pagani_integrand_components(const pagani_integrand *f)
{
    return f ? f->ncomp : 0;
}

int pagani_integrand_set_params(pagani_integrand *f, const void *params,
                                size_t params_size)
{
    if (!f) return PAGANI_ERR_NULL_POINTER;
    pagani_clear_message(f->ctx);
    if (params_size > 0 && !params)
        return pagani_fail(f->ctx, PAGANI_ERR_NULL_POINTER, "params is NULL "
                           "but params_size is %zu", params_size);
    return copy_params(f, params, params_size);
}

void pagani_integrand_destroy(pagani_integrand *f)
{
    const backend_ops *b;
    if (!f) return;
    b = f->ctx->backend;
    if (b && b->release_integrand)
        b->release_integrand(f->ctx->backend_state, f);
    pagani_jit_cpu_unload(f->host_module);
    pagani_gradient_free(f->gradient);
    free(f->source);
    free(f->params);
    free(f);
}

int pagani_integrand_from_function(pagani_context *ctx, pagani_integrand **f,
                                   int n, pagani_function function,
                                   const void *params, size_t params_size)
{
    int rc = from_function(ctx, f, n, function, params, params_size);
    return agreed(ctx, rc, f);
}

int pagani_integrand_from_vector_function(pagani_context *ctx,
                                          pagani_integrand **f, int n,
                                          int ncomp,
                                          pagani_vector_function function,
                                          const void *params,
                                          size_t params_size)
{
    int rc = from_vector_function(ctx, f, n, ncomp, function, params,
                                  params_size);
    return agreed(ctx, rc, f);
}

int pagani_integrand_from_block_function(pagani_context *ctx,
                                         pagani_integrand **f, int n,
                                         int ncomp,
                                         pagani_block_function function,
                                         void *data, long long max_block,
                                         const void *params,
                                         size_t params_size)
{
    int rc = from_block_function(ctx, f, n, ncomp, function, data, max_block,
                                 params, params_size);
    return agreed(ctx, rc, f);
}

int pagani_integrand_from_source(pagani_context *ctx, pagani_integrand **f,
                                 int n, const char *source,
                                 const void *params, size_t params_size)
{
    int rc = from_source(ctx, f, n, 0, source, params, params_size);
    return agreed(ctx, rc, f);
}

int pagani_integrand_from_vector_source(pagani_context *ctx,
                                        pagani_integrand **f, int n, int ncomp,
                                        const char *source, const void *params,
                                        size_t params_size)
{
    /* ncomp < 1 is validate's message, not the scalar form */
    int rc = from_source(ctx, f, n, ncomp < 1 ? -1 : ncomp, source, params,
                         params_size);
    return agreed(ctx, rc, f);
}

int pagani_integrand_with_gradient(pagani_context *ctx, pagani_integrand **f,
                                   int n, const char *source,
                                   pagani_vector_function function,
                                   const void *params, size_t params_size,
                                   struct pagani_gradient *g)
{
    int rc = with_gradient(ctx, f, n, source, function, params, params_size,
                           g);
    return agreed(ctx, rc, f);
}

int pagani_integrand_create(pagani_context *ctx, pagani_integrand **f, int n,
                            const pagani_integrand_def *def)
{
    return agreed(ctx, create(ctx, f, n, def), f);
}

int pagani_integrand_create_vector(pagani_context *ctx, pagani_integrand **f,
                                   int n, const pagani_vector_integrand_def *def)
{
    return agreed(ctx, create_vector(ctx, f, n, def), f);
}
