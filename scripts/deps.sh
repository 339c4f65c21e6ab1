#!/bin/sh
# deps.sh - install the Debian 12 packages dcqcn-sim needs, only those that
# are missing (run as root; apt-get update runs only when something is).
# groff-base and man-db render the man pages (the reference test lints them);
# zsh runs the zsh completion in the same test.
# chromium opens every kind of report.html, headless, in the report test.
# --mpi adds OpenMPI, for the optional MPI build (-Dmpi=enabled).
set -e
pkgs="build-essential pkg-config meson ninja-build python3 libgsl-dev libcsv-dev libinih-dev libjson-c-dev check gnuplot-nox groff-base man-db zsh chromium"
[ "$1" = --mpi ] && pkgs="$pkgs libopenmpi-dev openmpi-bin"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing
fi
