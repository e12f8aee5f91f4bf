# src/jit: integrand source. The environment it sees on every backend
# (source_env), the checks made before it compiles (source_scan, over
# source_tokens), the on-disk cache of compiled code that the CPU and GPU
# backends share (jit_cache), and compilation for the CPU with the system
# compiler (jit_cpu), which runs as a process tree that dies with its
# caller (compiler_process) under limits of memory and CPU time
# (compiler_limits).
libpagani_la_SOURCES += \
	src/jit/source_env.h \
	src/jit/source_env.c \
	src/jit/source_scan.h \
	src/jit/source_scan.c \
	src/jit/source_tokens.h \
	src/jit/source_tokens.c \
	src/jit/jit_cache.h \
	src/jit/jit_cache.c \
	src/jit/jit_cpu.h \
	src/jit/jit_cpu.c \
	src/jit/compiler_process.h \
	src/jit/compiler_process.c \
	src/jit/compiler_limits.h \
	src/jit/compiler_limits.c
