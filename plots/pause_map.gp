# pause_map.gp - PFC pause map: which transmitters were paused, and when.
#
# From pause.csv (time_us, node, port, priority, paused_fraction, frames;
# rows only for intervals with pause activity, absent = not paused), shaped
# by `dcqcn-sim plot` (plots/pause_map.c) into plots/data/:
#   pause_rows.dat  row, transmitter ("node → port": node was paused
#                   sending to port), paused_us: the (at most 40) most paused
#                   transmitters, in order of their first pause
#   pause_map.dat   time_us (bin centre), row, paused_fraction (0-1): the
#                   mean paused fraction over each bin of bin_us; each row
#                   is two scan lines (row -+ 0.25), as `with image` needs a
#                   grid of at least 2 x 2 points
#   pause_map.vars  t_end_us, interval_us, bin_us, nrows, ntransmitters,
#                   priorities, label_chars (the longest row label),
#                   win0_us, win1_us (the window drawn: the pauses' span
#                   and 15 % of it either side when that is under half the
#                   run, else 0 to t_end_us), zoomed (1 when it is not the
#                   whole run)
# Draws rows (transmitters) x time, coloured by the paused fraction, so a
# storm that spreads from one port to others reads top to bottom.  With no
# pause at all (a valid result) it draws an empty map saying so.

if (!exists("dir") || !exists("out")) {
    exit error "usage: gnuplot -e \"dir='RUNDIR';out='FILE.png'\" pause_map.gp  (after dcqcn-sim plot RUNDIR)"
}
data = dir."/plots/data/"
load data."pause_map.vars"
height = nrows > 20 ? 300 + 15 * nrows : 600
load ARG0[1:strlen(ARG0) - strlen("pause_map.gp")]."common.gp"

# the window where the pauses are (the whole run when they fill half of it)
ts = tscale(win1_us - win0_us)
set xlabel tlabel(win1_us - win0_us)
set xrange [win0_us / ts:win1_us / ts]
zoom = zoomed ? sprintf("\n{/*0.8 zoomed to the pauses: %s to %s of the run's %s}", span(win0_us), span(win1_us), span(t_end_us)) : ""
set grid noxtics noytics
set border 15
set tics nomirror
set palette defined (0 "#ffffff", 0.1 "#fff3b0", 0.35 "#fdae61", 0.65 "#e34a33", 1 "#7f0000")
set cbrange [0:1]
set cblabel "share of the bin spent paused"
set cbtics 0.25
set format cb "%.2f"

if (nrows == 0) {
    set title "PFC pause map"
    set label 1 "no pause in this run" at graph 0.5, 0.5 center font ",22" tc rgb "#606060"
    set yrange [0:1]
    unset ytics
    set ylabel "paused transmitter → peer"
    plot NaN notitle
} else {
    NEED = data."pause_map.dat"; eval need
    if (ntransmitters > nrows) {
        which = sprintf("the %d most paused of %d transmitters", nrows, ntransmitters)
    } else {
        which = sprintf("%d paused transmitter%s", nrows, nrows > 1 ? "s" : "")
    }
    set title sprintf("PFC pause map, %s %s: %s, in order of first pause (bins of %s)%s", strstrt(priorities, ",") ? "priorities" : "priority", priorities, which, span(bin_us), zoom)
    set ylabel "paused transmitter → peer"
    set yrange [nrows - 0.5:-0.5]
    set lmargin label_chars + 6
    if (nrows > 24) { set ytics font ",10" }
    plot NEED using ($1 / ts):2:3 with image notitle, \
         data."pause_rows.dat" using (NaN):1:ytic(2) notitle
}
