# Integrand source: wrapping, CPU compilation, the checks made before it
# compiles or runs, validation (test_source); the on-disk cache against
# damaged, planted and untrusted files, build folders, the compiler's
# process (test_cache).
check_PROGRAMS += tests/test_source tests/test_cache
tests_test_source_SOURCES = tests/test_source.c
tests_test_source_LDADD = $(TEST_LIBS)
tests_test_cache_SOURCES = tests/test_cache.c
tests_test_cache_LDADD = $(TEST_LIBS)
TESTS += tests/test_source tests/test_cache
