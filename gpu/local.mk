# gpu: the CUDA backend, one folder per method (mirrors src/cpu) and jit/
# for NVRTC modules and their cache; here the backend's table, its device
# and the CUDA error helper.
#
# C files go through libtool as usual; each .cu file goes through nvcc by
# build-aux/nvcc-lo, which writes a libtool object (.lo) naming a PIC and a
# non-PIC object. Kernels compiled per integrand are not compiled here:
# their texts become C strings (gpu/*/*_kernel_src.h, by
# build-aux/kernel-src) that NVRTC compiles at run time.
#
# libpagani links the static CUDA runtime (CUDA_LIBS) and dlopens NVRTC, so
# it loads where there is no GPU driver and no CUDA toolkit.

if !HAVE_CUDA
libpagani_la_SOURCES += gpu/cuda_unavailable.c
endif

SUFFIXES = .cu

if HAVE_CUDA
AM_CPPFLAGS += $(CUDA_CFLAGS)
libpagani_la_SOURCES += \
	gpu/cuda_internal.h \
	gpu/cuda_fail.c \
	gpu/cuda_backend.c

NVCC_FLAGS = -O3 -std=c++17 $(CUDA_GENCODE) -DHAVE_CONFIG_H \
	-I$(top_srcdir)/include -I$(top_srcdir)/src -I$(top_srcdir) -I$(top_builddir) \
	-Xcompiler -Wall $(NVCCFLAGS)

.cu.lo:
	$(AM_V_GEN)$(SHELL) $(top_srcdir)/build-aux/nvcc-lo $@ $(NVCC) $(NVCC_FLAGS) $<
endif

# Kernel texts for NVRTC: each a C string (gpu/*/*_kernel_src.h) made by
# build-aux/kernel-src from its parts in dependency order, "#line" marked so
# that NVRTC's messages name the original files, #include lines removed.
#   $(PAGANI_KERNEL_SRC) OUT NAME WHAT PART...
PAGANI_KERNEL_SRC = $(SHELL) $(top_srcdir)/build-aux/kernel-src
PAGANI_KERNEL_SRC_DEP = $(top_srcdir)/build-aux/kernel-src

EXTRA_DIST += build-aux/nvcc-lo build-aux/kernel-src
