#!/bin/sh
# test_layout.sh - TAP check that includes run one way between the modules
# (README, "Source tree"): api -> drivers -> backend interface -> backends,
# with sampling/, rules/ (which may use sampling/), jit/ and state/ below
# them, and gradient/ (the dual-number units, over jit/) beside jit/. Each file's quoted #include
# lines are read and every included file must belong to a module that the
# including file's module may use.

top=${srcdir:-.}
test -f "$top/src/api.c" || top=..
if ! test -f "$top/src/api.c"; then
    echo "1..0 # SKIP source tree not found (set srcdir)"
    exit 0
fi
cd "$top" || exit 99
. tests/tap.sh

# The module of a file (a path from the top of the tree).
module() {
    case $1 in
    src/internal.h|src/backend.h|src/vegas_backend.h|src/qmc_backend.h|\
    src/hostdevice.h|src/file_io.h|include/pagani.h|config.h) echo interface ;;
    src/methods.h) echo methods ;;
    include/pagani_mpi.h) echo mpi ;;
    src/cli/*) echo cli ;;
    src/*/*) d=${1#src/}; echo "${d%%/*}" ;;
    src/*) echo api ;;
    gpu/*) echo gpu ;;
    rules/*) echo rules ;;
    *) echo unknown ;;
    esac
}

# The modules a module may include, besides itself.
allowed() {
    case $1 in
    api) echo "interface methods jit state domain gradient" ;;
    cubature|vegas) echo "interface methods sampling rules state" ;;
    qmc) echo "interface methods sampling rules state domain" ;;
    cpu) echo "interface sampling rules" ;;
    gpu) echo "interface sampling rules jit gradient" ;;
    jit) echo "interface domain" ;;
    gradient) echo "interface jit" ;;
    domain) echo "interface methods" ;;
    state) echo "interface" ;;
    sampling) echo "interface" ;;
    rules) echo "interface sampling" ;;
    interface) echo "sampling rules" ;;
    methods) echo "interface" ;;
    cli) echo "interface mpi" ;;
    mpi) echo "interface methods" ;;
    *) echo "" ;;
    esac
}

# Where an include names a file: paths are relative to src/, the top, or
# the including file's folder.
resolve() {
    for dir in src . include "$(dirname "$2")"; do
        if test -f "$dir/$1"; then
            echo "$dir/$1" | sed 's|^\./||'
            return
        fi
    done
    case $1 in
    config.h) echo config.h ;;                             # generated
    *_kernel_src.h) echo "$(dirname "$2")/$1" ;;           # generated
    *) echo "missing:$1" ;;
    esac
}

for file in $(find src gpu rules -name '*.[ch]' -o -name '*.cu' -o -name '*.cuh' | sort); do
    from=$(module "$file")
    bad=""
    for inc in $(sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$file"); do
        path=$(resolve "$inc" "$file")
        to=$(module "$path")
        case $path in
        missing:*) bad="$bad $inc (not found)"; continue ;;
        esac
        [ "$to" = "$from" ] && continue
        case " $(allowed "$from") " in
        *" $to "*) ;;
        *) bad="$bad $inc ($to)" ;;
        esac
    done
    [ -z "$bad" ]
    ok $? "$file ($from) includes only what it may${bad:+:$bad}"
done
tap_end
