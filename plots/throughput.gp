# throughput.gp - goodput, retransmissions and drops of each job over time,
# with the PFC watchdog's storms.
#
# From counters.csv (time_us and, per job, JOB_delivered_bytes,
# JOB_retransmitted_bytes, JOB_drops: counts per sample interval) and
# pfcwd.csv (storm and restore events), shaped by `dcqcn-sim plot`
# (plots/throughput.c) into plots/data/:
#   throughput_K.dat  time_us, goodput_gbps (payload delivered x 8 / the
#                     interval), retransmitted_gbps (payload sent again, the
#                     same way), drops (packets dropped in the interval) of
#                     the K-th job of counters.csv (scenario order; at most
#                     16), titled "JOB (PATTERN)"
#   throughput.vars   t_end_us, interval_us, njobs, njobs_all (jobs in
#                     counters.csv), delivered_bytes, retransmitted_bytes,
#                     drops (whole run, the drawn jobs), storms (storm
#                     events), nspans and span_t0[], span_t1[] (the time
#                     spans with a queue in a PFC watchdog storm, merged;
#                     defined when nspans > 0), storm_label (the storms'
#                     queues, for the subtitle)
# The run's last interval, when shorter than half a sample interval, is
# added to the one before (a rate over a few ns would be a false spike);
# runs of more than 4000 intervals are thinned to the minimum and maximum
# of each 1/2000 of the run (plots/kit.c).
# Draws up to three panels over time, one line per job: goodput,
# retransmitted rate and drops (each of the last two only when the run had
# any: the subtitle gives the totals), in Tbps once a job's goodput passes
# 5000 Gbps; the storm spans shaded in each.  Lossless drops
# (headroom), lossy drops (a DSCP that misses the lossless priority) and
# watchdog drops show up as drops followed by retransmissions and a dip in
# goodput.

if (!exists("dir") || !exists("out")) {
    exit error "usage: gnuplot -e \"dir='RUNDIR';out='FILE.png'\" throughput.gp  (after dcqcn-sim plot RUNDIR)"
}
data = dir."/plots/data/"
load data."throughput.vars"
# a panel for retransmissions and one for drops only when there are any
# (the subtitle says 0 otherwise): the goodput keeps the height
npanels = 1 + (retransmitted_bytes > 0) + (drops > 0)
height = npanels == 1 ? 520 : npanels == 2 ? 720 : 900
load ARG0[1:strlen(ARG0) - strlen("throughput.gp")]."common.gp"
do for [k=1:njobs] { NEED = data.sprintf("throughput_%d.dat", k); eval need }

file(k) = data.sprintf("throughput_%d.dat", k)
# rates in Tbps once a job's goodput passes 5000 Gbps (a job's receivers
# together), so that the axis never reads in the tens of thousands
gmax = 0
do for [k=1:njobs] {
    undefine STATS_*
    stats file(k) using 1:2 nooutput
    if (exists("STATS_max_y") && STATS_max_y > gmax) { gmax = STATS_max_y }
}
rs = gmax > 5000 ? 1000.0 : 1.0
unit = rs > 1 ? "Tbps" : "Gbps"
ts = tscale(t_end_us)
size(b) = b >= 1e9 ? sprintf("%.2f GB", b / 1e9) : b >= 1e6 ? sprintf("%.2f MB", b / 1e6) : sprintf("%.0f KB", b / 1e3)
which = njobs_all > njobs ? sprintf(" (the first %d of %d jobs)", njobs, njobs_all) : ""
set xrange [0:t_end_us / ts]
set key outside right top Left reverse samplen 2 width 1 font ",11"
set lmargin 12
set rmargin 24
storm_colour = "#d62728"
do for [i=1:nspans] {
    set object i rect from span_t0[i] / ts, graph 0 to span_t1[i] / ts, graph 1 \
        behind fc rgb storm_colour fs transparent solid 0.12 noborder
}

# enhanced-text size changes stop at a line break: one per line
sub = sprintf("{/*0.8 whole run: %s delivered, %s retransmitted, %.0f packets dropped}", size(delivered_bytes), size(retransmitted_bytes), drops)
if (storms > 0) { sub = sub."\n{/*0.8 shaded: ".storm_label."}" }
set multiplot layout npanels,1 title sprintf("Goodput, retransmissions and drops per job%s, per %s interval\n%s", which, span(interval_us), sub) font ",15"

set ylabel "goodput (".unit.", all of a job's receivers)"
set yrange [0:*]
if (npanels > 1) {
    set format x ""
    set xlabel ""
    set bmargin 1
} else {
    set xlabel tlabel(t_end_us)
    set bmargin 3.5
}
if (nspans > 0) {
    plot for [k=1:njobs] file(k) using ($1 / ts):($2 / rs) with lines lt k lw 1.5 title columnheader(2), \
         keyentry with boxes fc rgb storm_colour fs transparent solid 0.25 noborder title "PFC watchdog storm"
} else {
    plot for [k=1:njobs] file(k) using ($1 / ts):($2 / rs) with lines lt k lw 1.5 title columnheader(2)
}
if (npanels == 1) { unset multiplot; exit }

set tmargin 1
if (retransmitted_bytes > 0) {
    set ylabel "retransmitted (".unit.")"
    if (drops == 0) {
        set format x "%g"
        set xlabel tlabel(t_end_us)
        set bmargin 3.5
    }
    plot for [k=1:njobs] file(k) using ($1 / ts):($3 / rs) with lines lt k lw 1.5 notitle
}
if (drops > 0) {
    set ylabel "drops (packets / interval)"
    set format x "%g"
    set xlabel tlabel(t_end_us)
    set bmargin 3.5
    plot for [k=1:njobs] file(k) using ($1 / ts):4 with lines lt k lw 1.5 notitle
}
unset multiplot
