#!/bin/sh
# test_qmc_parts.sh - TAP checks of the public QMC split (pagani.h, "QMC in
# parts"): each part of tests/test_qmc_parts's integral runs as its own
# process and stores its record in a file; the records combined equal
# pagani_integrate's result on one process bit for bit (value and error as
# hex floats, status, evaluations), for 4 parts in any order and for 3
# uneven ones; a missing part gives the estimate of the points present
# with PAGANI_MAX_EVALUATIONS; a part given twice, or a part of another
# seed, is PAGANI_ERR_OPTION (5).

srcdir=${srcdir:-$(dirname "$0")/..}
srcdir=$(cd "$srcdir" && pwd) || exit 99
. "$srcdir/tests/tap.sh"
prog=./tests/test_qmc_parts
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pagani-parts.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
tap_show="$tmp/whole $tmp/got $tmp/err"

bounded $prog whole 7 >"$tmp/whole" 2>"$tmp/err" &&
    grep -q '^0 .* iteration limit reached 2097152$' "$tmp/whole"
ok $? "one process: 16 shifts x 131072 points, the run ends by its plan"

# parts P: the P parts of seed 7, each its own process, in $tmp/P.p
parts() {
    p=0
    while [ $p -lt "$1" ]; do
        bounded $prog part 7 "$1" $p "$tmp/$1.$p" 2>>"$tmp/err" ||
            return 1
        p=$((p + 1))
    done
}

parts 4 && bounded $prog combine 7 "$tmp/4.2" "$tmp/4.0" "$tmp/4.3" \
    "$tmp/4.1" >"$tmp/got" && cmp -s "$tmp/whole" "$tmp/got"
ok $? "4 parts as separate processes, combined in another order: bit-identical"
parts 3 && bounded $prog combine 7 "$tmp/3.0" "$tmp/3.1" "$tmp/3.2" \
    >"$tmp/got" && cmp -s "$tmp/whole" "$tmp/got"
ok $? "3 uneven parts combined: bit-identical"

bounded $prog combine 7 "$tmp/4.0" "$tmp/4.1" "$tmp/4.3" >"$tmp/got" &&
    grep -q '^0 .* evaluation limit reached 1572864$' "$tmp/got" &&
    ! cmp -s "$tmp/whole" "$tmp/got"
ok $? "a missing part: the estimate of the points present, max-evaluations"

bounded $prog combine 7 "$tmp/4.0" "$tmp/4.0" >"$tmp/got" &&
    grep -q '^5 ' "$tmp/got"
ok $? "a part given twice is PAGANI_ERR_OPTION"
bounded $prog part 8 4 0 "$tmp/seed8" 2>>"$tmp/err" &&
    bounded $prog combine 7 "$tmp/seed8" "$tmp/4.1" >"$tmp/got" &&
    grep -q '^5 ' "$tmp/got"
ok $? "a part of another seed is PAGANI_ERR_OPTION"
tap_end
