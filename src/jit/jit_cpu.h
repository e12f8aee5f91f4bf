/*
 * jit_cpu.h - compiles a host translation unit (from pagani_source_wrap)
 * with the system C (or C++) compiler into a shared object, cached on disk
 * (jit_cache.h), and loads its entry point.
 */
#ifndef PAGANI_JIT_CPU_H
#define PAGANI_JIT_CPU_H

#include "internal.h"

/* Compiles `unit` (or finds it in the cache) and loads it: *module is the
 * dlopen handle (release with pagani_jit_cpu_unload), and entry points to
 * the function pointer (a pagani_function, or a pagani_vector_function
 * for a vector form) that receives PAGANI_HOST_ENTRY. Expensive on a cache miss (runs the compiler,
 * $PAGANI_CC or "cc"; a compiler killed with its caller dies with it on
 * Linux). The warnings of code that would run wrong are errors (a path
 * without a return value, an undeclared function, a constant index past
 * x[n-1], a variable read before it is set), and so is an undefined
 * symbol. Returns PAGANI_ERR_COMPILE with the compiler's log in the
 * context message (nothing is cached then), or PAGANI_ERR_SYSTEM (the
 * compiler could not run or was killed by a signal; the object would not
 * load) / PAGANI_ERR_NO_MEMORY with the reason. */
int pagani_jit_cpu_load(pagani_context *ctx, const char *unit, void **module,
                        void *entry);

/* The same for a C++ unit (the gradient's, src/gradient), compiled by
 * $PAGANI_CXX or "c++" under the same limits and cache. */
int pagani_jit_cpu_load_cxx(pagani_context *ctx, const char *unit,
                            void **module, void *entry);

/* Unloads a module from pagani_jit_cpu_load; NULL is ignored. */
void pagani_jit_cpu_unload(void *module);

#endif /* PAGANI_JIT_CPU_H */
