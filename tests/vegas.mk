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

# Vegas warm starts (vegas_grid_in, vegas_grid_out): a scan cold and warm,
# honest and cheaper; the refusals. bench_warm: the scan of 1,000 points,
# one by one and as a batch (a program, not a test).
check_PROGRAMS += tests/test_vegas_warm
tests_test_vegas_warm_SOURCES = tests/test_vegas_warm.c tests/warm_scan.h \
	tests/batch_cases.h tests/genz.h
tests_test_vegas_warm_LDADD = $(TEST_LIBS) -lm
TESTS += tests/test_vegas_warm
# Vegas batches of a scan with warm starts (batch_warm_stride): honest,
# cheaper than cold, each result the single call's bits; the refusals.
check_PROGRAMS += tests/test_vegas_batch_warm
tests_test_vegas_batch_warm_SOURCES = tests/test_vegas_batch_warm.c \
	tests/warm_scan.h tests/batch_cases.h tests/genz.h
tests_test_vegas_batch_warm_LDADD = $(TEST_LIBS) -lm
TESTS += tests/test_vegas_batch_warm
# The message of a batch in waves: the batch run as one's (a warning of
# either wave kept, the first integral named; a stop in a wave of one
# names none).
check_PROGRAMS += tests/test_vegas_batch_messages
tests_test_vegas_batch_messages_SOURCES = \
	tests/test_vegas_batch_messages.c tests/power_family.h
tests_test_vegas_batch_messages_LDADD = $(TEST_LIBS) -lm
TESTS += tests/test_vegas_batch_messages
noinst_PROGRAMS += tests/bench_warm
tests_bench_warm_SOURCES = tests/bench_warm.c tests/warm_scan.h \
	tests/batch_cases.h tests/genz.h
tests_bench_warm_LDADD = $(TEST_LIBS) -lm
