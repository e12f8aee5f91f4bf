# PAGANI_VEGAS (m-Cubes): the statistical suite on the CPU backend.
check_PROGRAMS += tests/test_vegas
tests_test_vegas_SOURCES = tests/test_vegas.c tests/vegas_cases.h tests/suite.h
tests_test_vegas_LDADD = $(TEST_LIBS)
TESTS += tests/test_vegas
