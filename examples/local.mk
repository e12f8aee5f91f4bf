# examples: short programs a user copies from; built by `make check`.
# ex.f90, the Fortran twin of gauss.c, where a Fortran compiler was found.
check_PROGRAMS += examples/gauss examples/parameter_scan
examples_gauss_SOURCES = examples/gauss.c
examples_gauss_LDADD = libpagani.la
examples_parameter_scan_SOURCES = examples/parameter_scan.c
examples_parameter_scan_LDADD = libpagani.la
if HAVE_FORTRAN
check_PROGRAMS += examples/ex
examples_ex_SOURCES = examples/ex.f90
examples_ex_LDADD = libpagani_fortran.la libpagani.la
examples/ex.$(OBJEXT): $(fortran_module)
endif
# mpi_qmc.c, one integral across the ranks of an MPI job, where the MPI
# layer is built.
EXTRA_DIST += examples/mpi_qmc.c
if HAVE_MPI
check_PROGRAMS += examples/mpi_qmc
examples_mpi_qmc_SOURCES = examples/mpi_qmc.c
examples_mpi_qmc_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
examples_mpi_qmc_LDADD = libpagani_mpi.la libpagani.la $(MPI_LIBS)
endif
