# tests: the PAGANI suite on the CPU, bad input and numeric faults. suite.h
# holds the paper's integrands and their true values for every test and
# benchmark.
EXTRA_DIST += tests/suite.h tests/tap.h tests/progress_stop.h tests/far_field.h tests/cancellation.h \
	tests/power_family.h
check_PROGRAMS += tests/test_cubature tests/test_errors tests/test_faults \
	tests/test_stop tests/test_confidence
tests_test_cubature_SOURCES = tests/test_cubature.c
tests_test_cubature_LDADD = $(TEST_LIBS)
tests_test_errors_SOURCES = tests/test_errors.c
tests_test_errors_LDADD = $(TEST_LIBS)
tests_test_faults_SOURCES = tests/test_faults.c
tests_test_faults_LDADD = $(TEST_LIBS)
tests_test_stop_SOURCES = tests/test_stop.c
tests_test_stop_LDADD = $(TEST_LIBS) -lm -lpthread
# pagani_options.mc_sigmas: the confidence of Monte Carlo convergence.
tests_test_confidence_SOURCES = tests/test_confidence.c
tests_test_confidence_LDADD = $(TEST_LIBS) -lm
TESTS += tests/test_cubature tests/test_errors tests/test_faults tests/test_stop \
	tests/test_confidence
EXTRA_DIST += tests/device_check.sh

# The defaults (issue 31): epsabs 0, PAGANI_NO_SIGNAL, by_epsabs, AUTO's
# pilot, the default evaluation budget.
check_PROGRAMS += tests/test_defaults
tests_test_defaults_SOURCES = tests/test_defaults.c
tests_test_defaults_LDADD = $(TEST_LIBS) -lm
TESTS += tests/test_defaults

# The direction of includes between the modules of src/ and gpu/.
TESTS += tests/test_layout.sh
EXTRA_DIST += tests/test_layout.sh
