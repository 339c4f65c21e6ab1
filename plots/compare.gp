# compare.gp - `dcqcn-sim compare`: one scenario on each fabric, side by side.
#
# From compare.csv of a compare directory, shaped by `dcqcn-sim plot`
# (plots/compare.c) into plots/data/compare.dat: i (the row, from 0), fabric
# (starred when its run did not finish), collective_ms, busbw_pct, probe_p99_us, fct_p99_us,
# retransmitted_MB, drops; "-" where a fabric has no value.
# Draws six panels of one bar per fabric: collective time, bus bandwidth
# (% of line), 4 KB ping-pong latency p99, flow completion p99, bytes
# retransmitted and packets dropped.

if (!exists("dir") || !exists("out")) {
    exit error "usage: gnuplot -e \"dir='COMPAREDIR';out='FILE.png'\" compare.gp  (after dcqcn-sim plot COMPAREDIR)"
}
data = dir."/plots/data/"
load data."compare.vars"
height = 800
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

set multiplot layout 2,3 title "the same traffic on each fabric (* did not finish)"
do for [k=1:6] {
    set title word(titles, k)
    if (has[k:k] eq "1") {
        unset label 1
        plot f using 1:(column(k + 2)):($1 + 1):xtic(2) with boxes lc variable, \
             '' using 1:(column(k + 2)):(sprintf("%.4g", column(k + 2))) with labels offset 0,0.7
    } else {
        set label 1 "none on any fabric" at graph 0.5, 0.5 center
        set yrange [0:1]
        plot f using 1:(0):xtic(2) with points ps 0 notitle
        set yrange [0:*]
    }
}
unset multiplot
