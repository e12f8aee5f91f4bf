/*
 * cuda_integrand.h - one NVRTC module per (integrand, kernel text): the
 * integrand's source wrapped for CUDA (pagani_source_wrap), then the
 * kernel text, compiled with -DPAGANI_N=n so the integrand is inlined into
 * the kernels and loops over the axes have compile-time trip counts, and
 * with NVRTC's diagnostics of a missing return value and of a variable
 * read before it is set made errors (PAGANI_ERR_COMPILE). Any
 * method's kernels are built this way (cuda_cubature.cu, cuda_qmc.c,
 * cuda_vegas.c). A vector integrand's unit (f->vector_form) defines
 * PAGANI_NCOMP and pagani_integrand_device_vector instead of
 * pagani_integrand_device: kernel texts choose their form by
 * #ifdef PAGANI_NCOMP. A module is built for runs without the domain
 * map (-DPAGANI_DOMAIN_PLAIN: the entry calls f at the point itself) or
 * for runs with it (mapped), pagani_source_wrap's two entries.
 */
#ifndef PAGANI_GPU_CUDA_INTEGRAND_H
#define PAGANI_GPU_CUDA_INTEGRAND_H

#include "gpu/jit/cuda_module.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Builds f's source followed by `kernels` (a complete kernel text with no
 * #include) into *out (cuda_module_build: cached on disk, expensive on a
 * miss), with the entry that reads the domain map's header when mapped.
 * `what` names the program in messages. PAGANI_ERR_NO_FORM when f has no
 * source; otherwise cuda_module_build's codes. */
int cuda_integrand_module(pagani_context *ctx, const pagani_integrand *f,
                          const char *kernels, const char *what, int mapped,
                          cuda_module **out);

/* cuda_integrand_module, then the kernels names[0..count-1] looked up into
 * kernels[] (cuda_module_kernel). On failure *out is NULL (the module, if
 * built, destroyed) and the code is returned. */
int cuda_integrand_kernels(pagani_context *ctx, const pagani_integrand *f,
                           const char *text, const char *what, int mapped,
                           const char *const *names, cudaKernel_t *kernels,
                           int count, cuda_module **out);

/* Frees every compiled form in f->device_module (each method's struct,
 * plain and mapped, has its cuda_module * as its first member) and
 * clears the slots; for the backend's release_integrand. */
void cuda_integrand_release(pagani_integrand *f);

/* Whether a run whose first parameter block is `params` needs the module
 * built with mapped set (pagani_source_params_mapped, for the kernels in
 * C++, which do not include the JIT's C header). */
int cuda_integrand_mapped(const void *params);

/* Kernel variants for benchmarks: `kernels` preceded by a #define for
 * each word -DNAME or -DNAME=VALUE of the environment variable `env`
 * (other words and a value of 255 characters or more are ignored), as a
 * new string the caller frees; NULL when out of memory. */
char *cuda_kernel_variant(const char *env, const char *kernels);

#ifdef __cplusplus
}
#endif

#endif /* PAGANI_GPU_CUDA_INTEGRAND_H */
