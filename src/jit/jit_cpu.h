/*
 * jit_cpu.h - compiles a host translation unit (from pagani_source_wrap)
 * with the system C compiler into a shared object, cached on disk, and
 * loads its entry point. Also the on-disk cache location and key hash, for
 * any other module that caches compiled code.
 */
#ifndef PAGANI_JIT_CPU_H
#define PAGANI_JIT_CPU_H

#include <stddef.h>
#include "internal.h"

/* Compiles `unit` (or finds it in the cache) and loads it: *module is the
 * dlopen handle (release with pagani_jit_cpu_unload), *entry the function
 * PAGANI_HOST_ENTRY. Expensive on a cache miss (runs the compiler).
 * Returns PAGANI_ERR_COMPILE with the compiler's log in the context
 * message, or PAGANI_ERR_SYSTEM / PAGANI_ERR_NO_MEMORY with the reason. */
int pagani_jit_cpu_load(pagani_context *ctx, const char *unit, void **module,
                        pagani_function *entry);

/* Unloads a module from pagani_jit_cpu_load; NULL is ignored. */
void pagani_jit_cpu_unload(void *module);

/* The cache directory, created when missing: $PAGANI_CACHE_DIR, else
 * $XDG_CACHE_HOME/pagani, else $HOME/.cache/pagani; when none is writable,
 * $TMPDIR/pagani-UID (or /tmp/pagani-UID), private to this user. Returns
 * a malloc'd path, or NULL (with ctx's message set) on failure. */
char *pagani_cache_dir(pagani_context *ctx);

/* FNV-1a, 64 bits: hash = pagani_hash64(hash, data, size), starting from
 * PAGANI_HASH64_INIT. */
#define PAGANI_HASH64_INIT 0xcbf29ce484222325ULL
unsigned long long pagani_hash64(unsigned long long hash, const void *data,
                                 size_t size);

#endif /* PAGANI_JIT_CPU_H */
