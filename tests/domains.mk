# Unbounded axes (README, "Domains and singularities"): test_domains checks
# the change of variables, the bounds accepted and refused, and analytic
# integrals over R^n and half-lines with every method, source and host
# integrands, batches and vectors.
check_PROGRAMS += tests/test_domains
tests_test_domains_SOURCES = tests/test_domains.c tests/domain_cases.h \
	tests/tap.h
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
# Issue 33's families over unbounded domains with the options the README
# tells a user to set (maps, centres, scales): Gaussians over R^1..R^6 of
# widths 1e-2..1e3 about centres up to 1e4, exp(-|x|) over half-lines,
# (1 + r^2)^-k over R^3, a batch and a vector; every method, no false
# convergence.
check_PROGRAMS += tests/test_domain_families
tests_test_domain_families_SOURCES = tests/test_domain_families.c \
	tests/domain_cases.h tests/tap.h
tests_test_domain_families_LDADD = $(TEST_LIBS) -lm
TESTS += tests/test_domain_families
