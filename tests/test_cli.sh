#!/bin/sh
# test_cli.sh DCQCN_SIM SOURCE_ROOT - the command line contract (docs/contract.md#commands):
# exit statuses, file:line errors, check output, a run directory with the
# documented files and columns, SIGINT -> exit 3 with results marked.
sim="$1"
root="$2"
tmp=$(mktemp -d /tmp/dcqcn-cli-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$root/tests/testlib.sh"

expect 0 "--help" "$sim" --help
grep_in "$tmp/out" "dcqcn-sim run" "--help shows the run usage"
grep_in "$tmp/out" "dcqcn-sim COMMAND --help" "--help points at COMMAND --help"
grep_in "$tmp/out" "^  dcqcn-sim keys \\[SECTION\\]" "--help lists the keys command"
expect 0 "--version" "$sim" --version
grep_in "$tmp/out" "^dcqcn-sim [0-9][0-9.]* (commit [0-9a-z-]*)$" "--version names the version and the commit it was built from"
expect 2 "no command" "$sim"
expect 2 "unknown command" "$sim" frobnicate
if grep -q "did you mean" "$tmp/err"; then bad "frobnicate is close to no command"; else ok "no guess for frobnicate"; fi
expect 2 "unknown option" "$sim" run --frob
expect 2 "a mistyped command" "$sim" chek x.ini
grep_in "$tmp/err" "^dcqcn-sim: unknown command chek; did you mean check?$" "a mistyped command gets a guess"
expect 2 "a mistyped option" "$sim" run --qiet
grep_in "$tmp/err" "^dcqcn-sim: unknown option --qiet; did you mean --quiet?$" "a mistyped option gets a guess"
grep_in "$tmp/err" "^(see dcqcn-sim run --help)$" "a usage error points at the command's help"

# COMMAND --help (or -h), wherever it is among the arguments: usage on stdout, exit 0
for cmd in run check sweep plot keys nccl-tests fluid; do
	expect 0 "$cmd --help" "$sim" $cmd --help
	grep_in "$tmp/out" "^usage: dcqcn-sim $cmd" "$cmd --help shows its usage"
	if [ ! -s "$tmp/err" ]; then ok "$cmd --help writes nothing on stderr"; else bad "$cmd --help wrote on stderr"; fi
done
grep_in "$tmp/out" "^  --help, -h" "keys --help lists its options"
expect 0 "sweep ... -h after other arguments" "$sim" sweep nothing.ini --vary nic.cc none -j 0 -h
grep_in "$tmp/out" "^  --vary S.K=V1,V2,...  one axis" "sweep -h lists --vary"
grep_in "$tmp/out" "^  -j N " "sweep -h lists -j"
expect 0 "run with a bad option and --help" "$sim" run --frob --help
grep_in "$tmp/out" "^  --format F " "run --help lists --format"
grep_in "$tmp/out" "^  -o DIR " "run --help lists -o"
expect 0 "check --help" "$sim" check -h
grep_in "$tmp/out" "# warnings: N" "check --help mentions the warnings"
expect 0 "plot DIR --help" "$sim" plot /nonexistent --help
grep_in "$tmp/out" "svg or pdf" "plot --help lists the formats"

# fluid: the DCQCN fluid model of an incast; other traffic is refused with
# the reason; a sweep over N prints a row per N
expect 2 "fluid on a scenario that is not one incast" "$sim" fluid "$root/scenarios/default.ini"
grep_in "$tmp/err" "^dcqcn-sim: fluid: .*default.ini has 2 jobs; the fluid model takes one incast$" \
	"fluid says why it does not take a scenario"
cat >"$tmp/incast40.ini" <<'EOF2'
[sim]
duration = 20ms
[topology]
kind = star
hosts = 9
host_link = 40Gbps
[dcqcn]
profile = paper
[job.in]
pattern = incast
dst = 0
senders = 1-4
size = 1GB
EOF2
expect 0 "fluid on an incast" "$sim" fluid "$tmp/incast40.ini" -o "$tmp/fl"
grep_in "$tmp/out" "^  fixed point (solved) " "fluid prints the fixed point"
grep_in "$tmp/fl/summary.csv" "^4,40.000000," "fluid's summary.csv: 4 flows at 40G"
for f in queues.csv rates.csv; do
	if [ -s "$tmp/fl/$f" ]; then ok "fluid writes $f"; else bad "fluid wrote no $f"; fi
done
expect 0 "fluid --sweep-flows" "$sim" fluid "$tmp/incast40.ini" --sweep-flows 2:8
if [ "$(grep -c '^ *[248] ' "$tmp/out")" = 3 ]; then ok "fluid --sweep-flows 2:8: rows for 2, 4, 8"; else bad "fluid --sweep-flows rows"; cat "$tmp/out"; fi
expect 2 "fluid --sweep-flows 8:2" "$sim" fluid "$tmp/incast40.ini" --sweep-flows 8:2
# run --fluid: the fluid model beside the packets, drawn in queues.png and
# dcqcn.png; refused before anything runs when the scenario does not fit; a
# later run without it leaves no stale fluid series
expect 2 "run --fluid on a scenario that is not one incast" "$sim" run "$root/scenarios/default.ini" --fluid -q -o "$tmp/rfx"
grep_in "$tmp/err" "^dcqcn-sim: --fluid: .*has 2 jobs; the fluid model takes one incast$" "run --fluid says why"
if [ ! -e "$tmp/rfx/summary.csv" ]; then ok "run --fluid refused: nothing ran"; else bad "run --fluid refused but ran"; fi
expect 0 "run --fluid --plot" "$sim" run "$tmp/incast40.ini" --set job.in.size=4MB --fluid --plot -o "$tmp/rf"
grep_in "$tmp/out" "^dcqcn-sim: fluid model in $tmp/rf/fluid/$" "run --fluid says where the fluid model went"
grep_in "$tmp/rf/plots/data/queues.vars" "^fluid = 1$" "queues.png draws the fluid queue"
grep_in "$tmp/rf/plots/data/dcqcn.vars" "^fluid = 1$" "dcqcn.png draws the fluid Rc"
grep_in "$tmp/rf/plots/data/queues_fluid.dat" "fluid model queue" "the fluid queue's data"
expect 0 "run without --fluid in the same directory" "$sim" run "$tmp/incast40.ini" --set job.in.size=4MB --plot -q -o "$tmp/rf"
if [ ! -e "$tmp/rf/fluid" ]; then ok "a run without --fluid removes the older fluid run"; else bad "a stale fluid run stayed"; fi
grep_in "$tmp/rf/plots/data/queues.vars" "^fluid = 0$" "and queues.png no longer draws it"

# keys: every key with its default, meaning, values and where it applies
expect 0 "keys" "$sim" keys
cp "$tmp/out" "$tmp/keys.txt"
grep_in "$tmp/keys.txt" "^ecn.kmin = 150KB$" "keys shows a default"
grep_in "$tmp/keys.txt" "^    marking ramp on the instantaneous queue" "keys shows a meaning"
grep_in "$tmp/keys.txt" "^    only for topology.kind = fat-tree$" "keys shows where a key applies"
grep_in "$tmp/keys.txt" "^    values: leaf-spine | fat-tree | star | rail-optimized | file$" "keys shows an enum's values"
grep_in "$tmp/keys.txt" "^job.NAME.pattern (required)$" "keys names job keys job.NAME.key"
grep_in "$tmp/keys.txt" "^fault.NAME.priority (default: the lowest lossless priority)$" "keys says a default in words"
grep_in "$tmp/keys.txt" "^    default by dcqcn.profile: nvidia 300, paper 55, hpcc 300$" "keys shows each profile's default"
if grep -q "no meaning documented" "$tmp/keys.txt"; then bad "a key without a meaning"; grep -B1 "no meaning" "$tmp/keys.txt"; else ok "every key has a meaning"; fi
# every key line is followed by its meaning and values lines
awk '/^[a-z]/ { k = $1; n = 0; next } /^    / { n++; if (n == 2 && $1 != "values:") print k }' "$tmp/keys.txt" >"$tmp/novalues"
if [ ! -s "$tmp/novalues" ]; then ok "every key has a values line"; else bad "keys without values: $(cat "$tmp/novalues")"; fi
# the key reference of docs/scenario.md (its generated block, written by
# scripts/gendocs.py from keys; the reference test compares it whole) lists
# exactly the keys that keys lists
awk '/^<!-- BEGIN generated: keys -->/ { on = 1; next } /^<!-- END generated: keys -->/ { on = 0 }
on && /^[a-z]/ { print $1 }' "$root/docs/scenario.md" | sort >"$tmp/readme-keys"
awk '/^[a-z]/ { print $1 }' "$tmp/keys.txt" | sort >"$tmp/keys-keys"
if [ "$(wc -l <"$tmp/keys-keys")" -ge 90 ] && cmp -s "$tmp/readme-keys" "$tmp/keys-keys"; then
	ok "docs/scenario.md's key reference lists exactly the keys of dcqcn-sim keys"
else
	bad "docs/scenario.md's key reference and dcqcn-sim keys differ (< docs, > keys; python3 scripts/gendocs.py build/dcqcn-sim write . regenerates it):"
	diff "$tmp/readme-keys" "$tmp/keys-keys" | sed 's/^/  | /' | head -20
fi
expect 0 "keys ecn" "$sim" keys ecn
if awk '/^[a-z]/ && $1 !~ /^ecn\./ { exit 1 }' "$tmp/out"; then ok "keys ecn lists [ecn] only"; else bad "keys ecn lists other keys"; fi
grep_in "$tmp/out" "^ecn.pmax = 10%$" "keys ecn lists ecn.pmax"
expect 0 "keys job" "$sim" keys job
grep_in "$tmp/out" "^job.NAME.slice = 512KiB$" "keys job lists the job keys"
expect 2 "keys of an unknown section" "$sim" keys topolgy
grep_in "$tmp/err" "^dcqcn-sim: keys: no section topolgy (sim, topology, qos, nic, job.NAME, buffer, pfc, pfcwd, ecn, dcqcn, fault.NAME, output, criteria, fabric, ib, tcp); did you mean topology?$" \
	"an unknown section is listed against the sections, with a guess"
expect 2 "keys with two sections" "$sim" keys ecn pfc

cat >"$tmp/bad.ini" <<'INI'
[topology]
spines = 2

leaves = 0
INI
expect 2 "out-of-range key" "$sim" check "$tmp/bad.ini"
grep_in "$tmp/err" "bad.ini:4: topology.leaves" "error names file:line and key"

expect 2 "--set of an unknown key" "$sim" check "$root/scenarios/default.ini" --set topology.nope=1
grep_in "$tmp/err" "topology.nope" "--set error names the key"

# did you mean: a key, a section, a job, an enum value
expect 2 "--set of a mistyped key" "$sim" check "$root/scenarios/default.ini" --set nic.ccc=none
grep_in "$tmp/err" "^--set: nic.ccc: unknown key; did you mean nic.cc?$" "a mistyped key gets a guess"
cat >"$tmp/typo.ini" <<'INI'
[sim]
duration = 1ms
[topolgy]
spines = 2
INI
expect 2 "a mistyped section" "$sim" check "$tmp/typo.ini"
grep_in "$tmp/err" "typo.ini:3: \\[topolgy\\]: unknown section (.*); did you mean \\[topology\\]?$" "a mistyped section gets a guess"
cat >"$tmp/victim.ini" <<'INI'
[topology]
kind = star
hosts = 5
[job.victim]
pattern = incast
dst = 0
size = 1MB
INI
expect 2 "--set of a job that does not exist" "$sim" check "$tmp/victim.ini" --set job.victm.size=2MB
grep_in "$tmp/err" "^--set: job.victm.size: no job victm; did you mean job.victim? (to create a new job give job.victm.pattern first)$" \
	"a mistyped job name gets a guess, and how to create a job"
expect 2 "a mistyped pattern" "$sim" check "$tmp/victim.ini" --set job.victim.pattern=ring-allreduse
grep_in "$tmp/err" "; did you mean ring-allreduce?$" "a mistyped enum value gets a guess"
expect 0 "the job name as written" "$sim" check "$tmp/victim.ini" --set job.victim.size=2MB

# --set K V: the value would be taken for the scenario
expect 2 "--set with a space" "$sim" run --set topology.spines 4
grep_in "$tmp/err" "^dcqcn-sim: --set topology.spines: expected section.key=value (write --set topology.spines=4)$" \
	"--set K V says how to write it"
expect 2 "--set with no value" "$sim" check "$tmp/victim.ini" --set topology.spines
grep_in "$tmp/err" "^dcqcn-sim: --set topology.spines: expected section.key=value$" "--set K says what it expects"

expect 0 "check the default scenario" "$sim" check "$root/scenarios/default.ini"
grep_in "$tmp/out" "spines = 2" "check prints the resolved scenario"
grep_in "$tmp/out" "goodput" "check prints derived values"
cp "$tmp/out" "$tmp/resolved.ini"
expect 0 "the resolved scenario loads back" "$sim" check "$tmp/resolved.ini"

expect 0 "run the embedded default" "$sim" run -o "$tmp/run" --quiet --set sim.duration=300us
for f in scenario.ini summary.csv stats.csv flows.csv pfc.csv pause.csv pfcwd.csv rates.csv collectives.csv; do
	if [ -s "$tmp/run/$f" ]; then ok "run writes $f"; else bad "run writes $f"; fi
done
grep_in "$tmp/run/summary.csv" "^sim_time_us,end,data_bytes_delivered" "summary.csv header"
grep_in "$tmp/run/summary.csv" ",duration," "a run cut by sim.duration says so"
grep_in "$tmp/run/flows.csv" "^flow,job,src,dst,bytes,start_us,end_us,fct_us,iteration,delivered_bytes,path$" "flows.csv header"
grep_in "$tmp/run/stats.csv" "^events,wall_s,events_per_s,peak_rss_mb,sim_time_us" "stats.csv header"
# peak_rss_mb is the run's own: a launcher that held 300 MB before it exec'd
# the program does not count (getrusage's ru_maxrss would keep its 300 MB)
python3 -c "import os, sys
ballast = b'x' * (300 * 10**6)
os.execv(sys.argv[1], sys.argv[1:])" "$sim" run -o "$tmp/rss" --quiet --set sim.duration=50us
rss=$(tail -n 1 "$tmp/rss/stats.csv" | cut -d, -f4)
if awk -v r="$rss" 'BEGIN { exit !(r > 0 && r < 100) }'; then
	ok "peak_rss_mb counts the run's own process ($rss MB after a 300 MB launcher)"
else bad "peak_rss_mb is $rss MB after a 300 MB launcher: the launcher's high-water mark"; fi
grep_in "$tmp/run/pfc.csv" "^time_us,node,port,priority,event,quanta$" "pfc.csv header"
grep_in "$tmp/run/pause.csv" "^time_us,node,port,priority,paused_fraction,frames$" "pause.csv header"
grep_in "$tmp/run/pfcwd.csv" "^time_us,node,port,priority,event,dropped$" "pfcwd.csv header"
grep_in "$tmp/run/rates.csv" "^time_us,flow,rate_gbps,target_gbps,alpha$" "rates.csv header"
grep_in "$tmp/run/collectives.csv" "^job,iteration,ranks,bytes,start_us,end_us,time_us,algbw_GBps,busbw_GBps,busbw_pct_line,status$" "collectives.csv header"
grep_in "$tmp/run/rates.csv" "^[0-9.]*,0,[0-9.]*,[0-9.]*,[0-9.]*$" "rates.csv traces flow 0"
grep_in "$tmp/run/summary.csv" "drops_lossless,drops_lossy,drops_pfcwd,drops_link_down,headroom_exceeded" "summary.csv PFC columns"
grep_in "$tmp/run/scenario.ini" "duration = 300us" "scenario.ini holds the --set value"

if [ ! -s "$tmp/out" ]; then ok "--quiet prints nothing"; else bad "--quiet printed"; fi

# undersized headroom: the table warns, summary.csv flags it
cat >"$tmp/headroom.ini" <<'INI'
[topology]
kind = star
hosts = 9
host_cable = 300m
[buffer]
size = 8MB
[pfc]
headroom = 100KB
[job.incast]
pattern = incast
dst = 0
size = 2MB
INI
expect 0 "run with undersized headroom" "$sim" run "$tmp/headroom.ini" -o "$tmp/hr" --set sim.duration=2ms --set nic.cc=none
grep_in "$tmp/out" "WARNING: .* lossless packets dropped: the PFC headroom was exceeded" "the table warns of exceeded headroom"
grep_in "$tmp/hr/pfc.csv" ",sw0,3,xoff,65535$" "senders are paused by sw0 on priority 3"
# output.flows = none: flows.csv keeps its header only (big collectives)
expect 0 "run without flow rows" "$sim" run -o "$tmp/noflows" --quiet --set sim.duration=100us --set output.flows=none
if [ "$(wc -l <"$tmp/noflows/flows.csv")" -eq 1 ]; then ok "output.flows = none writes no rows"; else bad "flows.csv has rows"; fi

# --seed is sim.seed; the summary table names the run directory
expect 0 "run with --seed" "$sim" run -o "$tmp/seed" --seed 7 --set sim.duration=100us
grep_in "$tmp/seed/scenario.ini" "seed = 7" "--seed reaches the scenario"
grep_in "$tmp/out" "flows_completed" "the summary table is printed"

# --threads is sim.threads; check prints the partitions it plans
expect 2 "--threads 0 is refused" "$sim" run -o "$tmp/t0" --threads 0
grep_in "$tmp/err" "sim.threads: 0 is not valid (auto, or 1-256)" "a bad --threads names the key and its range"
expect 0 "run on 2 threads" "$sim" run -o "$tmp/t2" --quiet --threads 2 --set sim.duration=100us
grep_in "$tmp/t2/stats.csv" ",2$" "stats.csv says the run used 2 threads"
expect 0 "check on 2 threads" "$sim" check "$root/scenarios/default.ini" --threads 2
grep_in "$tmp/out" "^# threads: 2 partitions of 6 units (a unit: a leaf with its hosts, or a spine)$" "check prints the partitions"
grep_in "$tmp/out" "^# windows of 150ns (the lookahead" "check prints the lookahead"
grep_in "$tmp/out" "^# a window after one of fewer than 128 events runs on one thread, after one of 2048 or more on the threads, in between the way the run measures cheaper$" "check prints which windows use the threads"
expect 0 "check on 1 thread" "$sim" check "$root/scenarios/default.ini" --threads 1
if grep -q "^# a window after one" "$tmp/out"; then bad "one thread: a word of windows on the threads"; else ok "one thread: no word of windows on the threads"; fi
# sim.threads = auto: one thread for each 256 of weight at most (the
# default scenario weighs 112), and check says so where there are more cores
expect 0 "check on auto threads" "$sim" check "$root/scenarios/default.ini"
grep_in "$tmp/out" "^# threads: 1 partition of 6 units" "auto: a light fabric plans one thread"
if [ "$(getconf _NPROCESSORS_ONLN)" -gt 1 ]; then
	grep_in "$tmp/out" "^# sim.threads = auto: 1 thread, one for each 256 of the fabric's weight (ports + 2 x hosts: 112) at most" "check says why auto took one thread"
fi
expect 0 "run on auto threads" "$sim" run -o "$tmp/tauto" --quiet --set sim.duration=100us
grep_in "$tmp/tauto/stats.csv" ",1$" "stats.csv says the light run used 1 thread"
# ... and one for each 8 data packets the jobs can deliver a window: the
# 127-to-1 incast of the benchmarks (weight 512) delivers 0.46
expect 0 "check of a sparse incast on auto threads" "$sim" check "$root/scenarios/bench/incast-128.ini"
grep_in "$tmp/out" "^# threads: 1 partition of 16 units" "auto: an incast into one host plans one thread"
if [ "$(getconf _NPROCESSORS_ONLN)" -gt 1 ]; then
	grep_in "$tmp/out" "^# sim.threads = auto: 1 thread, one for each 8 data packets the jobs can deliver in a window at most (0.46: " "check says why auto took one thread for the incast"
	expect 0 "check of an all-to-all on auto threads" "$sim" check "$root/scenarios/bench/alltoall-128.ini"
	grep_in "$tmp/out" "^# threads: 2 partitions of 16 units" "auto: the all-to-all of the same fabric plans two threads"
fi

# check counts the QPs; a run whose QPs alone exceed the machine's memory
# is refused before anything is built or written: an all-to-all of 65,536
# ranks opens 65,536 x 65,535 of them, over 2 TB
expect 0 "check counts the QPs" "$sim" check "$root/scenarios/bench/alltoall-128.ini"
grep_in "$tmp/out" "^# QPs: the jobs open 16256 QPs (152 B each, 192 B more once its congestion control reacts or it waits: 2.5 MB) and post 16256 messages on them at once (104 B each: 1.7 MB)$" "check: an all-to-all of 128 ranks opens 128 x 127 QPs of 152 B (with their timers) and posts a message on each at once"
expect 0 "check of an all-to-all one shift at a time" "$sim" check "$root/scenarios/bench/alltoall-128.ini" --set job.a2a.schedule=shift
grep_in "$tmp/out" "^# QPs: the jobs open 16256 QPs (152 B each, 192 B more once its congestion control reacts or it waits: 2.5 MB)$" "check: the shifts post their messages n at a time: not counted"
expect 0 "check counts TCP's QPs" "$sim" check "$root/scenarios/tcp-incast.ini"
grep_in "$tmp/out" "^# QPs: the jobs open 31 QPs (536 B each: 16.6 KB)$" "check: a TCP QP also takes its TCP state (192 B) and its pacing event with its congestion control (192 B)"
cat >"$tmp/huge.ini" <<'INI'
[topology]
spines = 64
leaves = 512
hosts_per_leaf = 128
[buffer]
size = 1GB
[job.a2a]
pattern = alltoall
size = 64MB
INI
# every QP with its state (nic.qp_cache = 0)
expect 0 "check of an all-to-all too large for memory" "$sim" check "$tmp/huge.ini" --set nic.qp_cache=0
grep_in "$tmp/out" "^# QPs: the jobs open 4294901760 QPs (.*); more than this machine's memory: run refuses it$" "check says run will refuse it"
expect 2 "run of an all-to-all too large for memory" "$sim" run "$tmp/huge.ini" -o "$tmp/huge" --set nic.qp_cache=0
grep_in "$tmp/err" "^dcqcn-sim: the jobs open 4294901760 QPs (.*), more than this machine's memory (" "run says why, in numbers"
grep_in "$tmp/err" " and post 4294901760 messages on them at once (104 B each: .*): fewer ranks, qps_per_connection or schedule = shift, or a machine with more memory$" "run counts the messages posted at once and says what helps"
if [ -e "$tmp/huge" ]; then bad "the refused run wrote $tmp/huge"; else ok "the refused run wrote nothing"; fi
# with the cache (the default) a QP without its state still keeps 13 B
# (its PSN, its state and its timer; an all-to-all computes its ends): 56 GB
# of them
expect 0 "check of an all-to-all too large for memory with the QP cache" "$sim" check "$tmp/huge.ini"
grep_in "$tmp/out" "^# QPs: the jobs open 4294901760 QPs, more than nic.qp_cache = 1048576: each keeps 13 B (55.83 GB) and has its state (152 B, 192 B more once its congestion control reacts or it waits) only while it needs it, about .* at most at once (.*), with about .* messages at once (104 B each: .*): .* GB expected at the peak; more than this machine's memory: run refuses it$" "check says what the QP cache keeps, and that run will refuse it"
expect 2 "run of an all-to-all too large for memory with the QP cache" "$sim" run "$tmp/huge.ini" -o "$tmp/huge"
grep_in "$tmp/err" "^dcqcn-sim: the jobs open 4294901760 QPs, more than nic.qp_cache = 1048576: .* expected at the peak, more than this machine's memory (" "run says why, with the QP cache"
if [ -e "$tmp/huge" ]; then bad "the refused run wrote $tmp/huge"; else ok "the refused run wrote nothing"; fi
# an 8,192-rank all-to-all fits with it: check prints the peak it expects
expect 0 "check of the 8,192-rank all-to-all" "$sim" check "$root/scenarios/bench/alltoall-8192.ini" --set job.a2a.schedule=shift
grep_in "$tmp/out" "^# QPs: the jobs open 67100672 QPs, more than nic.qp_cache = 1048576: each keeps 13 B (872.3 MB) and has its state (152 B, 192 B more once its congestion control reacts or it waits) only while it needs it, about 1065024 at most at once (161.9 MB): 1.03 GB expected at the peak$" "check: 8,192 ranks one shift at a time, 1.03 GB expected"

# sweep: a point per combination, criteria per point, the same with -j 1 and -j 2
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
expect 0 "sweep over two axes" "$sim" sweep "$tmp/sweep.ini" -o "$tmp/sw1" --quiet \
	--vary criteria.max_ecn_mark_pct=0,100 --vary ecn.kmin=50KB,100KB -j 2
if [ "$(wc -l <"$tmp/sw1/sweep.csv")" -eq 5 ]; then ok "sweep.csv has 4 points"; else bad "sweep.csv rows"; cat "$tmp/sw1/sweep.csv"; fi
grep_in "$tmp/sw1/sweep.csv" "^point,dir,criteria.max_ecn_mark_pct,criteria.max_ecn_mark_pct_frac,ecn.kmin,ecn.kmin_B,sim_time_us," \
	"sweep.csv header: axes, each with its base-unit column, then the summary"
grep_in "$tmp/sw1/sweep.csv" "^0,p000,0,0,50KB,50000,.*,0,max_ecn_mark_pct,[0-9]*,[0-9.]*,[0-9.]*,[0-9.]*,[0-9.]*,0,,0,,,,,,,[0-9.]*,[0-9.]*,,$" "a point over its ECN criterion fails it"
grep_in "$tmp/sw1/sweep.csv" "^3,p003,100,1,100KB,100000,.*,1,,[0-9]*,[0-9.]*,[0-9.]*,[0-9.]*,0.000,0,,0,,,,,,,[0-9.]*,[0-9.]*,,$" "a point within its criteria passes"
# a fabric that drops RoCE in a lossy queue fails (criteria.max_drops), and
# a run cut short by sim.duration gets no verdict
expect 0 "run the DSCP mismatch" "$sim" run "$root/scenarios/dscp-mismatch.ini" -o "$tmp/dm" --quiet
grep_in "$tmp/dm/summary.csv" "^[0-9.]*,done,.*,0,max_drops;max_retransmitted_pct,0,,,,[0-9.]*,0,,0,,,,,,,[0-9.]*,[0-9.]*,,$" \
	"RoCE dropped on a lossy queue fails max_drops and max_retransmitted_pct"
expect 0 "run the DSCP mismatch for 1 ms" "$sim" run "$root/scenarios/dscp-mismatch.ini" -o "$tmp/dm1" --quiet \
	--set sim.duration=1ms
grep_in "$tmp/dm1/summary.csv" "^1000.000,duration,.*,,not judged: sim.duration ended the run before its traffic finished,0,,,,[0-9.]*,0,,0,,,,,,,[0-9.]*,[0-9.]*,,$" \
	"a run ended by sim.duration is not judged"
# a sweep counts points that were not judged apart from those that missed
expect 0 "sweep a cut-short and a finished DSCP mismatch" "$sim" sweep \
	"$root/scenarios/dscp-mismatch.ini" -o "$tmp/swj" --vary sim.duration=1ms,1s
grep_in "$tmp/out" "(1 point missed the criteria, 1 not judged: " \
	"the sweep says which points missed and which were not judged"
for p in p000 p001 p002 p003; do
	if [ -s "$tmp/sw1/$p/summary.csv" ]; then ok "sweep point $p has a run directory"; else bad "sweep point $p"; fi
done
expect 0 "the same sweep with -j 1" "$sim" sweep "$tmp/sweep.ini" -o "$tmp/sw2" --quiet \
	--vary criteria.max_ecn_mark_pct=0,100 --vary ecn.kmin=50KB,100KB -j 1
if cmp -s "$tmp/sw1/sweep.csv" "$tmp/sw2/sweep.csv"; then ok "sweep.csv does not depend on -j"; else bad "sweep.csv differs with -j"; fi
# -j 2 shares the cores: each point runs as if given sim.threads = half of
# them, as the program counts them (sysconf, which getconf reads; nproc may
# differ in a cpuset), and the fabric's plan caps that at its units: the
# expectation is what a plain run with that many threads reports
share=$(( $(getconf _NPROCESSORS_ONLN) / 2 )); [ "$share" -ge 1 ] || share=1
expect 0 "a leaf-spine run on the share of the cores ($share threads asked)" "$sim" run \
	"$root/scenarios/default.ini" -o "$tmp/sw4ref" --quiet --set sim.duration=50us \
	--set sim.seed=1 --set sim.threads=$share
planned=$(tail -n 1 "$tmp/sw4ref/stats.csv" | awk -F, '{ print $NF }')
expect 0 "a sweep of leaf-spine points, 2 at a time" "$sim" sweep "$root/scenarios/default.ini" \
	-o "$tmp/sw4" --quiet --set sim.duration=50us --vary sim.seed=1,2 -j 2
grep_in "$tmp/sw4/p000/stats.csv" ",$planned\$" "a point of sweep -j 2 runs on its share of the cores ($planned threads)"
expect 2 "a sweep point that does not load" "$sim" sweep "$tmp/sweep.ini" -o "$tmp/sw3" \
	--vary ecn.kmin=50KB,5MB
grep_in "$tmp/err" "point 1 (ecn.kmin=5MB): --set: ecn.kmax: 1.5MB must be above ecn.kmin (5MB)" "the bad point is named before anything runs"
if [ ! -d "$tmp/sw3" ]; then ok "nothing ran"; else bad "a bad sweep left $tmp/sw3"; fi
expect 2 "sweep without --vary" "$sim" sweep "$tmp/sweep.ini"
# --vary K V: the values would be taken for a second scenario
expect 2 "--vary with a space" "$sim" sweep "$tmp/sweep.ini" --vary nic.cc none,dcqcn
grep_in "$tmp/err" "^dcqcn-sim: --vary nic.cc: expected section.key=V1,V2,... (write --vary nic.cc=none,dcqcn)$" \
	"--vary K V says how to write it"
if grep -q "one scenario at a time" "$tmp/err"; then bad "--vary K V blamed on a second scenario"; else ok "--vary K V is not taken for a second scenario"; fi
expect 2 "--vary K= V" "$sim" sweep "$tmp/sweep.ini" --vary nic.cc= none,dcqcn
grep_in "$tmp/err" "(write --vary nic.cc=none,dcqcn)$" "--vary K= V says how to write it"
expect 2 "--vary K before the scenario" "$sim" sweep --vary nic.cc "$tmp/sweep.ini"
grep_in "$tmp/err" "^dcqcn-sim: --vary nic.cc: expected section.key=V1,V2,...$" "a scenario file is not offered as the values"
expect 2 "--vary of a mistyped key" "$sim" sweep "$tmp/sweep.ini" -o "$tmp/sw5" --vary nic.ccc=none,dcqcn
grep_in "$tmp/err" "^dcqcn-sim: --vary nic.ccc: unknown key; did you mean nic.cc?$" "a mistyped --vary key gets a guess"
grep_in "$tmp/err" "^(see dcqcn-sim sweep --help)$" "a --vary error points at sweep --help"
expect 2 "--vary of a mistyped job" "$sim" sweep "$tmp/sweep.ini" -o "$tmp/sw5" --vary job.incat.size=1MB,2MB
grep_in "$tmp/err" "point 0 (job.incat.size=1MB): --vary: job.incat.size: no job incat; did you mean job.incast?" \
	"a mistyped --vary job gets a guess"
if [ ! -d "$tmp/sw5" ]; then ok "nothing ran"; else bad "a bad --vary left $tmp/sw5"; fi

# SIGINT: exit 3, results flushed and marked interrupted
cat >"$tmp/long.ini" <<'INI'
[topology]
spines = 4
leaves = 8
hosts_per_leaf = 16
[job.p]
pattern = permutation
size = 1GB
INI
"$sim" run "$tmp/long.ini" -o "$tmp/long" --quiet >/dev/null 2>&1 &
pid=$!
sleep 2
kill -INT $pid
wait $pid
st=$?
if [ "$st" -eq 3 ]; then ok "SIGINT exits 3"; else bad "SIGINT exit $st, want 3"; fi
grep_in "$tmp/long/summary.csv" ",interrupted," "an interrupted run is marked"

# csv_complete DIR WHAT: every CSV of DIR ends with a newline and each of its
# rows has as many fields as its header (no row cut mid-line)
csv_complete() {
	for f in "$1"/*.csv; do
		if [ -s "$f" ] && [ "$(tail -c 1 "$f" | od -An -c | tr -d ' ')" != '\n' ]; then
			bad "$2: $(basename "$f") ends mid-line"; return
		fi
		if ! awk -F, 'NR == 1 { n = NF } NF != n { exit 1 }' "$f"; then
			bad "$2: $(basename "$f") has a row cut short"; return
		fi
	done
	ok "$2: every CSV complete"
}

# signal_run NAME SIGNAL...: the long run, sent each SIGNAL in turn (2 ms
# apart) after a second; $st is its exit status
signal_run() {
	name="$1"; shift
	"$sim" run "$tmp/long.ini" -o "$tmp/$name" --quiet >/dev/null 2>&1 &
	pid=$!
	sleep 1
	for s in "$@"; do kill -"$s" $pid; sleep 0.002; done
	wait $pid
	st=$?
}
# SIGTERM (timeout, Slurm, docker stop) and SIGHUP stop a run as cleanly as
# SIGINT, and so does a second SIGINT right after the first
for sig in TERM HUP; do
	signal_run "sig-$sig" $sig
	if [ "$st" -eq 3 ]; then ok "SIG$sig exits 3"; else bad "SIG$sig exit $st, want 3"; fi
	grep_in "$tmp/sig-$sig/summary.csv" ",terminated,.*,,not judged: the run was terminated (SIGTERM or SIGHUP)," \
		"SIG$sig: summary.csv says terminated, not judged"
	csv_complete "$tmp/sig-$sig" "SIG$sig"
done
signal_run sig-INT2 INT INT
if [ "$st" -eq 3 ]; then ok "two quick SIGINTs exit 3"; else bad "two SIGINTs: exit $st, want 3"; fi
grep_in "$tmp/sig-INT2/summary.csv" ",interrupted,.*,,not judged: the run was interrupted (SIGINT)," \
	"two SIGINTs: summary.csv says interrupted, not judged"
csv_complete "$tmp/sig-INT2" "two SIGINTs"
csv_complete "$tmp/long" "SIGINT"
# a third signal kills at once (docs/commands.md), also when it comes from the
# shell that launched the run, the run's parent: three different signals, back
# to back (none merges with another still pending, and all arrive before the
# run has stopped, which takes a few milliseconds); killed by whichever is
# handled third (the kernel hands pending signals over lowest number first):
# exit 128 + SIGHUP, SIGINT or SIGTERM, before summary.csv is written
# three_signals WAIT ARGS...: dcqcn-sim ARGS, sent SIGINT, SIGTERM and SIGHUP
# back to back after WAIT seconds, must be killed by one of them
three_signals() {
	pause=$1
	shift
	"$sim" "$@" >/dev/null 2>&1 &
	pid=$!
	sleep "$pause"
	kill -INT $pid; kill -TERM $pid; kill -HUP $pid
	wait $pid
	st=$?
	case "$st" in
	129 | 130 | 143) ok "$1: a third signal from the launching shell kills at once" ;;
	*) bad "$1: three signals from the launching shell: exit $st, want 129, 130 or 143" ;;
	esac
}
three_signals 1 run "$tmp/long.ini" -o "$tmp/sig-3" --quiet
if [ ! -e "$tmp/sig-3/summary.csv" ]; then ok "killed by the third signal: no summary.csv"
else bad "three signals: the run ended as usual and wrote summary.csv"; fi
# a sweep passes the signal to its workers: each point ends complete
"$sim" sweep "$tmp/long.ini" -o "$tmp/sig-sweep" --quiet -j 2 --vary sim.seed=1,2 >/dev/null 2>&1 &
pid=$!
sleep 1.5
kill -TERM $pid
wait $pid
st=$?
if [ "$st" -eq 3 ]; then ok "a sweep sent SIGTERM exits 3"; else bad "sweep SIGTERM: exit $st, want 3"; fi
for p in p000 p001; do
	grep_in "$tmp/sig-sweep/$p/summary.csv" ",terminated," "sweep SIGTERM: $p ended terminated"
	csv_complete "$tmp/sig-sweep/$p" "sweep SIGTERM: $p"
done
if [ -f "$tmp/sig-sweep/sweep.csv" ] && ! grep -q "^[0-9]" "$tmp/sig-sweep/sweep.csv"; then
	ok "sweep.csv lists no point that did not finish"
else bad "sweep SIGTERM: sweep.csv"; fi
# a terminal's Ctrl-C reaches the sweep and its workers (one process group),
# and the sweep forwards its first signal: two signals to the group (SIGINT,
# then SIGTERM, back to back) are two for each worker plus its parent's copy,
# which does not count, so the workers still stop with their files complete
# instead of being killed by a third
setsid "$sim" sweep "$tmp/long.ini" -o "$tmp/sig-group" --quiet -j 2 --vary sim.seed=1,2 \
	>/dev/null 2>&1 &
pid=$!
sleep 1.5
kill -INT -"$pid"; kill -TERM -"$pid"
wait $pid
st=$?
if [ "$st" -eq 3 ]; then ok "a sweep's group sent SIGINT and SIGTERM exits 3"
else bad "sweep group SIGINT + SIGTERM: exit $st, want 3"; fi
for p in p000 p001; do
	grep_in "$tmp/sig-group/$p/summary.csv" ",\(interrupted\|terminated\)," \
		"sweep group SIGINT + SIGTERM: $p ended stopped, not killed"
	csv_complete "$tmp/sig-group/$p" "sweep group SIGINT + SIGTERM: $p"
done

# compare and nccl-tests stop as cleanly: exit 3 and what ran so far
"$sim" compare "$tmp/long.ini" -o "$tmp/sig-compare" -q >/dev/null 2>"$tmp/err" &
pid=$!
sleep 1.5
kill -TERM $pid
wait $pid
st=$?
if [ "$st" -eq 3 ]; then ok "compare sent SIGTERM exits 3"; else bad "compare SIGTERM: exit $st, want 3"; fi
grep_in "$tmp/err" "compare terminated; the runs so far are in" "compare says where the runs so far are"
"$sim" nccl-tests all_reduce_perf -b 64M -e 1G -f 4 --out "$tmp/sig-nccl" >"$tmp/out" 2>"$tmp/err" &
pid=$!
sleep 1.5
kill -INT $pid
wait $pid
st=$?
if [ "$st" -eq 3 ]; then ok "nccl-tests sent SIGINT exits 3"; else bad "nccl-tests SIGINT: exit $st, want 3"; fi
grep_in "$tmp/err" "nccl-tests: stopped by a signal: [0-9] of 3 sizes complete" "nccl-tests counts the sizes that ran"
grep_in "$tmp/out" "^# Avg bus bandwidth" "nccl-tests still prints its table's footer"
# the third-signal rule holds for every long command: three signals from the
# launching shell, back to back, kill at once (as for run above); the killed
# sweep's workers, told by their parent's death, still end their points complete
for cmd in "sweep $tmp/long.ini -o $tmp/sig3-sweep --quiet -j 2 --vary sim.seed=1,2" \
	"compare $tmp/long.ini -o $tmp/sig3-compare -q" \
	"nccl-tests all_reduce_perf -b 64M -e 1G -f 4 --out $tmp/sig3-nccl"; do
	# shellcheck disable=SC2086 # the command's words
	three_signals 1.5 $cmd
done
for i in 1 2 3 4 5 6 7 8 9 10; do
	[ -f "$tmp/sig3-sweep/p000/summary.csv" ] && [ -f "$tmp/sig3-sweep/p001/summary.csv" ] && break
	sleep 0.5
done
for p in p000 p001; do
	grep_in "$tmp/sig3-sweep/$p/summary.csv" ",\(interrupted\|terminated\)," \
		"a killed sweep: its worker $p still ended stopped"
	csv_complete "$tmp/sig3-sweep/$p" "a killed sweep: $p"
done

# what is not a file gets a message that says so
mkdir -p "$tmp/adir"
expect 2 "a directory as the scenario" "$sim" check "$tmp/adir"
grep_in "$tmp/err" "adir: is a directory, not a scenario file$" "a directory is named as one"
printf '[job.t]\npattern = trace\nfile = %s\n' "$tmp/adir" >"$tmp/tdir.ini"
expect 2 "a directory as a trace" "$sim" check "$tmp/tdir.ini"
grep_in "$tmp/err" "job.t.file: .*/adir is a directory, not a trace CSV file$" "a trace directory is named as one"
printf '[job.t]\npattern = trace\nfile = /dev/zero\n' >"$tmp/tzero.ini"
expect 2 "/dev/zero as a trace" "$sim" check "$tmp/tzero.ini"
grep_in "$tmp/err" "job.t.file: /dev/zero is not a regular file (a device or a pipe)$" \
	"a device is refused before it is read"
printf '\211PNG\001\377\376,src\n' >"$tmp/binary.csv"
printf '[job.t]\npattern = trace\nfile = binary.csv\n' >"$tmp/tbin.ini"
expect 2 "a binary trace" "$sim" check "$tmp/tbin.ini"
if LC_ALL=C grep -q "$(printf '[\001\200-\377]')" "$tmp/err"; then bad "raw bytes echoed: $(od -c "$tmp/err" | head -2)"
else ok "a binary header is not echoed raw"; fi
grep_in "$tmp/err" "binary.csv:1: ?PNG???: unknown column" "its bytes show as '?'"

# a switch or NIC configuration that is a fifo, a device or empty /dev/null is
# refused at once (a fifo with no writer used to block forever; /dev/null
# loaded as a configuration that sets nothing)
mkfifo "$tmp/cfg.fifo"
expect 2 "--switch-config given a fifo" timeout 20 "$sim" check "$root/scenarios/default.ini" \
	--switch-config "$tmp/cfg.fifo"
grep_in "$tmp/err" "cfg.fifo: not a regular file (a device or a pipe)" "a fifo is refused, not waited on"
expect 2 "--nic-config given a fifo" timeout 20 "$sim" check "$root/scenarios/default.ini" \
	--nic-config "$tmp/cfg.fifo"
expect 2 "--nic-config /dev/null" "$sim" check "$root/scenarios/default.ini" --nic-config /dev/null
grep_in "$tmp/err" "/dev/null: not a regular file (a device or a pipe)" "a device is refused"

# sweep --resume runs only the points that did not end
expect 0 "a sweep to resume" "$sim" sweep "$tmp/sweep.ini" -o "$tmp/resume" --quiet \
	--vary ecn.kmin=50KB,100KB
rm "$tmp/resume/p001/summary.csv"
cp "$tmp/resume/p000/stats.csv" "$tmp/p000-stats.csv"
expect 0 "sweep --resume" "$sim" sweep "$tmp/sweep.ini" -o "$tmp/resume" --resume \
	--vary ecn.kmin=50KB,100KB
grep_in "$tmp/err" "^sweep: 1 of 2 points ended before: not run again$" "--resume counts what it skips"
if cmp -s "$tmp/resume/p000/stats.csv" "$tmp/p000-stats.csv"; then ok "--resume left the ended point alone"
else bad "--resume ran p000 again"; fi
if [ -s "$tmp/resume/p001/summary.csv" ] && [ "$(grep -c '^[0-9]' "$tmp/resume/sweep.csv")" -eq 2 ]; then
	ok "--resume ran the other point, and sweep.csv has both"
else bad "--resume: p001 or sweep.csv"; fi

# a file-size limit (like a full disk) stops the run at once, naming the
# file and the reason, and leaves no summary.csv
(ulimit -f 200; exec "$sim" run -o "$tmp/fsize" --quiet) >"$tmp/out" 2>"$tmp/err"
st=$?
if [ "$st" -eq 2 ]; then ok "a file-size limit exits 2"; else bad "file-size limit: exit $st, want 2"; fi
grep_in "$tmp/err" "^dcqcn-sim: writing the results failed: .*/fsize/[a-z]*\.csv: File too large$" \
	"the write error names the file and the reason"
if [ ! -e "$tmp/fsize/summary.csv" ]; then ok "no summary.csv after a failed write"
else bad "a failed run left summary.csv"; fi

finish cli
