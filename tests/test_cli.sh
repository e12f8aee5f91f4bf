#!/bin/sh
# test_cli.sh - TAP checks of the `pagani` command-line program against
# known integrals, on the CPU backend. Run from the build directory (as
# `make check` does), where the program is ./pagani; $PAGANI overrides.

PAGANI=${PAGANI:-./pagani}
test -x "$PAGANI" || PAGANI=../pagani
if ! test -x "$PAGANI"; then
    echo "1..0 # SKIP no pagani program found (run from the build directory)"
    exit 0
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pagani-cli.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
PAGANI_CACHE_DIR=$tmp/cache
export PAGANI_CACHE_DIR
out=$tmp/out
err=$tmp/err

count=0
failed=0
# ok COND-STATUS NAME: one TAP line; on failure, the output as comments.
ok() {
    count=$((count + 1))
    if [ "$1" -eq 0 ]; then
        echo "ok $count - $2"
    else
        failed=$((failed + 1))
        echo "not ok $count - $2"
        sed 's/^/# stdout: /' "$out"
        sed 's/^/# stderr: /' "$err"
    fi
}

# run ARGS...: runs pagani on the CPU backend; sets $rc.
run() {
    "$PAGANI" --backend cpu "$@" >"$out" 2>"$err"
    rc=$?
}

# value: the estimate on the first line of the text output.
value() { sed -n '1s/ +-.*//p' "$out"; }

# close A B TOL: succeeds when |A - B| <= TOL * max(|B|, tiny).
close() {
    awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN {
        if (a == "") exit 1
        d = a - b; if (d < 0) d = -d
        s = b < 0 ? -b : b; if (s < 1e-300) s = 1
        exit !(d <= t * s)
    }'
}

# Known integrals.
run -n 2 'x[0]*x[1]'
[ $rc -eq 0 ] && close "$(value)" 0.25 1e-10
ok $? "x0*x1 over the unit square is 0.25, exit 0"

run -n 3 --epsrel 1e-6 'exp(-(x[0] + x[1] + x[2]))'
truth=$(awk 'BEGIN { printf "%.17g", (1 - exp(-1))^3 }')
[ $rc -eq 0 ] && close "$(value)" "$truth" 1e-6
ok $? "exp(-sum x) in 3-D at epsrel 1e-6 is (1-1/e)^3"

run -n 4 --epsrel 1e-8 \
    'double s = 1; for (int i = 0; i < n; i++) s *= cos(x[i]); return s;'
truth=$(awk 'BEGIN { printf "%.17g", sin(1)^4 }')
[ $rc -eq 0 ] && close "$(value)" "$truth" 1e-8
ok $? "a function body using n: prod cos(x) in 4-D is sin(1)^4"

run --bounds '0:2,-1:1' 'x[0]*x[0] + x[1]'
[ $rc -eq 0 ] && close "$(value)" "$(awk 'BEGIN { printf "%.17g", 16/3 }')" 1e-9
ok $? "--bounds per axis (n from the pairs): 16/3"

run --lower -1 --upper 1 -n 2 'x[0]*x[0]*x[1]*x[1]'
[ $rc -eq 0 ] && close "$(value)" "$(awk 'BEGIN { printf "%.17g", 4/9 }')" 1e-9
ok $? "--lower/--upper for every axis: 4/9"

run -n 2 -p '2, 3' 'p[0]*x[0] + p[1]*x[1]*x[1]'
[ $rc -eq 0 ] && close "$(value)" 2 1e-9
ok $? "-p values seen as p[0], p[1]"

# JSON output.
run -n 2 --json 'x[0]*x[1]'
keys_ok=0
for key in value error status evaluations regions iterations chi2_dof \
           method backend rule seconds; do
    grep -q "\"$key\": " "$out" || keys_ok=1
done
v=$(sed -n 's/.*"value": \([^,]*\),.*/\1/p' "$out")
[ $rc -eq 0 ] && [ $keys_ok -eq 0 ] && [ "$(wc -l <"$out")" -eq 1 ] &&
    grep -q '^{.*}$' "$out" && grep -q '"status": "' "$out" &&
    grep -q '"backend": "cpu"' "$out" && close "$v" 0.25 1e-10
ok $? "--json: one object with every key and the value"

# EXPR from a file and from standard input.
printf 'double s = x[0];\nreturn 3 * s * s;\n' >"$tmp/expr.c"
run -f "$tmp/expr.c"
[ $rc -eq 0 ] && close "$(value)" 1 1e-10
ok $? "-f FILE reads EXPR"
"$PAGANI" --backend cpu -f - <"$tmp/expr.c" >"$out" 2>"$err"
rc=$?
[ $rc -eq 0 ] && close "$(value)" 1 1e-10
ok $? "-f - reads EXPR from standard input"

# Library errors: exit 3 with the compiler's message.
run -n 2 'x[0] +* )'
[ $rc -eq 3 ] && grep -qi 'error' "$err"
ok $? "a syntax error in EXPR exits 3 with the compiler's log"

# Usage errors: exit 2 and a message naming the option.
# bad_value WORD ARGS...: exit 2 and WORD in the message.
bad_value() {
    word=$1
    shift
    run "$@" 'x[0]'
    [ $rc -eq 2 ] && grep -q -e "$word" "$err"
    ok $? "rejected with exit 2: $*"
}
bad_value epsrel --epsrel -1
bad_value epsrel --epsrel abc
bad_value epsrel --epsrel 1e-3x
bad_value dim -n 0
bad_value dim -n 2.5
bad_value max-evals --max-evals -5
bad_value lower --lower 1 --upper 0
bad_value bounds --bounds '0:1,1:0'
bad_value bounds -n 3 --bounds '0:1,0:1'
bad_value method --method simpson
bad_value rule --rule 8
bad_value memory --memory 12Q
bad_value seed --seed -1
bad_value params -p '1,,2'
run 'p[0] * x[0]'
[ $rc -eq 2 ] && grep -q 'params' "$err"
ok $? "EXPR using p[] without -p exits 2"
run -n 1
[ $rc -eq 2 ] && grep -q 'EXPR' "$err"
ok $? "no EXPR exits 2"
run -n 1 'x[0]' 'x[0]'
[ $rc -eq 2 ] && grep -q 'quote' "$err"
ok $? "two EXPR operands exit 2 and suggest quoting"

# Accepted forms of numbers.
run -n 1 --memory 64M --max-evals 1e9 --threads 2 --seed 7 'x[0]'
[ $rc -eq 0 ] && close "$(value)" 0.5 1e-12
ok $? "--memory 64M, --max-evals 1e9, --threads, --seed accepted"

# --help and --version.
"$PAGANI" --help >"$out" 2>"$err"
rc=$?
missing=0
for opt in --dim --lower --upper --bounds --epsrel --epsabs --method \
           --backend --rule --max-evals --max-iterations --threads --memory \
           --no-relerr-filter --seed --params --calls --progress --json \
           --file --help --version 'Exit status' Examples; do
    grep -q -e "$opt" "$out" || { missing=1; echo "# --help lacks $opt"; }
done
[ $rc -eq 0 ] && [ $missing -eq 0 ]
ok $? "--help exits 0 and mentions every option"
"$PAGANI" --version >"$out" 2>"$err"
[ $? -eq 0 ] && grep -q '^pagani ' "$out"
ok $? "--version exits 0"

# --progress: lines on stderr, the result still on stdout.
run -n 3 --epsrel 1e-6 --progress 'exp(-10*(x[0] + x[1] + x[2]))'
[ $rc -eq 0 ] && grep -q '^iteration 1: active regions' "$err" &&
    [ "$(grep -c '^iteration' "$err")" -ge 1 ] && [ -n "$(value)" ]
ok $? "--progress writes one line per iteration on stderr"

# A run that cannot converge exits 1 and still prints an estimate.
run -n 3 --max-iterations 1 --epsrel 1e-12 \
    'exp(-625*((x[0]-.5)*(x[0]-.5) + (x[1]-.5)*(x[1]-.5) + (x[2]-.5)*(x[2]-.5)))'
[ $rc -eq 1 ] && [ -n "$(value)" ] && ! grep -q 'status: *converged' "$out"
ok $? "--max-iterations 1 --epsrel 1e-12 exits 1 with an estimate"

# Ctrl-C: a Vegas run that would take minutes gets SIGINT once its first
# --progress line is out (the handler is in place by then); it stops after
# that iteration, prints its estimate and exits 1. Killed after 30 s.
"$PAGANI" --backend cpu --method vegas --calls 1e4 --max-iterations 1e5 \
    --epsrel 1e-15 --epsabs 0 --progress -n 2 'x[0]*x[1]' >"$out" 2>"$err" &
pid=$!
tries=0
while ! grep -q '^iteration' "$err" && kill -0 $pid 2>/dev/null &&
      [ $tries -lt 300 ]; do
    sleep 0.1 2>/dev/null || sleep 1
    tries=$((tries + 1))
done
kill -INT $pid 2>/dev/null
tries=0
while kill -0 $pid 2>/dev/null && [ $tries -lt 300 ]; do
    sleep 0.1 2>/dev/null || sleep 1
    tries=$((tries + 1))
done
kill -KILL $pid 2>/dev/null
wait $pid
rc=$?
[ $rc -eq 1 ] && [ -n "$(value)" ] &&
    grep -q 'status: *stopped by the progress callback' "$out" &&
    grep -q 'interrupted' "$err"
ok $? "Ctrl-C stops the run: exit 1, an estimate, status 'stopped'"

echo "1..$count"
[ $failed -eq 0 ]
