# src/mpi: the optional MPI layer, libpagani_mpi (include/pagani_mpi.h,
# pagani-mpi.pc), built when configure finds an MPI compiler; libpagani
# itself never links MPI. The layer reaches into libpagani through the
# hooks of src/internal.h (pagani_context_add_layer and its kin).
if HAVE_MPI
lib_LTLIBRARIES += libpagani_mpi.la
include_HEADERS += include/pagani_mpi.h
pkgconfig_DATA += pagani-mpi.pc
endif
libpagani_mpi_la_SOURCES = \
	src/mpi/mpi_layer.h \
	src/mpi/mpi_agree.c \
	src/mpi/mpi_context.c \
	src/mpi/mpi_backend.c \
	src/mpi/mpi_cubature.c \
	src/mpi/mpi_qmc.c \
	src/mpi/mpi_vegas.c \
	src/mpi/mpi_batch.c \
	src/mpi/mpi_checkpoint.c
libpagani_mpi_la_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
libpagani_mpi_la_LIBADD = libpagani.la $(MPI_LIBS)
libpagani_mpi_la_LDFLAGS = -version-info 0:0:0
EXTRA_DIST += include/pagani_mpi.h pagani-mpi.pc.in

# The layer's tests: test_mpi runs inside an MPI job, test_mpi.sh starts it
# under mpirun with 1 to 4 ranks (skipped, with the reason, without MPI).
TESTS += tests/test_mpi.sh
EXTRA_DIST += tests/test_mpi.sh
if HAVE_MPI
check_PROGRAMS += tests/test_mpi
endif
tests_test_mpi_SOURCES = tests/test_mpi.c tests/suite.h tests/qmc_suite.h \
	tests/vector_cases.h \
	tests/batch_cases.h tests/genz.h
tests_test_mpi_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
tests_test_mpi_LDADD = libpagani_mpi.la libpagani.la $(MPI_LIBS)

# The layer's benchmark (a program for the lead's runs, not a test):
# bench_mpi under mpirun, tests/bench_mpi.sh for a scaling table.
if HAVE_MPI
noinst_PROGRAMS += tests/bench_mpi
endif
tests_bench_mpi_SOURCES = tests/bench_mpi.c tests/suite.h tests/qmc_suite.h
tests_bench_mpi_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
tests_bench_mpi_LDADD = libpagani_mpi.la libpagani.la $(MPI_LIBS)
EXTRA_DIST += tests/bench_mpi.sh
EXTRA_DIST += tests/devmpi.sh
