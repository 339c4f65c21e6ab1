/*
 * report.h - one self-contained page of a finished folder: DIR/report.html
 * (docs/outputs.md#the-report).
 *
 * The page is made from the files the folder holds, never from a run in
 * memory, so that `dcqcn-sim report DIR` and `run --report` (and the
 * reports of sweep, calibrate, compare and nccl-tests) take one path.  It
 * holds everything inline: the figures as SVG (gnuplot's svg terminal, drawn
 * into a temporary folder, so DIR/plots/ keeps its own figures), a style
 * sheet for screens, phones and A4 paper, and, on pages with a table to
 * sort, a few lines of script; a Content-Security-Policy forbids any
 * request to the network.  Every text that comes from a file is escaped.
 *
 * The kind of folder is told by the file that only it holds: compare.csv
 * (compare), calibrate.csv (calibrate), nccl-tests.csv (nccl-tests), sweep.csv
 * (a sweep), summary.csv (a run).
 */
#ifndef DCQCN_REPORT_H
#define DCQCN_REPORT_H

#include <stddef.h>

enum report_kind { REPORT_RUN, REPORT_SWEEP, REPORT_CALIBRATE, REPORT_COMPARE, REPORT_NCCLTESTS };

/* what the page says of the program that wrote it */
struct report_meta {
	const char *version;	/* "0.1.0 (commit 8da7d97)" */
	const char *build_type; /* meson's buildtype: "debugoptimized" */
	double wall_s;		/* the command's wall time, s; < 0: unknown (a run's
				 * page then gives stats.csv's wall_s) */
	const char *scripts_dir; /* the plot scripts (plot_scripts_dir); NULL: none found */
};

/* the kind of folder dir is, or -1 with err (not a folder, or none of the
 * files above) */
int report_kind(const char *dir, char *err, size_t errlen);

/*
 * DIR/report.html of the folder, written aside and renamed (an older page
 * stays whole until the new one is).  Returns 0 written; 1 written, but a
 * figure could not be drawn (gnuplot missing or failing: the page says so
 * where the figure would be, and err names it); -1 nothing written, err
 * says why (not a folder of a kind above; a file the page needs missing,
 * damaged or lacking a column, named with its path; a write that failed).
 * On success err holds the page's path.
 */
int report_write(const char *dir, const struct report_meta *m, char *err, size_t errlen);

/*
 * The page of every point of sweep folder dir (each folder sweep.csv's
 * `dir` column names, or with --repeat each of its rN), so that the
 * sweep's page links to them; written before the sweep's own.  Returns
 * the pages written, 0 or more; -1 with err when sweep.csv cannot be read
 * or a point's page is refused (a figure that could not be drawn is not an
 * error here: the point's page says so).
 */
int report_sweep_points(const char *dir, const struct report_meta *m, char *err, size_t errlen);

#endif
