# calibrate.gp - the margin of `dcqcn-sim calibrate` over its two most
# influential keys, the other keys at the search's best
# point (the recommendation framed when it is one of them).
#
# From plane.csv of a calibrate directory, shaped by `dcqcn-sim plot`
# (plots/calibrate.c) into plots/data/:
#   calibrate.dat   ia, ib (the values' positions on their grids, from 0),
#                   margin_pct (the point's margin, % of its binding limit,
#                   clamped to -100..100 for the colours; empty when the
#                   point was not run), pass (1, 0), label (the margin as
#                   text, "invalid" where the loader rejects the point),
#                   binding (the criterion that sets the margin)
#   calibrate.vars  key_a, key_b (the keys: x and y), na, nb (their grid
#                   sizes), a_label[], b_label[] (the values as set),
#                   best_ia, best_ib (the recommendation), title_line
# Draws one cell per point, coloured from red (fails by far) through orange
# and light green (on the limit) to green (passes with room), on a scale as wide as the
# largest margin (at least +-5 %) that changes colour at 0 (orange below,
# light green above), its margin written in it, the
# failing cells hatched and the recommendation framed.

if (!exists("dir") || !exists("out")) {
    exit error "usage: gnuplot -e \"dir='CALIBRATEDIR';out='FILE.png'\" calibrate.gp  (after dcqcn-sim plot CALIBRATEDIR)"
}
data = dir."/plots/data/"
load data."calibrate.vars"
height = 700
load ARG0[1:strlen(ARG0) - strlen("calibrate.gp")]."common.gp"
NEED = data."calibrate.dat"; eval need
# (before the ranges are set: stats keeps to them)
# the colour scale spans the largest margin seen (at least 5 %, rounded up to
# 5, 10, 20, 50 or 100 %), symmetric about 0, so that +3 % and -3 % look
# as apart as they are
undefine STATS_*
stats NEED using ($3 == $3 ? abs($3) : 1/0) nooutput
mmax = exists("STATS_max") ? STATS_max : 100
lim = mmax <= 5 ? 5 : mmax <= 10 ? 10 : mmax <= 20 ? 20 : mmax <= 50 ? 50 : 100

set title title_line noenhanced
set xlabel key_a noenhanced
set ylabel key_b noenhanced
set xrange [-0.5:na - 0.5]
set yrange [-0.5:nb - 0.5]
set xtics () scale 0
set ytics () scale 0
do for [i=1:na] { set xtics add (a_label[i] i - 1) }
do for [i=1:nb] { set ytics add (b_label[i] i - 1) }
set grid noxtics noytics
set cbrange [-lim:lim]
set cblabel "margin, % of the binding limit" noenhanced
# and the colour jumps at 0: the least failure is orange, the least pass green
set palette defined (-1 "#b2182b", 0 "#f4a582", 0 "#b8e186", 1 "#1b7837")
set object 1 rect from best_ia - 0.5, best_ib - 0.5 to best_ia + 0.5, best_ib + 0.5 \
    front fs empty border lc rgb "#000000" lw 4
set key off
cell = "1:2:($1 - 0.5):($1 + 0.5):($2 - 0.5):($2 + 0.5)"
plot data."calibrate.dat" using @cell:3 with boxxyerror fc palette fs solid 1.0 noborder, \
     "" using 1:($4 == 0 ? $2 : NaN):($1 - 0.5):($1 + 0.5):($2 - 0.5):($2 + 0.5) \
        with boxxyerror fc rgb "#404040" fs transparent pattern 4 noborder, \
     "" using 1:2:5 with labels font ",11" noenhanced
