/*
 * gradient_unit.c - the translation unit of a gradient integrand
 * (gradient.h): the dual numbers, then pagani_source_wrap's unit for a
 * vector form whose body calls pagani_gradient_eval, then the user's
 * source compiled with `double` meaning a dual number, p the parameter
 * block as an array of duals seeded with unit derivatives for the
 * parameters chosen,
 * and x plain doubles.
 */
#define _GNU_SOURCE /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gradient/dual_text.h"
#include "gradient/gradient.h"

/* Per target: what precedes the dual numbers (%d: m). */
static const char host_head[] =
    "#include <math.h>\n"
    "#define PAGANI_GRADIENT_M %d\n"
    "#define PAGANI_DUAL_MEMBER\n"
    "#define PAGANI_DUAL_FN static inline\n";
static const char cuda_head[] =
    "#define PAGANI_GRADIENT_M %d\n"
    "#define PAGANI_DUAL_MEMBER __device__\n"
    "#define PAGANI_DUAL_FN __device__ __forceinline__\n";

/* params: the block's bytes, which no derivative can follow, as a type
 * that converts to nothing; and the entry, defined after the wrapper. */
static const char declarations[] =
    "struct pagani_gradient_raw_params {};\n"
    "PAGANI_DUAL_FN void pagani_gradient_eval(const double *x, "
    "const void *params, double *f);\n";

/* The vector body that pagani_source_wrap wraps. */
static const char wrapped_body[] = "pagani_gradient_eval(x, params, f);";

/* The user's code as a function of duals (%d: n; then, vector form,
 * ncomp), the user's text after user_open, between body_open and
 * body_close (a function body) or expr_open and expr_close (an
 * expression). */
static const char user_scalar[] =
    "PAGANI_DUAL_FN pagani_dual pagani_gradient_user(const double *x,\n"
    "    const pagani_dual *p, const pagani_gradient_raw_params params)\n"
    "{\n"
    "    const int n = %d;\n";
static const char user_vector[] =
    "PAGANI_DUAL_FN void pagani_gradient_user(const double *x,\n"
    "    const pagani_dual *p, const pagani_gradient_raw_params params,\n"
    "    pagani_dual *f)\n"
    "{\n"
    "    const int n = %d;\n"
    "    const int ncomp = %d;\n"
    "    (void)ncomp; (void)f;\n";
static const char user_open[] =
    "    (void)x; (void)n; (void)p; (void)params;\n"
    "#define double pagani_dual\n"
    "    {\n";
static const char body_open[] = "#line 1 \"integrand\"\n";
static const char expr_open[] = "    return (\n#line 1 \"integrand\"\n";
static const char body_close[] =
    "\n#line 1 \"end-of-integrand\"\n"
    "    }\n"
    "#undef double\n"
    "}\n";
static const char expr_close[] =
    "\n#line 1 \"end-of-integrand\"\n"
    "    );\n"
    "    }\n"
    "#undef double\n"
    "}\n";

/* The entry the wrapped body calls: p, the block's %d doubles as duals
 * whose chosen parameters are seeded with unit derivatives (seed_line,
 * %d: which[j], then j); the values into f[0..c-1], their derivatives
 * after them (%d: c, m; a vector form's components start as NaN, so that
 * one left unset reads as not finite). */
static const char eval_head[] =
    "PAGANI_DUAL_FN void pagani_gradient_eval(const double *x, "
    "const void *params, double *f)\n"
    "{\n"
    "    const double *block = (const double *)params;\n"
    "    const pagani_gradient_raw_params raw = {};\n"
    "    pagani_dual p[%d];\n"
    "    for (int k = 0; k < (int)(sizeof p / sizeof p[0]); k++)\n"
    "        p[k] = pagani_dual(block[k]);\n";
static const char seed_line[] = "    p[%d].d[%d] = 1.0;\n";
static const char eval_counts[] = "    const int c_count = %d, m = %d;\n";
static const char eval_scalar[] =
    "    pagani_dual r[1] = {pagani_gradient_user(x, p, raw)};\n";
static const char eval_vector[] =
    "    pagani_dual r[%d];\n"
    "    for (int c = 0; c < c_count; c++) r[c] = pagani_dual_nan();\n"
    "    pagani_gradient_user(x, p, raw, r);\n";
static const char eval_tail[] =
    "    for (int c = 0; c < c_count; c++) {\n"
    "        f[c] = r[c].v;\n"
    "        for (int j = 0; j < m; j++) f[c_count + c * m + j] = r[c].d[j];\n"
    "    }\n"
    "}\n";

/* The user's function and the entry, for g and the user's source. */
static void write_user(FILE *out, const struct pagani_gradient *g,
                       const char *source, int n)
{
    pagani_source_facts facts;
    int body = g->source_ncomp > 0 ||
               (pagani_source_scan(source, n, 0, &facts) == 0 &&
                facts.is_body);
    size_t len = body ? strlen(source) :
                 pagani_source_expression_length(source);

    if (g->source_ncomp > 0)
        fprintf(out, user_vector, n, g->source_ncomp);
    else
        fprintf(out, user_scalar, n);
    fputs(user_open, out);
    fputs(body ? body_open : expr_open, out);
    fwrite(source, 1, len, out);
    fputs(body ? body_close : expr_close, out);
    fprintf(out, eval_head, g->params_doubles);
    for (int j = 0; j < g->params; j++)
        fprintf(out, seed_line, g->which[j], j);
    fprintf(out, eval_counts, g->values, g->params);
    if (g->source_ncomp > 0)
        fprintf(out, eval_vector, g->values);
    else
        fputs(eval_scalar, out);
    fputs(eval_tail, out);
}

char *pagani_gradient_unit(const pagani_integrand *f,
                           pagani_source_target target)
{
    const struct pagani_gradient *g = f->gradient;
    int cuda = target == PAGANI_TARGET_CUDA;
    char *text = NULL, *wrapped;
    size_t size = 0;
    FILE *out;

    if (!(wrapped = pagani_source_wrap(wrapped_body, f->n, f->ncomp, target)))
        return NULL;
    if (!(out = open_memstream(&text, &size))) {
        free(wrapped);
        return NULL;
    }
    fprintf(out, cuda ? cuda_head : host_head, g->params);
    fputs(pagani_dual_text, out);
    for (const pagani_dual_refusal *r = pagani_dual_refused; r->name; r++)
        fprintf(out, "PAGANI_DUAL_FN pagani_dual %s(%s) = delete;\n",
                r->name, r->arguments);
    fputs(declarations, out);
    fputs(wrapped, out);
    free(wrapped);
    write_user(out, g, f->source, f->n);
    if (fclose(out) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

void pagani_gradient_free(struct pagani_gradient *g)
{
    if (!g) return;
    free(g->which);
    free(g);
}
