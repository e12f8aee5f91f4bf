# PAGANI_VEGAS (m-Cubes): the statistical suite on the CPU backend and on
# the CUDA backend (skipped where no GPU is usable), batches on both, and
# the GPU benchmark.
check_PROGRAMS += tests/test_vegas tests/test_gpu_vegas tests/test_vegas_batch
tests_test_vegas_SOURCES = tests/test_vegas.c tests/vegas_cases.h tests/vegas_sinsum.h \
	tests/suite.h
tests_test_vegas_LDADD = $(TEST_LIBS)
tests_test_gpu_vegas_SOURCES = tests/test_gpu_vegas.c tests/gpu_pair.h tests/vegas_cases.h \
	tests/vegas_sinsum.h tests/suite.h
tests_test_gpu_vegas_LDADD = $(TEST_LIBS)
tests_test_vegas_batch_SOURCES = tests/test_vegas_batch.c
tests_test_vegas_batch_LDADD = $(TEST_LIBS)
TESTS += tests/test_vegas tests/test_gpu_vegas tests/test_vegas_batch

noinst_PROGRAMS += tests/bench_vegas
tests_bench_vegas_SOURCES = tests/bench_vegas.c tests/vegas_sinsum.h tests/suite.h
tests_bench_vegas_LDADD = $(TEST_LIBS)
