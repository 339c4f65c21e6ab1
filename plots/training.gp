# training.gp - one training step as each pipeline stage spends it.
#
# From training_timeline.csv (job, iteration, stage, rank, block, ...,
# start_us, end_us: the compute blocks of each stage's first GPU) and
# training.csv (the step's start, end, efficiency and bubble fraction),
# shaped by `dcqcn-sim plot` (plots/training.c) into plots/data/:
#   training.dat   stage, start_us, end_us, backward (1: a backward block):
#                  the blocks of the first step of the first training job
#   training.vars  t_end_us (the step's end), job, nstages, step0_us,
#                  step1_us (the step), efficiency, bubble_fraction
# Draws a row per stage, each compute block a bar (forward light, backward
# dark) from its start to its end; the gaps are what the step spent
# waiting: the pipeline's bubble and the exposed communication.

if (!exists("dir") || !exists("out")) {
    exit error "usage: gnuplot -e \"dir='RUNDIR';out='FILE.png'\" training.gp  (after dcqcn-sim plot RUNDIR)"
}
data = dir."/plots/data/"
load data."training.vars"
load ARG0[1:strlen(ARG0) - strlen("training.gp")]."common.gp"
NEED = data."training.dat"; eval need

ts = tscale(step1_us)
set title sprintf("Training step 0 of job %s, each pipeline stage's first GPU: compute %.1f %% of the step\n{/*0.8 bars: compute blocks (light forward, dark backward); gaps: the pipeline's bubble (%.1f %% of the step) and exposed communication}", job, 100 * efficiency, 100 * bubble_fraction)
set xlabel tlabel(step1_us)
set ylabel "pipeline stage"
set xrange [step0_us / ts:step1_us / ts]
set yrange [nstages - 0.5:-0.5]
set ytics 1
set mytics 1
set grid xtics
set key off
set style fill solid 1.0 noborder
plot NEED using (($2 + $3) / 2 / ts):1:(($3 - $2) / 2 / ts):(0.35):(int($4) ? 0x1f4e9a : 0x8ab4e8) \
     with boxxyerror lc rgb variable
