# Integrand source: wrapping, CPU compilation, the checks made before it
# compiles or runs, validation (test_source); the on-disk cache against
# damaged, planted and untrusted files, build folders, the compiler's
# process (test_cache); the compiler's process tree and its limits of
# memory and CPU time (test_compiler).
check_PROGRAMS += tests/test_source tests/test_cache tests/test_compiler
tests_test_source_SOURCES = tests/test_source.c
tests_test_source_LDADD = $(TEST_LIBS)
tests_test_cache_SOURCES = tests/test_cache.c
tests_test_cache_LDADD = $(TEST_LIBS)
tests_test_compiler_SOURCES = tests/test_compiler.c
tests_test_compiler_LDADD = $(TEST_LIBS)
TESTS += tests/test_source tests/test_cache tests/test_compiler
