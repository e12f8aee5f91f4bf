# tap.sh - TAP output for the shell tests, read with `.` by them.
#
# ok STATUS NAME prints "ok N - NAME" when STATUS is 0, else "not ok N -
# NAME" followed by each file listed in $tap_show (space-separated paths)
# as "# " comment lines. tap_skip REASON counts a check as skipped.
# tap_end prints the plan and fails when a check did.
#
# bounded CMD ARGS... runs CMD under timeout with a hang bound, not a time
# limit: $tap_hang seconds, $PAGANI_TEST_HANG_SECONDS or 3600, far above
# what any correct run of these tests takes on a busy 2-core machine, so
# that a verdict never depends on the machine's load; a run cut there
# exits 124. A wait for a condition is bounded by $tap_hang too.
# tap.h's tap_hang_seconds gives the C tests the same bound.

tap_count=0
tap_failed=0
tap_show=

ok() {
    tap_count=$((tap_count + 1))
    if [ "$1" -eq 0 ]; then
        echo "ok $tap_count - $2"
        return
    fi
    tap_failed=$((tap_failed + 1))
    echo "not ok $tap_count - $2"
    for tap_file in $tap_show; do
        [ -f "$tap_file" ] &&
            sed "s|^|# ${tap_file##*/}: |" "$tap_file"
    done
}

tap_skip() {
    tap_count=$((tap_count + 1))
    echo "ok $tap_count # SKIP $1"
}

tap_hang=${PAGANI_TEST_HANG_SECONDS:-3600}
bounded() {
    timeout "$tap_hang" "$@"
}

tap_end() {
    echo "1..$tap_count"
    [ $tap_failed -eq 0 ]
}
