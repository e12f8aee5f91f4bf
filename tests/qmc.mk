# PAGANI_QMC: the sequence and exact sums; the method on the CPU and on
# CUDA (test_gpu_qmc skips itself without a usable GPU); batches on both
# (test_qmc_batch skips its CUDA checks without one); bench_qmc is a
# program for the GPU machine, not a test.
check_PROGRAMS += tests/test_zinterhof tests/test_qmc tests/test_gpu_qmc \
	tests/test_qmc_batch tests/test_qmc_tail
tests_test_zinterhof_SOURCES = tests/test_zinterhof.c tests/tap.h
tests_test_zinterhof_LDADD = $(TEST_LIBS)
tests_test_qmc_SOURCES = tests/test_qmc.c tests/qmc_checks.h tests/qmc_suite.h tests/tap.h
tests_test_qmc_LDADD = $(TEST_LIBS)
tests_test_gpu_qmc_SOURCES = tests/test_gpu_qmc.c tests/gpu_pair.h tests/qmc_checks.h tests/qmc_suite.h tests/tap.h
tests_test_gpu_qmc_LDADD = $(TEST_LIBS)
tests_test_qmc_batch_SOURCES = tests/test_qmc_batch.c tests/tap.h tests/batch_cases.h
tests_test_qmc_batch_LDADD = $(TEST_LIBS)
tests_test_qmc_tail_SOURCES = tests/test_qmc_tail.c tests/hard_families.h \
	tests/genz.h tests/power_family.h tests/qmc_suite.h tests/tap.h
tests_test_qmc_tail_LDADD = $(TEST_LIBS) -lm
TESTS += tests/test_zinterhof tests/test_qmc tests/test_gpu_qmc \
	tests/test_qmc_batch tests/test_qmc_tail

noinst_PROGRAMS += tests/bench_qmc
tests_bench_qmc_SOURCES = tests/bench_qmc.c tests/qmc_suite.h tests/suite.h
tests_bench_qmc_LDADD = $(TEST_LIBS)

# The public QMC split: parts as separate processes, combined.
check_PROGRAMS += tests/test_qmc_parts
tests_test_qmc_parts_SOURCES = tests/test_qmc_parts.c tests/qmc_suite.h
tests_test_qmc_parts_LDADD = $(TEST_LIBS)
TESTS += tests/test_qmc_parts.sh
EXTRA_DIST += tests/test_qmc_parts.sh

# Records as untrusted input: forged, damaged and foreign records refused.
check_PROGRAMS += tests/test_qmc_records
tests_test_qmc_records_SOURCES = tests/test_qmc_records.c tests/tap.h
tests_test_qmc_records_LDADD = $(TEST_LIBS)
TESTS += tests/test_qmc_records
