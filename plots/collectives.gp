# collectives.gp - collective completion time and bus bandwidth per iteration.
#
# From collectives.csv (job, iteration, time_us, busbw_pct_line), shaped by
# `dcqcn-sim plot` (sim/plot.c) into plots/data/:
#   collectives_K.dat  iteration, time_us, busbw_pct_line of the K-th job
#                      (in order of first completion; at most 16 jobs),
#                      titled "JOB" and "JOB busbw"
#   collectives.vars   njobs, max_iteration, max_time_us, min_busbw_pct
#                      ([criteria] min_busbw_pct_line, default 95)
# Draws two panels over the iterations: the time of each iteration per job
# (top) and its bus bandwidth as % of the host link rate, with the target
# (bottom).  With one job and few iterations each point carries its value.

if (!exists("dir") || !exists("out")) {
    exit error "usage: gnuplot -e \"dir='RUNDIR';out='FILE.png'\" collectives.gp  (after dcqcn-sim plot RUNDIR)"
}
data = dir."/plots/data/"
load data."collectives.vars"
height = 700
load ARG0[1:strlen(ARG0) - strlen("collectives.gp")]."common.gp"
do for [k=1:njobs] { NEED = data.sprintf("collectives_%d.dat", k); eval need }

file(k) = data.sprintf("collectives_%d.dat", k)
tu = max_time_us > 5000 ? 1000.0 : 1.0
few = max_iteration < 12 && njobs == 1
set xrange [-0.5:max_iteration + 0.5]
set xtics 1
if (max_iteration > 20) { set xtics autofreq }
set mxtics 1
set key outside right top Left reverse samplen 2 width 1 font ",11"
set lmargin 12
set rmargin 22
set style textbox opaque noborder margins 1, 1
set offsets 0, 0, graph 0.12, 0

set multiplot layout 2,1 title "Collectives: completion time and bus bandwidth per iteration" font ",15"

set ylabel (tu > 1 ? "time per iteration (ms)" : "time per iteration (µs)")
set yrange [0:*]
set format x ""
set xlabel ""
set bmargin 1
if (few) {
    plot for [k=1:njobs] file(k) using 1:($2 / tu) with linespoints lt k pt 7 ps 1.5 title columnheader(2), \
         for [k=1:njobs] file(k) using 1:($2 / tu):(sprintf(tu > 1 ? "%.3f ms" : "%.1f µs", $2 / tu)) \
             with labels boxed offset 0, 1.1 font ",10" tc lt k notitle
} else {
    plot for [k=1:njobs] file(k) using 1:($2 / tu) with linespoints lt k pt 7 ps 1 title columnheader(2)
}

set ylabel "bus bandwidth (% of line rate)"
set format x "%g"
set xlabel "iteration"
set bmargin 3.5
set tmargin 1
if (few) {
    plot min_busbw_pct with lines dt 2 lw 1.5 lc rgb "#555555" title sprintf("target %g %%", min_busbw_pct), \
         for [k=1:njobs] file(k) using 1:3 with linespoints lt k pt 5 ps 1.4 notitle, \
         for [k=1:njobs] file(k) using 1:3:(sprintf("%.1f %%", $3)) \
             with labels boxed offset 0, 1.1 font ",10" tc lt k notitle
} else {
    plot min_busbw_pct with lines dt 2 lw 1.5 lc rgb "#555555" title sprintf("target %g %%", min_busbw_pct), \
         for [k=1:njobs] file(k) using 1:3 with linespoints lt k pt 5 ps 1 notitle
}
unset multiplot
