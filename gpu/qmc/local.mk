# gpu/qmc: PAGANI_QMC on the CUDA backend. cuda_qmc.c is plain C against
# the CUDA runtime API (every kernel is NVRTC-compiled per integrand, none
# goes through nvcc); the kernel text is one C string,
# gpu/qmc/qmc_kernel_src.h, made from the sampling headers and
# qmc_kernel.cuh with their #include lines removed (NVRTC sees one
# translation unit, no files).
if HAVE_CUDA
libpagani_la_SOURCES += gpu/qmc/qmc_args.h gpu/qmc/cuda_qmc.h gpu/qmc/cuda_qmc.c
gpu/qmc/cuda_qmc.lo: gpu/qmc/qmc_kernel_src.h
endif

PAGANI_QMC_KERNEL_PARTS = $(top_srcdir)/src/hostdevice.h \
	$(top_srcdir)/gpu/jit/vector_eval.cuh \
	$(top_srcdir)/src/sampling/zinterhof.h \
	$(top_srcdir)/src/sampling/exact_sum.h $(top_srcdir)/src/sampling/qmc_point.h \
	$(top_srcdir)/gpu/qmc/qmc_args.h $(top_srcdir)/gpu/qmc/qmc_kernel.cuh
gpu/qmc/qmc_kernel_src.h: $(PAGANI_QMC_KERNEL_PARTS) $(PAGANI_KERNEL_SRC_DEP)
	$(AM_V_GEN)$(PAGANI_KERNEL_SRC) $@ pagani_qmc_kernel_src \
	  'the sampling headers and gpu/qmc/qmc_kernel.cuh' $(PAGANI_QMC_KERNEL_PARTS)

EXTRA_DIST += gpu/qmc/qmc_kernel.cuh
CLEANFILES += gpu/qmc/qmc_kernel_src.h
