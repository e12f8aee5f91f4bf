#!/bin/sh
# sanitize.sh - `make check` under AddressSanitizer (with LeakSanitizer)
# and UndefinedBehaviorSanitizer, in a build directory of its own.
#
#   sh tests/sanitize.sh [MAKE-CHECK-ARGUMENT]...
#   sh tests/sanitize.sh TESTS='tests/test_mpi.sh tests/test_faults'
#
# Builds the CPU backend (with the MPI layer and the Fortran module where
# configure finds them) with -fsanitize=address,undefined in
# $SANITIZE_DIR (default ./build-sanitize) and runs `make check` there with
# the arguments given. Any sanitizer report fails its test: undefined
# behaviour stops the program (-fno-sanitize-recover), and a leak makes it
# exit non-zero at its end. The only leaks suppressed are those of Open
# MPI, PMIx and hwloc (tests/lsan.supp). Programs that the tests build
# without the sanitizers (the install test's, integrands compiled at run
# time) load the instrumented library, hence verify_asan_link_order=0;
# no archive is built (--disable-static): such a program cannot link an
# instrumented one (the install test then skips that check).
# The whole suite takes about 40 minutes on 2 cores.
#
# A source tree configured in place cannot host another build directory,
# so a git checkout is copied (its tracked and unignored files) into
# $SANITIZE_DIR/src, and a copy made before is updated, keeping the
# times of unchanged files so that only what changed is built again.

srcdir=$(cd "$(dirname "$0")/.." && pwd) || exit 1
dir=${SANITIZE_DIR:-build-sanitize}
mkdir -p "$dir" && dir=$(cd "$dir" && pwd) || exit 1
flags="-fsanitize=address,undefined -fno-sanitize-recover=all"
flags="$flags -fno-omit-frame-pointer -g -O1"

src=$srcdir
if test -f "$srcdir/config.status"; then
    if ! git -C "$srcdir" rev-parse --git-dir >/dev/null 2>&1; then
        echo "sanitize.sh: $srcdir is configured in place and not a git" \
            "checkout: run make distclean there first" >&2
        exit 1
    fi
    src=$dir/src
    mkdir -p "$src" &&
        (cd "$srcdir" && git ls-files -co --exclude-standard -z |
            tar --null --no-recursion --ignore-failed-read -cf - -T -) |
        (cd "$src" && tar -xf -) || exit 1
fi
test -x "$src/configure" || (cd "$src" && autoreconf -fi) || exit 1
mkdir -p "$dir/build" && cd "$dir/build" || exit 1
test -f Makefile ||
    "$src/configure" --without-cuda --disable-static CFLAGS="$flags" FCFLAGS="$flags" \
        LDFLAGS="-fsanitize=address,undefined" || exit 1

# Whole stacks for each allocation (fast_unwind_on_malloc=0): the fast
# unwinder stops in libraries without frame pointers, which leaves the
# leaks of Open MPI's unloaded components without the library that
# tests/lsan.supp names.
ASAN_OPTIONS=allocator_may_return_null=1:detect_leaks=1:fast_unwind_on_malloc=0
ASAN_OPTIONS=$ASAN_OPTIONS:verify_asan_link_order=0
LSAN_OPTIONS=suppressions=$srcdir/tests/lsan.supp
UBSAN_OPTIONS=print_stacktrace=1
export ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS
exec make -j"$(nproc 2>/dev/null || echo 2)" check "$@"
