# bench_families: libpagani against hcubature on issue 33's hard families
# (singular faces and corners, diagonal jumps, unbounded domains) and on
# issue 37's one-thread table (the paper's suite, Genz's families). Built,
# not run by make check. hcubature (libcubature) is linked where configure
# found it; elsewhere the program prints libpagani's rows alone.
noinst_PROGRAMS += tests/bench_families
tests_bench_families_SOURCES = tests/bench_families.c tests/families_config.h \
	tests/bench_versus.c tests/code_runs.c tests/code_runs.h \
	tests/hard_families.h tests/genz.h tests/suite.h
tests_bench_families_LDADD = $(TEST_LIBS) -lm
if HAVE_HCUBATURE
tests_bench_families_SOURCES += tests/hcubature_run.c
tests_bench_families_LDADD += $(HCUBATURE_LIBS)
else
tests_bench_families_SOURCES += tests/hcubature_absent.c
endif
