# collectives.gp - collective completion time and bus bandwidth per iteration.
#
# From collectives.csv (job, iteration, time_us, busbw_pct_line), shaped by
# `dcqcn-sim plot` (sim/plot.c) into plots/data/:
#   collectives_K.dat  iteration, time_us, busbw_pct_line of the K-th job
#                      (in order of first completion), titled "JOB: time"
#                      and "JOB: busbw"
#   collectives.vars   njobs, max_iteration, max_time_us, min_busbw_pct
#                      ([criteria] min_busbw_pct_line, default 95)
# Draws time per iteration (left axis, solid) and bus bandwidth as % of
# the host link rate (right axis, dashed) per job, with the busbw target.

data = dir."/plots/data/"
load data."collectives.vars"
load ARG0[1:strlen(ARG0) - strlen("collectives.gp")]."common.gp"
do for [k=1:njobs] { NEED = data.sprintf("collectives_%d.dat", k); eval need }

tu = max_time_us > 5000 ? 1000.0 : 1.0
set title "Collectives: completion time and bus bandwidth per iteration"
set xlabel "iteration"
set ylabel (tu > 1 ? "time per iteration (ms)" : "time per iteration (µs)")
set y2label "bus bandwidth (% of host link rate)"
set xrange [-0.5:max_iteration + 0.5]
set xtics 1
if (max_iteration > 20) { set xtics autofreq }
set yrange [0:*]
set y2range [0:*]
set ytics nomirror
set y2tics nomirror
set border 11 lc rgb "#404040"
set rmargin 12
set key outside right top samplen 2 font ",11"
set rmargin 24

plot for [k=1:njobs] data.sprintf("collectives_%d.dat", k) using 1:($2 / tu) axes x1y1 with linespoints lt k pt 7 ps 1.4 title columnheader(2), \
     for [k=1:njobs] data.sprintf("collectives_%d.dat", k) using 1:3 axes x1y2 with linespoints lt k dt 2 pt 5 ps 1.2 title columnheader(3), \
     min_busbw_pct axes x1y2 with lines dt 3 lw 1.5 lc rgb "#555555" title sprintf("target busbw %g %%", min_busbw_pct)
