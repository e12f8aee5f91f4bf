# tests: the Fortran module. test_fortran.sh compares the layout of the
# module's bind(C) types with pagani.h's structs (c_layout.c and
# fortran_layout.f90 print sizes and offsets in the same form) and the
# result of examples/ex.f90 with that of examples/gauss.c; without a
# Fortran compiler these programs are not built and it skips.
# test_fortran_api uses the module as a program would.
TESTS += tests/test_fortran.sh
EXTRA_DIST += tests/test_fortran.sh
if HAVE_FORTRAN
TESTS += tests/test_fortran_api
check_PROGRAMS += tests/test_fortran_layout_c tests/test_fortran_layout_f \
	tests/test_fortran_api
tests_test_fortran_api_SOURCES = tests/fortran_api.f90
tests_test_fortran_api_LDADD = libpagani_fortran.la libpagani.la
tests/fortran_api.$(OBJEXT): $(fortran_module)
CLEANFILES += fortran/fortran_api_callbacks.$(FC_MODEXT)
tests_test_fortran_layout_c_SOURCES = tests/c_layout.c
tests_test_fortran_layout_f_SOURCES = tests/fortran_layout.f90
tests/fortran_layout.$(OBJEXT): $(fortran_module)
endif
