# Integrand source: wrapping, CPU compilation and its cache, validation.
check_PROGRAMS += tests/test_source
tests_test_source_SOURCES = tests/test_source.c
tests_test_source_LDADD = $(TEST_LIBS)
TESTS += tests/test_source
