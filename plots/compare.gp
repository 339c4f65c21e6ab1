# compare.gp - `dcqcn-sim compare`: one scenario on each fabric, side by side.
#
# From compare.csv of a compare directory, shaped by `dcqcn-sim plot`
# (plots/compare.c) into plots/data/compare.dat: i (the row, from 0), fabric
# (starred when its run did not finish), collective_ms, busbw_pct, probe_p99_us, fct_p99_us,
# retransmitted_MB, drops; "-" where a fabric has no value.
# Draws a panel of one bar per fabric for each of collective time, bus
# bandwidth (% of line), 4 KB ping-pong latency p99, flow completion p99,
# bytes retransmitted and packets dropped that some fabric has a value of
# (the title names those none has), two a row; a time panel whose values
# span more than two decades on a log axis.

if (!exists("dir") || !exists("out")) {
    exit error "usage: gnuplot -e \"dir='COMPAREDIR';out='FILE.png'\" compare.gp  (after dcqcn-sim plot COMPAREDIR)"
}
data = dir."/plots/data/"
load data."compare.vars"
# a row of two panels per 290 pixels (the panels with a value only)
npan = 0
do for [k=1:6] { if (has[k:k] eq "1") { npan = npan + 1 } }
height = 120 + 290 * ((npan + 1) / 2)
load ARG0[1:strlen(ARG0) - strlen("compare.gp")]."common.gp"
NEED = data."compare.dat"; eval need

set datafile missing "-"
set style fill solid 0.8 border lc rgb "#404040"
set boxwidth 0.6
set key off
set grid noxtics ytics
set xtics scale 0 noenhanced
set xrange [-0.6:n - 0.4]
set yrange [0:*]
set lmargin 10
f = data."compare.dat"
titles = "'collective time (ms)' 'bus bandwidth (% of line)' '4 KB latency p99 (us)' 'flow completion p99 (us)' 'retransmitted (MB)' 'packets dropped'"

# only the panels with a value on some fabric (a run without a collective
# has no collective time nor bus bandwidth: those panels are left out and
# the title says so), two a row, each wide enough for the fabrics' names
np = 0
missing = ""
do for [k=1:6] {
    if (has[k:k] eq "1") { np = np + 1 } else { missing = missing.(strlen(missing) ? ", " : "").word(titles, k) }
}
rows = (np + 1) / 2
set multiplot layout rows,2 title "the same traffic on each fabric (* did not finish)".(strlen(missing) ? "\n{/*0.8 none on any fabric: ".missing."}" : "")
do for [k=1:6] {
    if (has[k:k] eq "1") {
        set title word(titles, k)
        # times over more than two decades on a log axis (650 us and 280 ms
        # both readable)
        lg = 0
        if (k == 1 || k == 3 || k == 4) {
            undefine STATS_*
            stats f using 1:(column(k + 2) > 0 ? column(k + 2) : 1/0) nooutput
            lg = exists("STATS_min_y") && STATS_min_y > 0 && STATS_max_y / STATS_min_y > 100
        }
        if (lg) {
            set logscale y
            set yrange [STATS_min_y / 3:STATS_max_y * 3]
        } else {
            unset logscale y
            set yrange [0:*]
        }
        plot f using 1:(column(k + 2)):($1 + 1):xtic(2) with boxes lc variable, \
             '' using 1:(column(k + 2)):(sprintf("%.4g", column(k + 2))) with labels offset 0,0.7
    }
}
unset multiplot
