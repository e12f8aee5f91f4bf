# Integrands: source environment, run-time compilation for the CPU, and
# the pagani_integrand_* functions.
libpagani_la_SOURCES += src/source_env.h src/source_env.c src/jit_cpu.h \
	src/jit_cpu.c src/integrand.c
