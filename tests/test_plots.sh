#!/bin/sh
# test_plots.sh DCQCN_SIM SOURCE_ROOT - `dcqcn-sim plot DIR` and `run --plot`
# (DESIGN A1, A3): short runs (the default with PFC alone and with DCQCN,
# an incast that pauses, a ring all-reduce that completes), every
# expected PNG present, a real PNG and not an empty chart (> 10 KB); the
# figures whose CSV has no rows skipped and not left behind; a CSV without a
# needed column, a missing CSV and a missing gnuplot fail with a message
# naming the file and column, or how to install gnuplot.  Exit 77 (skipped)
# when gnuplot is not installed.
sim="$1"
root="$2"
if ! command -v gnuplot >/dev/null 2>&1; then
	echo "plots: gnuplot not installed (apt-get install gnuplot-nox): skipped"
	exit 77
fi
export DCQCN_SIM_PLOTS="$root/plots"
tmp=$(mktemp -d /tmp/dcqcn-plots-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$root/tests/testlib.sh"

# has_rows FILE: the CSV has a data row below its header
has_rows() { [ "$(wc -l <"$1")" -gt 1 ]; }

# png_ok FILE DESCRIPTION: exists, starts with the PNG signature, > 10 KB
# (a 1200x600 chart with its axes and title is 15 KB and more, a drawn one
# 40-120 KB; a truncated or failed write is smaller)
png_ok() {
	f="$1"
	if [ ! -f "$f" ]; then bad "$2: $f missing"; return; fi
	sig=$(od -An -tx1 -N8 "$f" | tr -d ' \n')
	size=$(wc -c <"$f")
	if [ "$sig" != "89504e470d0a1a0a" ]; then bad "$2: $f is not a PNG ($sig)"
	elif [ "$size" -le 10240 ]; then bad "$2: $f only $size bytes"
	else ok "$2 ($size bytes)"; fi
}

# check_dir DIR NAME: the PNGs plot must have drawn from DIR's CSVs
check_dir() {
	d="$1"; n="$2"
	for fig in queues pause_map rates; do
		png_ok "$d/plots/$fig.png" "$n: $fig.png"
	done
	if has_rows "$d/rates.csv"; then png_ok "$d/plots/dcqcn.png" "$n: dcqcn.png"
	elif [ -e "$d/plots/dcqcn.png" ]; then bad "$n: dcqcn.png drawn from an empty rates.csv"
	else ok "$n: dcqcn.png skipped (rates.csv has no rows)"; fi
	if has_rows "$d/collectives.csv"; then png_ok "$d/plots/collectives.png" "$n: collectives.png"
	elif [ -e "$d/plots/collectives.png" ]; then bad "$n: collectives.png drawn from an empty collectives.csv"
	else ok "$n: collectives.png skipped (collectives.csv has no rows)"; fi
}

# 1. the embedded default with PFC alone (nic.cc = none): no DCQCN rates
expect 0 "run with nic.cc = none" "$sim" run -o "$tmp/pfc" --quiet \
	--set sim.duration=1ms --set nic.cc=none
expect 0 "plot the nic.cc = none run" "$sim" plot "$tmp/pfc"
check_dir "$tmp/pfc" "pfc"
grep_in "$tmp/out" "skipped dcqcn.png" "plot notes that dcqcn.png was skipped"

# 1b. an 8-to-1 incast on one switch without DCQCN: PFC pauses the senders,
# so the pause map has rows
cat >"$tmp/incast.ini" <<'INI'
[sim]
duration = 1ms
[topology]
kind = star
hosts = 9
[buffer]
size = 16MB
[nic]
cc = none
[job.incast]
pattern = incast
dst = 0
size = 8MB
INI
expect 0 "run an incast with PFC alone" "$sim" run "$tmp/incast.ini" -o "$tmp/incast" --quiet
if has_rows "$tmp/incast/pause.csv"; then ok "the incast pauses"; else bad "the incast has no pause rows"; fi
expect 0 "plot the incast" "$sim" plot "$tmp/incast"
check_dir "$tmp/incast" "incast"

# 2. DCQCN (the embedded default)
expect 0 "run with DCQCN" "$sim" run -o "$tmp/dcqcn" --quiet --set sim.duration=1ms
if has_rows "$tmp/dcqcn/rates.csv"; then ok "DCQCN run traces rates"; else bad "DCQCN run has an empty rates.csv"; fi
expect 0 "plot the DCQCN run" "$sim" plot "$tmp/dcqcn"
check_dir "$tmp/dcqcn" "dcqcn"

# 2b. a short ring all-reduce that completes: collectives.png is drawn
cat >"$tmp/ring.ini" <<'INI'
[sim]
duration = 2ms
[topology]
kind = star
hosts = 8
[job.ring]
pattern = ring-allreduce
ranks = all
size = 2MB
iterations = 4
compute_gap = 20us
INI
expect 0 "run a ring all-reduce" "$sim" run "$tmp/ring.ini" -o "$tmp/ring" --quiet
if has_rows "$tmp/ring/collectives.csv"; then ok "the all-reduce completes iterations"
else bad "the all-reduce completed no iteration"; fi
expect 0 "plot the all-reduce" "$sim" plot "$tmp/ring"
check_dir "$tmp/ring" "ring"

# 3. plotting again replaces the figures (same directory, no stale files)
expect 0 "plot the DCQCN run again" "$sim" plot "$tmp/dcqcn"
png_ok "$tmp/dcqcn/plots/queues.png" "replot: queues.png"

# 4. run --plot draws as the run ends
expect 0 "run --plot" "$sim" run -o "$tmp/runplot" --quiet --plot --set sim.duration=500us
png_ok "$tmp/runplot/plots/rates.png" "run --plot: rates.png"

# 5. a CSV without a needed column: plot fails, naming the file and column
cp -r "$tmp/pfc" "$tmp/nocol"
cut -d, -f1-4 "$tmp/pfc/queues.csv" >"$tmp/nocol/queues.csv"
expect nonzero "queues.csv without bytes fails" "$sim" plot "$tmp/nocol"
grep_in "$tmp/err" "queues.csv" "the error names queues.csv"
grep_in "$tmp/err" "bytes" "the error names the column bytes"
if [ -e "$tmp/nocol/plots/queues.png" ]; then bad "no queues.png left from the failed plot"
else ok "no queues.png left from the failed plot"; fi

cp -r "$tmp/pfc" "$tmp/nopause"
cut -d, -f1-4,6 "$tmp/pfc/pause.csv" >"$tmp/nopause/pause.csv"
expect nonzero "pause.csv without paused_fraction fails" "$sim" plot "$tmp/nopause"
grep_in "$tmp/err" "pause.csv.*paused_fraction" "the error names pause.csv and paused_fraction"

# 6. a missing CSV
cp -r "$tmp/pfc" "$tmp/nofile"
rm "$tmp/nofile/counters.csv"
expect nonzero "a missing counters.csv fails" "$sim" plot "$tmp/nofile"
grep_in "$tmp/err" "counters.csv" "the error names counters.csv"

# 7. an empty pause.csv is a valid run: an empty map, not a failure
cp -r "$tmp/pfc" "$tmp/calm"
head -1 "$tmp/pfc/pause.csv" >"$tmp/calm/pause.csv"
expect 0 "plot with no pause rows" "$sim" plot "$tmp/calm"
png_ok "$tmp/calm/plots/pause_map.png" "empty pause map"

# 8. no gnuplot on PATH: fails and says how to install it
expect nonzero "plot without gnuplot fails" env PATH=/nonexistent "$sim" plot "$tmp/pfc"
grep_in "$tmp/err" "apt-get install gnuplot-nox" "the error says how to install gnuplot"

# 9. not a run directory
expect nonzero "plot of a missing directory fails" "$sim" plot "$tmp/nope"

finish plots
