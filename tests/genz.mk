# Genz's six test families (genz.h): test_genz judges the cubature error
# estimate on the CPU; bench_genz is a program for larger sweeps on either
# backend and every method, not a test.
check_PROGRAMS += tests/test_genz tests/bench_genz
tests_test_genz_SOURCES = tests/test_genz.c tests/genz.h tests/tap.h
tests_test_genz_LDADD = $(TEST_LIBS)
TESTS += tests/test_genz

tests_bench_genz_SOURCES = tests/bench_genz.c tests/genz.h
tests_bench_genz_LDADD = $(TEST_LIBS)
