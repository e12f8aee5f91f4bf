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

# Gradients (src/gradient): test_gradient checks them on the CPU backend
# against analytic Genz gradients, hand-written derivatives, finite
# differences, batches and the constructs the differentiator refuses.
check_PROGRAMS += tests/test_gradient
tests_test_gradient_SOURCES = tests/test_gradient.c tests/genz.h tests/tap.h
tests_test_gradient_LDADD = $(TEST_LIBS) -lm
TESTS += tests/test_gradient

# bench_gradient times a gradient of 4 parameters against the integral
# alone and against central differences (a program for the GPU machine).
noinst_PROGRAMS += tests/bench_gradient
tests_bench_gradient_SOURCES = tests/bench_gradient.c
tests_bench_gradient_LDADD = $(TEST_LIBS) -lm
