# rates.gp - PFC pause frame rate and ECN marking over time.
#
# From counters.csv (time_us, data_pkts_delivered, ecn_marked_pkts,
# pause_frames: counts per sample interval), shaped by `dcqcn-sim plot`
# (sim/plot.c) into plots/data/:
#   rates.dat   time_us, pause_frames_per_s (pause_frames / interval),
#               ecn_marked_pct (100 x ecn_marked_pkts / data_pkts_delivered;
#               NaN in an interval that delivered nothing)
#   rates.vars  t_end_us, interval_us, pause_total, mark_pct_total,
#               max_ecn_mark_pct ([criteria] of scenario.ini, NaN if unset)
# Draws pause frames per second (left axis) and the % of delivered data
# packets that carried CE (right axis).

data = dir."/plots/data/"
load data."rates.vars"
load ARG0[1:strlen(ARG0) - strlen("rates.gp")]."common.gp"
NEED = data."rates.dat"; eval need

ts = tscale(t_end_us)
set title sprintf("PFC pause frames and ECN marks per %s interval (whole run: %.0f pause frames, %.2f %% of packets marked)", span(interval_us), pause_total, mark_pct_total)
set xlabel tlabel(t_end_us)
set xrange [0:t_end_us / ts]
set ylabel "PFC pause frames / s  (XOFF and refresh, all ports)" tc rgb "#d62728"
set y2label "data packets delivered CE-marked (%)" tc rgb "#1f77b4"
set ytics nomirror tc rgb "#d62728"
set y2tics nomirror tc rgb "#1f77b4"
set format y "%.3s%c"
set format y2 "%g"
set border 11 lc rgb "#404040"
set rmargin 12
if (pause_total == 0) { set yrange [0:1]; set ytics 1 } else { set yrange [0:*] }
set y2range [0:*]
set key top right opaque box lc rgb "#c0c0c0" samplen 2

if (max_ecn_mark_pct == max_ecn_mark_pct) {
    plot NEED using ($1 / ts):2 axes x1y1 with lines lw 1.5 lc rgb "#d62728" title "pause frames / s", \
         NEED using ($1 / ts):3 axes x1y2 with lines lw 1.5 lc rgb "#1f77b4" title "% of packets CE-marked", \
         max_ecn_mark_pct axes x1y2 with lines dt 2 lw 1.5 lc rgb "#1f77b4" title sprintf("criterion: marked < %g %%", max_ecn_mark_pct)
} else {
    plot NEED using ($1 / ts):2 axes x1y1 with lines lw 1.5 lc rgb "#d62728" title "pause frames / s", \
         NEED using ($1 / ts):3 axes x1y2 with lines lw 1.5 lc rgb "#1f77b4" title "% of packets CE-marked"
}
