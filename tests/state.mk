# Checkpoints (options state_path, state_interval): bit-identical resume
# after every kind of interruption, refused files, a killed writer.
check_PROGRAMS += tests/test_state
tests_test_state_SOURCES = tests/test_state.c tests/state_cases.h tests/tap.h
tests_test_state_LDADD = $(TEST_LIBS) -lm
TESTS += tests/test_state

# Cubature checkpoints: bit-identical resume of the region list.
check_PROGRAMS += tests/test_state_cubature
tests_test_state_cubature_SOURCES = tests/test_state_cubature.c \
	tests/state_cases.h tests/tap.h
tests_test_state_cubature_LDADD = $(TEST_LIBS) -lm
TESTS += tests/test_state_cubature

# bench_state: a cubature checkpoint's bytes per region, write and read
# times for f4's largest list (sized by -n, -e, -i: 10^9 regions on an
# H100 with -b cuda -n 8 -e 1e-7).
noinst_PROGRAMS += tests/bench_state
tests_bench_state_SOURCES = tests/bench_state.c tests/suite.h
tests_bench_state_LDADD = $(TEST_LIBS) -lm
