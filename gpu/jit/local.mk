# gpu/jit: run-time compiled CUDA code. NVRTC modules with their on-disk
# cache (cuda_module), and one module per integrand and kernel text
# (cuda_integrand), which every method's kernels are built by.
if HAVE_CUDA
libpagani_la_SOURCES += \
	gpu/jit/cuda_module.h \
	gpu/jit/cuda_module.c \
	gpu/jit/cuda_integrand.h \
	gpu/jit/cuda_integrand.c
endif

# pasted into every method's kernel text (their local.mk)
EXTRA_DIST += gpu/jit/vector_eval.cuh
