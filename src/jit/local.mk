# src/jit: integrand source. The environment it sees on every backend
# (source_env), and its compilation for the CPU with the system compiler,
# with the on-disk cache the GPU backend shares (jit_cpu).
libpagani_la_SOURCES += \
	src/jit/source_env.h \
	src/jit/source_env.c \
	src/jit/jit_cpu.h \
	src/jit/jit_cpu.c
