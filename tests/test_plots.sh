#!/bin/sh
# test_plots.sh DCQCN_SIM SOURCE_ROOT - `dcqcn-sim plot DIR` and `run --plot`
# (docs/contract.md#commands, #outputs): short runs (the default with PFC alone and with DCQCN,
# an incast that pauses, a ring all-reduce that completes), every
# expected PNG present, a real PNG and not an empty chart (> 10 KB); the
# figures whose CSV has no rows skipped and not left behind; a CSV without a
# needed column, a missing CSV and a missing gnuplot fail with a message
# naming the file and column, or how to install gnuplot.
# Also what the figures are drawn from: counters.csv adds up to summary.csv
# exactly (its last row closes the run, for runs ended by their last
# completion and by sim.duration, on 1 and 3 threads), dcqcn.png's QPs
# (output.plot_qps, or auto's most cut) named from qps.csv, the busbw target
# only for collectives, storage.png's latency above the all-reduce's
# iterations (and skipped without storage), every figure in svg and pdf
# too, and a run into an old run directory removing its figures.  Without
# gnuplot it fails, naming the package (sh scripts/deps.sh installs it): a
# suite that skips itself would let the figures go untested unnoticed.
sim="$1"
root="$2"
if ! command -v gnuplot >/dev/null 2>&1; then
	echo "plots: FAIL: gnuplot is not installed (apt-get install gnuplot-nox, or sh scripts/deps.sh)"
	exit 1
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

# sig_ok FILE SIGNATURE DESCRIPTION: exists, > 10 KB, starts with SIGNATURE
# (an SVG starts with its XML declaration: `<svg` in the first lines)
sig_ok() {
	f="$1"
	if [ ! -f "$f" ]; then bad "$3: $f missing"; return; fi
	size=$(wc -c <"$f")
	if ! head -c 400 "$f" | grep -q -- "$2"; then bad "$3: $f has no '$2' at its start"
	elif [ "$size" -le 10240 ]; then bad "$3: $f only $size bytes"
	else ok "$3 ($size bytes)"; fi
}

# sums_ok DIR NAME: every column of counters.csv adds up to its total in
# summary.csv, exactly; the per-job columns add up to the fabric's; the
# last row is at sim_time_us (summary.csv has no data_pkts_delivered: its
# sum must give ecn_mark_pct to the last digit)
sums_ok() {
	if out=$(python3 - "$1" <<'PY'
import csv, sys
d = sys.argv[1]
rows = list(csv.DictReader(open(d + '/counters.csv')))
s = next(csv.DictReader(open(d + '/summary.csv')))
tot = {}
for r in rows:
    for k, v in r.items():
        if k != 'time_us':
            tot[k] = tot.get(k, 0) + int(v)
drops = sum(int(s[k]) for k in ('drops_lossless', 'drops_lossy', 'drops_pfcwd',
                                 'drops_link_down'))
jobs = [k[:-len('_delivered_bytes')] for k in tot if k.endswith('_delivered_bytes')]
want = [('ecn_marked_pkts', tot['ecn_marked_pkts'], int(s['ecn_marked_pkts'])),
        ('cnps_sent', tot['cnps_sent'], int(s['cnps_sent'])),
        ('pause_frames', tot['pause_frames'], int(s['pause_frames'])),
        ('drops', tot['drops'], drops),
        ('JOB_delivered_bytes', sum(tot[j + '_delivered_bytes'] for j in jobs),
         int(s['data_bytes_delivered'])),
        ('JOB_retransmitted_bytes', sum(tot[j + '_retransmitted_bytes'] for j in jobs),
         int(s['retransmitted_bytes'])),
        ('JOB_drops', sum(tot[j + '_drops'] for j in jobs), drops),
        ('ecn_mark_pct', '%.3f' % (100.0 * tot['ecn_marked_pkts'] / tot['data_pkts_delivered']
                                   if tot['data_pkts_delivered'] else 0), s['ecn_mark_pct']),
        ('last time_us', rows[-1]['time_us'], s['sim_time_us'])]
bad = ['%s: %s != %s' % w for w in want if w[1] != w[2]]
if not jobs:
    bad.append('no JOB_delivered_bytes column')
print('; '.join(bad) if bad else '%d rows, %d jobs, end %s' % (len(rows), len(jobs), s['end']))
sys.exit(1 if bad else 0)
PY
	); then ok "$2: counters.csv adds up to summary.csv ($out)"
	else bad "$2: counters.csv does not add up to summary.csv: $out"; fi
}

# check_dir DIR NAME: the PNGs plot must have drawn from DIR's CSVs
check_dir() {
	d="$1"; n="$2"
	for fig in queues pause_map rates throughput; do
		png_ok "$d/plots/$fig.png" "$n: $fig.png"
	done
	if has_rows "$d/rates.csv"; then png_ok "$d/plots/dcqcn.png" "$n: dcqcn.png"
	elif [ -e "$d/plots/dcqcn.png" ]; then bad "$n: dcqcn.png drawn from an empty rates.csv"
	else ok "$n: dcqcn.png skipped (rates.csv has no rows)"; fi
	if has_rows "$d/collectives.csv"; then png_ok "$d/plots/collectives.png" "$n: collectives.png"
	elif [ -e "$d/plots/collectives.png" ]; then bad "$n: collectives.png drawn from an empty collectives.csv"
	else ok "$n: collectives.png skipped (collectives.csv has no rows)"; fi
	if [ -f "$d/storage.csv" ] && has_rows "$d/storage.csv"; then png_ok "$d/plots/storage.png" "$n: storage.png"
	elif [ -e "$d/plots/storage.png" ]; then bad "$n: storage.png drawn without storage rows"
	else ok "$n: storage.png skipped (no storage.csv rows)"; fi
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
grep_in "$tmp/out" "skipped storage.png: the run has no storage job" \
	"plot notes that storage.png was skipped (no storage job)"

# 2c. storage next to a ring all-reduce: storage.png's top panel has the
# storage job's latency per interval, its bottom panel the all-reduce's
# iterations (start, end, time) and nothing of the storage job
cat >"$tmp/storage.ini" <<'INI'
[sim]
duration = 2ms
[topology]
kind = star
hosts = 8
[job.io]
pattern = storage
targets = 0
initiators = 1-3
bs = 64KiB
iodepth = 8
size = 4MiB
[job.ar]
pattern = ring-allreduce
ranks = 4-7
size = 8MB
iterations = 3
INI
expect 0 "run storage beside an all-reduce" "$sim" run "$tmp/storage.ini" -o "$tmp/storage" --quiet
if has_rows "$tmp/storage/storage.csv"; then ok "the storage job writes storage.csv"
else bad "the storage job has an empty storage.csv"; fi
expect 0 "plot storage beside an all-reduce" "$sim" plot "$tmp/storage"
grep_in "$tmp/out" "storage.png" "plot names storage.png"
check_dir "$tmp/storage" "storage"
sd="$tmp/storage/plots/data"
grep_in "$sd/storage.vars" "^nstorage = 1$" "storage: one storage job"
grep_in "$sd/storage.vars" "^ncoll = 1$" "storage: one collective below it"
grep_in "$sd/storage.vars" "^iterations = 3$" "storage: the all-reduce's 3 iterations"
grep_in "$sd/storage.vars" "^array mark_us\[3\] = " "storage: the iterations' ends marked"
grep_in "$sd/storage.vars" "^clat_p99_us = [0-9]" "storage: the run's p99 from storage_jobs.csv"
grep_in "$sd/storage_1.dat" "^time_us	io (read): mean clat	io: max clat	io: IOPS	io: MiB/s$" \
	"storage: the top panel's columns, named by job and rw"
grep_in "$sd/storage_coll_1.dat" "^start_us	end_us	ar (ring-allreduce)	iteration$" \
	"storage: the bottom panel is the all-reduce"
if [ -e "$sd/storage_coll_2.dat" ]; then bad "storage: the storage job drawn as a collective"
else ok "storage: the storage job is not in the bottom panel"; fi
# the data are the CSVs' rows: every storage.csv row (the run is short: no
# thinning) and every iteration of the all-reduce at its end
if out=$(python3 - "$tmp/storage" <<'PY'
import csv, sys
d = sys.argv[1]
rows = [r for r in csv.DictReader(open(d + '/storage.csv')) if r['job'] == 'io']
dat = [l.split('\t') for l in open(d + '/plots/data/storage_1.dat').read().splitlines()[1:] if l]
want = [(r['time_us'], float(r['clat_mean_us']), float(r['clat_max_us'])) for r in rows]
got = [(l[0], float(l[1]), float(l[2])) for l in dat]
its = [r for r in csv.DictReader(open(d + '/collectives.csv')) if r['job'] == 'ar']
cdat = [l.split('\t') for l in open(d + '/plots/data/storage_coll_1.dat').read().splitlines()[1:]]
bad = []
if [w[0] for w in want] != [g[0] for g in got] or any(
        abs(w[1] - g[1]) > 1e-3 or abs(w[2] - g[2]) > 1e-3 for w, g in zip(want, got)):
    bad.append('storage_1.dat is not storage.csv (%d rows against %d)' % (len(got), len(want)))
if [(r['start_us'], r['end_us'], r['time_us']) for r in its] != [tuple(l[:3]) for l in cdat]:
    bad.append('storage_coll_1.dat is not the all-reduce of collectives.csv')
if not any(g[2] > g[1] for g in got):
    bad.append('no interval whose slowest I/O is above the mean')
print('; '.join(bad) if bad else '%d intervals, %d iterations' % (len(got), len(cdat)))
sys.exit(1 if bad else 0)
PY
); then ok "storage: the figure's data are storage.csv and collectives.csv ($out)"
else bad "storage: $out"; fi
expect 0 "plot storage as svg" "$sim" plot "$tmp/storage" --format svg
sig_ok "$tmp/storage/plots/storage.svg" "<svg" "svg: storage.svg"

# 2d. storage without a collective: the top panel alone; with no I/O
# completed, or a storage.csv left by an earlier run, skipped with a note
sed '/^\[job.ar\]/,$d' "$tmp/storage.ini" >"$tmp/storage-alone.ini"
expect 0 "run storage alone" "$sim" run "$tmp/storage-alone.ini" -o "$tmp/salone" --quiet --plot
png_ok "$tmp/salone/plots/storage.png" "storage alone: storage.png"
grep_in "$tmp/salone/plots/data/storage.vars" "^ncoll = 0$" "storage alone: no bottom panel"
grep_in "$tmp/salone/plots/data/storage.vars" "^nmarks = 0$" "storage alone: no iteration marked"
cp -r "$tmp/salone" "$tmp/snoio"
head -1 "$tmp/salone/storage.csv" >"$tmp/snoio/storage.csv"
expect 0 "plot storage with no I/O completed" "$sim" plot "$tmp/snoio"
grep_in "$tmp/out" "skipped storage.png: storage.csv has no rows" "no I/O completed: storage.png skipped"
if [ -e "$tmp/snoio/plots/storage.png" ]; then bad "no I/O completed: the old storage.png left"
else ok "no I/O completed: the old storage.png removed"; fi
cp -r "$tmp/salone" "$tmp/sstale"
expect 0 "run the all-reduce into a storage run's directory" "$sim" run "$tmp/ring.ini" -o "$tmp/sstale" --quiet
expect 0 "plot it" "$sim" plot "$tmp/sstale"
grep_in "$tmp/out" "skipped storage.png: the run has no storage job" \
	"an earlier run's storage.csv is not drawn"
if [ -e "$tmp/sstale/plots/storage.png" ]; then bad "an earlier run's storage.png left"
else ok "an earlier run's storage.png removed"; fi
cp -r "$tmp/storage" "$tmp/snocol"
cut -d, -f1-6 "$tmp/storage/storage.csv" >"$tmp/snocol/storage.csv"
expect nonzero "storage.csv without clat_max_us fails" "$sim" plot "$tmp/snocol"
grep_in "$tmp/err" "storage.csv.*clat_max_us" "the error names storage.csv and clat_max_us"

# 3. plotting again replaces the figures (same directory, no stale files)
expect 0 "plot the DCQCN run again" "$sim" plot "$tmp/dcqcn"
png_ok "$tmp/dcqcn/plots/queues.png" "replot: queues.png"

# 3b. dcqcn.png: auto draws the (at most 8) QPs whose Rc fell lowest, each
# named by job and hosts from qps.csv; rates.csv's flow is a QP id
v="$tmp/dcqcn/plots/data/dcqcn.vars"
grep_in "$v" "^auto = 1" "plot_qps = auto"
nf=$(sed -n 's/^nflows = //p' "$v")
if [ -n "$nf" ] && [ "$nf" -ge 1 ] && [ "$nf" -le 8 ]; then ok "auto draws $nf QPs (1-8)"
else bad "auto draws '$nf' QPs, want 1-8"; fi
if has_rows "$tmp/dcqcn/qps.csv"; then ok "qps.csv names the traced QPs"; else bad "qps.csv has no rows"; fi
grep_in "$tmp/dcqcn/qps.csv" "^0,allreduce,h0,h1$" "qps.csv: QP 0 is allreduce h0 -> h1"
q=$(python3 - "$tmp/dcqcn" <<'PY'
import csv, sys
d = sys.argv[1]
low = {}
for r in csv.DictReader(open(d + '/rates.csv')):
    f, v = int(r['flow']), float(r['rate_gbps'])
    low[f] = min(low.get(f, v), v)
print(sorted(low, key=lambda f: (low[f], f))[0])
PY
)
grep_in "$tmp/dcqcn/plots/data/dcqcn_1.dat" "^time_us	QP $q  allreduce h[0-9]* → h[0-9]*	sample$" \
	"the first line is the most cut QP ($q), named by job and hosts"
expect 0 "run with output.plot_qps = 5,0,9" "$sim" run -o "$tmp/qps" --quiet \
	--set sim.duration=200us --set output.plot_qps=5,0,9 --plot
grep_in "$tmp/qps/plots/data/dcqcn.vars" "^nflows = 3$" "plot_qps: 3 QPs drawn"
grep_in "$tmp/qps/plots/data/dcqcn.vars" "^auto = 0$" "plot_qps: not auto"
k=1
for qp in 5 0 9; do
	grep_in "$tmp/qps/plots/data/dcqcn_$k.dat" "^time_us	QP $qp  " "plot_qps: line $k is QP $qp"
	k=$((k + 1))
done
# a QP sampled once in a while is a line broken at its idle gaps, with its
# samples as points: column 3 marks them
if awk -F'\t' 'NR > 1 && NF == 3 && $3 != "NaN" { n++ } END { exit !n }' \
	"$tmp/qps/plots/data/dcqcn_1.dat"; then ok "dcqcn: samples marked as points"
else bad "dcqcn: no sample marked as a point"; fi

# 3c. counters.csv adds up: runs ended by sim.duration on a sample time
# and between two, by their last completion (the all-reduce, the DSCP
# mismatch and headroom lessons, which drop and retransmit)
sums_ok "$tmp/dcqcn" "default, sim.duration 1ms"
sums_ok "$tmp/pfc" "nic.cc = none"
sums_ok "$tmp/ring" "all-reduce ended by its last completion"
expect 0 "run the default to 995us" "$sim" run -o "$tmp/d995" --quiet --set sim.duration=995us
sums_ok "$tmp/d995" "default, sim.duration 995us"
grep_in "$tmp/d995/counters.csv" "^995.000," "the last, partial interval ends at 995 us"
expect 0 "run the default to 995us on 3 threads" "$sim" run -o "$tmp/d995t3" --quiet \
	--set sim.duration=995us --set sim.threads=3
if cmp -s "$tmp/d995/counters.csv" "$tmp/d995t3/counters.csv"; then ok "counters.csv: the same on 3 threads"
else bad "counters.csv differs on 3 threads"; fi
for s in dscp-mismatch headroom pause-storm; do
	expect 0 "run $s" "$sim" run "$root/scenarios/$s.ini" -o "$tmp/$s" --quiet --plot
	sums_ok "$tmp/$s" "$s"
	png_ok "$tmp/$s/plots/throughput.png" "$s: throughput.png"
	grep_in "$tmp/$s/plots/data/throughput.vars" "^njobs = " "$s: throughput.vars"
done
if awk -F'\t' 'NR > 1 && $4 > 0 { n++ } END { exit !n }' "$tmp/dscp-mismatch/plots/data/throughput_1.dat"
then ok "dscp-mismatch: throughput shows drops"; else bad "dscp-mismatch: throughput shows no drop"; fi
grep_in "$tmp/pause-storm/plots/data/throughput.vars" "^nspans = [1-9]" "pause-storm: storms shaded"
grep_in "$tmp/pause-storm/plots/data/throughput.vars" "^array span_t0" "pause-storm: storm spans passed to gnuplot"
grep_in "$tmp/headroom/plots/data/throughput.vars" "^nspans = 0$" "headroom: no storm"
# the window where something happens: the watchdog's storm run has queues
# for its first 1.7 ms of 20 (drawn zoomed to them), pauses all along (the
# whole run)
grep_in "$tmp/pause-storm/plots/data/queues.vars" "^zoomed = 1$" "pause-storm: queues.png zoomed"
grep_in "$tmp/pause-storm/plots/data/queues.vars" "^win1_us = 1[0-9][0-9][0-9]\\.[0-9]*$" \
	"pause-storm: queues.png ends within 2 ms of the 20"
grep_in "$tmp/pause-storm/plots/data/pause_map.vars" "^zoomed = 0$" \
	"pause-storm: the pauses span the run: pause_map.png unzoomed"

# 3c'. training.png: a 1F1B pipeline of 4 stages and 8 micro-batches, one
# layer a stage, 1 ms forward and 2 ms backward a layer: each stage's row has
# its 8 forward and 8 backward passes of the first step (an attention and an
# MLP block each: 16 and 16), and the step's
# bubble is (p - 1) / (m + p - 1) = 3/11 of it
cat >"$tmp/pipe.ini" <<'EOF2'
[sim]
duration = 10s
[topology]
kind = star
hosts = 4
[job.t]
pattern = training
layers = 4
hidden = 256
seq_len = 2
global_batch = 8
pp = 4
layer_forward = 1ms
EOF2
expect 0 "run a 4-stage training pipeline" "$sim" run "$tmp/pipe.ini" -o "$tmp/pipe" --quiet --plot
png_ok "$tmp/pipe/plots/training.png" "training.png"
grep_in "$tmp/pipe/plots/data/training.vars" "^nstages = 4$" "training.png: a row per stage"
grep_in "$tmp/pipe/plots/data/training.vars" "^bubble_fraction = 0.272[78]" "training.png: the bubble is 3/11"
if awk -F'\t' 'NR > 1 { n[$1 "," $4]++ } END { for (k in n) if (n[k] != 16) exit 1; exit length(n) != 8 }' \
	"$tmp/pipe/plots/data/training.dat"; then ok "training.dat: 16 forward and 16 backward blocks a stage"
else bad "training.dat: not 16 forward and 16 backward blocks a stage"; fi

# 3d. busbw against the target only for collectives: an incast-only run
# has no target (and no busbw points); the all-reduce has both
sed 's/^size = 8MB/size = 1MB/' "$tmp/incast.ini" >"$tmp/incast1.ini"
expect 0 "run an incast that completes" "$sim" run "$tmp/incast1.ini" -o "$tmp/incast1" --quiet --plot
png_ok "$tmp/incast1/plots/collectives.png" "incast: collectives.png (iteration times)"
grep_in "$tmp/incast1/plots/data/collectives.vars" "^draw_target = 0$" "incast: no busbw target"
grep_in "$tmp/incast1/plots/data/collectives.vars" "^ncoll = 0$" "incast: no collective"
if awk -F'\t' 'NR > 1 && $3 != "NaN" { n++ } END { exit !!n }' "$tmp/incast1/plots/data/collectives_1.dat"
then ok "incast: no busbw point"; else bad "incast: busbw points drawn"; fi
grep_in "$tmp/ring/plots/data/collectives.vars" "^draw_target = 1$" "all-reduce: busbw target drawn"

# 3e. every figure in svg and pdf as well
expect 0 "plot pause-storm as svg" "$sim" plot "$tmp/pause-storm" --format svg
for fig in queues pause_map rates dcqcn throughput; do
	sig_ok "$tmp/pause-storm/plots/$fig.svg" "<svg" "svg: $fig.svg"
	if [ -e "$tmp/pause-storm/plots/$fig.png" ]; then bad "svg: $fig.png left beside $fig.svg"
	else ok "svg: $fig.png replaced"; fi
done
expect 0 "plot the all-reduce as pdf" "$sim" plot "$tmp/ring" --format pdf
for fig in queues pause_map rates dcqcn throughput collectives; do
	sig_ok "$tmp/ring/plots/$fig.pdf" "%PDF" "pdf: $fig.pdf"
done

# 3f. a run into an old run directory clears the old figures (every
# format, and the shaped data) but nothing else of plots/
mkdir -p "$tmp/ring/plots/data"
echo keep >"$tmp/ring/plots/notes.txt"
touch "$tmp/ring/plots/dcqcn.svg" "$tmp/ring/plots/throughput.png"
expect 0 "run again into the all-reduce's directory" "$sim" run "$tmp/ring.ini" -o "$tmp/ring" --quiet
left=$(cd "$tmp/ring/plots" && ls *.png *.svg *.pdf data/*.dat data/*.vars data/*.log 2>/dev/null | tr '\n' ' ')
if [ -z "$left" ]; then ok "the old figures are gone"; else bad "old figures left: $left"; fi
if [ -f "$tmp/ring/plots/notes.txt" ]; then ok "another file in plots/ is kept"
else bad "plots/notes.txt was removed"; fi

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

# 9. not a run directory: bad usage (2), as --help says
expect 2 "plot of a missing directory fails" "$sim" plot "$tmp/nope"
mkdir -p "$tmp/empty-dir"
expect 2 "plot of a directory that is not a run" "$sim" plot "$tmp/empty-dir"
grep_in "$tmp/err" "is not a run, sweep, calibrate or compare directory" "and says what it needs"
expect 0 "plot DIR --help" "$sim" plot "$tmp/empty-dir" --help
grep_in "$tmp/out" "2 bad usage, or DIR is not a run" "plot's exit statuses, as checked here"

# 10. a sweep directory: the sweep's figures (a metric against the first
# numeric axis, a line per value of the second; pass or fail over both),
# drawn from sweep.csv; a point's own figures stay available
cat >"$tmp/sweep.ini" <<'INI'
[topology]
kind = star
hosts = 5
host_link = 100Gbps
[job.incast]
pattern = incast
dst = 0
size = 2MB
INI
expect 0 "sweep --plot" "$sim" sweep "$tmp/sweep.ini" -o "$tmp/sw" -q --plot \
	--vary ecn.kmin=100KB,50KB --vary ecn.pmax=10%,0.5
png_ok "$tmp/sw/plots/sweep_ecn_mark_pct.png" "the sweep's ECN marking against ecn.kmin"
png_ok "$tmp/sw/plots/sweep_pass.png" "the sweep's pass/fail map"
if [ ! -e "$tmp/sw/p000/plots" ]; then ok "sweep --plot draws the sweep, not every point"
else bad "sweep --plot drew the points"; fi
# the metric of the row with kmin $1 and pmax $2, by column name
mark() { awk -F, -v k="$1" -v p="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["ecn.kmin"] == k && $c["ecn.pmax"] == p { print $c["ecn_mark_pct"] }' "$tmp/sw/sweep.csv"; }
printf 'x\txlabel\tecn.pmax=10%%\tecn.pmax=0.5\n50000\t50KB\t%s\t%s\n100000\t100KB\t%s\t%s\n' \
	"$(mark 50KB 10%)" "$(mark 50KB 0.5)" "$(mark 100KB 10%)" "$(mark 100KB 0.5)" >"$tmp/want.dat"
if cmp -s "$tmp/want.dat" "$tmp/sw/plots/data/sweep_ecn_mark_pct.dat"; then
	ok "sweep_ecn_mark_pct.dat: x in bytes, sorted, a column per ecn.pmax, sweep.csv's values"
else bad "sweep_ecn_mark_pct.dat"; cat "$tmp/want.dat" "$tmp/sw/plots/data/sweep_ecn_mark_pct.dat"; fi
expect 0 "plot a sweep as svg" "$sim" plot "$tmp/sw" --format svg
if [ -s "$tmp/sw/plots/sweep_pass.svg" ] && [ ! -e "$tmp/sw/plots/sweep_pass.png" ]; then
	ok "the sweep's figures in svg replace the png"
else bad "sweep figures in svg"; fi
expect 0 "plot a point of the sweep" "$sim" plot "$tmp/sw/p000"
png_ok "$tmp/sw/p000/plots/queues.png" "a point's own figures"

finish plots
