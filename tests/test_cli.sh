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
. "${srcdir:-$(dirname "$0")/..}/tests/tap.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pagani-cli.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
PAGANI_CACHE_DIR=$tmp/cache
export PAGANI_CACHE_DIR
out=$tmp/out
err=$tmp/err
tap_show="$out $err"

# run ARGS...: runs pagani on the CPU backend; sets $rc.
run() {
    "$PAGANI" --backend cpu "$@" >"$out" 2>"$err"
    rc=$?
}

# bounded_read ARGS...: run pagani on input it must not read without end:
# with a hang bound, and a memory limit of 1 GiB (which an unbounded read
# reaches in seconds) where pagani starts under one (not under ASan,
# which reserves terabytes of address space).
memory_kb=1048576
(ulimit -v $memory_kb && "$PAGANI" --version) >/dev/null 2>&1 ||
    memory_kb=unlimited
bounded_read() {
    (ulimit -v $memory_kb; timeout "$tap_hang" "$PAGANI" --backend cpu "$@") \
        >"$out" 2>"$err"
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
# EXPR from a file is at most 1 MiB: exactly that is read, one byte more
# (or /dev/zero) is a usage error naming the limit; a NUL byte too.
awk 'BEGIN { printf "x[0]"; for (i = 4; i < 1048576; i++) printf " " }' \
    >"$tmp/expr_1m.c"
run -f "$tmp/expr_1m.c"
[ $rc -eq 0 ] && close "$(value)" 0.5 1e-10
ok $? "-f FILE of 1 MiB is read"
printf ' ' >>"$tmp/expr_1m.c"
run -f "$tmp/expr_1m.c"
[ $rc -eq 2 ] && grep -q 'longer than 1048576 bytes (1 MiB)' "$err"
ok $? "-f FILE of 1 MiB and a byte: exit 2, the limit"
bounded_read -n 1 -f /dev/zero
[ $rc -eq 2 ] && grep -q '/dev/zero: longer than 1048576 bytes' "$err"
ok $? "-f /dev/zero: exit 2 after 1 MiB"
printf 'x[0] +\n1\000\n' >"$tmp/expr_nul.c"
run -f "$tmp/expr_nul.c"
[ $rc -eq 2 ] && grep -q 'expr_nul.c:2: a NUL byte' "$err"
ok $? "-f FILE with a NUL byte on line 2: exit 2, naming the line"

# Library errors: exit 3 with the compiler's message.
run -n 2 'x[0] +* )'
[ $rc -eq 3 ] && grep -qi 'error' "$err"
ok $? "a syntax error in EXPR exits 3 with the compiler's log"
# --backend cuda where no GPU can run says so and why (no driver, a
# driver too old for the build, no device), not only CUDA's "driver
# version is insufficient".
"$PAGANI" --backend cuda 'x[0]' >"$out" 2>"$err"
rc=$?
if [ $rc -eq 0 ]; then
    tap_skip "a GPU is usable here"
elif grep -q 'built without the CUDA backend' "$err"; then
    tap_skip "libpagani was built without the CUDA backend"
else
    [ $rc -eq 3 ] && ! grep -qi 'insufficient' "$err" &&
        grep -q 'no usable GPU: \(no NVIDIA driver is installed\|the NVIDIA driver is too old\|the NVIDIA driver .* sees no device\)' "$err"
    ok $? "--backend cuda without a usable GPU: exit 3, 'no usable GPU' and why"
fi
run -n 2 'double s = x[0]'
[ $rc -eq 3 ] && grep -q 'integrand:1: .*no `return`' "$err" &&
    ! grep -q "$PAGANI_CACHE_DIR" "$err"
ok $? "a declaration without return: what the source must be, its line"

# Names of the source's own are not the environment's.
run -n 2 'double p=1; for(int i=0;i<2;i++) p*=x[i]; return p;'
[ $rc -eq 0 ] && close "$(value)" 0.25 1e-10
ok $? "a local product named p needs no -p: 0.25, exit 0"

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
bad_value 'axis 0: lower bound' --lower 1 --upper 0
bad_value 'axis 1: lower bound 1' --bounds '0:1,1:0'
bad_value 'axis 1: expected LOWER:UPPER' --bounds '0:1,2'
bad_value bounds -n 3 --bounds '0:1,0:1'
bad_value method --method simpson
bad_value rule --rule 8
bad_value strategy --strategy fast
run -n 2 --strategy worst --components 'x[0]; x[1]'
[ $rc -eq 2 ] && grep -q 'scalar integrands and no state_path only' "$err"
ok $? "--strategy worst with --components: the library's refusal, exit 2"
run -n 2 --strategy breadth 'x[0] * x[1]'
[ $rc -eq 0 ] && grep -q converged "$out"
ok $? "--strategy breadth: converged"
bad_value memory --memory 12Q
# --memory: a size of at least one byte; the message says what is one.
for size in 0 0.5 abc '1 ' -1K; do
    bad_value '--memory: .*K, M, G or T' --memory "$size"
done
bad_value seed --seed -1
bad_value params -p '1,,2'
bad_value 'both tolerances are 0' --epsrel 0 --epsabs 0
bad_value 'threads' --threads 5000
bad_value 'transform' --method qmc --transform sine
bad_value 'transform: applies to --method qmc' --transform tent
bad_value 'params-file: cannot be combined with -p' -p 1 --params-file /dev/null
# Values the parser lets through but the library refuses are usage errors
# too, with the library's message.
bad_value 'rule of degree 13' -n 3 --rule 13
bad_value 'cubature supports' -n 30 --method cubature
# EXPR reading p beyond the -p values: the library refuses the source (no
# crash); its message and a word on -p, exit 2.
for args in "'p[0] * x[0]'" "'*p'" "-p 1 'p[0] + p[1]'"; do
    eval "run $args"
    [ $rc -eq 2 ] && [ ! -s "$out" ] &&
        grep -q 'parameter block' "$err" && grep -q 'with -p' "$err"
    ok $? "EXPR reading p beyond -p ($args): the library's error, exit 2"
done
run -n 1
[ $rc -eq 2 ] && grep -q 'EXPR' "$err"
ok $? "no EXPR exits 2"
# EXPR reading x[1] with no -n (so n = 1) is a usage error asking for -n,
# also when it reads p without -p; a syntax error without -n is not.
for args in "'x[0]*x[1]'" "'p[0]*x[1]'" "--lower 0 --upper 2 'x[1]'"; do
    eval "run $args"
    [ $rc -eq 2 ] && [ ! -s "$out" ] && grep -q 'x\[1\] is out of range' "$err" &&
        grep -q 'no -n or --bounds given, so n = 1: .* with -n N' "$err"
    ok $? "EXPR reading x[1] without -n ($args): exit 2, asks for -n"
done
run 'x[0] +* )'
[ $rc -eq 3 ] && ! grep -q 'with -n' "$err"
ok $? "a syntax error without -n stays a library error (exit 3)"
run -n 1 'x[0]' 'x[0]'
[ $rc -eq 2 ] && grep -q 'quote' "$err"
ok $? "two EXPR operands exit 2 and suggest quoting"

# Numbers in the formats --help names and nothing else: no spaces, no
# hexadecimal, no inf or nan, constants only in bounds and parameters.
bad_value 'dim: expected a whole number in decimal' -n ' 3'
bad_value 'dim: expected a whole number in decimal' -n '3 '
bad_value 'dim: expected a whole number in decimal' -n 0x10
bad_value 'max-evals: expected a whole number' --max-evals 0x10
bad_value 'seed: expected a whole number in digits' --seed ' 1'
bad_value 'seed: expected a whole number in digits' --seed 1e3
bad_value 'epsrel: expected a decimal number' --epsrel ' 1e-3'
bad_value 'epsrel: expected a decimal number' --epsrel 0x1p-10
bad_value 'epsrel: expected a decimal number' --epsrel inf
bad_value 'epsrel: expected a decimal number' --epsrel pi
bad_value 'calls: expected a decimal number' --calls 1e4x
bad_value 'upper: expected a number such as' --upper nan
bad_value 'upper: expected a number such as' --upper ' 1'
bad_value "upper: '1e999' is not a finite number" --upper 1e999
bad_value "upper: 'pi/0' is not a finite number" --upper pi/0
bad_value 'upper: expected a number such as' --upper 'pie'
bad_value 'upper: expected a number such as' --upper '2*'
bad_value 'axis 0: expected LOWER:UPPER' --bounds '0:1 ,0:1'
bad_value 'axis 0: expected LOWER:UPPER' --bounds '0:2e'
bad_value 'params: expected numbers separated by commas' -p '1 ,2'
bad_value 'params: expected numbers separated by commas' -p '0x2'

# Accepted forms of numbers.
run -n +2 --bounds '0:1, 0:2' --epsrel 1e-8 'x[0]*x[1]'
[ $rc -eq 0 ] && close "$(value)" 1 1e-10
ok $? "-n +2, --bounds with a space after the comma"
# Bounds and parameters may use pi, e and the M_ constants, times or over
# a number: the integral of sin over [0, pi] is 2; of cos over
# [-pi/2, pi/2] times the width 2 pi of the second axis, 4 pi; of 1/x over
# [1, e], 1; of cos(p x) over [0, 1] for p = pi/2, 2/pi.
run --bounds '0:pi' --epsrel 1e-9 'sin(x[0])'
[ $rc -eq 0 ] && close "$(value)" 2 1e-9
ok $? "--bounds 0:pi: sin integrates to 2"
run --bounds '-pi/2:M_PI_2,0:2*M_PI' --epsrel 1e-9 'cos(x[0])'
[ $rc -eq 0 ] && close "$(value)" "$(awk 'BEGIN { printf "%.17g", 4 * atan2(0, -1) }')" 1e-9
ok $? "--bounds -pi/2:M_PI_2,0:2*M_PI: 4 pi"
run --lower 1 --upper e --epsrel 1e-9 '1/x[0]'
[ $rc -eq 0 ] && close "$(value)" 1 1e-9
ok $? "--upper e: 1/x over [1, e] is 1"
# Unbounded axes (README, "Domains and singularities"): inf and -inf in
# bounds; exp(-x0^2 - x1) over the line times the half-line is sqrt(pi);
# a Gaussian of width 10 with --domain-scale 10 is 10 sqrt(2 pi).
run --bounds '-inf:inf,0:+inf' --epsrel 1e-8 'exp(-x[0]*x[0] - x[1])'
[ $rc -eq 0 ] && close "$(value)" "$(awk 'BEGIN { printf "%.17g", sqrt(atan2(0, -1)) }')" 1e-8
ok $? "--bounds -inf:inf,0:+inf: exp(-x0^2 - x1) integrates to sqrt(pi)"
run --lower -inf --upper inf --domain-scale 10 --epsrel 1e-8 \
    'exp(-0.5 * (x[0] / 10) * (x[0] / 10))'
[ $rc -eq 0 ] && close "$(value)" "$(awk 'BEGIN { printf "%.17g", 10 * sqrt(2 * atan2(0, -1)) }')" 1e-8
ok $? "--lower -inf --upper inf --domain-scale 10: 10 sqrt(2 pi)"
bad_value 'axis 0: lower bound inf' --bounds 'inf:inf'
bad_value 'upper: expected a number such as' --upper infinity
bad_value "upper: '-1e999' is not a finite number" --upper -1e999
bad_value 'domain-scale' --domain-scale 0
bad_value 'domain-scale' --domain-scale inf
# A Gaussian of width 1e3 centred at 1e4, and per-axis scales: the second
# axis's e^(-x/2) with the exponential map at its rate (a constant in t).
run --bounds '-inf:inf,0:inf' --domain-center 1e4,0 --domain-scale 2e3,2 \
    --domain-map exponential --epsrel 1e-9 \
    'exp(-0.5 * pow((x[0] - 1e4) / 1e3, 2) - 0.5 * x[1])'
[ $rc -eq 0 ] && close "$(value)" "$(awk 'BEGIN { printf "%.17g", 2e3 * sqrt(2 * atan2(0, -1)) }')" 1e-9
ok $? "--domain-center 1e4,0 --domain-scale 2e3,2 --domain-map exponential: 2e3 sqrt(2 pi)"
run --lower -inf --upper inf --domain-center 1e4 --domain-scale 1e3 \
    --epsrel 1e-9 'exp(-0.5 * pow((x[0] - 1e4) / 1e3, 2))'
[ $rc -eq 0 ] && close "$(value)" "$(awk 'BEGIN { printf "%.17g", 1e3 * sqrt(2 * atan2(0, -1)) }')" 1e-9
ok $? "--domain-center 1e4 --domain-scale 1e3: 1e3 sqrt(2 pi)"
bad_value 'domain-map: unknown map' --domain-map gaussian
bad_value 'domain-center: expected' --domain-center nan
bad_value 'gives 3 scales for 2 axes' --bounds '0:inf,0:inf' --domain-scale 1,2,3
bad_value 'gives 2 centres for 3 axes' -n 3 --domain-center 1,2
# Break points: a kink at x0 = 0.3 and a jump at x2 = 0.7 named with
# --breaks (an empty group for x1) converge to 1e-9 with the cost of a
# smooth integrand: 3 levels of the first split, no further region.
run --bounds '0:1,0:1,0:1' --breaks '0.3;;0.7' --epsrel 1e-9 --method cubature \
    'fabs(x[0] - 0.3) * (x[2] < 0.7 ? 1.0 : 2.0)'
[ $rc -eq 0 ] && close "$(value)" 0.377 1e-9 && grep -q '^iterations: *[12]$' "$out"
ok $? "--breaks '0.3;;0.7': |x0 - 0.3| times a jump at x2 = 0.7 is 0.377 in at most 2 iterations"
bad_value 'breaks: gives 1 axes' -n 2 --breaks 0.3
bad_value 'breaks: expected' --breaks '0.3,x'
bad_value 'break points must be finite and increasing' --breaks '0.7,0.3'
run -p 'pi/2' --epsrel 1e-9 'cos(p[0]*x[0])'
[ $rc -eq 0 ] && close "$(value)" "$(awk 'BEGIN { printf "%.17g", 2 / atan2(0, -1) }')" 1e-9
ok $? "-p pi/2: cos(p x) over [0, 1] is 2/pi"
run -n 1 --memory 64M --max-evals 1e9 --threads 2 --seed 7 'x[0]'
[ $rc -eq 0 ] && close "$(value)" 0.5 1e-12
ok $? "--memory 64M, --max-evals 1e9, --threads, --seed accepted"
run -n 1 --memory 0.5G 'x[0]'
[ $rc -eq 0 ] && close "$(value)" 0.5 1e-12
ok $? "--memory 0.5G (a fraction with a suffix) accepted"

# --transform: QMC with Korobov's transform integrates 1/sqrt(x), singular
# at 0, to 2; each transform reaches the library (the estimates differ).
run --method qmc --transform korobov --epsrel 1e-4 'pow(x[0], -0.5)'
[ $rc -eq 0 ] && close "$(value)" 2 1e-3
ok $? "--transform korobov: 1/sqrt(x) over [0,1] is 2"
estimates=
for transform in none tent korobov korobov3; do
    run --method qmc --transform $transform 'x[0]*x[0]'
    [ $rc -eq 0 ] && close "$(value)" "$(awk 'BEGIN { printf "%.17g", 1/3 }')" \
        1e-3 && estimates="$estimates $(value)"
done
[ "$(echo $estimates | tr ' ' '\n' | sort -u | wc -l)" -eq 4 ]
ok $? "--transform none, tent, korobov, korobov3: x^2 to 1/3, four different sums"

# --params-file: one integral per line, in one batch; the integral of
# exp(-a x) over [0,1] is (1 - exp(-a)) / a.
# scan_ok A...: the lines of $out are (1 - exp(-a)) / a for each A to 1e-6,
# in order, each converged.
scan_ok() {
    [ "$(wc -l <"$out")" -eq $# ] || return 1
    for a in "$@"; do
        echo "$a"
    done | paste - "$out" | awk '{
        truth = (1 - exp(-$1)) / $1
        d = $2 - truth; if (d < 0) d = -d
        if (!(d <= 1e-6 * truth) || $3 != "+-" || $5 != "converged") exit 1
    }'
}
printf '# a\n1\n\n  2.5  # a comment\n4,\n' >"$tmp/params"
run --params-file "$tmp/params" --epsrel 1e-8 'exp(-p[0]*x[0])'
[ $rc -eq 0 ] && scan_ok 1 2.5 4
ok $? "--params-file: one line per integral, comments and blanks skipped"
"$PAGANI" --backend cpu --params-file - 'exp(-p[0]*x[0])' <"$tmp/params" \
    >"$out" 2>"$err"
rc=$?
[ $rc -eq 0 ] && scan_ok 1 2.5 4
ok $? "--params-file - reads standard input"
for method in cubature vegas qmc; do
    run --params-file "$tmp/params" --method $method 'exp(-p[0]*x[0])'
    [ $rc -eq 0 ] && [ "$(wc -l <"$out")" -eq 3 ] &&
        awk '{ a = NR == 1 ? 1 : NR == 2 ? 2.5 : 4
               truth = (1 - exp(-a)) / a; d = $1 - truth; if (d < 0) d = -d
               if (!(d <= 1e-2 * truth)) exit 1 }' "$out"
    ok $? "--params-file --method $method: (1 - exp(-a)) / a, a = 1, 2.5, 4"
done
# --batch-warm: a Vegas scan of 8 nearby a, every value within 4 of its
# errors of (1 - exp(-a)) / a and converged, in fewer evaluations than
# the same batch cold (the seed is fixed: the counts are the same on
# every run).
awk 'BEGIN { for (i = 0; i < 8; i++) printf "%.2f\n", 1 + 0.05 * i }' \
    >"$tmp/scan"
evaluations() { sed -n 's/.*"evaluations": \([0-9]*\).*/\1/p' "$out" |
                awk '{ s += $1 } END { print s }'; }
run --params-file "$tmp/scan" --method vegas --json 'exp(-p[0]*x[0])'
cold=$(evaluations)
run --params-file "$tmp/scan" --method vegas --batch-warm 4 'exp(-p[0]*x[0])'
[ $rc -eq 0 ] && [ "$(wc -l <"$out")" -eq 8 ] &&
    paste "$tmp/scan" "$out" | awk '{
        truth = (1 - exp(-$1)) / $1; d = $2 - truth; if (d < 0) d = -d
        if (!(d <= 4 * $4) || $5 != "converged") exit 1 }'
ok $? "--batch-warm 4: a Vegas scan of 8, each within 4 errors of the truth"
run --params-file "$tmp/scan" --method vegas --batch-warm 4 --json \
    'exp(-p[0]*x[0])'
warm=$(evaluations)
[ $rc -eq 0 ] && [ -n "$cold" ] && [ -n "$warm" ] && [ "$warm" -lt "$cold" ]
ok $? "--batch-warm 4: $warm evaluations against $cold cold"
bad_value 'batch-warm.*below 2' --method vegas --params-file "$tmp/scan" \
    --batch-warm 1
bad_value 'batch-warm.*Vegas batch' --batch-warm 4 --params-file "$tmp/scan"
run --params-file "$tmp/params" --json 'exp(-p[0]*x[0])'
[ $rc -eq 0 ] && [ "$(grep -c '^{.*}$' "$out")" -eq 3 ] &&
    sed -n 's/.*"line": \([0-9]*\), "params": \[\(.*\)\]}$/\1 \2/p' "$out" |
    tr '\n' ' ' | grep -qx '2 1 4 2.5 5 4 '
ok $? "--params-file --json: one object a line, with its line and params"
printf '1,2\n3 4\n' >"$tmp/params2"
run -n 2 --params-file "$tmp/params2" 'p[0]*x[0] + p[1]*x[1]'
[ $rc -eq 0 ] && [ "$(wc -l <"$out")" -eq 2 ] &&
    close "$(sed -n '1s/ .*//p' "$out")" 1.5 1e-10 &&
    close "$(sed -n '2s/ .*//p' "$out")" 3.5 1e-10
ok $? "--params-file with two numbers a line, by comma or space"
printf '1\n1000\n' >"$tmp/params3"
run --params-file "$tmp/params3" --max-iterations 2 --epsrel 1e-10 \
    'exp(-p[0]*x[0])'
[ $rc -eq 1 ] && [ "$(wc -l <"$out")" -eq 2 ] &&
    sed -n 1p "$out" | grep -q ' converged$' &&
    ! sed -n 2p "$out" | grep -q ' converged$'
ok $? "--params-file: one line that does not converge makes exit 1"
printf '1\n-1\n2\n' >"$tmp/params4"
run --params-file "$tmp/params4" 'log(p[0]) + x[0]'
[ $rc -eq 3 ] && [ "$(wc -l <"$out")" -eq 3 ] &&
    sed -n 2p "$out" | grep -qi '^-*nan +- inf' &&
    close "$(sed -n '3s/ .*//p' "$out")" \
        "$(awk 'BEGIN { printf "%.17g", log(2) + 0.5 }')" 1e-10 &&
    grep -q "params4:2: EXPR returned NaN" "$err" &&
    [ "$(grep -c 'EXPR returned NaN' "$err")" -eq 1 ]
ok $? "--params-file: NaN on one line: every line printed, exit 3"
run --params-file "$tmp/params" --progress --method cubature \
    'exp(-p[0]*x[0])'
[ $rc -eq 0 ] && grep -q '^iteration 1: integrals running [0-9]' "$err"
ok $? "--progress with --params-file counts the integrals running"
# Malformed parameter files: usage errors naming the line.
# bad_params WORD TEXT: a file holding TEXT exits 2 with WORD on stderr.
bad_params() {
    printf "$2" >"$tmp/bad"
    run --params-file "$tmp/bad" 'p[0] * x[0]'
    [ $rc -eq 2 ] && [ ! -s "$out" ] && grep -q -e "$1" "$err"
    ok $? "--params-file '$2': exit 2, '$1'"
}
bad_params 'bad:3: expected numbers' '1\n2\n3 x\n'
bad_params 'bad:2: .* not a finite number' '1\n1e999\n'
bad_params "bad:2: expected numbers .*, got 'inf'" '1\ninf\n'
bad_params "bad:2: expected numbers .*, got '0x1'" '1\n0x1\n'
# Any byte the parser cannot take is an error naming its line: a NUL
# (which used to end the file silently), a byte outside ASCII.
bad_params 'bad:2: a NUL byte (column 2)' '1\n2\000 3\n4\n'
bad_params "bad:2: expected numbers .*, got '\\\\xff'" '1\n2 \377\n'
printf '1 # caf\303\251\npi/2\n' >"$tmp/params5"
run --params-file "$tmp/params5" --epsrel 1e-9 'p[0]*x[0]'
[ $rc -eq 0 ] && [ "$(wc -l <"$out")" -eq 2 ] &&
    close "$(sed -n '2s/ .*//p' "$out")" \
        "$(awk 'BEGIN { printf "%.17g", atan2(0, -1) / 4 }')" 1e-9
ok $? "--params-file: any byte in a comment, pi/2 as a number"
# What is read is bounded: a line of 64 KiB, a million lines, 2^22
# numbers; FILE /dev/zero ends at its first byte.
bounded_read --params-file /dev/zero 'p[0]*x[0]'
[ $rc -eq 2 ] && grep -q '/dev/zero:1: a NUL byte' "$err"
ok $? "--params-file /dev/zero: exit 2 at line 1"
awk 'BEGIN { for (i = 0; i < 32768; i++) printf "1 "; print "1" }' \
    >"$tmp/params6"
bounded_read --params-file "$tmp/params6" 'p[0]*x[0]'
[ $rc -eq 2 ] &&
    grep -q 'params6:1: longer than 65536 bytes (64 KiB), the most' "$err"
ok $? "--params-file with a line of 64 KiB and a byte: exit 2, the limit"
awk 'BEGIN { for (i = 0; i <= 1000000; i++) print "# " i }' \
    >"$tmp/params7"
bounded_read --params-file "$tmp/params7" 'p[0]*x[0]'
[ $rc -eq 2 ] && grep -q 'more than 1000000 lines, the most' "$err"
ok $? "--params-file with a million lines and one: exit 2, the limit"
awk 'BEGIN { for (l = 0; l < 4097; l++) {
                 for (i = 0; i < 1024; i++) printf "1 "; print "" } }' \
    >"$tmp/params8"
bounded_read --params-file "$tmp/params8" 'p[0]*x[0]'
[ $rc -eq 2 ] && grep -q 'params8:4097: more than 4194304 numbers' "$err"
ok $? "--params-file with over 2^22 numbers: exit 2 at the line past it"
bad_params 'bad:3: 2 numbers, but line 1 has 1' '1\n2\n3 4\n'
bad_params 'no parameters' '# only a comment\n\n'
run --params-file "$tmp/none" 'p[0]*x[0]'
[ $rc -eq 2 ] && grep -q 'none' "$err"
ok $? "--params-file with a missing file: exit 2"

# Vector integrands: --components, --ncomp with a body, --norm, --json.
run -n 3 --epsrel 1e-6 --components \
    'exp(-x[0]-x[1]-x[2]); x[0]*exp(-x[0]-x[1]-x[2]); 0'
t0=$(awk 'BEGIN { printf "%.17g", (1 - exp(-1))^3 }')
t1=$(awk 'BEGIN { printf "%.17g", (1 - 2 * exp(-1)) * (1 - exp(-1))^2 }')
c0=$(sed -n 's/^f\[0\] = \([^ ]*\) +-.*/\1/p' "$out")
c1=$(sed -n 's/^f\[1\] = \([^ ]*\) +-.*/\1/p' "$out")
[ $rc -eq 0 ] && close "$c0" "$t0" 1e-6 && close "$c1" "$t1" 1e-6 &&
    grep -q '^f\[2\] = 0 +- 0$' "$out" && grep -q '^status: *converged' "$out"
ok $? "--components: one line per component, each within 1e-6, zero ended"

run -n 2 --ncomp 2 --norm paired --json \
    'double s = x[0] + 2 * x[1]; f[0] = cos(s); f[1] = sin(s);'
# the integral of exp(i (x0 + 2 x1)): (sin 1 + i (1 - cos 1)) times
# (sin 2 + i (1 - cos 2)) / 2
re=$(awk 'BEGIN { a = sin(1); b = 1 - cos(1); c = sin(2) / 2; d = (1 - cos(2)) / 2
                  printf "%.17g", a * c - b * d }')
im=$(awk 'BEGIN { a = sin(1); b = 1 - cos(1); c = sin(2) / 2; d = (1 - cos(2)) / 2
                  printf "%.17g", a * d + b * c }')
v0=$(sed -n 's/^{"value": \[\([^,]*\), .*/\1/p' "$out")
v1=$(sed -n 's/^{"value": \[[^,]*, \([^]]*\)\], "error": \[.*/\1/p' "$out")
[ $rc -eq 0 ] && close "$v0" "$re" 1e-3 && close "$v1" "$im" 1e-3 &&
    grep -q '"status": "converged"' "$out"
ok $? "--ncomp with a body, --norm paired, --json: arrays, the complex value"

run -n 2 --components 'x[0];;x[1]'
[ $rc -eq 2 ] && grep -q 'component 1 is empty' "$err"
ok $? "--components with an empty item: exit 2"

run -n 2 --norm paired --components 'x[0]'
[ $rc -eq 2 ] && grep -q 'even' "$err"
ok $? "--norm paired with one component: exit 2"

run -n 2 --components 'x[0]' 'x[1]'
[ $rc -eq 2 ]
ok $? "--components with EXPR: exit 2"

# --gradient: the integral of exp(-p0 x0 - p1 x1) over the unit square is
# g(p0) g(p1), g(a) = (1 - e^-a) / a, and d/dp_j replaces g(p_j) by g'(a)
# = (e^-a (1 + a) - 1) / a^2.
run -n 2 -p 1.5,0.5 --epsrel 1e-9 --epsabs 1e-12 --gradient \
    'exp(-p[0] * x[0] - p[1] * x[1])'
g=$(awk 'BEGIN { a = 1.5; b = 0.5; ga = (1 - exp(-a)) / a; gb = (1 - exp(-b)) / b
                 da = (exp(-a) * (1 + a) - 1) / a^2; db = (exp(-b) * (1 + b) - 1) / b^2
                 printf "%.17g %.17g %.17g", ga * gb, da * gb, ga * db }')
d0=$(sed -n 's/^d\/dp\[0\] = \([^ ]*\) +-.*/\1/p' "$out")
d1=$(sed -n 's/^d\/dp\[1\] = \([^ ]*\) +-.*/\1/p' "$out")
[ $rc -eq 0 ] && close "$(value)" "${g%% *}" 1e-9 &&
    close "$d0" "$(echo "$g" | cut -d' ' -f2)" 1e-9 &&
    close "$d1" "$(echo "$g" | cut -d' ' -f3)" 1e-9
ok $? "--gradient: the value and d/dp[0], d/dp[1] within 1e-9 of the analytic ones"

printf '1.5 0.5\n0.5 1.5\n' >"$tmp/grad"
run -n 2 --params-file "$tmp/grad" --json --gradient \
    'exp(-p[0] * x[0] - p[1] * x[1])'
[ $rc -eq 0 ] && [ "$(grep -c '"gradient": \[' "$out")" -eq 2 ] &&
    [ "$(grep -c '"gradient_error": \[' "$out")" -eq 2 ]
ok $? "--gradient --params-file --json: gradient and gradient_error on every line"

run -n 2 --gradient 'x[0]'
[ $rc -eq 2 ] && grep -q 'give them with -p' "$err"
ok $? "--gradient without parameters: exit 2"

run -n 2 -p 1 --gradient 'floor(p[0] * x[0])'
[ $rc -eq 3 ] && grep -q 'cannot differentiate .floor.' "$err"
ok $? "--gradient of floor(p0 x0): refused, naming floor"

# --help and --version.
"$PAGANI" --help >"$out" 2>"$err"
rc=$?
missing=0
for opt in --dim --lower --upper --bounds --epsrel --epsabs --method \
           --backend --rule --strategy --max-evals --max-iterations --threads --memory \
           --no-relerr-filter --seed --params --calls --progress --json \
           --file --help --version --params-file --transform 'Exit status' \
           --components --ncomp --norm --gradient \
           Examples SIGTERM SIGHUP '1 MiB' '64 KiB' '2\*pi/3' 'M_PI' \
           'privileges' 'untrusted'; do
    grep -q -e "$opt" "$out" || { missing=1; echo "# --help lacks $opt"; }
done
[ $rc -eq 0 ] && [ $missing -eq 0 ]
ok $? "--help exits 0 and mentions every option"
"$PAGANI" --version >"$out" 2>"$err"
[ $? -eq 0 ] && grep -q '^pagani ' "$out"
ok $? "--version exits 0"

# --progress: lines on stderr, the result still on stdout; the size is
# named as each method counts it.
run -n 3 --epsrel 1e-6 --progress 'exp(-10*(x[0] + x[1] + x[2]))'
[ $rc -eq 0 ] && grep -q '^iteration 1: size [0-9]*, estimate' "$err" &&
    [ "$(grep -c '^iteration' "$err")" -ge 1 ] && [ -n "$(value)" ]
ok $? "--progress writes one line per iteration on stderr"
for case in 'cubature:active regions' 'vegas:sub-cubes' \
            'qmc:points per shift'; do
    method=${case%%:*}
    run -n 2 --method $method --progress 'x[0]*x[1]'
    [ $rc -eq 0 ] && grep -q "^iteration 1: ${case#*:} [0-9]*, estimate" "$err"
    ok $? "--progress --method $method names the size '${case#*:}'"
done

# A run that cannot converge exits 1 and still prints an estimate.
run -n 3 --max-iterations 1 --epsrel 1e-12 'exp(-625*((x[0]-.5)*(x[0]-.5) +
    (x[1]-.5)*(x[1]-.5) + (x[2]-.5)*(x[2]-.5)))'
[ $rc -eq 1 ] && [ -n "$(value)" ] && ! grep -q 'status: *converged' "$out"
ok $? "--max-iterations 1 --epsrel 1e-12 exits 1 with an estimate"

# Signals. start_bg ARGS... starts pagani on the CPU in the background, in
# a process group of its own (setsid), under `bounded` (tap.sh), whose timeout also
# undoes the ignored SIGINT of a script's background job; it sets $job to
# the job and $pid to pagani's process (and group) id. finish_bg waits for
# the job and sets $rc.
start_bg() {
    rm -f "$tmp/pid"
    bounded setsid sh -c 'echo $$ >"$0" && exec "$@"' "$tmp/pid" \
        "$PAGANI" --backend cpu "$@" >"$out" 2>"$err" &
    job=$!
    wait_for '[ -s "$tmp/pid" ]'
    pid=$(cat "$tmp/pid")
}
finish_bg() {
    wait $job 2>/dev/null # without the shell's "Terminated"
    rc=$?
}

# wait_for CONDITION: evaluates the shell CONDITION every 0.1 s until it
# holds, or fails after the hang bound (tap.sh's $tap_hang seconds).
wait_for() {
    tries=0
    until eval "$1"; do
        [ $tries -ge $((tap_hang * 10)) ] && return 1
        sleep 0.1 2>/dev/null || sleep 1
        tries=$((tries + 1))
    done
}

# build_dirs: the build folders of compilations in the cache, one a line.
build_dirs() { ls -a "$PAGANI_CACHE_DIR" 2>/dev/null | grep '^\.build-'; }

# big_source TAG: writes $tmp/big.c, a body of 4000 lines that keeps the
# compiler busy for seconds; TAG makes it differ from the cached ones.
big_source() {
    awk -v tag="$1" 'BEGIN {
        printf "/* %s */ double s = 0;\n", tag
        for (i = 0; i < 4000; i++)
            printf "s += sin(x[0] * %d.5 + %d) * cos(s + %d);\n", i, i, i
        print "return s;"
    }' >"$tmp/big.c"
}

# SIGINT, SIGTERM, SIGHUP during the integration: a Vegas run that would
# take minutes gets the signal once its first --progress line is out; it
# stops, prints its estimate and exits 1.
for sig in INT TERM HUP; do
    start_bg --method vegas --calls 1e4 --max-iterations 1e5 \
        --epsrel 1e-15 --epsabs 0 --progress -n 2 'x[0]*x[1]'
    wait_for 'grep -q "^iteration" "$err"'
    kill -$sig $pid
    finish_bg
    [ $rc -eq 1 ] && [ -n "$(value)" ] &&
        grep -q 'status: *interrupted$' "$out" &&
        grep -q "interrupted by SIG$sig" "$err"
    ok $? "SIG$sig during the integration: exit 1, an estimate, 'interrupted'"
done

# A stop signal in the middle of a long pass: QMC's blocks double (0.8 s,
# 0.8, 1.6, 3.2, 6.4 s on one core of a 2-core machine); 3 s after the
# first block a later one is under way, and the signal cuts it short (at
# the evaluation in flight: tests/test_stop counts the evaluations after a
# request, which a time cannot do on a busy machine): pagani exits 1 with
# the estimate of the blocks before; the delay is printed, not judged.
start_bg --method qmc --max-iterations 8 --epsrel 1e-15 --epsabs 0 \
    --progress -n 3 \
    'double s = 0; for (int i = 0; i < 300; i++) s += sin(x[0] * i + s); return s;'
wait_for 'grep -q "^iteration" "$err"'
sleep 3
t0=$(date +%s%N)
kill -INT $pid
finish_bg
ms=$((($(date +%s%N) - t0) / 1000000))
[ $rc -eq 1 ] && [ -n "$(value)" ] && [ "$(value)" != nan ] &&
    grep -q 'status: *interrupted$' "$out"
ok $? "SIGINT during a long QMC block: out $ms ms later, the estimate before it"

# Checkpoints: state_checks WHAT OPTIONS EXPR: a run with --state killed
# by SIGTERM after its first iteration writes its state; the same command
# again continues from it and ends with the output of the run never
# stopped (the time aside). For cubature (breadth-first, as every run with
# --state), Vegas (30 iterations of 1e6 calls, seconds of work after the
# first) and QMC; then a run of another EXPR refuses the file (exit 3)
# and leaves it.
no_time() { sed 's/, "seconds": [^}]*//' "$out"; }
state_checks() {
    rm -f "$tmp/run.state"
    run $2 "$3"
    no_time >"$tmp/state_whole"
    start_bg $2 --progress --state "$tmp/run.state" --state-interval 0 "$3"
    wait_for 'grep -q "^iteration" "$err"'
    kill -TERM $pid
    finish_bg
    [ $rc -eq 1 ] && grep -q '"status": "interrupted"' "$out" &&
        [ -s "$tmp/run.state" ]
    ok $? "--state$1: SIGTERM ends the run (exit 1) and leaves its state"
    run $2 --state "$tmp/run.state" "$3"
    no_time | cmp -s - "$tmp/state_whole"
    ok $? "--state$1: the same command again continues: the output of the run never stopped"
}
state_checks ", cubature" "--method cubature --strategy breadth --epsrel 1e-10 --epsabs 0 --json -n 4" \
    'exp(-((x[0] - 0.4) * (x[0] - 0.4) + (x[1] - 0.4) * (x[1] - 0.4) +
    (x[2] - 0.4) * (x[2] - 0.4) + (x[3] - 0.4) * (x[3] - 0.4)) / 0.09)'
state_expr='sin(x[0] * x[1] + x[2])'
state_checks ", vegas" "--method vegas --max-iterations 30 --epsrel 1e-15 --epsabs 0 --json -n 3" "$state_expr"
state_run="--method qmc --max-iterations 10 --epsrel 1e-15 --epsabs 0 --json
    -n 3"
state_checks ", qmc" "$state_run" "$state_expr"
cp "$tmp/run.state" "$tmp/run.copy"
run $state_run --state "$tmp/run.state" 'cos(x[0] * x[1] + x[2])'
[ $rc -eq 3 ] && grep -q 'belongs to another integration: the integrand' "$err" &&
    cmp -s "$tmp/run.state" "$tmp/run.copy"
ok $? "--state: another EXPR refuses the file (exit 3) and leaves it"
run --state-interval -1 'x[0]'
[ $rc -eq 2 ] && grep -q 'state-interval' "$err"
ok $? "--state-interval -1 is a usage error"

# signal_compile TAG KILL: starts pagani on a big source of its own (TAG)
# and, half a second into its compilation, runs the command KILL (which
# may use $pid); then waits for it (finish_bg).
signal_compile() {
    big_source "$1"
    start_bg --max-iterations 1 -f "$tmp/big.c"
    wait_for 'build_dirs >/dev/null'
    sleep 0.5 2>/dev/null || sleep 1
    eval "$2"
    finish_bg
}

# A stop signal while EXPR compiles: once the library returns, nothing is
# integrated or printed on stdout, the program ends by the signal (128 +
# its number) and no build folder is left in the cache. SIGTERM goes to
# pagani alone (the compiler finishes); Ctrl-C goes to the whole process
# group, the compiler included.
for sig in TERM INT; do
    case $sig in
    TERM) signal_compile term 'kill -TERM $pid'; code=143 ;;
    INT) signal_compile int 'kill -INT -$pid'; code=130 ;;
    esac
    [ $rc -eq $code ] && [ ! -s "$out" ] &&
        grep -q "SIG$sig before the integration began" "$err" &&
        [ -z "$(build_dirs)" ]
    ok $? "SIG$sig while EXPR compiles: no integration, no build folder left"
done

# A second SIGTERM ends it at once, by the default action: no message
# about the first (its build folder may stay: the process was killed).
signal_compile term2 'kill -TERM $pid; sleep 0.5 2>/dev/null || sleep 1
                      kill -TERM $pid'
kill -KILL -$pid 2>/dev/null # the compiler, where it outlived pagani
[ $rc -eq 143 ] && [ ! -s "$out" ] && ! grep -q 'integration began' "$err"
ok $? "a second SIGTERM while EXPR compiles ends the program at once"

tap_end
