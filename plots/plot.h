/*
 * plot.h - gnuplot figures of a run directory (docs/contract.md#commands `plot`, A3 plots/).
 *
 * plot_run() reads the CSV files of a run directory, checks the columns each
 * figure needs, writes the shaped data under DIR/plots/data/ and runs one
 * gnuplot script per figure (scripts_dir/NAME.gp) to draw DIR/plots/NAME.png:
 *
 *   queues.png       queues.csv        the 6 busiest switch egress queues, KB
 *   pause_map.png    pause.csv         paused fraction per transmitter x time,
 *                                      zoomed to the pauses' window
 *   rates.png        counters.csv      pause frames/s and % of packets CE-marked
 *   dcqcn.png        rates.csv,        the DCQCN rate limit Rc (not goodput) of
 *                    qps.csv           the QPs output.plot_qps lists, or (auto)
 *                                      the 8 whose Rc fell lowest, Gbps; each
 *                                      named "QP N  JOB hS → hD"
 *   throughput.png   counters.csv,     per job: goodput (Tbps past 5000 Gbps),
 *                    pfcwd.csv         and, only when the run had any, the
 *                                      retransmitted rate and drops per
 *                                      interval; watchdog storms shaded
 *   collectives.png  collectives.csv,  time per iteration of each job; busbw (%
 *                    scenario.ini,     of line) against the target for the
 *                    summary.csv       collectives (ring-allreduce, alltoall)
 *                                      only, the warm-up shaded; the verdict
 *   storage.png      storage.csv,      storage jobs' completion latency per
 *                    storage_jobs.csv, interval (mean, and the slowest I/O) above
 *                    collectives.csv   the collectives' iterations on one time axis
 *
 * The counters' last row (the run's end) closes a partial interval: one
 * shorter than half a sample interval is drawn added to the one before,
 * so that a rate is never taken over a few nanoseconds.
 *
 * dcqcn.png and collectives.png are skipped (not an error) when their CSV has
 * no rows (nic.cc = none; no collective completed); queues.png when
 * scenario.ini says output.queues = none; throughput.png when the run has no
 * job; storage.png when it has no storage job, or no I/O completed.  pause_map.png with no pause is an empty map labelled so.  A skipped
 * figure's old files (any format) are removed; so are a failed one's.
 *
 * Nothing here prints: gnuplot's stdout goes to /dev/null and its stderr to
 * DIR/plots/data/NAME.log, whose last line becomes the error message.
 */
#ifndef DCQCN_PLOT_H
#define DCQCN_PLOT_H

#include <stddef.h>

/* write DIR/plots/NAME.png from the CSVs of run directory DIR; scripts from
 * scripts_dir (the installed or source plots/ folder).  Returns 0, or -1
 * with a one-line reason in err (gnuplot missing: say how to install it,
 * `apt-get install gnuplot-nox`; a CSV missing or lacking a column: name
 * the file and the column).  Every figure is attempted even after one
 * fails; err names the first failure.  On success err holds a one-line note
 * for the user ("plots in DIR/plots: ...; skipped dcqcn.png: ...").  */
int plot_run(const char *dir, const char *scripts_dir, const char *format, char *err,
	     size_t errlen);

/*
 * The figures of a sweep directory (one that holds sweep.csv) into
 * DIR/plots/, from sweep.csv alone:
 *
 *   sweep_METRIC.png  each metric of `metrics` (comma-separated sweep.csv
 *                     columns; NULL: busbw_judged_min_pct,ecn_mark_pct)
 *                     against the first axis with a base-unit column
 *                     (KEY_B, KEY_ps, ...; the first axis, as categories,
 *                     when none has one), the values as written (150KB) as
 *                     the tick labels, one line per combination of the
 *                     other axes; with --repeat (METRIC_min, METRIC_max
 *                     there) the mean with min-max bars
 *   sweep_pass.png    with two or more axes: pass (1), fail (0) or not
 *                     judged (0.5) over the first two axes; a cell over
 *                     further axes is the worst of its points (it passes
 *                     only if all do); a point without a row is blank;
 *                     a failing cell labelled with the first criterion
 *                     its first failing point missed and the value
 *
 * Data: DIR/plots/data/sweep_METRIC.dat (x, xlabel, then one column per
 * line, titled "KEY=V, ..." or METRIC with no other axis; with repeats
 * each line's _min and _max columns follow it), sweep_METRIC.vars and
 * sweep_pass.dat (xi, yi, xlabel, ylabel, pass), sweep_pass_why.dat (xi, yi,
 * why: "max_ecn_mark_pct 18.303", "not judged").  A metric with no number
 * in any row is skipped, with a note.  Returns 0 with a note for the user
 * in err, or -1 with the reason.
 */
int plot_sweep(const char *dir, const char *scripts_dir, const char *format,
	       const char *metrics, char *err, size_t errlen);

/*
 * The figure of a calibrate directory (`dcqcn-sim calibrate`): from
 * DIR/plane.csv, DIR/plots/calibrate.FORMAT, the margin of each point over
 * the two keys of the plane (a cell per pair of values, coloured from red,
 * failing, through orange, then from light green up to green, on a scale as
 * wide as the largest margin, its margin written in it, the failing ones
 * hatched, the recommendation framed).  Data: DIR/plots/data/
 * calibrate.dat (ia, ib, margin_pct clamped to +-100, pass, label,
 * binding) and calibrate.vars (the keys, the grid sizes and values, the
 * recommendation's cell).  Returns 0 with a note for the user in err, or
 * -1 with the reason.
 */
int plot_calibrate(const char *dir, const char *scripts_dir, const char *format, char *err,
		   size_t errlen);

/*
 * The figure of a compare directory (`dcqcn-sim compare`): from
 * DIR/compare.csv, DIR/plots/compare.FORMAT, a bar per fabric in a
 * panel for each of collective time, bus bandwidth (% of line), 4 KB
 * latency p99, flow completion p99, bytes retransmitted and drops that some
 * fabric has a value of, two a row, a time over more than two decades on a
 * log axis (a fabric whose run did not finish is starred).  Data: DIR/plots/data/compare.dat.  Returns
 * 0 with a note for the user in err, or -1 with the reason.
 */
int plot_compare(const char *dir, const char *scripts_dir, const char *format, char *err,
		 size_t errlen);

/*
 * What a plot_*_to call drew, for a page that shows the figures (the
 * report): the caller sets out_dir, and gets each figure attempted with
 * its image's path, or why it was skipped or failed.  With out_dir set the
 * images go there (NAME.FORMAT) and the figures of DIR/plots/ are left as
 * they are, in every format; the shaped data still goes to DIR/plots/data/
 * (the scripts read it there).
 */
#define PLOT_FIGS_MAX 24
struct plot_figs {
	const char *out_dir; /* in: the folder for the images */
	int n;		     /* out: the figures attempted, in drawing order */
	struct plot_fig {
		char name[64];	 /* "queues", "sweep_ecn_mark_pct" */
		char path[4200]; /* the image, when drawn */
		int state;	 /* 0 drawn, 1 skipped, -1 failed */
		char note[512];	 /* why skipped, or the failure */
	} fig[PLOT_FIGS_MAX];
};

/*
 * The figure of an nccl-tests directory (`dcqcn-sim nccl-tests --out`):
 * from DIR/nccl-tests.csv, DIR/plots/nccltests.FORMAT, busbw (top) and the
 * time of one iteration (bottom, log) against the message size (log2),
 * out-of-place and in-place.  Data: DIR/plots/data/nccltests.dat.  Returns
 * 0 with a note for the user in err, or -1 with the reason.
 */
int plot_nccltests(const char *dir, const char *scripts_dir, const char *format, char *err,
		   size_t errlen);

/* plot_run, plot_sweep, plot_calibrate, plot_compare and plot_nccltests into figs->out_dir
 * (above); the same return values */
int plot_run_to(const char *dir, const char *scripts_dir, const char *format,
		struct plot_figs *figs, char *err, size_t errlen);
int plot_sweep_to(const char *dir, const char *scripts_dir, const char *format,
		  const char *metrics, struct plot_figs *figs, char *err, size_t errlen);
int plot_calibrate_to(const char *dir, const char *scripts_dir, const char *format,
		      struct plot_figs *figs, char *err, size_t errlen);
int plot_compare_to(const char *dir, const char *scripts_dir, const char *format,
		    struct plot_figs *figs, char *err, size_t errlen);
int plot_nccltests_to(const char *dir, const char *scripts_dir, const char *format,
		      struct plot_figs *figs, char *err, size_t errlen);

/* 1 when format is one plot_run draws (figures.h figure_formats: png, svg,
 * pdf; NULL is png).  Figures are named DIR/plots/NAME.FORMAT; drawing one
 * removes that figure in the other formats. */
int plot_format_valid(const char *format);

/* The first of the folders that holds the plot scripts (queues.gp): the
 * environment variable DCQCN_SIM_PLOTS when set, then each of candidates
 * (a NULL-terminated list, e.g. the source tree's plots/ and the installed
 * DATADIR/dcqcn-sim/plots).  Returns NULL when none does.  */
const char *plot_scripts_dir(const char *const *candidates);

#endif
