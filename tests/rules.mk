# tests of the cubature rules (rules/)
check_PROGRAMS += tests/test_rules
tests_test_rules_SOURCES = tests/test_rules.c tests/tap.h
tests_test_rules_LDADD = $(TEST_LIBS)
TESTS += tests/test_rules

# the null-rule error's interpolation (issue 37)
check_PROGRAMS += tests/test_null_error
tests_test_null_error_SOURCES = tests/test_null_error.c tests/suite.h tests/tap.h
tests_test_null_error_LDADD = $(TEST_LIBS)
TESTS += tests/test_null_error
