# sweep.gp - one metric of a sweep against its first numeric axis.
#
# From DIR/sweep.csv, shaped by `dcqcn-sim plot DIR` (plots/sweep.c,
# plot_sweep) into plots/data/:
#   FIG.dat   x (the axis value in its base unit: bytes, ps, bps, ...; the
#             index of the value for an axis without one), xlabel (the value
#             as written, e.g. 150KB), then one column per line: the metric
#             for one combination of the other axes, titled "KEY=V, ..."
#             (the metric's name with a single axis); with --repeat each
#             line's column is followed by its min and max
#   FIG.vars  metric, xkey, xunit, nseries, bars (1: min and max columns),
#             numeric_x, log_x (values spanning 100x or more), nx
# FIG is sweep_METRIC, given as fig= (one script draws every metric):
#     gnuplot -e "dir='DIR';out='DIR/plots/sweep_ecn_mark_pct.png';fig='sweep_ecn_mark_pct'" sweep.gp
# Draws one line per combination of the other axes, the values as written
# on the x axis (spaced by their base value), and with repeats the mean
# with a bar from the lowest to the highest repeat.

if (!exists("dir") || !exists("out") || !exists("fig")) {
    exit error "usage: gnuplot -e \"dir='SWEEPDIR';out='FILE.png';fig='sweep_METRIC'\" sweep.gp  (after dcqcn-sim plot SWEEPDIR)"
}
data = dir."/plots/data/"
load data.fig.".vars"
load ARG0[1:strlen(ARG0) - strlen("sweep.gp")]."common.gp"
NEED = data.fig.".dat"; eval need

set title sprintf("%s against %s%s", metric, xkey, bars ? "\n(mean of the repeats; bars: lowest to highest)" : "") noenhanced
set xlabel (numeric_x ? sprintf("%s (spaced by value, %s)", xkey, xunit) : xkey) noenhanced
set ylabel metric noenhanced
if (log_x) { set logscale x }
if (nx == 1) { set offsets graph 0.5, graph 0.5, 0, 0 } else { set offsets graph 0.03, graph 0.03, 0, 0 }
set xtics rotate by -30
set key outside right top Left reverse samplen 2 width 1 font ",11"
set rmargin 30

if (bars) {
    plot for [k=0:nseries-1] NEED using 1:(column(3 + 3*k)):(column(4 + 3*k)):(column(5 + 3*k)):xticlabels(2) \
         with yerrorlines lt (k % 16) + 1 pt 7 ps 0.8 title columnhead(3 + 3*k)
} else {
    plot for [k=0:nseries-1] NEED using 1:(column(3 + k)):xticlabels(2) \
         with linespoints lt (k % 16) + 1 pt 7 ps 0.8 title columnhead(3 + k)
}
