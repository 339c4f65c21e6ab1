# rates.gp - PFC pause frame rate and ECN marking over time.
#
# From counters.csv (time_us, data_pkts_delivered, ecn_marked_pkts,
# pause_frames: counts per sample interval), shaped by `dcqcn-sim plot`
# (plots/rates.c) into plots/data/:
#   rates.dat   time_us, pause_frames_per_s (pause_frames / interval),
#               ecn_marked_pct (100 x ecn_marked_pkts / data_pkts_delivered;
#               NaN in an interval that delivered nothing)
#   rates.vars  t_end_us, interval_us, pause_total, mark_pct_total,
#               max_ecn_mark_pct ([criteria] of scenario.ini, default 2;
#               NaN: no criterion line)
# Runs of more than 4000 intervals are thinned to the minimum and maximum
# of each 1/2000 of the run (plots/kit.c), which keeps every spike.
# Draws pause frames per second (left axis) and the % of delivered data
# packets that carried CE (right axis).

if (!exists("dir") || !exists("out")) {
    exit error "usage: gnuplot -e \"dir='RUNDIR';out='FILE.png'\" rates.gp  (after dcqcn-sim plot RUNDIR)"
}
data = dir."/plots/data/"
load data."rates.vars"
load ARG0[1:strlen(ARG0) - strlen("rates.gp")]."common.gp"
NEED = data."rates.dat"; eval need

ts = tscale(t_end_us)
set title sprintf("PFC pause frames and ECN marking per %s interval\n{/*0.85 whole run: %.0f pause frames, %.2f %% of data packets CE-marked}", span(interval_us), pause_total, mark_pct_total)
set xlabel tlabel(t_end_us)
set xrange [0:t_end_us / ts]
set ylabel "PFC pause frames / s  (all ports)" tc rgb "#d62728"
set y2label "data packets delivered CE-marked (%)" tc rgb "#1f77b4"
set ytics nomirror tc rgb "#d62728"
set y2tics nomirror tc rgb "#1f77b4"
set format y "%.1s%c"
set format y2 "%g"
set border 11 lc rgb "#404040"
set rmargin 12
if (pause_total == 0) {
    set yrange [0:1]
    set ytics 1
    set label 1 "no PFC pause frames in this run" at graph 0.01, graph 0.1 left tc rgb "#d62728"
} else {
    set yrange [0:*]
}
set y2range [0:*]
# the axis colours say which line is which; only the criterion needs a key
unset key

if (max_ecn_mark_pct == max_ecn_mark_pct) {
    # the criterion in black, drawn last and labelled in front: dense marking
    # (a solid block of blue) never hides it
    set label 2 sprintf("criterion: marked < %g %%", max_ecn_mark_pct) at graph 0.99, second max_ecn_mark_pct right offset 0, 0.6 front tc rgb "#000000" boxed
    set style textbox opaque noborder
    plot NEED using ($1 / ts):2 axes x1y1 with lines lw 1.5 lc rgb "#d62728" notitle, \
         NEED using ($1 / ts):3 axes x1y2 with lines lw 1 lc rgb "#1f77b4" notitle, \
         max_ecn_mark_pct axes x1y2 with lines dt 2 lw 2.5 lc rgb "#000000" notitle
} else {
    plot NEED using ($1 / ts):2 axes x1y1 with lines lw 1.5 lc rgb "#d62728" notitle, \
         NEED using ($1 / ts):3 axes x1y2 with lines lw 1.5 lc rgb "#1f77b4" notitle
}
