# Vector integrands: test_vector checks them on the CPU backend (argument
# errors, every norm and method against analytic components, equality with
# scalar runs where the decisions coincide, the cost in evaluations, source
# and batch forms); bench_vector times one vector integral against its
# components as scalar integrals, a program for the GPU machine.
check_PROGRAMS += tests/test_vector
tests_test_vector_SOURCES = tests/test_vector.c tests/vector_cases.h tests/tap.h
tests_test_vector_LDADD = $(TEST_LIBS) -lm
TESTS += tests/test_vector

noinst_PROGRAMS += tests/bench_vector
tests_bench_vector_SOURCES = tests/bench_vector.c
tests_bench_vector_LDADD = $(TEST_LIBS) -lm
