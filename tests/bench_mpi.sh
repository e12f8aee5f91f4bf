#!/bin/sh
# bench_mpi.sh - strong scaling of the MPI layer: tests/bench_mpi under
# mpirun for each rank count, one table with speed-up and efficiency
# against the first rank count (a benchmark, not a test).
#
#   tests/bench_mpi.sh [cpu|cuda] "RANK COUNTS" [quick]
#
# e.g. tests/bench_mpi.sh cpu "1 2 3 4" (each rank runs the machine's
# cores over the ranks as threads, unless PAGANI_THREADS says otherwise:
# strong scaling of one node's cores) or tests/bench_mpi.sh cuda "1 2" on
# one GPU: the two ranks share it. Run from the build directory.
backend=${1:-cpu}
counts=${2:-1 2 3 4}
quick=${3:-}
mpirun=$(sed -n 's/^MPIRUN = //p' Makefile 2>/dev/null)
root=
[ "$(id -u)" -eq 0 ] && root=--allow-run-as-root
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-mpi.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cores=$(nproc 2>/dev/null || echo 1)
for np in $counts; do
    threads=${PAGANI_THREADS:-$((cores / np > 0 ? cores / np : 1))}
    PAGANI_THREADS=$threads "${mpirun:-mpirun}" $root --oversubscribe \
        -np "$np" ./tests/bench_mpi "$backend" $quick >"$tmp/$np" ||
        cat "$tmp/$np"
done
printf '%-8s %-12s %2s %7s %-4s %2s %9s %9s %7s %5s %4s %-20s %5s %s\n' \
    method integrand n epsrel on P seconds mpi-secs speedup eff iter \
    status imbal "same bits as P=${counts%% *}"
first=${counts%% *}
for np in $counts; do
    paste -d'|' "$tmp/$first" "$tmp/$np" | awk -F'|' '{
        split($1, a, " "); split($2, b, " ");
        if (b[7] == "error") { print $2; next }
        speedup = a[7] / b[7];
        printf "%-8s %-12s %2s %7s %-4s %2s %9.4f %9.4f %7.2f %5.2f %4s %-20s %5s %s\n",
            b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], speedup,
            speedup * a[6] / b[6], b[9], b[12], b[14],
            (a[10] == b[10] && a[11] == b[11]) ? "yes" : "no"
    }'
done
