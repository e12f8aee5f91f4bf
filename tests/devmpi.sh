#!/bin/sh
# devmpi.sh - the MPI layer on a GPU machine that has no MPI and no
# network: Open MPI from the Debian packages carried in .dist-mpi/
# (apt-get download, README "Running on many GPUs and nodes"), unpacked
# with dpkg -x into a folder and used from there; then the release tarball
# carried there too (make dist) configured with --with-cuda-arch=90
# --with-mpi, built, its MPI tests run with the CUDA backend (the ranks
# share the GPUs round robin), and the MPI benchmark. Logs in $OUT.
#
#   tests/devmpi.sh [RANK COUNTS]       (run from the repository's root,
#                                        default "1 2")
#   tests/devmpi.sh unpack DIR          only unpack Open MPI into DIR and
#                                        check mpicc and mpirun from there
#
# A system Open MPI (a working mpicc and mpirun on the PATH) is used
# instead when there is one.
set -u
top=$(pwd)
debs=$top/.dist-mpi
out=${OUT:-/tmp/devmpi-out}
mkdir -p "$out"

# use_unpacked DIR: unpacks every carried .deb into DIR and points PATH,
# LD_LIBRARY_PATH, OPAL_PREFIX (Open MPI's relocation) and PMIX_PREFIX
# there. dpkg -x runs no maintainer scripts, so the alternatives links
# mpicc and mpirun are made here.
use_unpacked() {
    dir=$1
    mkdir -p "$dir" || return 1
    for deb in "$debs"/*.deb; do
        dpkg -x "$deb" "$dir" || return 1
    done
    usr=$dir/usr
    lib=$usr/lib/x86_64-linux-gnu
    ln -sf mpicc.openmpi "$usr/bin/mpicc"
    ln -sf mpirun.openmpi "$usr/bin/mpirun"
    OPAL_PREFIX=$usr
    PMIX_PREFIX=$lib/pmix2
    # its help files stay at their packaged path: quiet the one warning
    PMIX_MCA_pcompress_base_silence_warning=1
    PATH=$usr/bin:$PATH
    libs=$lib:$lib/openmpi/lib:$lib/pmix2/lib
    LD_LIBRARY_PATH=$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export OPAL_PREFIX PMIX_PREFIX PMIX_MCA_pcompress_base_silence_warning
    export PATH LD_LIBRARY_PATH
}

# check_mpi: mpicc and mpirun work (from wherever PATH has them), and an
# MPI program runs on 2 ranks; says where they are.
check_mpi() {
    root=
    [ "$(id -u)" -eq 0 ] && root=--allow-run-as-root
    echo "mpicc: $(command -v mpicc), mpirun: $(command -v mpirun)"
    mpicc --showme || return 1
    mpirun --version | head -n 1 || return 1
    cat >"$out/hello.c" <<'HELLO'
#include <stdio.h>
#include <mpi.h>
int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    printf("rank %d of %d\n", rank, size);
    MPI_Finalize();
    return 0;
}
HELLO
    mpicc -o "$out/hello" "$out/hello.c" &&
        timeout 60 mpirun $root --oversubscribe -np 2 "$out/hello"
}

if [ "${1:-}" = unpack ]; then
    use_unpacked "$2" && check_mpi
    exit
fi

if ! mpicc --showme >/dev/null 2>&1 || ! command -v mpirun >/dev/null 2>&1
then
    use_unpacked /tmp/devmpi-ompi || { echo "unpacking failed"; exit 1; }
fi
# containers (gVisor) may refuse cross-process memory copies and binding
OMPI_MCA_btl_vader_single_copy_mechanism=none
OMPI_MCA_hwloc_base_binding_policy=none
export OMPI_MCA_btl_vader_single_copy_mechanism
export OMPI_MCA_hwloc_base_binding_policy
check_mpi >"$out/mpi.txt" 2>&1
status=$?
if [ $status -ne 0 ]; then
    # shared memory may be unusable in a container: TCP on the host instead
    OMPI_MCA_btl=self,tcp
    export OMPI_MCA_btl
    check_mpi >>"$out/mpi.txt" 2>&1
    status=$?
fi
cat "$out/mpi.txt"
[ $status -eq 0 ] || exit 1

tarball=$(ls -t "$debs"/libpagani-*.tar.gz 2>/dev/null | head -n 1)
[ -n "$tarball" ] || { echo "no libpagani-*.tar.gz in .dist-mpi"; exit 1; }
rm -rf /tmp/devmpi-build && mkdir -p /tmp/devmpi-build &&
    tar -C /tmp/devmpi-build -xzf "$tarball" || exit 1
cd /tmp/devmpi-build/libpagani-* || exit 1
export PAGANI_CACHE_DIR=/tmp/devmpi-cache
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv \
    >"$out/gpu.txt" 2>&1
{ ./configure --with-cuda-arch=90 --with-mpi && make -j"$(nproc)"; } \
    >"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
grep -A8 '^libpagani' "$out/build.log" | tail -8
counts=${1:-1 2}
PAGANI_TEST_BACKEND=cuda PAGANI_TEST_MPI_RANKS=$counts \
    make check TESTS="tests/test_mpi.sh tests/test_qmc_parts.sh" \
    >"$out/check.log" 2>&1
echo "make check (MPI tests, CUDA, ranks $counts) exit: $?"
cat tests/test_mpi.sh.log tests/test_qmc_parts.sh.log >"$out/tests.log"
grep -E '^(not ok|# )' "$out/tests.log" | head -20
grep -c '^ok' "$out/tests.log"
echo "== bench_mpi (CUDA, ranks $counts)"
sh tests/bench_mpi.sh cuda "$counts" 2>&1 | tee "$out/bench_mpi.txt"
