# fortran: the Fortran 2003 module `pagani` (fortran/pagani.f90), built
# where configure found a Fortran compiler: bind(C) copies of pagani.h's
# types and enums, interfaces for its functions and a few helpers. The
# helpers are Fortran code, so they live in a library of their own,
# libpagani_fortran (it needs the Fortran run-time library, which C users
# of libpagani must not). pagani.mod is installed next to pagani.h, where
# pkg-config's Cflags (-I) make the compiler find it.
if HAVE_FORTRAN
lib_LTLIBRARIES += libpagani_fortran.la
libpagani_fortran_la_SOURCES = fortran/pagani.f90
libpagani_fortran_la_LIBADD = libpagani.la
libpagani_fortran_la_LDFLAGS = -version-info 0:0:0
# Module files are written to and read from fortran/ of the build tree.
AM_FCFLAGS = $(FC_MODOUT)fortran $(FC_MODINC)fortran
fortran_module = fortran/pagani.$(FC_MODEXT)
nodist_include_HEADERS = $(fortran_module)
CLEANFILES += $(fortran_module)
# The compiler writes the module while it compiles pagani.f90.
$(fortran_module): fortran/pagani.lo
endif
