# Unbounded axes (README, "Domains and singularities"): test_domains checks
# the change of variables, the bounds accepted and refused, and analytic
# integrals over R^n and half-lines with every method, source and host
# integrands, batches and vectors.
check_PROGRAMS += tests/test_domains
tests_test_domains_SOURCES = tests/test_domains.c tests/tap.h
tests_test_domains_LDADD = $(TEST_LIBS) -lm
TESTS += tests/test_domains
EXTRA_DIST += tests/compiled_entry.h
