/*
 * cuda_module.c - NVRTC compilation, its disk cache, and loading through
 * the CUDA runtime (cuda_module.h says how to use it).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <nvrtc.h>
#include "gpu/cuda_internal.h"
#include "gpu/jit/cuda_module.h"
#include "jit/jit_cache.h"

struct cuda_module {
    cudaLibrary_t library;
    int cached;
};

/* ---- NVRTC, opened at run time --------------------------------------- */

static struct {
    void *handle;
    nvrtcResult (*version)(int *, int *);
    nvrtcResult (*num_archs)(int *);
    nvrtcResult (*archs)(int *);
    nvrtcResult (*create)(nvrtcProgram *, const char *, const char *, int,
                          const char *const *, const char *const *);
    nvrtcResult (*destroy)(nvrtcProgram *);
    nvrtcResult (*compile)(nvrtcProgram, int, const char *const *);
    nvrtcResult (*log_size)(nvrtcProgram, size_t *);
    nvrtcResult (*log)(nvrtcProgram, char *);
    nvrtcResult (*cubin_size)(nvrtcProgram, size_t *);
    nvrtcResult (*cubin)(nvrtcProgram, char *);
    nvrtcResult (*ptx_size)(nvrtcProgram, size_t *);
    nvrtcResult (*ptx)(nvrtcProgram, char *);
    const char *(*error_string)(nvrtcResult);
    int major, minor;
    char tried[1024];   /* why loading failed */
} nvrtc;

static pthread_once_t nvrtc_once = PTHREAD_ONCE_INIT;

#define NVRTC_SYM(field, name)                                               \
    (*(void **)&nvrtc.field = dlsym(nvrtc.handle, name)) != NULL

static void nvrtc_open(void)
{
    const char *names[] = {
        "libnvrtc.so.13", "libnvrtc.so",
#ifdef PAGANI_CUDA_HOME
        PAGANI_CUDA_HOME "/lib64/libnvrtc.so",
#endif
    };
    size_t used = 0;

    for (size_t i = 0; i < sizeof names / sizeof names[0] && !nvrtc.handle; i++) {
        nvrtc.handle = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (!nvrtc.handle && used < sizeof nvrtc.tried)
            used += (size_t)snprintf(nvrtc.tried + used, sizeof nvrtc.tried - used,
                                     "%s%s", used ? ", " : "", names[i]);
    }
    if (!nvrtc.handle) return;
    if (!(NVRTC_SYM(version, "nvrtcVersion") &&
          NVRTC_SYM(num_archs, "nvrtcGetNumSupportedArchs") &&
          NVRTC_SYM(archs, "nvrtcGetSupportedArchs") &&
          NVRTC_SYM(create, "nvrtcCreateProgram") &&
          NVRTC_SYM(destroy, "nvrtcDestroyProgram") &&
          NVRTC_SYM(compile, "nvrtcCompileProgram") &&
          NVRTC_SYM(log_size, "nvrtcGetProgramLogSize") &&
          NVRTC_SYM(log, "nvrtcGetProgramLog") &&
          NVRTC_SYM(cubin_size, "nvrtcGetCUBINSize") &&
          NVRTC_SYM(cubin, "nvrtcGetCUBIN") &&
          NVRTC_SYM(ptx_size, "nvrtcGetPTXSize") &&
          NVRTC_SYM(ptx, "nvrtcGetPTX") &&
          NVRTC_SYM(error_string, "nvrtcGetErrorString")) ||
        nvrtc.version(&nvrtc.major, &nvrtc.minor) != NVRTC_SUCCESS) {
        snprintf(nvrtc.tried, sizeof nvrtc.tried,
                 "a libnvrtc without the functions libpagani needs");
        dlclose(nvrtc.handle);
        nvrtc.handle = NULL;
        nvrtc.major = nvrtc.minor = 0;
    }
}

int cuda_nvrtc_load(pagani_context *ctx)
{
    pthread_once(&nvrtc_once, nvrtc_open);
    if (nvrtc.handle) return PAGANI_OK;
    return pagani_fail(ctx, PAGANI_ERR_BACKEND_UNAVAILABLE,
                       "the CUDA backend needs NVRTC to compile integrands; "
                       "none could be loaded (tried %s)", nvrtc.tried);
}

void cuda_nvrtc_version(int *major, int *minor)
{
    *major = nvrtc.handle ? nvrtc.major : 0;
    *minor = nvrtc.handle ? nvrtc.minor : 0;
}

/* ---- architecture ---------------------------------------------------- */

/* "-arch=sm_XY" when NVRTC can make a cubin for the device's compute
 * capability cc, else "-arch=compute_XY" for the highest XY <= cc it knows
 * (the driver compiles that PTX). */
static int pick_arch(pagani_context *ctx, int cc, char *opt, size_t len, int *cubin)
{
    int count = 0, best = 0, *archs;

    if (nvrtc.num_archs(&count) != NVRTC_SUCCESS || count <= 0 ||
        !(archs = malloc((size_t)count * sizeof *archs)))
        return pagani_fail(ctx, PAGANI_ERR_BACKEND_UNAVAILABLE,
                           "NVRTC lists no target architectures");
    if (nvrtc.archs(archs) != NVRTC_SUCCESS) count = 0;
    *cubin = 0;
    for (int i = 0; i < count; i++) {
        if (archs[i] == cc) *cubin = 1;
        if (archs[i] <= cc && archs[i] > best) best = archs[i];
    }
    free(archs);
    if (*cubin) {
        snprintf(opt, len, "-arch=sm_%d", cc);
        return PAGANI_OK;
    }
    if (best == 0)
        return pagani_fail(ctx, PAGANI_ERR_BACKEND_UNAVAILABLE,
                           "NVRTC %d.%d cannot compile for this GPU (compute "
                           "capability %d.%d)", nvrtc.major, nvrtc.minor,
                           cc / 10, cc % 10);
    snprintf(opt, len, "-arch=compute_%d", best);
    return PAGANI_OK;
}

/* ---- the disk cache (jit_cache.h) ------------------------------------ */

/* The key of an image: the source, the options, NVRTC's and the driver's
 * versions. */
static pagani_cache_key make_key(const char *source, const char *const *options,
                                 int noptions, int driver)
{
    int versions[3] = {nvrtc.major, nvrtc.minor, driver};
    pagani_cache_key key;

    pagani_cache_key_init(&key);
    pagani_cache_key_add_string(&key, source);
    for (int i = 0; i < noptions; i++)
        pagani_cache_key_add_string(&key, options[i]);
    pagani_cache_key_add(&key, versions, sizeof versions);
    return key;
}

/* ---- compiling and loading ------------------------------------------- */

static int compile(pagani_context *ctx, const char *source, const char *what,
                   const char *const *options, int noptions, int cubin,
                   char **image, size_t *size)
{
    nvrtcProgram prog;
    nvrtcResult r = nvrtc.create(&prog, source, what, 0, NULL, NULL);
    int rc = PAGANI_OK;

    if (r != NVRTC_SUCCESS)
        return pagani_fail(ctx, r == NVRTC_ERROR_OUT_OF_MEMORY ? PAGANI_ERR_NO_MEMORY
                                                               : PAGANI_ERR_COMPILE,
                           "nvrtcCreateProgram (%s): %s", what, nvrtc.error_string(r));
    r = nvrtc.compile(prog, noptions, options);
    if (r != NVRTC_SUCCESS) {
        size_t len = 0;
        char *log = NULL;
        if (nvrtc.log_size(prog, &len) == NVRTC_SUCCESS && len > 0 &&
            (log = malloc(len + 1)) && nvrtc.log(prog, log) == NVRTC_SUCCESS)
            log[len] = '\0';
        else if (log)
            log[0] = '\0';
        rc = pagani_fail(ctx, r == NVRTC_ERROR_OUT_OF_MEMORY ? PAGANI_ERR_NO_MEMORY
                                                             : PAGANI_ERR_COMPILE,
                         "NVRTC could not compile the %s kernel (%s):\n%s", what,
                         nvrtc.error_string(r), log ? log : "(no log)");
        free(log);
        nvrtc.destroy(&prog);
        return rc;
    }
    r = cubin ? nvrtc.cubin_size(prog, size) : nvrtc.ptx_size(prog, size);
    if (r == NVRTC_SUCCESS && !(*image = malloc(*size + 1)))
        rc = pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "compiled %s kernel", what);
    else if (r == NVRTC_SUCCESS &&
             (r = cubin ? nvrtc.cubin(prog, *image) : nvrtc.ptx(prog, *image)) ==
                 NVRTC_SUCCESS)
        (*image)[*size] = '\0';
    if (rc == PAGANI_OK && r != NVRTC_SUCCESS) {
        free(*image);
        *image = NULL;
        rc = pagani_fail(ctx, PAGANI_ERR_COMPILE, "NVRTC output of the %s kernel: %s",
                         what, nvrtc.error_string(r));
    }
    nvrtc.destroy(&prog);
    return rc;
}

int cuda_module_build(pagani_context *ctx, const char *source, const char *what,
                      const char *const *options, int noptions, cuda_module **out)
{
    const char **all = NULL;
    char arch[32], *dir = NULL, *path = NULL, *image = NULL;
    int device, major, minor, driver = 0, cubin, rc;
    size_t size = 0;
    pagani_cache_key key;
    cuda_module *m;
    cudaError_t err;

    *out = NULL;
    if ((rc = cuda_nvrtc_load(ctx)) != PAGANI_OK) return rc;
    CUDA_TRY(ctx, cudaGetDevice(&device));
    CUDA_TRY(ctx, cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    CUDA_TRY(ctx, cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
    CUDA_TRY(ctx, cudaDriverGetVersion(&driver));
    if ((rc = pick_arch(ctx, 10 * major + minor, arch, sizeof arch, &cubin)) != PAGANI_OK)
        return rc;
    if (!(m = calloc(1, sizeof *m)) ||
        !(all = malloc((size_t)(noptions + 3) * sizeof *all))) {
        free(m);
        return pagani_fail(ctx, PAGANI_ERR_NO_MEMORY, "NVRTC options");
    }
    all[0] = arch;
    all[1] = "-default-device";
    all[2] = "-std=c++17";
    for (int i = 0; i < noptions; i++) all[3 + i] = options[i];

    key = make_key(source, all, noptions + 3, driver);
    dir = pagani_cache_dir();
    path = dir ? pagani_cache_entry_path(dir, "cuda-", &key, ".bin") : NULL;
    if (path && pagani_cache_read(path, &key, &image, &size)) {
        err = cudaLibraryLoadData(&m->library, image, NULL, NULL, 0, NULL, NULL, 0);
        if (err == cudaSuccess) {
            m->cached = 1;
            goto done;
        }
        (void)cudaGetLastError(); /* an entry this driver rejects: rebuild */
        free(image);
        image = NULL;
    }
    if (dir) pagani_cache_sweep(dir); /* a miss: clear leftovers first */
    rc = compile(ctx, source, what, all, noptions + 3, cubin, &image, &size);
    if (rc != PAGANI_OK) goto done;
    err = cudaLibraryLoadData(&m->library, image, NULL, NULL, 0, NULL, NULL, 0);
    if (err != cudaSuccess) {
        rc = cuda_fail(ctx, err, "cudaLibraryLoadData");
        goto done;
    }
    if (path) pagani_cache_write(dir, path, &key, image, size);
done:
    free(image);
    free(dir);
    free(path);
    free(all);
    if (rc != PAGANI_OK) {
        free(m);
        return rc;
    }
    *out = m;
    return PAGANI_OK;
}

int cuda_module_kernel(pagani_context *ctx, cuda_module *m, const char *name,
                       cudaKernel_t *kernel)
{
    cudaError_t err = cudaLibraryGetKernel(kernel, m->library, name);
    if (err != cudaSuccess) {
        char call[160];
        snprintf(call, sizeof call, "cudaLibraryGetKernel(\"%s\")", name);
        return cuda_fail(ctx, err, call);
    }
    return PAGANI_OK;
}

int cuda_module_cached(const cuda_module *m)
{
    return m ? m->cached : 0;
}

void cuda_module_destroy(cuda_module *m)
{
    if (!m) return;
    cudaLibraryUnload(m->library);
    free(m);
}
