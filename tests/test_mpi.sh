#!/bin/sh
# test_mpi.sh DCQCN_SIM SOURCE_ROOT - sweeps under mpirun (a build with
# -Dmpi=enabled): `mpirun -np 2 dcqcn-sim sweep` writes the sweep.csv of a
# one-machine run (-j 1), byte for byte, with and without --repeat; the
# ranks split the points (p % 2); only rank 0 prints the table; calibrate
# under mpirun writes the calibrate.csv of one machine; without mpirun the
# MPI build is the plain one.  Registered by tests/meson.build
# only in the MPI build; scripts/test.sh runs it in build-mpi.
sim="$1"
root="$2"
tmp=$(mktemp -d /tmp/dcqcn-mpi-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$root/tests/testlib.sh"

if ! command -v mpirun >/dev/null 2>&1; then
	echo "mpirun not found: sh scripts/deps.sh --mpi installs Open MPI"
	exit 1
fi
# a container's root, and a machine with fewer cores than ranks
mpi="mpirun -np 2 --oversubscribe"
[ "$(id -u)" -eq 0 ] && mpi="$mpi --allow-run-as-root"

cat >"$tmp/star.ini" <<'INI'
[topology]
kind = star
hosts = 5
host_link = 100Gbps
[job.incast]
pattern = incast
dst = 0
size = 2MB
INI
vary="--vary ecn.kmin=50KB,100KB,150KB --vary ecn.pmax=10%,0.5"

# shellcheck disable=SC2086
expect 0 "the reference sweep, -j 1" "$sim" sweep "$tmp/star.ini" -o "$tmp/ref" -q -j 1 $vary
# shellcheck disable=SC2086
expect 0 "mpirun -np 2 dcqcn-sim sweep" $mpi "$sim" sweep "$tmp/star.ini" -o "$tmp/mpi" $vary
if cmp -s "$tmp/ref/sweep.csv" "$tmp/mpi/sweep.csv"; then ok "sweep.csv under mpirun is byte-identical to -j 1"
else bad "sweep.csv under mpirun differs from -j 1"; diff "$tmp/ref/sweep.csv" "$tmp/mpi/sweep.csv" | head -5; fi
n=$(grep -c "^dcqcn-sim: sweep results in" "$tmp/out")
if [ "$n" -eq 1 ]; then ok "only rank 0 prints the table"; else bad "the table printed $n times"; fi
grep_in "$tmp/err" "^sweep: rank 1 of 2: point 1 (ecn.kmin=50KB, ecn.pmax=0.5): ok" "rank 1 runs point 1"
grep_in "$tmp/err" "^sweep: rank 0 of 2: point 4 (ecn.kmin=150KB, ecn.pmax=10%): ok" "rank 0 runs point 4"
if grep -q "rank 1 of 2: point [024] " "$tmp/err"; then bad "rank 1 ran an even point"; else ok "rank 1 runs only the odd points"; fi
for p in p000 p001 p002 p003 p004 p005; do
	if [ -s "$tmp/mpi/$p/summary.csv" ]; then ok "$p in the one shared folder"; else bad "$p missing"; fi
done

# with --repeat: the same aggregated sweep.csv
# shellcheck disable=SC2086
expect 0 "the reference sweep with --repeat 2" "$sim" sweep "$tmp/star.ini" -o "$tmp/ref2" -q $vary --repeat 2
# shellcheck disable=SC2086
expect 0 "mpirun with --repeat 2" $mpi "$sim" sweep "$tmp/star.ini" -o "$tmp/mpi2" -q $vary --repeat 2
if cmp -s "$tmp/ref2/sweep.csv" "$tmp/mpi2/sweep.csv"; then ok "--repeat under mpirun: the same sweep.csv"
else bad "--repeat under mpirun: sweep.csv differs"; fi

# a point that does not load: every rank stops before anything runs
expect 2 "a bad point under mpirun" $mpi "$sim" sweep "$tmp/star.ini" -o "$tmp/bad" -q --vary ecn.kmin=50KB,5MB
grep_in "$tmp/err" "point 1 (ecn.kmin=5MB)" "the bad point is named"
if [ ! -d "$tmp/bad" ]; then ok "nothing ran"; else bad "a bad sweep left $tmp/bad"; fi
expect 2 "--shard under mpirun" $mpi "$sim" sweep "$tmp/star.ini" -o "$tmp/sh" -q --vary ecn.kmin=50KB --shard 0/2
grep_in "$tmp/err" "shard under mpirun: give one or the other" "--shard and mpirun: one or the other"

# calibrate under mpirun: every rank runs the same search over collective
# sweeps; rank 0 writes calibrate.csv, the same as one machine's
cal="$root/tests/data/calibrate-incast.ini"
tune="--tune ecn.kmin=20KB:1.28MB:x4 --tune ecn.kmax=200KB:12.8MB:x4 --no-plane"
# shellcheck disable=SC2086
expect 0 "calibrate, one machine" "$sim" calibrate "$cal" $tune -o "$tmp/cal1" -q
# shellcheck disable=SC2086
expect 0 "mpirun -np 2 dcqcn-sim calibrate" $mpi "$sim" calibrate "$cal" $tune -o "$tmp/cal2"
if cmp -s "$tmp/cal1/calibrate.csv" "$tmp/cal2/calibrate.csv" &&
	cmp -s "$tmp/cal1/recommended.ini" "$tmp/cal2/recommended.ini"; then
	ok "calibrate under mpirun: the same calibrate.csv and recommended.ini"
else bad "calibrate under mpirun differs"; diff "$tmp/cal1/calibrate.csv" "$tmp/cal2/calibrate.csv" | head -5; fi
n=$(grep -c "^recommended (passes every run" "$tmp/out")
if [ "$n" -eq 1 ]; then ok "only rank 0 reports the recommendation"; else bad "the recommendation printed $n times"; fi

# without mpirun the MPI build is the plain one (no MPI_Init, fork pool)
# shellcheck disable=SC2086
expect 0 "the MPI build without mpirun, -j 2" "$sim" sweep "$tmp/star.ini" -o "$tmp/single" -q -j 2 $vary
if cmp -s "$tmp/ref/sweep.csv" "$tmp/single/sweep.csv"; then ok "without mpirun: the same sweep.csv"
else bad "without mpirun: sweep.csv differs"; fi

finish mpi
