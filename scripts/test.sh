#!/bin/sh
# test.sh - install what is missing, build, and run every test suite twice:
# once in a normal build (build/), whose outputs a release build (the quick
# start's build-release/) must repeat byte for byte, and once with
# AddressSanitizer and UndefinedBehaviorSanitizer (build-asan/); then the comparison of runs on
# 1, 2 and 3 threads once more under ThreadSanitizer (build-tsan/), on a
# shorter corpus; then the MPI build (build-mpi), its sweep test and its
# split runs under mpirun.  Check prints its summary line per suite ("100%: Checks: N,
# Failures: 0, Errors: 0").
set -e
cd "$(dirname "$0")/.."
sh scripts/deps.sh

[ -d build ] || meson setup build -Dtests=enabled
meson test -C build --verbose --num-processes 2

# the same bytes whatever the build type (docs/ARCHITECTURE.md#rules): the
# quick start's release build (-O3, link-time optimization) against build/
# (debugoptimized) on the comparison corpus of scripts/compare-outputs.py
[ -d build-release ] || meson setup build-release --buildtype=release -Db_lto=true -Dtests=disabled
meson compile -C build-release dcqcn-sim
rm -rf build/outputs-debugoptimized
python3 scripts/compare-outputs.py build/dcqcn-sim record build/outputs-debugoptimized --soak 50
python3 scripts/compare-outputs.py build-release/dcqcn-sim compare build/outputs-debugoptimized --soak 50

[ -d build-asan ] || meson setup build-asan -Dtests=enabled -Db_sanitize=address,undefined -Db_lundef=false
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
meson test -C build-asan --verbose --num-processes 2

[ -d build-tsan ] || meson setup build-tsan -Db_sanitize=thread -Db_lundef=false
ninja -C build-tsan dcqcn-sim
# (the runs on one thread, which have no race to find, from build/)
TSAN_OPTIONS="halt_on_error=1 exitcode=66" \
	python3 tests/test_threads.py build-tsan/dcqcn-sim . --soak 8 --reference build/dcqcn-sim

# the optional MPI build (-Dmpi=enabled, Open MPI): sweeps under mpirun give
# the sweep.csv of a one-machine run, and one run split over mpirun's ranks
# the files of one process
sh scripts/deps.sh --mpi
[ -d build-mpi ] || meson setup build-mpi -Dtests=enabled -Dmpi=enabled
ninja -C build-mpi dcqcn-sim
meson test -C build-mpi --verbose mpi split
