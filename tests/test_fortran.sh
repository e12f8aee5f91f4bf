#!/bin/sh
# test_fortran.sh - TAP checks of the Fortran module (fortran/pagani.f90):
# its bind(C) types have the sizes and field offsets of pagani.h's structs
# (tests/c_layout.c and tests/fortran_layout.f90 print them alike), it
# binds every function the header declares, and examples/ex.f90 prints the
# result of its C twin, examples/gauss.c. Run from the build directory (as
# `make check` does). Skipped where configure found no Fortran compiler.

srcdir=${srcdir:-$(dirname "$0")/..}
. "$srcdir/tests/tap.sh"
if ! test -x tests/test_fortran_layout_f; then
    echo "1..0 # SKIP no Fortran module: configure found no Fortran" \
         "compiler (sh .ci/deps installs gfortran) or had --disable-fortran"
    exit 0
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pagani-fortran.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
PAGANI_CACHE_DIR=$tmp/cache
export PAGANI_CACHE_DIR
tap_show=$tmp/diff

# Sizes and offsets: the same lines from C and from Fortran.
tests/test_fortran_layout_c >"$tmp/c.out" &&
    tests/test_fortran_layout_f >"$tmp/f.out" &&
    [ "$(wc -l <"$tmp/c.out")" -ge 40 ] &&
    diff "$tmp/c.out" "$tmp/f.out" >"$tmp/diff"
ok $? "the module's types and enums have pagani.h's sizes and offsets"

# Every function declared in pagani.h has an interface bound to its name.
missing=
for name in $(sed -n -E 's/^[a-z][a-z_ ]*[ *](pagani_[a-z_]+)\(.*/\1/p' \
                  "$srcdir/include/pagani.h"); do
    grep -q "bind(c, name='$name')" "$srcdir/fortran/pagani.f90" ||
        missing="$missing $name"
done
echo "$missing" >"$tmp/diff"
[ -z "$missing" ] &&
    [ "$(grep -c '^int pagani_' "$srcdir/include/pagani.h")" -gt 5 ]
ok $? "every function of pagani.h has an interface in the module"

tap_show="$tmp/f.out $tmp/c.out"
# ex.f90 and gauss.c: the same value (to 1e-12: the integrand is compiled
# source in one, a host function in the other), status, method, backend.
bounded examples/ex >"$tmp/f.out" 2>&1 &&
    bounded examples/gauss >"$tmp/c.out" 2>&1 &&
    [ "$(sed 's/.*(//' "$tmp/f.out")" = "$(sed 's/.*(//' "$tmp/c.out")" ] &&
    awk -v f="$(sed 's/ +-.*//' "$tmp/f.out")" \
        -v c="$(sed 's/ +-.*//' "$tmp/c.out")" 'BEGIN {
            d = f - c; if (d < 0) d = -d
            exit !(c > 0 && d <= 1e-12 * c)
        }'
ok $? "examples/ex (Fortran) prints the result of examples/gauss (C)"
tap_end
