/*
 * internal.h - what the files of plots/ share; nothing outside plots/ includes it.
 *
 * The work is split so that no chart is ever drawn from data that is not
 * there.  C reads the run's CSVs with libcsv, checks by name every column a
 * figure needs (gnuplot only warns about a missing `using "name"` column and
 * then draws an empty chart), and does the shaping gnuplot is bad at:
 * choosing the busiest queues, the most paused transmitters and the most
 * cut QPs, naming QPs by job and hosts, binning pause intervals into an
 * image, turning per-interval counts into rates, merging watchdog storms
 * into spans.  It writes tab-separated files with a header row under
 * DIR/plots/data/ (NAME.dat, NAME_K.dat, and NAME.vars: a few gnuplot
 * assignments such as the run's end time), then runs
 *
 *     gnuplot -e "dir='DIR';out='DIR/plots/NAME.png'" SCRIPTS/NAME.gp
 *
 * with fork/exec (posix_spawn), stdin and stdout on /dev/null and stderr in
 * DIR/plots/data/NAME.log, and checks its exit status and the PNG.  The
 * scripts only draw; each stops with `exit error` naming the file when its
 * data has no rows, so they fail loudly when run by hand on a bad folder too.
 *
 * Time: the CSVs' time_us is the end of a sample interval (pause.csv,
 * counters.csv, rates.csv) or the sample time (queues.csv); counters.csv's
 * last row ends at the run's end, a partial interval (cnt_add).  The interval
 * is output.sample_interval from scenario.ini, else the smallest step seen
 * in the data.  The x axes run from 0 to summary.csv's sim_time_us (else
 * the last time in counters.csv).
 *
 * Sizes are decimal, as everywhere in the project: 1 KB = 1000 B.
 *
 * The files: plot.c runs the figures (plot.h) and gnuplot; kit.c is the
 * shaping kit below (CSV scanning, the series table, the run's settings,
 * data files, thinning, the counters' intervals); each figure's shaping is
 * in the file of its script's name (queues.c for queues.gp, ...; sweep.c
 * for sweep.gp and sweep_pass.gp), and fluid.c adds the fluid model's
 * series to queues.png and dcqcn.png.
 */
#ifndef DCQCN_PLOTS_INTERNAL_H
#define DCQCN_PLOTS_INTERNAL_H

#include <stddef.h>
#include <stdio.h>

#define PLOT_PATH_MAX 4096
#define FLOWS_MAX 16	 /* DCQCN QPs drawn (output.plot_qps lists at most 16) */
#define JOBS_MAX 16	 /* jobs drawn (collectives.png, throughput.png) */
#define RUN_JOBS_MAX 64	 /* [job.*] sections remembered from scenario.ini */
#define ARROW "\xe2\x86\x92" /* U+2192, the transmitter -> peer arrow */

/* ---- kit.c: small helpers ---------------------------------------------- */

/* fmt's message into err; returns -1 */
__attribute__((format(printf, 3, 4))) int fail(char *err, size_t errlen, const char *fmt, ...);
/* dir/name into buf; -1 (with err) when it does not fit */
int join(char *buf, size_t len, const char *dir, const char *name, char *err, size_t errlen);
/* mkdir path unless it is there; 0, or -1 with err */
int make_dir(const char *path, char *err, size_t errlen);
/* the whole of s as a finite number; 0, or -1 */
int parse_double(const char *s, double *v);
/* s as a gnuplot single-quoted string ('' stands for a quote inside); -1
 * when it does not fit */
int gp_quote(char *buf, size_t len, const char *s);

/* ---- kit.c: CSV scanning (libcsv) -------------------------------------- */

#define SCAN_COLS_MAX (1 + 3 * JOBS_MAX) /* throughput: time_us and 3 per job */
#define SCAN_FIELD_MAX 128

/*
 * One pass over a CSV file with a header row.  The header is matched
 * against the wanted column names (any order, other columns ignored); each
 * data row is handed to row() as the wanted fields, NUL-terminated, in the
 * order of cols.  The first error stops the pass.
 */
struct scan {
	char path[PLOT_PATH_MAX]; /* for messages */
	const char *const *cols;
	size_t ncols;
	int idx[SCAN_COLS_MAX]; /* file column of each wanted column, -1 unseen */
	size_t field;		/* field number in the current row */
	unsigned long line;	/* line of the current row, header = 1 */
	unsigned long rows;	/* data rows seen */
	char header[512];	/* the header row, for messages */
	char val[SCAN_COLS_MAX][SCAN_FIELD_MAX];
	int got[SCAN_COLS_MAX];
	int (*row)(struct scan *sc, char *const *f);
	void *ctx;
	char *err;
	size_t errlen;
	int failed;
};

/*
 * Scan dir/name.  Returns the number of data rows (0 for a header alone),
 * or -1 with err set: the file missing, a wanted column missing, a short
 * row, or the row callback's error.
 */
long scan_csv(const char *dir, const char *name, const char *const *cols,
	      int (*row)(struct scan *, char *const *), void *ctx, char *err, size_t errlen);
/* field k of the row as a number, or -1 with "file:line: column ..." */
int scan_num(struct scan *sc, char *const *f, size_t k, double *v);

/* ---- kit.c: series table: string key -> statistics --------------------- */

struct series {
	char key[96];	/* e.g. "leaf0\th3\t3" */
	double peak;	/* largest value */
	double low;	/* smallest value */
	double sum;	/* sum of values (dcqcn: the number of samples) */
	double first_us; /* time of the first non-zero value (INFINITY: none) */
	double num;	/* numeric key (flow id), for sorting */
	int slot;	/* index among the drawn series, -1 when not drawn */
};

struct table {
	struct series *v;
	size_t n, cap;
	size_t *hash; /* open addressing: entry index + 1, 0 = free */
	size_t hcap;
};

struct series *table_find(const struct table *t, const char *key);
/* the entry of key, added (zeroed, slot -1) when new; NULL when out of memory */
struct series *table_get(struct table *t, const char *key);
void table_free(struct table *t);
/*
 * Point sel[0..] at the table's entries sorted by cmp and give the first
 * max of them slots 0..; returns how many got one, or -1 out of memory.
 */
int table_select(struct table *t, int (*cmp)(const void *, const void *), size_t max,
		 struct series ***sel);

/* ---- kit.c: what the run directory says about itself ------------------- */

struct run_info {
	double t_end_us;	/* x axes end here */
	double interval_us;	/* output.sample_interval, 0 unknown */
	double kmin_kb, kmax_kb; /* ECN thresholds, NaN unknown */
	unsigned ecn_queues;	/* bit q: queue q marks */
	double host_link_gbps;	/* NaN unknown */
	double max_ecn_mark_pct; /* [criteria], default 2 (docs/contract.md#scenario-files) */
	double min_busbw_pct;	/* [criteria], default 95 (docs/contract.md#scenario-files) */
	double warmup_iterations; /* [criteria], default 1: iterations busbw is not judged on */
	int ini_read;		/* scenario.ini was read: jobs[] lists its jobs */
	int queues_none;	/* output.queues = none */
	int cc_none;		/* nic.cc = none */
	int rates_zero;		/* output.rates = 0 */
	int nplot_qps;		/* output.plot_qps: 0 auto, else how many listed */
	double plot_qps[FLOWS_MAX];
	int njobs;		/* the [job.NAME] sections, in order */
	struct run_job {
		char name[64];
		char pattern[24]; /* "" unknown */
	} jobs[RUN_JOBS_MAX];
};

/* the job called name in scenario.ini, NULL when not there */
const struct run_job *run_job(const struct run_info *ri, const char *name);
/* a ring-allreduce or an alltoall: busbw against a target means something */
int is_collective(const struct run_job *j);
/* scenario.ini, summary.csv and counters.csv of dir into ri (kit.c says
 * what stands in for each when missing) */
void read_run_info(const char *dir, struct run_info *ri);

/* ---- kit.c: output files ----------------------------------------------- */

struct fig {
	const char *name; /* "queues": queues.gp, queues.png, data/queues* */
	char dir[PLOT_PATH_MAX];
	char data[PLOT_PATH_MAX]; /* dir/plots/data */
	char out[PLOT_PATH_MAX];  /* where the image goes: dir/plots, or the
				   * caller's folder (struct plot_figs) */
	char note[256];		  /* why the figure was skipped */
	const char *ext;	  /* "png", "svg" or "pdf" */
	const char *script;	  /* the script's NAME.gp when not name's (sweep
				   * figures: one script, a figure per metric);
				   * the script then gets fig='NAME' too */
};

/* g->data/file opened for writing, or NULL with err */
FILE *data_open(const struct fig *g, const char *file, char *err, size_t errlen);
/* closes fp (always, file_close); 0, or -1 with err when a write or the
 * close failed */
int data_close(FILE *fp, const struct fig *g, const char *file, char *err, size_t errlen);
/* NAME.vars: t_end_us and the figure's own assignments (printf format) */
__attribute__((format(printf, 6, 7))) int write_vars(const struct fig *g,
						     const struct run_info *ri, double t_end_us,
						     char *err, size_t errlen, const char *fmt,
						     ...);
/* NaN as gnuplot reads it ("NaN" is undefined: no point, no line) */
const char *gp_num(double v, char *buf, size_t len);
/* the window of a run where something happens, [first, last] of t_end:
 * that span and 15 % of it (two steps at least) either side, starting on a
 * step, into *w0, *w1 when it is under half the run; else the whole run,
 * 0 to t_end.  1 when it zoomed. */
int plot_window(double first, double last, double step, double t_end, double *w0, double *w1);

/* ---- kit.c: thinning long time series ---------------------------------- */

#define THIN_COLS_MAX 8

struct thin {
	FILE *out;
	int ncols;
	double bucket_us; /* 0: write every sample */
	double bucket;	  /* index of the open bucket */
	int n;		  /* samples in it */
	double t0, t1;	  /* its first and last time */
	double first[THIN_COLS_MAX], lo[THIN_COLS_MAX], hi[THIN_COLS_MAX];
};

/* rows of ncols values after the time into out, thinned to buckets when the
 * run has more than 2 x THIN_BUCKETS sample intervals */
void thin_init(struct thin *th, FILE *out, int ncols, double t_end_us, double interval_us);
void thin_add(struct thin *th, double t, const double *v);
/* writes the open bucket */
void thin_flush(struct thin *th);
/* a blank line: gnuplot breaks the line there */
void thin_break(struct thin *th);

/* ---- kit.c: counters.csv: counts per sample interval ------------------- */

#define CNT_VALS_MAX (3 * JOBS_MAX)

struct cnt_acc {
	double interval; /* the sample interval; 0 unknown: nothing is merged */
	double prev_t;	 /* end of the last row read */
	int n;		 /* counts per row */
	int have;	 /* a row waits in t, dt, v */
	double t, dt, v[CNT_VALS_MAX];
	void (*emit)(void *ctx, double t, double dt, const double *v);
	void *ctx;
};

/* a row of counts v ending at t (the text of its time_us for messages);
 * a last interval shorter than half a sample interval joins the one before */
int cnt_add(struct cnt_acc *a, struct scan *sc, const char *time, double t, const double *v);
/* emits the row that waits */
void cnt_flush(struct cnt_acc *a);

/* ---- fluid.c ------------------------------------------------------------ */

/* DIR/fluid/NAME (the fluid model's run of `run --fluid`) as the data file
 * DAT: time_us and its value x scale (queues.csv: bytes; rates.csv: flow 0's
 * Rc).  1 written, 0 when there is no fluid run, -1 on an error. */
int shape_fluid(const struct fig *g, const char *name, double scale, const char *dat,
		char *err, size_t errlen);

/* ---- the figures of a run directory (plot_run) --------------------------- */

/* Each writes its data files under g->data; 0 to draw, 1 skipped (the
 * reason in g->note), -1 with err. */
int shape_queues(struct fig *g, const struct run_info *ri, char *err, size_t errlen);
int shape_pause(struct fig *g, const struct run_info *ri, char *err, size_t errlen);
int shape_rates(struct fig *g, const struct run_info *ri, char *err, size_t errlen);
int shape_throughput(struct fig *g, const struct run_info *ri, char *err, size_t errlen);
int shape_dcqcn(struct fig *g, const struct run_info *ri, char *err, size_t errlen);
int shape_collectives(struct fig *g, const struct run_info *ri, char *err, size_t errlen);
int shape_storage(struct fig *g, const struct run_info *ri, char *err, size_t errlen);
int shape_training(struct fig *g, const struct run_info *ri, char *err, size_t errlen);

/* ---- sweep.c: a sweep directory's figures (plot_sweep) ------------------ */

struct sw;

/* DIR/sweep.csv read into a new *w (sw_close frees it, even after an
 * error); 0, or -1 with err */
int sw_open(struct sw **w, const char *dir, char *err, size_t errlen);
void sw_close(struct sw *w);
/* how many axes the sweep has */
int sw_axes(const struct sw *w);
/* sweep_METRIC.dat and .vars; 0, 1 when the metric has no number (note in
 * g->note), -1 with err */
int sw_shape_metric(const struct sw *w, struct fig *g, const char *metric, char *err,
		    size_t errlen);
/* sweep_pass.dat and .vars: the verdicts over the first two axes, the
 * worst over the others; 0, or -1 with err */
int sw_shape_pass(const struct sw *w, struct fig *g, char *err, size_t errlen);

/* ---- calibrate.c, compare.c: the figure of such a directory ------------- */

/* calibrate.dat and .vars from g->dir/plane.csv; 0, or -1 with err */
int shape_calibrate(struct fig *g, char *err, size_t errlen);
/* compare.dat and .vars from g->dir/compare.csv; 0, or -1 with err */
int shape_compare(struct fig *g, char *err, size_t errlen);
/* nccltests.dat and .vars from g->dir/nccl-tests.csv; 0, or -1 with err */
int shape_nccltests(struct fig *g, char *err, size_t errlen);

#endif
