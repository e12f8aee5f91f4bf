# Vectorized host integrands (pagani_integrand_from_block_function):
# test_block checks on the CPU backend that a block function gives the
# one-point form's results bit for bit (every method, vectors, batches,
# QMC parts, block sizes 1, 7 and the default), its abort, NaN and stop
# request, and its bad arguments.
check_PROGRAMS += tests/test_block
tests_test_block_SOURCES = tests/test_block.c tests/tap.h
tests_test_block_LDADD = $(TEST_LIBS) -lm
TESTS += tests/test_block
