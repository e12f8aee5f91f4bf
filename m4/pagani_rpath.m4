# PAGANI_CHECK_RPATH: what pagani.pc and pagani-mpi.pc put in Libs, besides
# -L${libdir}, so that a program built with `pkg-config --libs` runs
# without LD_LIBRARY_PATH: -Wl,-rpath,${libdir}, unless libdir is one of
# the directories the dynamic linker searches by itself (/lib, /usr/lib,
# /lib64, /usr/lib64 and their multiarch subfolders, where a distribution
# installs). Directories listed in /etc/ld.so.conf (/usr/local/lib on
# Debian) get the rpath too: the linker finds a library there only after
# `ldconfig` has been run as root. --enable-rpath puts it in always,
# --disable-rpath never (for a prefix reached through LD_LIBRARY_PATH or
# environment modules on purpose). Sets and substitutes PAGANI_PC_RPATH.
AC_DEFUN([PAGANI_CHECK_RPATH], [
AC_ARG_ENABLE([rpath],
  [AS_HELP_STRING([--disable-rpath],
     [leave -Wl,-rpath,LIBDIR out of pkg-config's --libs (default: put it
      there unless LIBDIR is a directory the dynamic linker searches by
      itself)])],
  [], [enable_rpath=check])
# libdir as installed: ${exec_prefix}/lib with the prefixes filled in.
pagani_save_prefix=$prefix
pagani_save_exec_prefix=$exec_prefix
test "x$prefix" = xNONE && prefix=$ac_default_prefix
test "x$exec_prefix" = xNONE && exec_prefix=$prefix
eval pagani_libdir=\"$libdir\"
eval pagani_libdir=\"$pagani_libdir\"
prefix=$pagani_save_prefix
exec_prefix=$pagani_save_exec_prefix
pagani_multiarch=`$CC -print-multiarch 2>/dev/null`
pagani_linker_dirs="/lib /usr/lib /lib64 /usr/lib64"
AS_IF([test -n "$pagani_multiarch"],
      [pagani_linker_dirs="$pagani_linker_dirs /lib/$pagani_multiarch /usr/lib/$pagani_multiarch"])
AC_MSG_CHECKING([whether pkg-config's --libs carries -Wl,-rpath,$pagani_libdir])
PAGANI_PC_RPATH='-Wl,-rpath,${libdir}'
AS_CASE([$enable_rpath],
  [no], [PAGANI_PC_RPATH=],
  [check], [
    for pagani_dir in $pagani_linker_dirs; do
      AS_IF([test "x${pagani_libdir%/}" = "x$pagani_dir"], [PAGANI_PC_RPATH=])
    done])
AS_IF([test -n "$PAGANI_PC_RPATH"], [AC_MSG_RESULT([yes])],
      [AC_MSG_RESULT([no])])
AC_SUBST([PAGANI_PC_RPATH])
AM_SUBST_NOTMAKE([PAGANI_PC_RPATH])
])
