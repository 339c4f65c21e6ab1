# nccltests.gp - `dcqcn-sim nccl-tests --out DIR`: busbw and time against
# the message size, as nccl-tests reports them.
#
# From nccl-tests.csv of an nccl-tests directory, shaped by `dcqcn-sim
# plot` (plots/nccltests.c) into plots/data/:
#   nccltests.dat   size_B, size (its label: 1M, 64M, 1G), out-of-place
#                   busbw, in-place busbw (GB/s), out-of-place time,
#                   in-place time (us); NaN where an iteration failed or
#                   did not end
#   nccltests.vars  n (sizes), min_size, max_size
# Draws busbw against size (top; the curve a fabric is judged on) and the
# time of one iteration against size (bottom, log-log), out-of-place and
# in-place, a point per size, on a log2 size axis labelled as nccl-tests
# writes the sizes.

if (!exists("dir") || !exists("out")) {
    exit error "usage: gnuplot -e \"dir='NCCLDIR';out='FILE.png'\" nccltests.gp  (after dcqcn-sim plot NCCLDIR)"
}
data = dir."/plots/data/"
load data."nccltests.vars"
height = 800
load ARG0[1:strlen(ARG0) - strlen("nccltests.gp")]."common.gp"
NEED = data."nccltests.dat"; eval need

set logscale x 2
lo = min_size / 1.5
hi = max_size * 1.5
if (hi / lo < 4) { lo = lo / 2; hi = hi * 2 }
set xrange [lo:hi]
set key outside right top Left reverse samplen 2 font ",11"
set rmargin 18
set multiplot layout 2,1 title "nccl-tests, simulated: bus bandwidth and time against message size" font ",15"

set ylabel "busbw (GB/s)"
set yrange [0:*]
set format x ""
set xlabel ""
set bmargin 1
plot NEED using 1:3:xtic(2) with linespoints lt 1 pt 7 ps 1.2 title "out-of-place", \
     '' using 1:4 with linespoints lt 2 pt 5 ps 1.2 title "in-place"

set tmargin 1
set bmargin 3.5
set logscale y 10
set yrange [*:*]
set ylabel "time per iteration (µs)"
set xlabel "message size (B)"
plot NEED using 1:5:xtic(2) with linespoints lt 1 pt 7 ps 1.2 title "out-of-place", \
     '' using 1:6 with linespoints lt 2 pt 5 ps 1.2 title "in-place"
unset multiplot
