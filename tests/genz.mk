# Genz's six test families (genz.h): test_genz judges the cubature error
# estimate on the CPU; bench_genz is a program for larger sweeps on either
# backend and every method, not a test.
check_PROGRAMS += tests/test_genz tests/bench_genz
tests_test_genz_SOURCES = tests/test_genz.c tests/genz.h tests/tap.h
tests_test_genz_LDADD = $(TEST_LIBS)
TESTS += tests/test_genz

tests_bench_genz_SOURCES = tests/bench_genz.c tests/genz.h
tests_bench_genz_LDADD = $(TEST_LIBS)

# Worst-first refinement (pagani_strategy): its option, its evaluation
# count, and a seeded Genz sweep with either strategy where no converged
# run's true error exceeds its reported error.
check_PROGRAMS += tests/test_worst_first
tests_test_worst_first_SOURCES = tests/test_worst_first.c tests/genz.h tests/tap.h
tests_test_worst_first_LDADD = $(TEST_LIBS) -lm
TESTS += tests/test_worst_first

# Worst-first refinement's choice of the held regions against a sorted
# reference (the selection is internal: its file is compiled in).
check_PROGRAMS += tests/test_worst_select
tests_test_worst_select_SOURCES = tests/test_worst_select.c src/cubature/worst_select.c
tests_test_worst_select_CFLAGS = $(AM_CFLAGS) # its own objects: the file is in the library too
tests_test_worst_select_LDADD = -lm
TESTS += tests/test_worst_select

# Cubature's first split on the CPU: worst-first refinement halves every
# axis once, the original's split elsewhere; and why not the whole box.
check_PROGRAMS += tests/test_first_split
tests_test_first_split_SOURCES = tests/test_first_split.c tests/tap.h
tests_test_first_split_LDADD = $(TEST_LIBS) -lm
TESTS += tests/test_first_split
