/*
 * source_env.c - wraps integrand source (a function body with `return`, or
 * one C expression) into a complete translation unit for the system C
 * compiler or for NVRTC. Both targets share one prelude (the constants) and
 * one function preamble (n, p), so source sees the same environment
 * everywhere; only the signature and the host's <math.h> differ.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jit/source_env.h"
#include "domain/domain.h" /* pagani_domain_map_text */

/* The constants of <math.h> that C99 does not promise, with glibc's
 * values. NVRTC has no headers, and a strict host compiler may hide them. */
static const char constants[] =
    "#ifndef M_E\n#define M_E 2.7182818284590452354\n#endif\n"
    "#ifndef M_LOG2E\n#define M_LOG2E 1.4426950408889634074\n#endif\n"
    "#ifndef M_LOG10E\n#define M_LOG10E 0.43429448190325182765\n#endif\n"
    "#ifndef M_LN2\n#define M_LN2 0.69314718055994530942\n#endif\n"
    "#ifndef M_LN10\n#define M_LN10 2.30258509299404568402\n#endif\n"
    "#ifndef M_PI\n#define M_PI 3.14159265358979323846\n#endif\n"
    "#ifndef M_PI_2\n#define M_PI_2 1.57079632679489661923\n#endif\n"
    "#ifndef M_PI_4\n#define M_PI_4 0.78539816339744830962\n#endif\n"
    "#ifndef M_1_PI\n#define M_1_PI 0.31830988618379067154\n#endif\n"
    "#ifndef M_2_PI\n#define M_2_PI 0.63661977236758134308\n#endif\n"
    "#ifndef M_2_SQRTPI\n#define M_2_SQRTPI 1.12837916709551257390\n#endif\n"
    "#ifndef M_SQRT2\n#define M_SQRT2 1.41421356237309504880\n#endif\n"
    "#ifndef M_SQRT1_2\n#define M_SQRT1_2 0.70710678118654752440\n#endif\n";

/* Per target: what precedes the constants. */
static const char host_head[] = "#include <math.h>\n";
/* NVRTC: silence "p set but never used" (550) for bodies that ignore p. */
static const char cuda_head[] = "#pragma nv_diag_suppress 550\n";
/* The qualifier of the map's code (src/domain/domain_map.c) per target. */
static const char host_map_fn[] = "#define PAGANI_DOMAIN_FN static\n";
static const char cuda_map_fn[] =
    "#define PAGANI_DOMAIN_FN __device__ __forceinline__\n";

/* The head of the function that runs the user's code (%d: n, then ncomp
 * in the vector forms), declared before the entry and defined after it.
 * The host's x is declared x[static n] and the function kept out of line
 * (noinline, noclone), so that GCC checks constant indices of x against
 * n; the entry's call to it is a jump. The CUDA vector form also defines
 * PAGANI_NCOMP (ncomp) for the kernels. */
static const char host_attributes[] =
    "#if defined(__GNUC__) && !defined(__clang__)\n"
    "__attribute__((noinline, noclone))\n"
    "#endif\n";
static const char host_body[] =
    "static double pagani_integrand_body(const double x[%s%d],\n"
    "                                    const void *params)";
static const char host_vector_body[] =
    "static void pagani_integrand_body(const double x[%s%d],\n"
    "                                  const void *params, double f[%s%d])";
/* C99's `static` in those array sizes, which C++ lacks. */
static const char c_static[] = "static ";
/* The host C++ entry's linkage, so that its name is as in C. */
static const char cxx_linkage[] = "extern \"C\" ";
static const char cuda_body[] =
    "__device__ __forceinline__ double\n"
    "pagani_integrand_body(const double *x, const void *params)";
static const char cuda_vector_body[] =
    "__device__ __forceinline__ void\n"
    "pagani_integrand_body(const double *x, const void *params, double *f)";
static const char cuda_ncomp[] = "#define PAGANI_NCOMP %d\n";

/* The entry each target calls (source_env.h), at the drivers' point t. */
static const char host_entry[] =
    "double pagani_integrand_entry(const double *t, int n_arg, "
    "const void *params)\n{\n    (void)n_arg;\n";
static const char host_vector_entry[] =
    "void pagani_integrand_entry(const double *t, int n_arg, "
    "const void *params, double *f)\n{\n    (void)n_arg;\n";
static const char cuda_entry[] =
    "__device__ __forceinline__ double\n"
    "pagani_integrand_device(const double *t, const void *params)\n{\n";
static const char cuda_vector_entry[] =
    "__device__ __forceinline__ void\n"
    "pagani_integrand_device_vector(const double *t, const void *params, "
    "double *f)\n{\n";

/* The entry's work. Compiled with PAGANI_DOMAIN_PLAIN (the GPU's kernels
 * for runs with no map, pagani_source_params_mapped): f at the point
 * itself, with the caller's block; a kernel then holds no trace of the
 * map, whose code inlined at every call of f made the GPU's evaluate
 * kernels spill (2.1 times slower on the paper's f4 8D). */
static const char plain_scalar[] =
    "#ifdef PAGANI_DOMAIN_PLAIN\n"
    "    return pagani_integrand_body(t, params);\n"
    "#else\n";
static const char plain_vector[] =
    "#ifdef PAGANI_DOMAIN_PLAIN\n"
    "    pagani_integrand_body(t, params, f);\n"
    "#else\n";
/* Otherwise a parameter block that starts with the map's header
 * (src/domain/domain.h: its mark, then where the caller's block starts;
 * %s: the mark, %d: n) runs the user's code at x(t) and multiplies its
 * values by the Jacobian, where the map has none (an end of an unbounded
 * axis) the point contributes 0; any other block (or none) is the
 * caller's, the point x itself. */
static const char map_locals[] =
    "    const double *h = (const double *)params;\n"
    "    const void *user;\n"
    "    double x[%d], jacobian;\n"
    "    if (!h || h[0] != %s) h = 0;\n"
    "    user = !h ? params : h[2] != 0.0 ? (const void *)(h + (int)h[2]) : 0;\n";
/* %d: n. */
static const char map_scalar[] =
    "    if (!h || h[1] == 0.0) return pagani_integrand_body(t, user);\n"
    "    jacobian = pagani_domain_map(h, %d, t, x);\n"
    "    if (jacobian == 0.0) return 0.0;\n"
    "    return pagani_integrand_body(x, user) * jacobian;\n"
    "#endif\n"
    "}\n";
/* %d: n, then ncomp twice. */
static const char map_vector[] =
    "    if (!h || h[1] == 0.0) {\n"
    "        pagani_integrand_body(t, user, f);\n"
    "        return;\n"
    "    }\n"
    "    jacobian = pagani_domain_map(h, %d, t, x);\n"
    "    if (jacobian == 0.0) {\n"
    "        for (int c = 0; c < %d; c++) f[c] = 0.0;\n"
    "        return;\n"
    "    }\n"
    "    pagani_integrand_body(x, user, f);\n"
    "    for (int c = 0; c < %d; c++) f[c] *= jacobian;\n"
    "#endif\n"
    "}\n";

/* The body's preamble (%d: n) and the lines around the user's text. The
 * user's text sits in a block of its own, as in PAGANI_INTEGRAND, so it may
 * declare names of its own (even shadow p). */
static const char preamble[] =
    "{\n"
    "    const int n = %d;\n"
    "    const double *p = (const double *)params;\n"
    "    (void)x; (void)n; (void)p;\n";
/* The vector form's extra line (%d: ncomp). */
static const char vector_preamble[] =
    "    const int ncomp = %d;\n"
    "    (void)ncomp; (void)f;\n";
static const char body_open[] = "    {\n#line 1 \"integrand\"\n";
/* After the user's text, messages about the wrapper's own closing lines
 * (say, an unclosed parenthesis) name the wrapper, not a user line. */
static const char body_close[] = "\n#line 1 \"end-of-integrand\"\n    }\n}\n";
static const char expr_open[] = "    return (\n#line 1 \"integrand\"\n";
static const char expr_close[] = "\n#line 1 \"end-of-integrand\"\n    );\n}\n";

size_t pagani_source_expression_length(const char *s)
{
    size_t len = strlen(s);
    while (len > 0 && (s[len - 1] == ';' || s[len - 1] == ' ' ||
                       s[len - 1] == '\t' || s[len - 1] == '\n' ||
                       s[len - 1] == '\r'))
        len--;
    return len;
}

/* Writes the body's head (its declaration when `declare`) for target
 * and ncomp (0: the scalar form) at end; returns the new end. */
static char *body_head(char *end, pagani_source_target target, int n,
                       int ncomp, int declare)
{
    int cuda = target == PAGANI_TARGET_CUDA;
    const char *sized = target == PAGANI_TARGET_HOST ? c_static : "";
    if (!cuda && declare) end += sprintf(end, "%s", host_attributes);
    if (cuda)
        end += sprintf(end, "%s", ncomp > 0 ? cuda_vector_body : cuda_body);
    else if (ncomp > 0)
        end += sprintf(end, host_vector_body, sized, n, sized, ncomp);
    else
        end += sprintf(end, host_body, sized, n);
    return end + sprintf(end, declare ? ";\n" : "\n");
}

char *pagani_source_wrap(const char *source, int n, int ncomp,
                         pagani_source_target target)
{
    int cuda = target == PAGANI_TARGET_CUDA, body;
    pagani_source_facts facts;
    size_t len, total;
    char *unit, *end;

    if (pagani_source_scan(source, n, ncomp, &facts) != 0) return NULL;
    body = facts.is_body || ncomp > 0; /* a vector form is always a body */
    len = body ? strlen(source) : pagani_source_expression_length(source);
    /* Each %d of n or ncomp takes at most 11 characters. */
    total = sizeof cuda_head + sizeof host_head + sizeof constants +
            sizeof cuda_map_fn + strlen(pagani_domain_map_text) + 1 +
            sizeof cuda_ncomp + sizeof host_attributes + sizeof cxx_linkage +
            4 * sizeof c_static +
            2 * sizeof host_vector_body + sizeof host_vector_entry +
            sizeof plain_vector + sizeof plain_scalar +
            sizeof map_locals + sizeof PAGANI_DOMAIN_MARK_TEXT +
            sizeof map_vector + 8 + 12 * 11 +
            sizeof preamble + sizeof vector_preamble +
            sizeof body_open + sizeof expr_open + len + sizeof body_close +
            sizeof expr_close;
    unit = malloc(total);
    if (!unit) return NULL;

    end = unit;
    end += sprintf(end, "%s%s%s%s\n", cuda ? cuda_head : host_head, constants,
                   cuda ? cuda_map_fn : host_map_fn, pagani_domain_map_text);
    if (cuda && ncomp > 0) end += sprintf(end, cuda_ncomp, ncomp);
    end = body_head(end, target, n, ncomp, 1);
    if (target == PAGANI_TARGET_HOST_CXX)
        end += sprintf(end, "%s", cxx_linkage);
    if (cuda)
        end += sprintf(end, "%s", ncomp > 0 ? cuda_vector_entry : cuda_entry);
    else
        end += sprintf(end, "%s", ncomp > 0 ? host_vector_entry : host_entry);
    end += sprintf(end, "%s", ncomp > 0 ? plain_vector : plain_scalar);
    end += sprintf(end, map_locals, n, PAGANI_DOMAIN_MARK_TEXT);
    if (ncomp > 0)
        end += sprintf(end, map_vector, n, ncomp, ncomp);
    else
        end += sprintf(end, map_scalar, n);
    end = body_head(end, target, n, ncomp, 0);
    end += sprintf(end, preamble, n);
    if (ncomp > 0) end += sprintf(end, vector_preamble, ncomp);
    end += sprintf(end, "%s", body ? body_open : expr_open);
    memcpy(end, source, len);
    end += len;
    strcpy(end, body ? body_close : expr_close);
    return unit;
}

int pagani_source_params_mapped(const void *params)
{
    return params && *(const double *)params == PAGANI_DOMAIN_MARK;
}
