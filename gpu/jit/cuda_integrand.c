/*
 * cuda_integrand.c - an integrand's source and a kernel text compiled into
 * one NVRTC module (cuda_integrand.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu/jit/cuda_integrand.h"
#include "gradient/gradient.h"
#include "jit/source_env.h"

/* NVRTC's diagnostics of code that would run wrong, made errors as the
 * CPU's compiler flags do (jit_cpu.c): 940 a path without a return value,
 * 117 `return;` in the integrand, 549 a variable read before it is set.
 * (An undeclared function is an error in C++ already.) */
static const char diag_errors[] = "--diag-error=940,117,549";

int cuda_integrand_module(pagani_context *ctx, const pagani_integrand *f,
                          const char *kernels, const char *what, int mapped,
                          cuda_module **out)
{
    char option[32];
    const char *options[3] = {option, diag_errors, "-DPAGANI_DOMAIN_PLAIN"};
    char *unit, *full;
    size_t a, b;
    int rc;

    *out = NULL;
    if (!f->source)
        return pagani_fail(ctx, PAGANI_ERR_NO_FORM, "the CUDA backend runs "
                           "integrands given as source only");
    /* a vector form defines PAGANI_NCOMP and pagani_integrand_device_vector
     * instead of pagani_integrand_device: the kernel texts test the macro;
     * a gradient is a vector form */
    unit = f->gradient ? pagani_gradient_unit(f, PAGANI_TARGET_CUDA) :
           pagani_source_wrap(f->source, f->n, f->vector_form ? f->ncomp : 0,
                              PAGANI_TARGET_CUDA);
    if (!unit)
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "integrand source");
    a = strlen(unit);
    b = strlen(kernels);
    if (!(full = malloc(a + b + 2))) {
        free(unit);
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "integrand source");
    }
    memcpy(full, unit, a);
    full[a] = '\n';
    memcpy(full + a + 1, kernels, b + 1);
    free(unit);
    snprintf(option, sizeof option, "-DPAGANI_N=%d", f->n);
    rc = cuda_module_build(ctx, full, what, options, mapped ? 2 : 3, out);
    free(full);
    if (rc == PAGANI_ERR_COMPILE && f->gradient)
        rc = pagani_gradient_explain(ctx);
    return rc;
}

int cuda_integrand_kernels(pagani_context *ctx, const pagani_integrand *f,
                           const char *text, const char *what, int mapped,
                           const char *const *names, cudaKernel_t *kernels,
                           int count, cuda_module **out)
{
    int rc = cuda_integrand_module(ctx, f, text, what, mapped, out);
    for (int i = 0; rc == PAGANI_OK && i < count; i++)
        rc = cuda_module_kernel(ctx, *out, names[i], &kernels[i]);
    if (rc != PAGANI_OK) {
        cuda_module_destroy(*out);
        *out = NULL;
    }
    return rc;
}

int cuda_integrand_mapped(const void *params)
{
    return pagani_source_params_mapped(params);
}

char *cuda_kernel_variant(const char *env, const char *kernels)
{
    const char *value = getenv(env);
    size_t len = strlen(kernels);
    char words[256], *text, *end;

    if (!value || strlen(value) >= sizeof words) value = "";
    /* each #define is at most its word plus 9 characters */
    if (!(text = malloc(len + 5 * strlen(value) + 1))) return NULL;
    end = text;
    strcpy(words, value);
    for (char *save = NULL, *w = strtok_r(words, " ", &save); w;
         w = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(w, '=');
        if (strncmp(w, "-D", 2) != 0 || w[2] == '\0') continue;
        if (eq) *eq = ' ';
        end += sprintf(end, "#define %s\n", w + 2);
    }
    memcpy(end, kernels, len + 1);
    return text;
}

void cuda_integrand_release(pagani_integrand *f)
{
    for (int mapped = 0; mapped < 2; mapped++)
        for (int method = 0; method < 4; method++) {
            cuda_module **form = f->device_module[mapped][method];
            if (!form) continue;
            cuda_module_destroy(*form);
            free(form);
            f->device_module[mapped][method] = NULL;
        }
}
