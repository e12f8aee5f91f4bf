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
