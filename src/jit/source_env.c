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

/* Per target: what precedes the constants, and the function's signature. */
static const char host_head[] = "#include <math.h>\n";
static const char host_signature[] =
    "double pagani_integrand_entry(const double *x, int n_arg, "
    "const void *params)\n";
/* NVRTC: silence "p set but never used" (550) for bodies that ignore p. */
static const char cuda_head[] = "#pragma nv_diag_suppress 550\n";
static const char cuda_signature[] =
    "__device__ __forceinline__ double\n"
    "pagani_integrand_device(const double *x, const void *params)\n";

/* The body's preamble (%d: n) and the lines around the user's text. The
 * user's text sits in a block of its own, as in PAGANI_INTEGRAND, so it may
 * declare names of its own (even shadow p). */
static const char preamble[] =
    "{\n"
    "    const int n = %d;\n"
    "    const double *p = (const double *)params;\n"
    "    (void)x; (void)n; (void)p;%s\n";
static const char body_open[] = "    {\n#line 1 \"integrand\"\n";
/* After the user's text, messages about the wrapper's own closing lines
 * (say, an unclosed parenthesis) name the wrapper, not a user line. */
static const char body_close[] = "\n#line 1 \"end-of-integrand\"\n    }\n}\n";
static const char expr_open[] = "    return (\n#line 1 \"integrand\"\n";
static const char expr_close[] = "\n#line 1 \"end-of-integrand\"\n    );\n}\n";

/* Whether `source` holds the token `return` outside comments and string or
 * character literals. */
static int has_return(const char *s)
{
    while (*s) {
        if (s[0] == '/' && s[1] == '/') {
            while (*s && *s != '\n') s++;
        } else if (s[0] == '/' && s[1] == '*') {
            s += 2;
            while (*s && !(s[0] == '*' && s[1] == '/')) s++;
            if (*s) s += 2;
        } else if (*s == '"' || *s == '\'') {
            char quote = *s++;
            while (*s && *s != quote && *s != '\n') {
                if (*s == '\\' && s[1]) s++;
                s++;
            }
            if (*s == quote) s++;
        } else if (*s == '_' || (*s >= 'a' && *s <= 'z') ||
                   (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')) {
            const char *start = s;
            while (*s == '_' || (*s >= 'a' && *s <= 'z') ||
                   (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9'))
                s++;
            if (s - start == 6 && memcmp(start, "return", 6) == 0) return 1;
        } else {
            s++;
        }
    }
    return 0;
}

/* Length of an expression without its trailing blanks and semicolons, so
 * that "x[0] * x[1];" is taken as the expression it means. */
static size_t expression_length(const char *s)
{
    size_t len = strlen(s);
    while (len > 0 && (s[len - 1] == ';' || s[len - 1] == ' ' ||
                       s[len - 1] == '\t' || s[len - 1] == '\n' ||
                       s[len - 1] == '\r'))
        len--;
    return len;
}

char *pagani_source_wrap(const char *source, int n, pagani_source_target target)
{
    int cuda = target == PAGANI_TARGET_CUDA;
    int body = has_return(source);
    size_t len = body ? strlen(source) : expression_length(source);
    char pre[256];
    int pre_len = snprintf(pre, sizeof pre, preamble, n,
                           cuda ? "" : " (void)n_arg;");
    size_t total;
    char *unit, *end;

    if (pre_len < 0 || (size_t)pre_len >= sizeof pre) return NULL;
    total = strlen(cuda ? cuda_head : host_head) + sizeof constants +
            strlen(cuda ? cuda_signature : host_signature) + (size_t)pre_len +
            sizeof body_open + sizeof expr_open + len + sizeof body_close +
            sizeof expr_close + 1;
    unit = malloc(total);
    if (!unit) return NULL;

    end = unit;
    end += sprintf(end, "%s%s%s%s%s", cuda ? cuda_head : host_head,
                   constants, cuda ? cuda_signature : host_signature, pre,
                   body ? body_open : expr_open);
    memcpy(end, source, len);
    end += len;
    strcpy(end, body ? body_close : expr_close);
    return unit;
}
