#!/bin/sh
# quickstart.sh - install what is missing, build (release), and run the
# embedded default scenario into results/default/ with its figures.
set -e
cd "$(dirname "$0")/.."
sh scripts/deps.sh
[ -d build-release ] || meson setup build-release --buildtype=release -Db_lto=true
meson compile -C build-release
./build-release/dcqcn-sim run --plot "$@"
