# tests of the CUDA backend (gpu/). test_gpu_pack runs everywhere (the
# rules in the GPU's packed form, checked on the host); test_gpu_cubature
# and test_gpu_vector (vector integrands, every method) skip themselves
# without a usable GPU. bench_cubature and bench_latency are programs for
# the GPU machine, not tests.
check_PROGRAMS += tests/test_gpu_pack tests/test_gpu_cubature \
	tests/test_gpu_vector
TESTS += tests/test_gpu_pack tests/test_gpu_cubature tests/test_gpu_vector
tests_test_gpu_pack_SOURCES = tests/test_gpu_pack.c tests/tap.h
tests_test_gpu_pack_LDADD = $(TEST_LIBS)
tests_test_gpu_cubature_SOURCES = tests/test_gpu_cubature.c tests/tap.h tests/suite.h \
	tests/far_field.h tests/split_check.h tests/stats_check.h tests/unit_grid.h
tests_test_gpu_cubature_LDADD = $(TEST_LIBS)
tests_test_gpu_vector_SOURCES = tests/test_gpu_vector.c tests/gpu_pair.h tests/tap.h
tests_test_gpu_vector_LDADD = $(TEST_LIBS)

noinst_PROGRAMS += tests/bench_cubature
tests_bench_cubature_SOURCES = tests/bench_cubature.c tests/suite.h tests/op_profile.h \
	tests/suite_run.h tests/unit_grid.h
tests_bench_cubature_LDADD = $(TEST_LIBS)

# The time per iteration on small rows (issue 35), public API only: the
# same file builds against an older library for a side-by-side run.
noinst_PROGRAMS += tests/bench_latency
tests_bench_latency_SOURCES = tests/bench_latency.c tests/suite.h tests/suite_run.h
tests_bench_latency_LDADD = $(TEST_LIBS)

# What cubature warm starts would save on a scan (issue 34), measured with
# the backend's operations wrapped (warm_partition.h), not in the library.
noinst_PROGRAMS += tests/bench_warm_cubature
tests_bench_warm_cubature_SOURCES = tests/bench_warm_cubature.c \
	tests/warm_partition.h tests/warm_scan.h tests/batch_cases.h tests/genz.h
tests_bench_warm_cubature_LDADD = $(TEST_LIBS) -lm

# The TAP driver every test runs under (LOG_DRIVER) must be in the tarball
# for `make distcheck`; it belongs with LOG_DRIVER in Makefile.am.
