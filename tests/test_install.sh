#!/bin/sh
# test_install.sh - TAP checks of the installed library. `make install`
# into a staging folder (DESTDIR), then the examples built against what was
# installed with the README's line, cc prog.c $(pkg-config --cflags --libs
# pagani), PKG_CONFIG_PATH alone pointing at it, and gauss run without
# LD_LIBRARY_PATH (the rpath pkg-config's --libs carries finds the
# library): its value must be the analytic one; the Fortran twin,
# examples/ex.f90, likewise with gfortran where the module was installed.
# Then gauss again against the static archive alone, with pkg-config
# --static. And the documentation: a man page for every function of
# pagani.h, pagani(3) and pagani(1), each read by groff without a warning
# where groff is installed, and the README and examples under
# share/doc/libpagani. Run from the build directory (as `make check`
# does); $MAKE names make.

srcdir=${srcdir:-$(dirname "$0")/..}
srcdir=$(cd "$srcdir" && pwd) || exit 99
. "$srcdir/tests/tap.sh"
if ! command -v pkg-config >/dev/null 2>&1; then
    echo "1..0 # SKIP no pkg-config (sh .ci/deps installs it)"
    exit 0
fi
if ! test -f Makefile; then
    echo "1..0 # SKIP no Makefile (run from the build directory)"
    exit 0
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pagani-install.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
log=$tmp/log
tap_show=$log
PAGANI_CACHE_DIR=$tmp/cache
export PAGANI_CACHE_DIR

# The staged install, by the build's own make, outside the make that runs
# this test (MAKEFLAGS would hand it that make's job server). Where sources
# changed it relinks programs: tests/install.mk runs this test last.
env MAKEFLAGS= MFLAGS= "${MAKE:-make}" install DESTDIR="$root" >"$log" 2>&1
ok $? "make install DESTDIR=<staging folder>"

# The documentation. Every function pagani.h declares has its man page
# (its own, or a `.so` line naming the page that describes it).
mandir=$(dirname "$(find "$root" -type d -name man3 | head -n 1)")
missing=
for name in pagani $(grep -oE '^[a-z][a-z_ *]*[^a-z0-9_]pagani_[a-z0-9_]+\(' \
        "$srcdir/include/pagani.h" |
        sed -E 's/.*[^a-z0-9_](pagani_[a-z0-9_]+)\($/\1/'); do
    test -f "$mandir/man3/$name.3" || missing="$missing $name.3"
done
test -f "$mandir/man1/pagani.1" || missing="$missing pagani.1"
echo "pages missing from $mandir:$missing" >"$log"
[ -z "$missing" ]
ok $? "man pages installed for pagani(1), pagani(3) and every function of pagani.h"
# Each page as man reads it: groff with the .so lines followed from the
# installed folder, warnings on; any message fails.
if command -v groff >/dev/null 2>&1; then
    for page in "$mandir"/man1/pagani.1 "$mandir"/man3/pagani*.3; do
        (cd "$mandir" && groff -s -man -Tutf8 -ww -z "$page") 2>&1 |
            sed "s|^|${page##*/}: |"
    done >"$log"
    [ ! -s "$log" ]
    ok $? "groff renders every installed page without a warning"
else
    tap_skip "no groff: the pages are not rendered"
fi
docdir=$(find "$root" -type d -path '*/share/doc/libpagani' | head -n 1)
ls -R "$docdir" >"$log" 2>&1
test -n "$docdir" && test -f "$docdir/README" &&
    test -f "$docdir/examples/gauss.c" && test -f "$docdir/examples/ex.f90" &&
    test -f "$docdir/examples/mpi_qmc.c" &&
    test -f "$docdir/examples/parameter_scan.c"
ok $? "README and examples/ installed under share/doc/libpagani"

# pkg-config reads a copy of the installed pagani.pc whose absolute
# directories point into the staging folder: what `./configure
# --prefix=<staging folder>` would install. Its Libs (the rpath
# -Wl,-rpath,${libdir} included), Libs.private and Cflags lines are the
# installed ones, unchanged.
pc=$(find "$root" -name pagani.pc | head -n 1)
libdir=$(dirname "$(dirname "$pc")")
# The installed Fortran module, where there is one, and its compiler.
modext=$(sed -n 's/^FC_MODEXT = //p' Makefile)
fortran_module=
test -n "$modext" && fortran_module=$(find "$root" -name "pagani.$modext")
fc=$(sed -n 's/^FC = //p' Makefile)
# The MPI compiler and launcher, where the MPI layer was built.
mpicc=$(sed -n 's/^MPICC = //p' Makefile)
mpirun=$(sed -n 's/^MPIRUN = //p' Makefile)
mkdir "$tmp/pc" &&
    sed -E "s#^(prefix|exec_prefix|libdir|includedir)=/#\1=$root/#" \
        "$pc" >"$tmp/pc/pagani.pc"
PKG_CONFIG_PATH=$tmp/pc
PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=1
PKG_CONFIG_ALLOW_SYSTEM_LIBS=1
export PKG_CONFIG_PATH PKG_CONFIG_ALLOW_SYSTEM_CFLAGS
export PKG_CONFIG_ALLOW_SYSTEM_LIBS

# Where the programs find libpagani.so once installed: configure puts
# -Wl,-rpath,${libdir} in pkg-config's --libs unless the configured libdir
# is one the dynamic linker searches by itself (/lib, /usr/lib, /lib64,
# /usr/lib64, their multiarch subfolders) or --disable-rpath was given
# (m4/pagani_rpath.m4). With the rpath, installed CMD... runs CMD without
# LD_LIBRARY_PATH, as a user would after `make install`; without it, with
# LD_LIBRARY_PATH standing for the linker's own directory.
configured_libdir=$(pkg-config --variable=libdir "$pc")
multiarch=$(cc -print-multiarch 2>/dev/null)
rpath=yes
case "${configured_libdir%/}" in
/lib | /usr/lib | /lib64 | /usr/lib64 | "/lib/$multiarch" | "/usr/lib/$multiarch")
    rpath=no ;;
esac
./config.status --config | grep -q -e "'--disable-rpath'" \
    -e "'--enable-rpath=no'" && rpath=no
if [ $rpath = yes ]; then
    run_how="without LD_LIBRARY_PATH"
else
    run_how="with LD_LIBRARY_PATH (libdir is the linker's own, or --disable-rpath)"
fi
installed() {
    if [ $rpath = yes ]; then
        (unset LD_LIBRARY_PATH; exec "$@")
    else
        LD_LIBRARY_PATH=$libdir "$@"
    fi
}

# gauss_ok: the output of examples/gauss in $log is the 5-D Gaussian's
# analytic value, (sqrt(pi)/25)^5 (erf(12.5) is 1 in double), to its
# epsrel of 1e-6, with the status converged.
gauss_ok() {
    grep -q '(converged, ' "$log" &&
        awk 'NR == 1 {
            truth = (sqrt(atan2(0, -1)) / 25)^5
            d = $1 - truth; if (d < 0) d = -d
            exit !(d <= 1e-6 * truth)
        }' "$log"
}

# The README's line, in a folder of its own (a.out), then the program as
# installed() runs it.
mkdir "$tmp/shared" && cd "$tmp/shared" &&
    cc "$srcdir/examples/gauss.c" $(pkg-config --cflags --libs pagani) \
        >"$log" 2>&1
ok $? "gauss.c links with cc prog.c \$(pkg-config --cflags --libs pagani)"
installed timeout "$tap_hang" ./a.out >"$log" 2>&1 && gauss_ok
ok $? "gauss against the installed shared library, $run_how: the analytic value"
# The library it loads is the installed one, not one found elsewhere.
if [ $rpath = yes ] && command -v ldd >/dev/null 2>&1; then
    installed ldd ./a.out >"$log" 2>&1 &&
        grep -q "libpagani\.so\.0 => $libdir/" "$log"
    ok $? "gauss loads libpagani.so.0 from the installed libdir"
else
    tap_skip "no rpath or no ldd: where gauss finds libpagani is not checked"
fi
cc "$srcdir/examples/parameter_scan.c" $(pkg-config --cflags --libs pagani) \
    -o parameter_scan >"$log" 2>&1
ok $? "parameter_scan.c links with the same line"

# The MPI layer, where it was installed: mpi_qmc.c built with the README's
# line, mpicc prog.c $(pkg-config --cflags --libs pagani-mpi), run on 2
# ranks; rank 0 prints the exact value, 1, to 1e-6.
if test -n "$(find "$root" -name pagani-mpi.pc)" && test -n "$mpicc"; then
    sed -E "s#^(prefix|exec_prefix|libdir|includedir)=/#\1=$root/#" \
        "$(dirname "$pc")/pagani-mpi.pc" >"$tmp/pc/pagani-mpi.pc" &&
        "$mpicc" "$srcdir/examples/mpi_qmc.c" -o mpi_qmc \
            $(pkg-config --cflags --libs pagani-mpi) >"$log" 2>&1
    ok $? "mpi_qmc.c links with mpicc prog.c \$(pkg-config ... pagani-mpi)"
    as_root=
    [ "$(id -u)" -eq 0 ] && as_root=--allow-run-as-root
    # mpirun keeps the environment's LD_LIBRARY_PATH (it may be how Open
    # MPI itself is found); libdir is added only where there is no rpath.
    mpi_env=
    [ $rpath = no ] &&
        mpi_env="LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    env $mpi_env PAGANI_THREADS=1 timeout "$tap_hang" "$mpirun" $as_root \
        --oversubscribe ${mpi_env:+-x LD_LIBRARY_PATH} -x PAGANI_THREADS \
        -np 2 ./mpi_qmc >"$log" 2>&1 &&
        grep -q '(converged, ' "$log" &&
        awk 'NR == 1 { d = $1 - $NF; if (d < 0) d = -d
                       exit !(d <= 1e-6 * $NF) }' "$log"
    ok $? "mpi_qmc on 2 ranks against the installed libraries: the exact value"
else
    tap_skip "no MPI layer installed (no mpicc, or --without-mpi)"
    tap_skip "no MPI layer installed (no mpicc, or --without-mpi)"
fi

# Fortran: ex.f90, gauss.c's twin, with the same line and the Fortran
# compiler configure found (gfortran in the README), where the module was
# installed; its output is gauss's value too.
if test -n "$fortran_module"; then
    $fc "$srcdir/examples/ex.f90" $(pkg-config --cflags --libs pagani) \
        -o ex >"$log" 2>&1
    ok $? "ex.f90 builds with $fc prog.f90 \$(pkg-config ... pagani)"
    installed timeout "$tap_hang" ./ex >"$log" 2>&1 && gauss_ok
    ok $? "ex (Fortran) against the installed libraries, $run_how: the analytic value"
else
    tap_skip "no Fortran module installed (no compiler, or --disable-fortran)"
    tap_skip "no Fortran module installed (no compiler, or --disable-fortran)"
fi

# Static: with the shared libraries gone from the staging folder, -lpagani
# is the archive, which needs Libs.private (pkg-config --static).
if test -f "$libdir/libpagani.a"; then
    rm -f "$libdir"/libpagani*.so* &&
        mkdir "$tmp/static" && cd "$tmp/static" &&
        cc "$srcdir/examples/gauss.c" \
            $(pkg-config --static --cflags --libs pagani) >"$log" 2>&1
    ok $? "gauss.c links with the archive and pkg-config --static"
    bounded ./a.out >"$log" 2>&1 && gauss_ok
    ok $? "gauss against the installed archive: the analytic value"
else
    tap_skip "no libpagani.a (--disable-static)"
    tap_skip "no libpagani.a (--disable-static)"
fi
tap_end
