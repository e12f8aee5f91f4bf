# src/jit: integrand source. The environment it sees on every backend
# (source_env), the on-disk cache of compiled code that the CPU and GPU
# backends share (jit_cache), and compilation for the CPU with the system
# compiler (jit_cpu).
libpagani_la_SOURCES += \
	src/jit/source_env.h \
	src/jit/source_env.c \
	src/jit/jit_cache.h \
	src/jit/jit_cache.c \
	src/jit/jit_cpu.h \
	src/jit/jit_cpu.c
