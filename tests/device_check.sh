#!/bin/sh
# Builds a release tarball's tree on a GPU machine, runs the whole test
# suite there (GPU tests included) and the benchmarks, and leaves the logs
# and tables in $OUT. Usage: tests/device_check.sh libpagani-X.tar.gz [bench...]
set -u
tarball=$1; shift
out=${OUT:-/tmp/pagani-out}
mkdir -p "$out" /tmp/pagani-build
tar -C /tmp/pagani-build -xzf "$tarball" || exit 1
cd /tmp/pagani-build/libpagani-* || exit 1
export PAGANI_CACHE_DIR=/tmp/pagani-cache
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$out/gpu.txt" 2>&1
{ ./configure --with-cuda-arch=90 && make -j"$(nproc)" && make -j"$(nproc)" check; } > "$out/build.log" 2>&1
echo "make check exit: $?" >> "$out/build.log"
cat tests/*.log > "$out/tests.log" 2>/dev/null
grep -h -E '^(PASS|FAIL|SKIP|ERROR|XPASS)' tests/*.log | sort | uniq -c | sort -rn | head -5 >> "$out/build.log"
tail -25 "$out/build.log"
for bench in "$@"; do
  echo "== $bench" ; ./tests/$bench 2>&1 | tee "$out/$bench.txt"
done
