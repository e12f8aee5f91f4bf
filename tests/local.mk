# tests: the PAGANI suite on the CPU and bad input. suite.h holds the
# paper's integrands and their true values for every test and benchmark.
EXTRA_DIST += tests/suite.h tests/tap.h tests/progress_stop.h
check_PROGRAMS += tests/test_cubature tests/test_errors
tests_test_cubature_SOURCES = tests/test_cubature.c
tests_test_cubature_LDADD = $(TEST_LIBS)
tests_test_errors_SOURCES = tests/test_errors.c
tests_test_errors_LDADD = $(TEST_LIBS)
TESTS += tests/test_cubature tests/test_errors
EXTRA_DIST += tests/device_check.sh

# The direction of includes between the modules of src/ and gpu/.
TESTS += tests/test_layout.sh
EXTRA_DIST += tests/test_layout.sh
