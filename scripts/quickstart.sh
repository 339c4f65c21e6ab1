#!/bin/sh
# quickstart.sh - install what is missing, build the program (release; the
# test suites are built by scripts/test.sh, not here), and run the embedded
# default scenario into results/default/ with its figures.
set -e
cd "$(dirname "$0")/.."
sh scripts/deps.sh
[ -d build-release ] || meson setup build-release --buildtype=release -Db_lto=true -Dtests=disabled
meson compile -C build-release dcqcn-sim
./build-release/dcqcn-sim run --plot "$@"
