# queues.gp - switch egress queue depth over time: the busiest queues.
#
# From queues.csv (time_us, node, port, queue, bytes), shaped by
# `dcqcn-sim plot` (plots/queues.c) into plots/data/:
#   queues.dat   time_us, then one column per drawn queue, in KB (1 KB =
#                1000 B), titled "node → port  qN  (peak P KB)": the 6
#                (node, port, queue) with the largest peak bytes.  A queue
#                absent at a sample time is empty (queues.csv has rows only
#                while a queue is non-empty and once more when it empties).
#   queues.vars  t_end_us, nseries, nqueues, kmin_kb, kmax_kb ([ecn] of
#                scenario.ini; NaN when no drawn queue is an ECN queue), fluid
#                (1: the run has a fluid model beside it, `run --fluid`),
#                win0_us, win1_us (the window drawn: where the queues held
#                data and 15 % of that either side, when under half the run,
#                else 0 to t_end_us), zoomed (1 when it is not the whole run)
#   queues_fluid.dat  time_us, the fluid model's bottleneck queue in KB
#                (from fluid/queues.csv), when fluid is 1
# Runs of more than 4000 sample intervals are thinned to the minimum and
# maximum of each 1/2000 of the run (plots/kit.c), which keeps every peak.
# Draws one line per queue and the ECN Kmin/Kmax thresholds, dashed, and
# the fluid model's queue dotted in black.

if (!exists("dir") || !exists("out")) {
    exit error "usage: gnuplot -e \"dir='RUNDIR';out='FILE.png'\" queues.gp  (after dcqcn-sim plot RUNDIR)"
}
data = dir."/plots/data/"
load data."queues.vars"
load ARG0[1:strlen(ARG0) - strlen("queues.gp")]."common.gp"
NEED = data."queues.dat"; eval need

# the fluid model's queue, added to the plot command when there is one
FLUID = ""
if (fluid) {
    NEED = data."queues_fluid.dat"; eval need
    FLUID = sprintf(", '%s' using ($1 / ts):2 with lines dt 3 lw 2.5 lc rgb 'black' title columnheader(2)", NEED)
    NEED = data."queues.dat"
}

ts = tscale(t_end_us)
zoom = zoomed ? sprintf("\n{/*0.8 zoomed to where queues held data: %s to %s of the run's %s}", span(win0_us), span(win1_us), span(t_end_us)) : ""
if (nqueues > nseries) {
    set title sprintf("Switch egress queue depth: the %d deepest of the %d queues that held data%s", nseries, nqueues, zoom)
} else {
    set title sprintf("Switch egress queue depth: the %d queue%s that held data%s", nqueues, nqueues > 1 ? "s" : "", zoom)
}
set xlabel tlabel(t_end_us)
set ylabel "queue depth (KB)"
set xrange [win0_us / ts:win1_us / ts]
set yrange [0:*]
set format y "%.0f"
set key below maxrows 3 Left reverse samplen 2 width 2 height 1 font ",11"

if (kmin_kb == kmin_kb) {
    plot for [i=2:nseries + 1] NEED using ($1 / ts):i with lines title columnheader(i), \
         kmin_kb with lines dt 2 lw 1.5 lc rgb "#555555" title sprintf("ECN Kmin %g KB", kmin_kb), \
         kmax_kb with lines dt 4 lw 1.5 lc rgb "#555555" title sprintf("ECN Kmax %g KB", kmax_kb) @FLUID
} else {
    plot for [i=2:nseries + 1] NEED using ($1 / ts):i with lines title columnheader(i) @FLUID
}
