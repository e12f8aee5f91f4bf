# gpu/vegas: PAGANI_VEGAS on the CUDA backend. cuda_vegas.c is plain C
# against the CUDA runtime API; the sampling kernels are NVRTC-compiled per
# integrand from one C string, gpu/vegas/vegas_kernel_src.h, made from the
# sampling headers and vegas_kernel.cuh with their #include lines removed.
# The Vegas+ counts and their CUB scan (vegas_scan.cu) go through nvcc by
# the .cu.lo rule of gpu/local.mk; CUDA_LIBS follows it again so that the
# static CUDA runtime resolves what it needs.
if HAVE_CUDA
libpagani_la_SOURCES += gpu/vegas/vegas_args.h gpu/vegas/cuda_vegas.h \
	gpu/vegas/cuda_vegas.c
libpagani_la_LIBADD += gpu/vegas/vegas_scan.lo $(CUDA_LIBS)
gpu/vegas/cuda_vegas.lo: gpu/vegas/vegas_kernel_src.h
gpu/vegas/vegas_scan.lo: $(top_srcdir)/gpu/vegas/cuda_vegas.h \
	$(top_srcdir)/gpu/cuda_internal.h $(top_srcdir)/src/internal.h config.h
endif

PAGANI_VEGAS_KERNEL_PARTS = $(top_srcdir)/src/hostdevice.h \
	$(top_srcdir)/src/sampling/philox.h \
	$(top_srcdir)/src/sampling/vegas_point.h $(top_srcdir)/src/sampling/vegas_piece.h \
	$(top_srcdir)/gpu/vegas/vegas_args.h $(top_srcdir)/gpu/vegas/vegas_kernel.cuh
gpu/vegas/vegas_kernel_src.h: $(PAGANI_VEGAS_KERNEL_PARTS) $(PAGANI_KERNEL_SRC_DEP)
	$(AM_V_GEN)$(PAGANI_KERNEL_SRC) $@ pagani_vegas_kernel_src \
	  'the sampling headers and gpu/vegas/vegas_kernel.cuh' $(PAGANI_VEGAS_KERNEL_PARTS)

EXTRA_DIST += gpu/vegas/vegas_kernel.cuh gpu/vegas/vegas_scan.cu
CLEANFILES += gpu/vegas/vegas_kernel_src.h
