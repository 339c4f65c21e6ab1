# collectives.gp - job iteration time, and the bus bandwidth of collectives.
#
# From collectives.csv (job, iteration, time_us, busbw_pct_line) and
# scenario.ini (each job's pattern), shaped by `dcqcn-sim plot`
# (plots/collectives.c) into plots/data/:
#   collectives_K.dat  iteration, time_us, busbw_pct_line of the K-th job
#                      (in order of first completion; at most 16 jobs),
#                      titled "JOB" and "JOB busbw"; a job that is not a
#                      collective (incast, permutation, trace) is titled
#                      "JOB (PATTERN: time only)" and its busbw is NaN
#   collectives.vars   njobs, ncoll (the collectives among them:
#                      ring-allreduce, alltoall), coll_idx[] (their K, when
#                      ncoll > 0), draw_target (ncoll > 0), max_iteration,
#                      max_time_us, min_busbw_pct ([criteria]
#                      min_busbw_pct_line, default 95), warmup
#                      ([criteria] warmup_iterations, default 1), verdict
#                      (summary.csv's: "verdict: FAIL (min_busbw_pct_line)";
#                      empty when unknown)
# Draws the time of each iteration per job (top) and, for the collectives
# only, their bus bandwidth as % of the host link rate against the target
# (bottom).  busbw is nccl-tests' figure for a collective; an incast's or a
# permutation's is a mean sender rate with no such target, so without a
# collective there is no bottom panel.  With one job and few iterations
# each point carries its value.  The warm-up iterations (before
# criteria.warmup_iterations, but a job's last) are shaded, not judged; the
# run's verdict is in the title.

if (!exists("dir") || !exists("out")) {
    exit error "usage: gnuplot -e \"dir='RUNDIR';out='FILE.png'\" collectives.gp  (after dcqcn-sim plot RUNDIR)"
}
data = dir."/plots/data/"
load data."collectives.vars"
height = draw_target ? 700 : 600
load ARG0[1:strlen(ARG0) - strlen("collectives.gp")]."common.gp"
do for [k=1:njobs] { NEED = data.sprintf("collectives_%d.dat", k); eval need }

file(k) = data.sprintf("collectives_%d.dat", k)
tu = max_time_us > 5000 ? 1000.0 : 1.0
few = max_iteration < 12 && njobs == 1
set xrange [-0.5:max_iteration + 0.5]
set xtics 1
if (max_iteration > 20) { set xtics autofreq }
set mxtics 1
set key outside right top Left reverse samplen 2 width 1 font ",11"
set lmargin 12
set rmargin 22
set style textbox opaque noborder margins 1, 1
set offsets 0, 0, graph 0.12, 0

if (!draw_target) {
    # no collective: the iteration times alone, and why
    set title "Job iteration time\n{/*0.8 no ring-allreduce or alltoall job: busbw (and its target) is drawn for collectives only}".(strlen(verdict) ? "\n{/*0.8 ".verdict."}" : "")
    set ylabel (tu > 1 ? "time per iteration (ms)" : "time per iteration (µs)")
    set yrange [0:*]
    set xlabel "iteration"
    if (few) {
        plot for [k=1:njobs] file(k) using 1:($2 / tu) with linespoints lt k pt 7 ps 1.5 title columnheader(2), \
             for [k=1:njobs] file(k) using 1:($2 / tu):(sprintf(tu > 1 ? "%.3f ms" : "%.1f µs", $2 / tu)) \
                 with labels boxed offset 0, 1.1 font ",10" tc lt k notitle
    } else {
        plot for [k=1:njobs] file(k) using 1:($2 / tu) with linespoints lt k pt 7 ps 1 title columnheader(2)
    }
} else {
    set multiplot layout 2,1 title "Iteration time per job, and bus bandwidth of the collectives".(strlen(verdict) ? "\n{/*0.8 ".verdict."}" : "") font ",15"

    set ylabel (tu > 1 ? "time per iteration (ms)" : "time per iteration (µs)")
    set yrange [0:*]
    set format x ""
    set xlabel ""
    set bmargin 1
    if (few) {
        plot for [k=1:njobs] file(k) using 1:($2 / tu) with linespoints lt k pt 7 ps 1.5 title columnheader(2), \
             for [k=1:njobs] file(k) using 1:($2 / tu):(sprintf(tu > 1 ? "%.3f ms" : "%.1f µs", $2 / tu)) \
                 with labels boxed offset 0, 1.1 font ",10" tc lt k notitle
    } else {
        plot for [k=1:njobs] file(k) using 1:($2 / tu) with linespoints lt k pt 7 ps 1 title columnheader(2)
    }

    set ylabel "bus bandwidth (% of line rate)"
    # the warm-up iterations, whose busbw is not judged (a job's last is
    # judged even there)
    wend = warmup < max_iteration ? warmup : max_iteration
    if (wend > 0) {
        set object 9 rect from -0.5, graph 0 to wend - 0.5, graph 1 behind fc rgb "#e8e8e8" fs solid 1.0 noborder
        set label 9 "warm-up: not judged" at -0.45, graph 0.97 left font ",10" tc rgb "#606060" front
    }
    set format x "%g"
    set xlabel "iteration"
    set bmargin 3.5
    set tmargin 1
    if (ncoll < njobs) {
        set label 1 "collectives only (ring-allreduce, alltoall)" at graph 0.01, graph 0.06 left font ",10" tc rgb "#606060"
    }
    if (few) {
        plot min_busbw_pct with lines dt 2 lw 1.5 lc rgb "#555555" title sprintf("busbw target %g %%", min_busbw_pct), \
             for [i=1:ncoll] file(coll_idx[i]) using 1:3 with linespoints lt coll_idx[i] pt 5 ps 1.4 notitle, \
             for [i=1:ncoll] file(coll_idx[i]) using 1:3:(sprintf("%.1f %%", $3)) \
                 with labels boxed offset 0, 1.1 font ",10" tc lt coll_idx[i] notitle
    } else {
        plot min_busbw_pct with lines dt 2 lw 1.5 lc rgb "#555555" title sprintf("busbw target %g %%", min_busbw_pct), \
             for [i=1:ncoll] file(coll_idx[i]) using 1:3 with linespoints lt coll_idx[i] pt 5 ps 1 notitle
    }
    unset multiplot
}
