#!/bin/sh
# test_mpi.sh - TAP checks of the MPI layer (pagani_mpi.h): tests/test_mpi
# under mpirun with 1, 2, 3 and 4 ranks (--oversubscribe: CI has 2 cores;
# --allow-run-as-root where it runs as root), each run under a hang bound
# (tap.sh's bounded: far above any correct run on a busy machine) so that
# a hang fails instead of stopping the suite.
#  - results: single integrals, batches of 7 and a vector integrand of 4
#    components of every method. QMC and
#    Vegas (distributed by points and passes) and the batches (spread by
#    integrals) give the same lines (value and error as hex floats,
#    status) for every rank count; cubature's single integrals, whose
#    region list is partitioned, the same status and values within the
#    sum of the two errors. Each true error is within its epsrel; the
#    ranks of a run agree bit for bit.
#  - faults: one rank alone fails (memory budget, compiler, option; every
#    rank: batch_warm_stride, refused on an MPI context) or a
#    NaN lies in one rank's share of the QMC points, the Vegas cubes, the
#    cubature regions or a batch: every rank returns the same code with one message (in a
#    batch naming the integral by its index in the whole batch), and
#    nothing hangs.
#  - disagreement: the last rank alone passes another box, integrand
#    source, dimension, parameter block, batch count or QMC part: every
#    rank returns PAGANI_ERR_OPTION (5) with one message naming what
#    differs, and nothing hangs.
#  - parts: pagani_qmc_part distributed over 3 ranks equals the parts on
#    one rank (the separate-process split is tests/test_qmc_parts.sh).
#  - checkpoints: cubature (one integral, a batch of 7, a vector
#    integrand; stopped after its first iteration and after 3), QMC and
#    Vegas (one integral and a batch of 7, stopped after 2 iterations;
#    Vegas+ too), resumed, give the bits of the run never stopped, each
#    rank with its own file; a file of n ranks resumed on another number
#    is PAGANI_ERR_STATE on every rank, naming both; one rank's cubature,
#    QMC or Vegas file missing, truncated, damaged or of an earlier
#    iteration than the others' is PAGANI_ERR_STATE on every rank, with
#    one message, and nothing hangs.
#  - the pagani command under mpirun prints once, what one process prints.
# Skipped, with the reason, where libpagani was built without MPI.
# PAGANI_TEST_BACKEND=cuda runs it on the GPU (every rank on the node's
# GPUs, shared round robin) and PAGANI_TEST_MPI_RANKS sets the rank counts
# (default "1 2 3 4"; the first is the reference).

srcdir=${srcdir:-$(dirname "$0")/..}
srcdir=$(cd "$srcdir" && pwd) || exit 99
. "$srcdir/tests/tap.sh"
prog=./tests/test_mpi
if ! test -x "$prog"; then
    echo "1..0 # SKIP libpagani_mpi not built (no mpicc, or --without-mpi)"
    exit 0
fi
mpirun=$(sed -n 's/^MPIRUN = //p' Makefile 2>/dev/null)
mpirun=${mpirun:-mpirun}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pagani-mpi.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
PAGANI_CACHE_DIR=$tmp/cache
# each rank a thread: the ranks share the machine's cores
PAGANI_THREADS=1
export PAGANI_CACHE_DIR PAGANI_THREADS
root=
[ "$(id -u)" -eq 0 ] && root=--allow-run-as-root

# run NP ARGS...: test_mpi under mpirun with NP ranks, output in
# $tmp/out.NP, under the hang bound.
run() {
    np=$1
    shift
    bounded "$mpirun" $root --oversubscribe -np "$np" \
        "$prog" "$@" >"$tmp/out.$np" 2>"$tmp/err.$np"
}

counts=${PAGANI_TEST_MPI_RANKS:-1 2 3 4}
first=${counts%% *}
others=${counts#"$first"}

tap_show="$tmp/out.$first $tmp/err.$first"
run "$first" results
status=$?
if [ $status -eq 77 ]; then
    echo "1..0 # SKIP $(head -n 1 "$tmp/out.$first")"
    exit 0
fi
ok $status "results on $first ranks: codes OK"
grep -q FAR "$tmp/out.$first"
[ $? -ne 0 ] && [ "$(grep -c 'truth ok' "$tmp/out.$first")" -eq 42 ]
ok $? "results on $first ranks: every true error within epsrel"
for np in $others; do
    tap_show="$tmp/out.$np $tmp/err.$np"
    run "$np" results
    ok $? "results on $np ranks: codes OK, the ranks agree"
    for method in qmc vegas "cubature batch"; do
        grep "^$method " "$tmp/out.$first" >"$tmp/want" &&
            grep "^$method " "$tmp/out.$np" >"$tmp/got" &&
            test -s "$tmp/want" && cmp -s "$tmp/want" "$tmp/got"
        ok $? "$method on $np ranks: bit-identical to $first"
    done
    # cubature's single integrals: the region list is partitioned, so its
    # sums are added in another order: the values may differ, by less
    # than the two errors, and the statuses may not
    grep "^cubature f" "$tmp/out.$first" >"$tmp/want" &&
        grep "^cubature f" "$tmp/out.$np" >"$tmp/got" &&
        test -s "$tmp/want" &&
        paste -d'|' "$tmp/want" "$tmp/got" | awk -F'|' '
            { split($1, a, ", "); split($2, b, ", ");
              n = split($1, x, " "); m = split($2, y, " ");
              d = x[n - 1] - y[m - 1]; if (d < 0) d = -d;
              if (a[3] != b[3] || d > x[n] + y[m]) bad = 1 }
            END { exit bad }'
    ok $? "cubature on $np ranks: the values of $first within the errors"
done

# WHAT on the last rank alone: every rank returns the same code and one
# message, and nothing hangs.
for what in memory compile option batch-warm nan vegas-nan cubature-nan batch-nan; do
    for np in $others; do
        tap_show="$tmp/out.$np $tmp/err.$np"
        run "$np" fail "$what" $((np - 1))
        status=$?
        what_failed="$what failing on rank $((np - 1)) of $np"
        ok $status "$what_failed: one code, one message everywhere, no hang"
    done
done

# WHAT differs on the last rank alone: every rank fails with
# PAGANI_ERR_OPTION and one message naming it, and nothing hangs (a
# batch count that differed hung cubature on 3 ranks).
for what in box source n params count part breaks domain; do
    for np in $others; do
        tap_show="$tmp/out.$np $tmp/err.$np"
        run "$np" differ "$what" $((np - 1))
        ok $? "$what differing on rank $((np - 1)) of $np: PAGANI_ERR_OPTION everywhere, naming it, no hang"
    done
done

# A stop requested on the last rank alone stops every rank's call at its
# first pass, with no hang, and the next call runs on.
for np in $others; do
    tap_show="$tmp/out.$np $tmp/err.$np"
    run "$np" stop $((np - 1))
    ok $? "a stop request on rank $((np - 1)) of $np stops every rank; the next call converges"
done

# A batch of one integral a rank (shares of one): a stop requested on the
# last rank alone stops its integral, and its message names no integral.
for np in $others; do
    tap_show="$tmp/out.$np $tmp/err.$np"
    run "$np" stop-share $((np - 1))
    ok $? "a stop request on rank $((np - 1)) of $np in a batch of $np: its integral stopped, its message naming none; the others converged"
done

# Checkpoints: cubature (one integral spread by regions, a batch of 7 by
# integrals, a vector integrand), QMC and Vegas (one integral spread by
# points or passes, a batch of 7), stopped and run again end with the
# bits of the run never stopped, every rank writing its own file; a file
# resumed on another number of ranks is PAGANI_ERR_STATE (18) on every
# rank, naming both numbers; so is one rank's cubature file missing, cut
# short, damaged or of an earlier iteration, with no hang.
for np in $counts; do
    tap_show="$tmp/out.$np $tmp/err.$np"
    mkdir -p "$tmp/state.$np"
    run "$np" state "$tmp/state.$np"
    ok $? "checkpoints on $np ranks: cubature, QMC and Vegas, one integral, a batch and a vector, resumed to the bits of the run never stopped"
    made=$np other=$((np % 4 + 1))
    tap_show="$tmp/out.$other $tmp/err.$other"
    run "$other" state-ranks "$tmp/state.$made" "$made"
    ok $? "checkpoints of $made ranks resumed on $other: PAGANI_ERR_STATE on every rank, naming both, no hang"
done
for np in $others; do
    tap_show="$tmp/out.$np $tmp/err.$np"
    run "$np" state-broken "$tmp/state.$np" $((np - 1))
    ok $? "rank $((np - 1)) of $np with its cubature, QMC or Vegas checkpoint missing, truncated, damaged or older: PAGANI_ERR_STATE on every rank, no hang"
done

# Vegas+ checkpoints (run replicated, the per-cube counts in each rank's
# file): the same checks with PAGANI_FLAG_VEGAS_PLUS, stopped in the
# adjusting iterations.
for np in $others; do
    tap_show="$tmp/out.$np $tmp/err.$np"
    mkdir -p "$tmp/state-plus.$np"
    run "$np" state-plus "$tmp/state-plus.$np"
    ok $? "Vegas+ checkpoints on $np ranks: one integral and a batch, resumed to the bits of the run never stopped"
done

last=${counts##* }
tap_show="$tmp/out.$first $tmp/out.$last $tmp/err.$last"
run "$first" part 100000 5 && run "$last" part 100000 5 &&
    cmp -s "$tmp/out.$first" "$tmp/out.$last"
ok $? "QMC parts distributed over $last ranks equal those on $first"

# pagani under mpirun: rank 0 alone prints, the same lines as one process
# (the time aside).
expr='exp(-x[0]-x[1]-x[2]-x[3])'
backend=${PAGANI_TEST_BACKEND:-cpu}
tap_show="$tmp/pagani.1 $tmp/pagani.$last $tmp/pagani.err.$last"
# (standard output only: an MPI installation may warn on standard error)
bounded ./pagani --backend "$backend" --method qmc -n 4 --epsrel 1e-6 \
    "$expr" >"$tmp/pagani.1" 2>"$tmp/pagani.err.1" &&
    bounded "$mpirun" $root --oversubscribe -np "$last" ./pagani \
        --backend "$backend" --method qmc -n 4 --epsrel 1e-6 "$expr" \
        >"$tmp/pagani.$last" 2>"$tmp/pagani.err.$last" &&
    grep -v '^time:' "$tmp/pagani.1" >"$tmp/want" &&
    grep -v '^time:' "$tmp/pagani.$last" >"$tmp/got" &&
    cmp -s "$tmp/want" "$tmp/got"
ok $? "pagani under mpirun -np $last: rank 0's report, that of one process"

# Memory scales with the ranks: a 5-D Gaussian at 1e-7 whose region list
# outgrows a budget of 45,000 regions on one rank (its list needs more
# than 58,800 and at most 68,600 on the CPU: a CUDA run of 65,536 regions
# converges) converges on $last ranks of that budget each, to its
# analytic value (0.1 sqrt(pi) erf(5))^5. The budget is stated in regions
# and turned into bytes with the backend's own cost of a region (test_mpi
# region-bytes: 214 bytes on the CPU in 5-D, 128 on the GPU), so that it
# means the same list on either.
gauss='double s = 0; for (int i = 0; i < n; i++) s += (x[i]-.5)*(x[i]-.5);
return exp(-100*s);'
budget=
run 1 region-bytes 5 && region=$(cat "$tmp/out.1") &&
    case $region in '' | *[!0-9]*) ;; *) budget=$((region * 45000)) ;; esac
# mem_run NP: the Gaussian under that budget on NP ranks, in $tmp/mem.NP
mem_run() {
    bounded "$mpirun" $root --oversubscribe -np "$1" ./pagani \
        --backend "$backend" -n 5 --epsrel 1e-7 --memory "$budget" "$gauss" \
        >"$tmp/mem.$1" 2>/dev/null
}
tap_show="$tmp/out.1 $tmp/err.1 $tmp/mem.$first $tmp/mem.$last"
[ -n "$budget" ] && { mem_run "$first"; mem_run "$last"; } &&
    grep -q 'status: *memory budget exhausted' "$tmp/mem.$first" &&
    grep -q 'status: *converged' "$tmp/mem.$last" &&
    awk 'NR == 1 { d = $1 - 0.00017493418327490387; if (d < 0) d = -d;
                   exit !(d <= 1e-7 * 0.00017493418327490387) }' \
        "$tmp/mem.$last"
ok $? "memory scales: 45,000 regions a rank (${budget:-?} bytes) hold on $last ranks what $first cannot"
tap_end
