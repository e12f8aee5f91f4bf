/*
 * cuda_module.h - run-time compiled CUDA code for any part of the CUDA
 * backend: NVRTC compiles a complete CUDA C++ translation unit for the
 * current device, the result (a cubin, or PTX when NVRTC does not know the
 * device's architecture) is cached on disk, and the CUDA runtime loads it
 * (cudaLibraryLoadData), so kernels launch with cudaLaunchKernel.
 *
 * Nothing here links NVRTC or the driver library: NVRTC is opened with
 * dlopen on first use (libnvrtc.so.13, libnvrtc.so, then
 * $PAGANI_CUDA_HOME/lib64/libnvrtc.so), the driver by the static CUDA
 * runtime. So libpagani loads on machines without either.
 *
 * Typical use (the cubature evaluate kernel, cuda_cubature.cu):
 *
 *   const char *opts[] = {"-DPAGANI_N=8"};
 *   cuda_module *m;
 *   cudaKernel_t k;
 *   rc = cuda_module_build(ctx, unit, "cubature", opts, 1, &m);
 *   if (rc == PAGANI_OK) rc = cuda_module_kernel(ctx, m, "my_kernel", &k);
 *   ... cudaLaunchKernel((const void *)k, grid, block, args, shmem, stream);
 *   cuda_module_destroy(m);
 *
 * Kernels meant for lookup are declared extern "C" __global__ so their
 * names are not mangled.
 */
#ifndef PAGANI_GPU_CUDA_MODULE_H
#define PAGANI_GPU_CUDA_MODULE_H

#include <cuda_runtime_api.h>
#include "internal.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cuda_module cuda_module;

/* Loads NVRTC if not loaded yet (once per process; thread-safe). Returns
 * PAGANI_OK, or PAGANI_ERR_BACKEND_UNAVAILABLE with the places tried in
 * ctx's message. Cheap after the first call. */
int cuda_nvrtc_load(pagani_context *ctx);

/* NVRTC's version, e.g. 13 and 0 (0, 0 before cuda_nvrtc_load succeeds). */
void cuda_nvrtc_version(int *major, int *minor);

/*
 * Compiles `source`, a complete translation unit (NVRTC has no system
 * headers: use builtins, or paste what you need), for the current device
 * (cudaGetDevice) and loads it. The module adds the options
 * -arch=sm_XY (or compute_XY, see above), -default-device and -std=c++17;
 * `options` (may be NULL when noptions is 0) come after them, e.g.
 * "-DPAGANI_N=8". Fast math stays off.
 *
 * The compiled image is cached in the folder of pagani_cache_dir()
 * (jit_cache.h: PAGANI_CACHE_DIR, XDG_CACHE_HOME/pagani or
 * ~/.cache/pagani, when this user's alone) as cuda-KEY.bin, KEY a 128-bit
 * hash of the source, the options, the architecture, NVRTC's and the
 * driver's versions. An entry is used only when its owner, permissions,
 * recorded key and content hash check out (else it is rebuilt and
 * replaced), and written to a mkstemp temporary and renamed, so
 * concurrent processes never read a partial file; a second build of the
 * same source skips NVRTC. A cache that cannot be used is not an error.
 *
 * `what` names the program in messages ("cubature"). Returns PAGANI_OK;
 * PAGANI_ERR_COMPILE with NVRTC's log in ctx's message (line numbers refer
 * to the file names of the #line directives in the source, e.g.
 * "integrand"); PAGANI_ERR_BACKEND_UNAVAILABLE without NVRTC or with a
 * device NVRTC cannot target; PAGANI_ERR_CUDA when loading failed;
 * PAGANI_ERR_NO_MEMORY. Expensive on a cache miss (NVRTC: 0.1 to 1 s).
 */
int cuda_module_build(pagani_context *ctx, const char *source, const char *what,
                      const char *const *options, int noptions,
                      cuda_module **out);

/* Looks up the extern "C" kernel `name`; *kernel can be passed to
 * cudaLaunchKernel as (const void *)*kernel. PAGANI_ERR_CUDA when absent. */
int cuda_module_kernel(pagani_context *ctx, cuda_module *m, const char *name,
                       cudaKernel_t *kernel);

/* Whether the last cuda_module_build of m came from the disk cache. */
int cuda_module_cached(const cuda_module *m);

/* Unloads the module; NULL is ignored. Kernels from it become invalid. */
void cuda_module_destroy(cuda_module *m);

#ifdef __cplusplus
}
#endif

#endif /* PAGANI_GPU_CUDA_MODULE_H */
