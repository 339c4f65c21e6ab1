# dcqcn.gp - DCQCN sending rate of the traced flows over time.
#
# From rates.csv (time_us, flow, rate_gbps: the current rate Rc of each
# traced QP, sampled while it has data outstanding), shaped by
# `dcqcn-sim plot` (sim/plot.c) into plots/data/:
#   dcqcn_K.dat  time_us, rate_gbps of one flow (the K-th lowest flow id;
#                at most 16), titled "flow N"; a blank line where the flow
#                was idle for more than one sample interval
#   dcqcn.vars   t_end_us, interval_us, nflows, ntraced, line_gbps
#                (topology.host_link; NaN when unknown)
# Runs of more than 4000 sample intervals are thinned to the minimum and
# maximum of each 1/2000 of the run (plot.c), which keeps every rate cut.
# Draws one line per flow, in Gbps, with the host link rate dashed.

if (!exists("dir") || !exists("out")) {
    exit error "usage: gnuplot -e \"dir='RUNDIR';out='FILE.png'\" dcqcn.gp  (after dcqcn-sim plot RUNDIR)"
}
data = dir."/plots/data/"
load data."dcqcn.vars"
load ARG0[1:strlen(ARG0) - strlen("dcqcn.gp")]."common.gp"
do for [k=1:nflows] { NEED = data.sprintf("dcqcn_%d.dat", k); eval need }

ts = tscale(t_end_us)
if (ntraced > nflows) {
    which = sprintf("the first %d of %d traced QPs", nflows, ntraced)
} else {
    which = sprintf("%d traced QP%s", nflows, nflows > 1 ? "s" : "")
}
set title sprintf("DCQCN current rate (Rc) of %s", which)
set xlabel tlabel(t_end_us)
set ylabel "sending rate (Gbps)"
set xrange [0:t_end_us / ts]
if (line_gbps == line_gbps) { set yrange [0:line_gbps * 1.08] } else { set yrange [0:*] }
set key outside right top Left reverse samplen 2 font ",11"

if (line_gbps == line_gbps) {
    plot for [k=1:nflows] data.sprintf("dcqcn_%d.dat", k) using ($1 / ts):2 with lines lw 1.5 title columnheader(2), \
         line_gbps with lines dt 2 lw 1.5 lc rgb "#555555" title sprintf("host link %g Gbps", line_gbps)
} else {
    plot for [k=1:nflows] data.sprintf("dcqcn_%d.dat", k) using ($1 / ts):2 with lines lw 1.5 title columnheader(2)
}
