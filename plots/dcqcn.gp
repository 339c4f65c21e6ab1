# dcqcn.gp - the DCQCN rate limit Rc of chosen QPs over time.
#
# Rc is the rate DCQCN allows a QP to send at, not what it delivers: a QP
# paused by PFC, or with nothing to send, keeps its Rc (a pause storm shows
# 100 Gbps for a flow that gets 1.9).  Goodput is in throughput.png.
#
# From rates.csv (time_us, flow: the QP id, rate_gbps: its Rc, sampled
# while it has data outstanding) and qps.csv (qp, job, src, dst), shaped by
# `dcqcn-sim plot` (plots/dcqcn.c) into plots/data/:
#   dcqcn_K.dat  time_us, rate_gbps, sample of the K-th drawn QP, titled
#                "QP N  JOB hS → hD" (qps.csv; "QP N" without it); a blank
#                line where the QP had no data outstanding for more than 5
#                sample intervals (the line breaks there; shorter gaps are
#                drawn through); `sample` repeats the rate where a point is
#                drawn (every sample of a QP with at most 300, else the
#                lone ones), NaN elsewhere
#   dcqcn.vars   t_end_us, interval_us, nflows, ntraced, line_gbps
#                (topology.host_link; NaN when unknown), auto (1: the QPs
#                are output.plot_qps = auto's: the 8 whose Rc fell lowest),
#                missing (listed QPs with no rows in rates.csv), untraced
#                (scenario.ini's jobs with no QP in qps.csv), fluid (1:
#                the run has a fluid model beside it, `run --fluid`)
#   dcqcn_fluid.dat  time_us, the fluid model's Rc of each flow in Gbps
#                (fluid/rates.csv's flow 0: flows that start together follow
#                one path), when fluid is 1
# Runs of more than 4000 sample intervals are thinned to the minimum and
# maximum of each 1/2000 of the run (plots/kit.c), which keeps every rate cut.
# Draws one line per QP, in Gbps, with the host link rate dashed, and the
# fluid model's Rc dotted in black.

if (!exists("dir") || !exists("out")) {
    exit error "usage: gnuplot -e \"dir='RUNDIR';out='FILE.png'\" dcqcn.gp  (after dcqcn-sim plot RUNDIR)"
}
data = dir."/plots/data/"
load data."dcqcn.vars"
load ARG0[1:strlen(ARG0) - strlen("dcqcn.gp")]."common.gp"
do for [k=1:nflows] { NEED = data.sprintf("dcqcn_%d.dat", k); eval need }

FLUID = ""
if (fluid) {
    NEED = data."dcqcn_fluid.dat"; eval need
    FLUID = sprintf(", '%s' using ($1 / ts):2 with lines dt 3 lw 2.5 lc rgb 'black' title columnheader(2)", NEED)
}

file(k) = data.sprintf("dcqcn_%d.dat", k)
ts = tscale(t_end_us)
if (auto) {
    if (ntraced > nflows) {
        which = sprintf("the %d most cut of %d traced QPs (lowest Rc)", nflows, ntraced)
    } else {
        which = sprintf("%d traced QP%s", nflows, nflows > 1 ? "s" : "")
    }
} else {
    which = sprintf("%d QP%s of output.plot_qps", nflows, nflows > 1 ? "s" : "")
}
note = "Rc caps a QP's sending rate: it is not its goodput (a paused QP keeps its Rc)"
if (strlen(missing) > 0) { note = note.sprintf("; no samples: QP %s", missing) }
# a job none of whose QPs was traced is named (enhanced text's size change
# stops at a line break: a group per line)
extra = strlen(untraced) > 0 ? "\n{/*0.8 not traced, no QP in rates.csv: job ".untraced." (output.rates takes the first QPs in job order: raise it)}" : ""
set title sprintf("DCQCN rate limit Rc of %s\n{/*0.8 %s}%s", which, note, extra)
set xlabel tlabel(t_end_us)
set ylabel "DCQCN rate limit Rc (Gbps)"
set xrange [0:t_end_us / ts]
if (line_gbps == line_gbps) { set yrange [0:line_gbps * 1.08] } else { set yrange [0:*] }
set key outside right top Left reverse samplen 2 font ",11"

# lines through the samples (broken at idle gaps), points where a sample
# would otherwise be lost (or on every sample of a sparse QP)
if (line_gbps == line_gbps) {
    plot for [k=1:nflows] file(k) using ($1 / ts):2 with lines lt k lw 1.5 title columnheader(2), \
         for [k=1:nflows] file(k) using ($1 / ts):3 with points lt k pt 7 ps 0.5 notitle, \
         line_gbps with lines dt 2 lw 1.5 lc rgb "#555555" title sprintf("host link %g Gbps", line_gbps) @FLUID
} else {
    plot for [k=1:nflows] file(k) using ($1 / ts):2 with lines lt k lw 1.5 title columnheader(2), \
         for [k=1:nflows] file(k) using ($1 / ts):3 with points lt k pt 7 ps 0.5 notitle @FLUID
}
