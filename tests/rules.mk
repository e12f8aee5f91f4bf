# tests of the cubature rules (rules/)
check_PROGRAMS += tests/test_rules
tests_test_rules_SOURCES = tests/test_rules.c tests/tap.h
tests_test_rules_LDADD = $(TEST_LIBS)
TESTS += tests/test_rules
