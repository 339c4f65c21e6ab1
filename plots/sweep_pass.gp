# sweep_pass.gp - pass or fail of every point of a sweep over its first
# two axes.
#
# From DIR/sweep.csv's criteria_pass, shaped by `dcqcn-sim plot DIR`
# (plots/sweep.c, plot_sweep) into plots/data/:
#   sweep_pass.dat   xi, yi (the value indices of the first two axes),
#                    xlabel, ylabel (the values as written), pass: 1 every
#                    point of the cell passed, 0 one failed, 0.5 none failed
#                    but one was not judged (its run did not finish its
#                    traffic), NaN no point of the cell finished
#   sweep_pass.vars  xkey, ykey, nx, ny, more_axes (1: a cell holds the
#                    points of every value of the further axes, and shows
#                    the worst of them), nwhy (rows of sweep_pass_why.dat)
#   sweep_pass_why.dat  xi, yi, why: in a failing cell, the first criterion
#                    its first failing point missed and the value measured
#                    ("max_ecn_mark_pct 18.303", "+1" for one more failed);
#                    "not judged" in such a cell; no row for a passing one
#     gnuplot -e "dir='DIR';out='DIR/plots/sweep_pass.png';fig='sweep_pass'" sweep_pass.gp

if (!exists("dir") || !exists("out")) {
    exit error "usage: gnuplot -e \"dir='SWEEPDIR';out='FILE.png'\" sweep_pass.gp  (after dcqcn-sim plot SWEEPDIR)"
}
data = dir."/plots/data/"
load data."sweep_pass.vars"
height = ny > 8 ? 800 : 600
load ARG0[1:strlen(ARG0) - strlen("sweep_pass.gp")]."common.gp"
NEED = data."sweep_pass.dat"; eval need

set title sprintf("Criteria: pass (green), fail (red), not judged (grey)%s", more_axes ? "\n(a cell is the worst of its points over the other axes)" : "") noenhanced
set xlabel xkey noenhanced
set ylabel ykey noenhanced
set xrange [-0.5:nx - 0.5]
set yrange [-0.5:ny - 0.5]
set cbrange [0:1]
set palette defined (0 "#d62728", 0.5 "#bbbbbb", 1 "#2ca02c")
unset colorbox
unset grid
set xtics 1 rotate by -30
set ytics 1
WHY = data."sweep_pass_why.dat"
# each failing cell says which criterion it missed and by what value
if (nwhy > 0) {
    plot NEED using 1:2:(0.48):(0.48):5:xticlabels(3):yticlabels(4) with boxxyerror fc palette fs solid 1.0 notitle, \
         WHY using 1:2:3 with labels font (nx * ny > 24 ? ",8" : ",11") tc rgb "#ffffff" noenhanced notitle
} else {
    plot NEED using 1:2:(0.48):(0.48):5:xticlabels(3):yticlabels(4) with boxxyerror fc palette fs solid 1.0 notitle
}
