# gpu: the CUDA backend.
#
# C files (backend, NVRTC module, rule packing) go through libtool as
# usual; the .cu file goes through nvcc by build-aux/nvcc-lo, which writes
# a libtool object (.lo) naming a PIC and a non-PIC object. The evaluate
# kernel (cubature_evaluate.cuh) and the math it shares with the host
# (cubature_math.h) are not compiled here: they become one C string in
# gpu/cubature_kernel_src.h, which NVRTC compiles per integrand at run time.
#
# libpagani links the static CUDA runtime (CUDA_LIBS) and dlopens NVRTC, so
# it loads where there is no GPU driver and no CUDA toolkit.

# Plain C, no CUDA: packs rules for the kernel; the tests use it everywhere.
libpagani_la_SOURCES += gpu/rule_pack.h gpu/rule_pack.c gpu/cubature_math.h

if !HAVE_CUDA
libpagani_la_SOURCES += gpu/cuda_unavailable.c
endif

SUFFIXES = .cu

if HAVE_CUDA
AM_CPPFLAGS += $(CUDA_CFLAGS)
libpagani_la_SOURCES += \
	gpu/cuda_internal.h \
	gpu/cuda_module.h \
	gpu/cuda_module.c \
	gpu/cuda_backend.c
libpagani_la_LIBADD += gpu/cuda_cubature.lo $(CUDA_LIBS)

NVCC_FLAGS = -O3 -std=c++17 $(CUDA_GENCODE) -DHAVE_CONFIG_H \
	-I$(top_srcdir)/include -I$(top_srcdir)/src -I$(top_srcdir) -I$(top_builddir) \
	-Xcompiler -Wall $(NVCCFLAGS)

.cu.lo:
	$(AM_V_GEN)$(SHELL) $(top_srcdir)/build-aux/nvcc-lo $@ $(NVCC) $(NVCC_FLAGS) $<

gpu/cuda_cubature.lo: gpu/cubature_kernel_src.h $(top_srcdir)/gpu/cuda_internal.h \
	$(top_srcdir)/gpu/cuda_module.h $(top_srcdir)/gpu/cuda_integrand.h \
	$(top_srcdir)/gpu/rule_pack.h \
	$(top_srcdir)/gpu/cubature_math.h $(top_srcdir)/rules/fourth_difference.h \
	$(top_srcdir)/src/backend.h \
	$(top_srcdir)/src/internal.h $(top_srcdir)/rules/rules.h config.h
endif

# Kernel texts for NVRTC: each a C string (gpu/*_kernel_src.h) made by
# build-aux/kernel-src from its parts in dependency order, "#line" marked so
# that NVRTC's messages name the original files, #include lines removed.
#   $(PAGANI_KERNEL_SRC) OUT NAME WHAT PART...
PAGANI_KERNEL_SRC = $(SHELL) $(top_srcdir)/build-aux/kernel-src
PAGANI_KERNEL_SRC_DEP = $(top_srcdir)/build-aux/kernel-src

PAGANI_CUBATURE_KERNEL_PARTS = $(top_srcdir)/src/hostdevice.h \
	$(top_srcdir)/rules/fourth_difference.h $(top_srcdir)/gpu/cubature_math.h $(top_srcdir)/gpu/cubature_evaluate.cuh
gpu/cubature_kernel_src.h: $(PAGANI_CUBATURE_KERNEL_PARTS) $(PAGANI_KERNEL_SRC_DEP)
	$(AM_V_GEN)$(PAGANI_KERNEL_SRC) $@ pagani_cubature_kernel_src \
	  'gpu/cubature_math.h and gpu/cubature_evaluate.cuh' $(PAGANI_CUBATURE_KERNEL_PARTS)

EXTRA_DIST += gpu/cuda_cubature.cu gpu/cubature_evaluate.cuh build-aux/nvcc-lo \
	build-aux/kernel-src
CLEANFILES += gpu/cubature_kernel_src.h
