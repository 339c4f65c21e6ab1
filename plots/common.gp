# common.gp - loaded first by every figure script in this folder (after its
# NAME.vars): the terminal, fonts, colours and helpers they share.
#
# Terminal: by out's extension: svg, pdfcairo, or for .png pngcairo
# (antialiased, UTF-8 text; Debian's gnuplot-nox 5.4 has it), else gnuplot's
# png (libgd).  1200 pixels (12.5 in) wide, `height` (default 600) high,
# DejaVu Sans 13 pt, which stays legible on a slide.
#
# Expects: dir (the run directory) and out (the figure to write: .png, .svg
# or .pdf), as given by
#     gnuplot -e "dir='RUNDIR';out='RUNDIR/plots/NAME.png'" NAME.gp
# after `dcqcn-sim plot RUNDIR` has written RUNDIR/plots/data/.

if (!exists("height")) { height = 600 }
# the format follows out's extension: .svg, .pdf, else PNG (gnuplot's
# substrings count from 1: the last three characters start at length - 2)
fmt = strlen(out) > 4 ? out[strlen(out)-2:] : "png"
if (fmt eq "svg") {
    set terminal svg size 1200,height dynamic enhanced font "DejaVu Sans,13" linewidth 1.2
} else { if (fmt eq "pdf") {
    set terminal pdfcairo size 12.5in,(height/96.0)in enhanced font "DejaVu Sans,13" linewidth 1.2
} else { if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
    set terminal pngcairo size 1200,height enhanced font "DejaVu Sans,13" linewidth 1.2
} else {
    set terminal png size 1200,height enhanced font "DejaVu Sans,13" linewidth 1.2
} } }
set output out
set encoding utf8
set datafile separator "\t"
set datafile columnheaders
set border 3 lc rgb "#404040"
set tics nomirror out scale 0.6
set grid xtics ytics lc rgb "#e0e0e0" lw 1 dt 1
set key noenhanced
set title font ",15"
set lmargin 12

# colours for up to 16 series (Tableau 10, then 6 darker ones)
set linetype 1 lc rgb "#1f77b4" lw 2
set linetype 2 lc rgb "#ff7f0e" lw 2
set linetype 3 lc rgb "#2ca02c" lw 2
set linetype 4 lc rgb "#d62728" lw 2
set linetype 5 lc rgb "#9467bd" lw 2
set linetype 6 lc rgb "#8c564b" lw 2
set linetype 7 lc rgb "#e377c2" lw 2
set linetype 8 lc rgb "#7f7f7f" lw 2
set linetype 9 lc rgb "#bcbd22" lw 2
set linetype 10 lc rgb "#17becf" lw 2
set linetype 11 lc rgb "#393b79" lw 2
set linetype 12 lc rgb "#637939" lw 2
set linetype 13 lc rgb "#8c6d31" lw 2
set linetype 14 lc rgb "#843c39" lw 2
set linetype 15 lc rgb "#7b4173" lw 2
set linetype 16 lc rgb "#3182bd" lw 2
set linetype cycle 16

# time axes: microseconds up to 5 ms of simulated time, milliseconds beyond
tscale(t) = t > 5000 ? 1000.0 : 1.0
tlabel(t) = t > 5000 ? "simulated time (ms)" : "simulated time (µs)"
# a sample interval in words, e.g. "10 µs"
span(us) = us >= 1000 ? sprintf("%g ms", us / 1000) : sprintf("%g µs", us)

# `NEED = "FILE"; eval need`: stop with an error naming FILE when it has no
# data rows (or cannot be read), instead of drawing an empty chart
need = 'undefine STATS_*; stats NEED using 1 nooutput; if (!exists("STATS_records") || STATS_records == 0) { exit error NEED.": no data rows" }'
