# storage.gp - storage completion latency over time, above the iterations
# of the collectives on the same time axis.
#
# From storage.csv (time_us, job, iops, bw_MiBps, clat_mean_us, clat_max_us:
# per sample interval and storage job with I/Os completed in it),
# storage_jobs.csv (when there: each job's rw, and the `all` row's I/Os
# and clat percentiles), collectives.csv (job, iteration, start_us, end_us,
# time_us) and scenario.ini (each job's pattern), shaped by
# `dcqcn-sim plot` (plots/storage.c) into plots/data/:
#   storage_K.dat       time_us, clat_mean_us, clat_max_us, iops, bw_MiBps
#                       of the K-th storage job of storage.csv (in order of
#                       first completion; at most 16), titled "JOB (RW): mean
#                       clat", "JOB: max clat", "JOB: IOPS", "JOB: MiB/s"; a
#                       blank line where none of its I/Os completed for
#                       more than 5 sample intervals and 1/200 of the run
#                       (its line breaks there)
#   storage_coll_K.dat  start_us, end_us, time_us, iteration: each
#                       completed iteration of the K-th collective job
#                       (ring-allreduce, alltoall; in order of first
#                       completion; at most 16), time_us titled
#                       "JOB (PATTERN)", drawn in colour nstorage + K
#   storage.vars        t_end_us, interval_us, nstorage, nstorage_all
#                       (more than nstorage when scenario.ini has more
#                       storage jobs than the 16 drawn), ncoll (collective
#                       jobs drawn; 0: no bottom panel), ncoll_all
#                       (collective jobs in scenario.ini, with a completed
#                       iteration or not), logy (1: the worst I/O took more
#                       than 10 x the fastest interval's mean: log scale),
#                       clat_lo_us, clat_hi_us (that mean, that worst I/O),
#                       ios_all, clat_p50_us, clat_p99_us, clat_max_us (the
#                       whole run, storage_jobs.csv's `all` row; NaN
#                       without it), iterations (drawn), max_iter_us,
#                       nmarks (the iterations when at most 40, else 0) and
#                       mark_us[], mark_job[] (each one's end and its K;
#                       defined when nmarks > 0)
# Runs of more than 4000 sample intervals are thinned to the minimum and
# maximum of each 1/2000 of the run (plots/kit.c), which keeps every worst I/O.
# Draws, per storage job, the mean completion latency per interval (line)
# and its slowest I/O (dots); below, a row per collective job, each
# iteration a bar from its start to its end (every other one lighter), its
# time written in it when there are few, and (up to 40 iterations) the ends dotted across both panels: a
# storage latency spike stands above the iterations that shared the fabric
# with it.  Without a collective iteration, the top panel alone.  (IOPS
# per interval comes in bursts of completions and is left out: a second
# axis of it hid the latency.)

if (!exists("dir") || !exists("out")) {
    exit error "usage: gnuplot -e \"dir='RUNDIR';out='FILE.png'\" storage.gp  (after dcqcn-sim plot RUNDIR)"
}
data = dir."/plots/data/"
load data."storage.vars"
height = ncoll > 0 ? 800 : 600
load ARG0[1:strlen(ARG0) - strlen("storage.gp")]."common.gp"
do for [k=1:nstorage] { NEED = data.sprintf("storage_%d.dat", k); eval need }
do for [k=1:ncoll] { NEED = data.sprintf("storage_coll_%d.dat", k); eval need }

file(k) = data.sprintf("storage_%d.dat", k)
cfile(k) = data.sprintf("storage_coll_%d.dat", k)
ts = tscale(t_end_us)
tu = max_iter_us > 5000 ? 1000.0 : 1.0
lat(us) = us >= 1000 ? sprintf("%.3g ms", us / 1000) : sprintf("%.3g µs", us)
which = nstorage_all > nstorage ? sprintf(" (the first %d of %d storage jobs)", nstorage, nstorage_all) : ""
# enhanced-text size changes stop at a line break: one per line
sub = ios_all == ios_all ? sprintf("{/*0.8 whole run: %.0f I/Os, clat p50 %s, p99 %s, max %s}", ios_all, lat(clat_p50_us), lat(clat_p99_us), lat(clat_max_us)) : ""
# the collective jobs (not incast, permutation, trace or storage) have the bottom panel
if (ncoll == 0) {
    why = ncoll_all > 0 ? "no ring-allreduce or alltoall iteration completed" : "no ring-allreduce or alltoall job"
    sub = sub.(strlen(sub) ? "\n" : "")."{/*0.8 ".why.": storage alone}"
}

set xrange [0:t_end_us / ts]
set key outside right top Left reverse samplen 2 width 1 font ",11"
set lmargin 12
set rmargin 24
do for [i=1:nmarks] {
    set arrow i from mark_us[i] / ts, graph 0 to mark_us[i] / ts, graph 1 nohead back lt nstorage + mark_job[i] lw 1 dt 3
}

# top: latency
set ylabel "completion latency (µs)"
if (logy) {
    set logscale y
    set format y "%g"
    # 1-2-5 tics: decades alone leave a spike's height hard to read
    do for [d=-3:6] { set ytics add (10.0**d, 2 * 10.0**d, 5 * 10.0**d) }
    set yrange [clat_lo_us / 1.5:clat_hi_us * 1.5]
} else {
    set yrange [0:clat_hi_us * 1.08]
}

if (ncoll > 0) {
    set multiplot layout 2,1 title sprintf("Storage completion latency per %s interval%s, and the collectives' iterations%s", span(interval_us), which, strlen(sub) ? "\n".sub : "") font ",15"
    set format x ""
    set xlabel ""
    set bmargin 1
} else {
    set title sprintf("Storage completion latency per %s interval%s%s", span(interval_us), which, strlen(sub) ? "\n".sub : "")
    set xlabel tlabel(t_end_us)
}
plot for [k=1:nstorage] file(k) using ($1 / ts):2 with lines lt k lw 2 title columnheader(2), \
     for [k=1:nstorage] file(k) using ($1 / ts):3 with points lt k pt 7 ps 0.4 title columnheader(3)

# (a macro is expanded when its block is read: defined out here)
ITER = "(($1 + $2) / 2 / ts):(k):($1 / ts):($2 / ts):(k - 0.32):(k + 0.32)"
even(it) = int(it) % 2 == 0
if (ncoll > 0) {
    # bottom: a row per collective job, each iteration a bar from its start
    # to its end (the next one in a lighter shade), its time written in it:
    # which latency above falls in which iteration, and how long each took
    unset logscale y
    unset ytics
    set yrange [0.4:ncoll + 0.6]
    set ylabel "iterations of the collectives"
    set offsets 0, 0, 0, 0
    set format x "%g"
    set xlabel tlabel(t_end_us)
    set bmargin 3.5
    set tmargin 1
    set style textbox opaque noborder margins 1, 1
    if (iterations <= 12) {
        plot for [k=1:ncoll] cfile(k) using @ITER with boxxyerror lt nstorage + k fs solid 0.85 noborder title columnheader(3), \
             for [k=1:ncoll] cfile(k) using (($1 + $2) / 2 / ts):(even($4) ? NaN : k):($1 / ts):($2 / ts):(k - 0.32):(k + 0.32) with boxxyerror lc rgb "#ffffff" fs transparent solid 0.45 noborder notitle, \
             for [k=1:ncoll] cfile(k) using (($1 + $2) / 2 / ts):(k):(sprintf(tu > 1 ? "iteration %d: %.3f ms" : "iteration %d: %.1f µs", int($4), $3 / tu)) \
                 with labels font ",10" tc rgb "#ffffff" notitle
    } else {
        plot for [k=1:ncoll] cfile(k) using @ITER with boxxyerror lt nstorage + k fs solid 0.85 noborder title columnheader(3), \
             for [k=1:ncoll] cfile(k) using (($1 + $2) / 2 / ts):(even($4) ? NaN : k):($1 / ts):($2 / ts):(k - 0.32):(k + 0.32) with boxxyerror lc rgb "#ffffff" fs transparent solid 0.45 noborder notitle
    }
    unset multiplot
}
