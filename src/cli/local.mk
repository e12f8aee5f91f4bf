# src/cli: the `pagani` command-line program, built on the public API only.
bin_PROGRAMS += pagani
pagani_SOURCES = \
	src/cli/main.c \
	src/cli/args.c \
	src/cli/args.h \
	src/cli/help.c \
	src/cli/numbers.c \
	src/cli/numbers.h \
	src/cli/params_file.c \
	src/cli/params_file.h \
	src/cli/report.c \
	src/cli/report.h \
	src/cli/source_file.c \
	src/cli/source_file.h \
	src/cli/mpi_launch.c \
	src/cli/mpi_launch.h
pagani_LDADD = libpagani.la
# under mpirun: the MPI layer (mpi_launch.c), where it is built
pagani_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
if HAVE_MPI
pagani_LDADD += libpagani_mpi.la $(MPI_LIBS)
endif
dist_man_MANS += src/cli/pagani.1
