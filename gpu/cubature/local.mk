# gpu/cubature: PAGANI_CUBATURE on the CUDA backend. cuda_cubature.cu (nvcc:
# CUB scans and sorts; the tile kernels of classify, threshold and split
# in cubature_tiles.cuh, the sorted copy's in cubature_sorted.cuh, the
# split's in cubature_split.cuh, a vector integrand's in
# cubature_vector.cuh; the host side in parts: the state in
# cuda_cubature_state.cuh, a vector integrand's steps in
# cuda_cubature_vector.cuh, THRESHOLD_STATS in
# cuda_cubature_threshold.cuh, FILTER_SPLIT in cuda_cubature_split.cuh)
# holds the operations; the evaluate kernels (cubature_evaluate.cuh with
# the warp helpers of cubature_warp.cuh and the vertex probes of
# cubature_probe.cuh, for several components cubature_evaluate_vector.cuh)
# and the math they share with the host (cubature_math.h, rules/probe.h,
# rules/graded.h with the graded pass's cubature_graded.cuh)
# become one C string, gpu/cubature/cubature_kernel_src.h, that NVRTC
# compiles per integrand.

# Plain C, no CUDA: packs rules for the kernel and lays out the tiles of a
# batch's list; the tests use them everywhere.
libpagani_la_SOURCES += gpu/cubature/rule_pack.h gpu/cubature/rule_pack.c \
	gpu/cubature/cubature_math.h gpu/cubature/batch_layout.h \
	gpu/cubature/batch_layout.c

if HAVE_CUDA
libpagani_la_LIBADD += gpu/cubature/cuda_cubature.lo $(CUDA_LIBS)
gpu/cubature/cuda_cubature.lo: gpu/cubature/cubature_kernel_src.h \
	$(top_srcdir)/gpu/cuda_internal.h \
	$(top_srcdir)/gpu/jit/cuda_module.h $(top_srcdir)/gpu/jit/cuda_integrand.h \
	$(top_srcdir)/gpu/cubature/rule_pack.h \
	$(top_srcdir)/gpu/cubature/batch_layout.h \
	$(top_srcdir)/gpu/cubature/cubature_tiles.cuh \
	$(top_srcdir)/gpu/cubature/cubature_sorted.cuh \
	$(top_srcdir)/gpu/cubature/cubature_split.cuh \
	$(top_srcdir)/gpu/cubature/cubature_vector.cuh \
	$(top_srcdir)/gpu/cubature/cuda_cubature_state.cuh \
	$(top_srcdir)/gpu/cubature/cuda_cubature_vector.cuh \
	$(top_srcdir)/gpu/cubature/cuda_cubature_threshold.cuh \
	$(top_srcdir)/gpu/cubature/cuda_cubature_split.cuh \
	$(top_srcdir)/gpu/cubature/cuda_cubature_checkpoint.cuh \
	$(top_srcdir)/rules/component_norm.h \
	$(top_srcdir)/gpu/cubature/cubature_math.h $(top_srcdir)/rules/fourth_difference.h \
	$(top_srcdir)/rules/probe.h $(top_srcdir)/rules/graded.h $(top_srcdir)/rules/error_sign.h \
	$(top_srcdir)/src/sampling/philox.h $(top_srcdir)/rules/random_check.h \
	$(top_srcdir)/rules/null_error.h \
	$(top_srcdir)/src/backend.h \
	$(top_srcdir)/src/internal.h $(top_srcdir)/rules/rules.h config.h
endif

PAGANI_CUBATURE_KERNEL_PARTS = $(top_srcdir)/src/hostdevice.h \
	$(top_srcdir)/gpu/jit/vector_eval.cuh \
	$(top_srcdir)/rules/fourth_difference.h $(top_srcdir)/rules/probe.h \
	$(top_srcdir)/rules/graded.h \
	$(top_srcdir)/rules/error_sign.h $(top_srcdir)/src/sampling/philox.h \
	$(top_srcdir)/rules/random_check.h $(top_srcdir)/rules/component_norm.h \
	$(top_srcdir)/rules/null_error.h $(top_srcdir)/gpu/cubature/cubature_math.h \
	$(top_srcdir)/gpu/cubature/cubature_warp.cuh \
	$(top_srcdir)/gpu/cubature/cubature_graded.cuh \
	$(top_srcdir)/gpu/cubature/cubature_probe.cuh \
	$(top_srcdir)/gpu/cubature/cubature_evaluate.cuh \
	$(top_srcdir)/gpu/cubature/cubature_check.cuh \
	$(top_srcdir)/gpu/cubature/cubature_evaluate_vector.cuh
gpu/cubature/cubature_kernel_src.h: $(PAGANI_CUBATURE_KERNEL_PARTS) $(PAGANI_KERNEL_SRC_DEP)
	$(AM_V_GEN)$(PAGANI_KERNEL_SRC) $@ pagani_cubature_kernel_src \
	  'gpu/cubature/cubature_math.h and the evaluate kernels' \
	  $(PAGANI_CUBATURE_KERNEL_PARTS)

EXTRA_DIST += gpu/cubature/cuda_cubature.cu gpu/cubature/cubature_evaluate.cuh \
	gpu/cubature/cubature_check.cuh \
	gpu/cubature/cubature_warp.cuh gpu/cubature/cubature_graded.cuh \
	gpu/cubature/cubature_probe.cuh gpu/cubature/cubature_tiles.cuh \
	gpu/cubature/cubature_sorted.cuh gpu/cubature/cubature_split.cuh \
	gpu/cubature/cubature_vector.cuh gpu/cubature/cuda_cubature_state.cuh \
	gpu/cubature/cuda_cubature_vector.cuh gpu/cubature/cuda_cubature_threshold.cuh \
	gpu/cubature/cuda_cubature_split.cuh \
	gpu/cubature/cuda_cubature_checkpoint.cuh \
	gpu/cubature/cubature_evaluate_vector.cuh
CLEANFILES += gpu/cubature/cubature_kernel_src.h
