# queues.gp - switch egress queue depth over time: the busiest queues.
#
# From queues.csv (time_us, node, port, queue, bytes), shaped by
# `dcqcn-sim plot` (sim/plot.c) into plots/data/:
#   queues.dat   time_us, then one column per drawn queue, in KB (1 KB =
#                1000 B), titled "node → port  qN  (peak P KB)": the 6
#                (node, port, queue) with the largest peak bytes.  A queue
#                absent at a sample time is empty (queues.csv has rows only
#                while a queue is non-empty and once more when it empties).
#   queues.vars  t_end_us, nseries, nqueues, kmin_kb, kmax_kb ([ecn] of
#                scenario.ini; NaN when no drawn queue is an ECN queue).
# Draws one line per queue and the ECN Kmin/Kmax thresholds, dashed.

data = dir."/plots/data/"
load data."queues.vars"
load ARG0[1:strlen(ARG0) - strlen("queues.gp")]."common.gp"
NEED = data."queues.dat"; eval need

ts = tscale(t_end_us)
set title sprintf("Switch egress queue depth: the %d deepest of %d queues that held data", nseries, nqueues)
set xlabel tlabel(t_end_us)
set ylabel "queue depth (KB)"
set xrange [0:t_end_us / ts]
set yrange [0:*]
set format y "%.0f"
set key top right opaque box lc rgb "#c0c0c0" samplen 2 spacing 1.1 font ",11"

if (kmin_kb == kmin_kb) {
    plot for [i=2:nseries + 1] NEED using ($1 / ts):i with lines title columnheader(i), \
         kmin_kb with lines dt 2 lw 1.5 lc rgb "#555555" title sprintf("ECN Kmin %g KB", kmin_kb), \
         kmax_kb with lines dt 4 lw 1.5 lc rgb "#555555" title sprintf("ECN Kmax %g KB", kmax_kb)
} else {
    plot for [i=2:nseries + 1] NEED using ($1 / ts):i with lines title columnheader(i)
}
