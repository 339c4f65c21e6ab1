#!/bin/sh
# bench.sh - build (release) and run the benchmarks: events/s, packets/s,
# wall time and peak RSS (measured, never asserted).
set -e
cd "$(dirname "$0")/.."
sh scripts/deps.sh
[ -d build-release ] || meson setup build-release --buildtype=release
meson test -C build-release --benchmark --verbose
