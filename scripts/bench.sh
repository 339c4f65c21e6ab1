#!/bin/sh
# bench.sh - the benchmarks: each scenario of scenarios/bench/ on 1 and 2
# threads in a release build, with its wall time, events, events/s, data
# packets/s, wall time per data packet, peak RSS, the speed-up of the run
# on more threads and events per data packet.  Figures are measured and
# printed, never asserted; they depend on the machine (and on what else it
# runs).
#
#   sh scripts/bench.sh [--quick] [--threads "1 2"] [--ranks "2"] [--repeat N]
#                       [--csv FILE] [--no-build] [NAME...]
#
# NAME: scenarios/bench/NAME.ini (default: all of them).  --quick leaves out
# the 4096- and 8192-rank all-reduce and the 8192-rank all-to-all (minutes
# each).  --repeat N runs each
# scenario's thread counts N times in turn (1 2 1 2 ...: a drift of the
# machine's speed hits both alike) and adds, per thread count, the median
# wall time, its range and the median of the speed-ups each round gave.
# BUILD=dir picks the build directory (default build-release).  wall_s is
# the run's simulation loop (stats.csv); whole_s and peak RSS are the whole
# process, from /usr/bin/time -v.  Lines starting with # give the time a
# random load takes over 1, 8 and 32 MB (scripts/memlat.c) before the table
# and after each scenario.  --ranks "R..." also runs each scenario split
# over R MPI ranks of one thread (mpirun -np R, an MPI release build:
# BUILD_MPI, default build-mpi-release) and prints, from its ranks.csv, the
# wall time, the largest peak RSS of a rank, the bytes the ranks exchanged
# per window (all ranks together) and the mean time a rank spent in the
# exchanges.  With incast-128, lines starting with # compare its events by
# kind to the same run with nic.cc = none: DCQCN's events beyond its CNP
# frames, per data packet.
set -e
cd "$(dirname "$0")/.."
build=${BUILD:-build-release}
threads="1 2"
ranks=
repeat=1
quick=0
csv=
nobuild=0
names=
while [ $# -gt 0 ]; do
	case "$1" in
	--quick) quick=1 ;;
	--threads) threads="$2"; shift ;;
	--ranks) ranks="$2"; shift ;;
	--repeat) repeat="$2"; shift ;;
	--csv) csv="$2"; shift ;;
	--no-build) nobuild=1 ;;
	-h|--help) sed -n '2,29p' "$0"; exit 0 ;;
	-*) echo "bench.sh: unknown option $1" >&2; exit 2 ;;
	*) names="$names $1" ;;
	esac
	shift
done
case "$repeat" in
''|*[!0-9]*|0) echo "bench.sh: --repeat takes a count of 1 or more, not '$repeat'" >&2; exit 2 ;;
esac
if [ ! -x /usr/bin/time ]; then
	echo "bench.sh: /usr/bin/time is missing (apt-get install time)" >&2
	exit 2
fi
if [ "$nobuild" = 0 ]; then
	if [ ! -d "$build" ]; then
		sh scripts/deps.sh
		meson setup "$build" --buildtype=release -Db_lto=true
	fi
	ninja -C "$build" dcqcn-sim memlat
fi
sim="$build/dcqcn-sim"
mpisim=
if [ -n "$ranks" ]; then
	bmpi=${BUILD_MPI:-build-mpi-release}
	if [ "$nobuild" = 0 ]; then
		sh scripts/deps.sh --mpi
		[ -d "$bmpi" ] || meson setup "$bmpi" --buildtype=release -Db_lto=true -Dmpi=enabled
		ninja -C "$bmpi" dcqcn-sim
	fi
	mpisim="$bmpi/dcqcn-sim"
	mpirun="mpirun --oversubscribe"
	[ "$(id -u)" -ne 0 ] || mpirun="$mpirun --allow-run-as-root"
fi
# incast-128's events by kind against the same run without congestion
# control: the kinds that are not frames (pacing, timers, samplers) grow by
# what DCQCN adds beyond its CNP frames
cc_events() {
	"$sim" run "scenarios/bench/$1.ini" -o "$out/$1-cc" --quiet --threads 1
	d="$out/$1-nocc"
	"$sim" run "scenarios/bench/$1.ini" -o "$d" --quiet --threads 1 --set nic.cc=none
	awk -F, 'FNR == 1 { f++; next } { e[$1, f] = $3; k[$1] = 1 }
		END { for (x in k) { d = e[x, 1] - e[x, 2]; tot += d
			if (x !~ /^(switch.pipeline|port.tx|port.link|nic.tx|nic.link)$/) rest += d
			printf "# %s %-18s %8.3f %8.3f %+8.3f\n", n, x, e[x, 1], e[x, 2], d }
		printf "# %s: DCQCN fires %.2f more events per data packet than nic.cc = none; %.2f of them are not frames (the rest: its CNP frames)\n", n, tot, rest }' \
		n="$1" "$out/$1-cc/events.csv" "$d/events.csv" | sort -k3
}
# a split run of scenario $1 over $2 ranks: wall time, largest rank RSS,
# bytes exchanged per window, mean wait
split_run() {
	d="$out/$1-r$2"
	$mpirun -np "$2" "$mpisim" run "scenarios/bench/$1.ini" -o "$d" --quiet --threads 1
	wall=$(tail -1 "$d/stats.csv" | cut -d, -f2)
	awk -F, -v n="$1" -v r="$2" -v wall="$wall" 'NR > 1 { rss = $11 > rss ? $11 : rss;
		bytes += $7; ex = $6; wait += $10 }
		END { printf "%-18s %3s ranks: wall %s s, largest rank RSS %.1f MB, %.0f B exchanged a window (%d windows), %.2f s a rank in the exchanges\n",
			n, r, wall, rss, ex ? bytes / ex : 0, ex, wait / (NR - 1) }' "$d/ranks.csv"
}
# the memory latency of this moment (scripts/memlat.c), before the table and
# after each scenario: on a shared machine it moves, and the wall times with it
memlat() {
	[ ! -x "$build/memlat" ] || echo "# $("$build/memlat")"
}
if [ -z "$names" ]; then
	for f in scenarios/bench/*.ini; do
		n=$(basename "$f" .ini)
		case "$n" in allreduce-4096|allreduce-8192|alltoall-8192) [ "$quick" = 1 ] && continue ;; esac
		names="$names $n"
	done
fi
out=${BENCH_OUT:-$(mktemp -d /tmp/dcqcn-bench-XXXXXX)}
[ -n "$BENCH_OUT" ] || trap 'rm -rf "$out"' EXIT
[ -z "$csv" ] || echo "scenario,threads,wall_s,whole_s,events,events_per_s,data_pkts,pkts_per_s,ns_per_pkt,peak_rss_mb,speedup,run,events_per_pkt" >"$csv"
memlat
printf '%-18s %3s %9s %9s %12s %11s %11s %9s %8s %7s %7s\n' scenario thr wall_s whole_s events events/s pkts/s ns/pkt rss_MB speedup ev/pkt
# the median (the mean of the middle two for an even count), smallest and
# largest of column $2 of the rows of thread count $1 in $out/walls
med() {
	awk -v t="$1" -v c="$2" '$1 == t { print $c }' "$out/walls" | sort -g |
		awk '{ v[NR] = $1 } END { m = int((NR + 1) / 2);
			print (NR % 2 ? v[m] : (v[m] + v[m + 1]) / 2), v[1], v[NR] }'
}
for n in $names; do
	f="scenarios/bench/$n.ini"
	[ -f "$f" ] || { echo "bench.sh: no $f" >&2; exit 2; }
	: >"$out/walls" # threads, wall_s, speed-up of every run
	r=1
	while [ "$r" -le "$repeat" ]; do
		base=
		for t in $threads; do
			d="$out/$n-t$t"
			/usr/bin/time -v -o "$out/time" "$sim" run "$f" -o "$d" --quiet --threads "$t"
			whole=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0;
				for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$out/time")
			rss=$(awk -F': ' '/Maximum resident set size/ { printf "%.1f", $2 / 1024 }' "$out/time")
			# events,wall_s,events_per_s,peak_rss_mb,sim_time_us,data_pkts,pkts_per_s,threads
			row=$(tail -1 "$d/stats.csv")
			wall=$(echo "$row" | cut -d, -f2)
			[ -n "$base" ] || base=$wall
			# the CSV row
			line=$(echo "$row" | awk -F, -v n="$n" -v t="$t" -v whole="$whole" -v rss="$rss" \
				-v base="$base" -v r="$r" '{
				printf "%s,%s,%s,%s,%s,%.0f,%s,%.0f,%.0f,%s,%.2f,%s,%.2f", n, t, $2, whole, $1,
				       $3, $6, $7, ($6 > 0 ? $2 * 1e9 / $6 : 0), rss, ($2 > 0 ? base / $2 : 0),
				       r, ($6 > 0 ? $1 / $6 : 0) }')
			echo "$line" | awk -F, '{ printf "%-18s %3s %9s %9s %12s %11s %11s %9s %8s %7s %7s\n",
				$1, $2, $3, $4, $5, $6, $8, $9, $10, $11, $13 }'
			[ -z "$csv" ] || echo "$line" >>"$csv"
			echo "$line" | awk -F, '{ print $2, $3, $11 }' >>"$out/walls"
		done
		r=$((r + 1))
	done
	for nr in $ranks; do
		split_run "$n" "$nr"
	done
	[ "$n" != incast-128 ] || cc_events "$n"
	memlat
	[ "$repeat" -gt 1 ] || continue
	for t in $threads; do
		set -- $(med "$t" 2)
		w=$1 lo=$2 hi=$3
		set -- $(med "$t" 3)
		printf '%-18s %3s median wall %s s (%s-%s over %s runs), speed-up %.2f (median of the rounds)\n' \
			"$n" "$t" "$w" "$lo" "$hi" "$repeat" "$1"
	done
done
