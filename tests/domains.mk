# Unbounded axes (README, "Domains and singularities"): test_domains checks
# the change of variables, the bounds accepted and refused, and analytic
# integrals over R^n and half-lines with every method, source and host
# integrands, batches and vectors.
check_PROGRAMS += tests/test_domains
tests_test_domains_SOURCES = tests/test_domains.c tests/tap.h
tests_test_domains_LDADD = $(TEST_LIBS) -lm
TESTS += tests/test_domains

# Cubature's break points: test_breaks checks a kink and a jump named as
# break points against the smooth integrand's cost and the run without.
check_PROGRAMS += tests/test_breaks
tests_test_breaks_SOURCES = tests/test_breaks.c tests/tap.h
tests_test_breaks_LDADD = $(TEST_LIBS) -lm
TESTS += tests/test_breaks

# Integrable singularities on a face and at a corner (issue 33):
# test_singular sweeps x_i^-a times smooth factors from a fixed seed with
# cubature, no false convergence and a convergence count.
check_PROGRAMS += tests/test_singular
tests_test_singular_SOURCES = tests/test_singular.c tests/singular_cases.h tests/tap.h
tests_test_singular_LDADD = $(TEST_LIBS) -lm
TESTS += tests/test_singular
