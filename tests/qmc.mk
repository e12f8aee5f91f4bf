# PAGANI_QMC: the sequence and exact sums; the method on the CPU.
check_PROGRAMS += tests/test_zinterhof tests/test_qmc
tests_test_zinterhof_SOURCES = tests/test_zinterhof.c
tests_test_zinterhof_LDADD = $(TEST_LIBS)
tests_test_qmc_SOURCES = tests/test_qmc.c
tests_test_qmc_LDADD = $(TEST_LIBS)
TESTS += tests/test_zinterhof tests/test_qmc
