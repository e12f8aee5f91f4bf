# pagani_integrate_batch: test_batch checks the CPU backend's batches
# (arguments, cubature against the truth and the loop of single calls,
# memory, NaN, progress; Vegas and QMC briefly); bench_batch times batches
# against that loop on either backend, a program for the GPU machine, not
# a test.
check_PROGRAMS += tests/test_batch
tests_test_batch_SOURCES = tests/test_batch.c tests/batch_cases.h tests/genz.h \
	tests/tap.h
tests_test_batch_LDADD = $(TEST_LIBS)
TESTS += tests/test_batch

noinst_PROGRAMS += tests/bench_batch
tests_bench_batch_SOURCES = tests/bench_batch.c tests/batch_cases.h tests/genz.h \
	tests/op_profile.h
tests_bench_batch_LDADD = $(TEST_LIBS)

# The accuracy columns of bench_batch's cubature6 row: no integral of the
# batch converges beyond its tolerance (on the GPU the whole row).
check_PROGRAMS += tests/test_batch_accuracy
tests_test_batch_accuracy_SOURCES = tests/test_batch_accuracy.c tests/batch_cases.h \
	tests/genz.h tests/tap.h
tests_test_batch_accuracy_LDADD = $(TEST_LIBS) -lm
TESTS += tests/test_batch_accuracy

# The threshold searches of a batch in step, against the search's promises
# and against each integral searched alone (the search is internal: its
# file is compiled in).
check_PROGRAMS += tests/test_threshold_search
tests_test_threshold_search_SOURCES = tests/test_threshold_search.c tests/genz.h \
	src/cubature/threshold_search.c
tests_test_threshold_search_CFLAGS = $(AM_CFLAGS) # its own objects: the file is in the library too
tests_test_threshold_search_LDADD = -lm
TESTS += tests/test_threshold_search
