/*
 * internal.h - what the files of sim/sweeps share and nothing outside
 * them uses.
 *
 * A sweep (sweep.h) is five files: sweep.c (the grid of points, their runs
 * in worker processes, sweep_run), sweep_csv.c (the runs' summary.csv rows
 * joined into sweep.csv), sweep_shard.c (a shard's description and
 * sweep_merge), sweep_folder.c (the inputs read once, the folder's identity
 * and lock) and sweep_mpi.c (the ranks of the MPI build).
 */
#ifndef DCQCN_SWEEPS_INTERNAL_H
#define DCQCN_SWEEPS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/sweeps/calibrate.h"

struct scenario;
struct scn_error;
struct sweep_opts;

#define SWEEP_LINE_BYTES 4096          /* a line of summary.csv or a shard description */
#define SWEEP_PATH_BYTES 4400          /* a run directory's path */

/* ---- the points of a sweep (sweep.c) ---- */

/* runs per point: at least 1 */
int sweep_repeats(const struct sweep_opts *o);
/* the value index of each axis at point p */
void sweep_point_index(const struct sweep_opts *o, int p, int *idx);
/* "key=value, key=value" of point p */
void sweep_point_label(const struct sweep_opts *o, int p, char *buf, size_t len);
/* DIR/pNNN: the point's run directory, or with repeats the folder of
 * its runs */
void sweep_point_dir(const char *out_dir, int p, char *buf, size_t len);
/* the run directory of task t: DIR/pNNN, or DIR/pNNN/rK with repeats */
void sweep_task_dir(const char *out_dir, int repeat, int t, char *buf, size_t len);

/* ---- summary.csv and sweep.csv (sweep_csv.c) ---- */

/* the two lines of DIR/summary.csv (each of SWEEP_LINE_BYTES); 0 or -1 */
int sweep_read_summary(const char *dir, char *header, char *row);
/* DIR/summary.csv is a regular file of two whole lines, summary.csv's
 * header and a row of as many fields, printable, numbers where the column
 * is numeric; 0, or -1 with the file and the reason in why */
int sweep_check_summary(const char *dir, char *why, size_t len);
/* the value of column `name` in a CSV row of unquoted fields is `want` */
int sweep_column_is(const char *header, const char *row, const char *name, const char *want);
/* DIR/sweep.csv: a row per point whose every run ended (status[] RUN_OK,
 * by task); *failed and *unjudged as sweep_run sets them; 0, or -1 with err */
int sweep_write_csv(const struct sweep_opts *o, int npoints, const int *status, int *failed,
		    int *unjudged, char *err, size_t errlen);

/* ---- shards (sweep_shard.c) ---- */

/* what identifies the sweep, as the lines of a shard description (no shard
 * or run lines), into *identity (the caller frees it); 0, or -1 with err */
int sweep_shard_identity(const struct sweep_opts *o, long npoints, char **identity, char *err,
			 size_t errlen);
/* write DIR/shard-I-of-N.txt: the identity and the runs of the shard that
 * ended (status >= 0); 0, or -1 with err */
int sweep_write_shard(const struct sweep_opts *o, const char *identity, int ntasks,
		      const int *status, char *err, size_t errlen);

/* the first line where two identities differ, in words (a line of one
 * that the other lacks is of the earlier kind of the two); *la and *lb
 * (may be NULL) get where they differ */
const char *sweep_identity_difference(const char *a, const char *b, const char **la,
				      const char **lb);
/* --resume of a shard: its description in out_dir, if there, is of this
 * sweep; 0, or -1 with err */
int sweep_shard_check(const struct sweep_opts *o, const char *identity, char *err,
		      size_t errlen);

/* ---- the sweep's folder (sweep_folder.c) ---- */

/* the scenario and configuration files of *o whose text it lacks read
 * into its texts; a file that cannot be read is left to the points, which
 * fail on it with the loader's message */
void sweep_read_inputs(struct sweep_opts *o);
/* free the texts of o that sweep_read_inputs read (not those of given) */
void sweep_free_inputs(struct sweep_opts *o, const struct sweep_opts *given);
/* DIR/sweep-identity.txt: with --resume, refuse (-1 with err) one that
 * differs from identity (plus the shards line); then write it; 0 or -1 */
int sweep_claim_identity(const struct sweep_opts *o, const char *identity, char *err,
			 size_t errlen);
/* --merge: the sweep-identity.txt of a shards' folder dir, if there, is
 * identity with "shards = N"; 0, or -1 with err */
int sweep_folder_is(const char *dir, const char *identity, int shards, char *err,
		    size_t errlen);
/* take DIR/.lock (a shard's DIR/.shard-I-of-N.lock) into path; a lock of
 * a live process refuses (-1 with its pid and host in err), a dead one's
 * on this host is taken over with a note on stderr */
int sweep_lock(const struct sweep_opts *o, char *path, size_t len, char *err, size_t errlen);
/* the first line of the error.txt in a run directory, "" when none */
void sweep_run_error(const char *dir, char *buf, size_t len);

/* ---- MPI ranks (sweep_mpi.c; without MPI, one rank) ---- */

/* 1 when every rank has the same h (always without MPI) */
int sweep_mpi_same(uint64_t h, int mpi);
/* the largest of x over the ranks (x itself without MPI) */
int sweep_mpi_max(int x, int mpi);
/* every rank's statuses (the largest of each task's), its worst outcome
 * and whether one was interrupted, on every rank */
void sweep_mpi_gather(int *status, int ntasks, int *worst, int *interrupted);
/* rank 0 has written sweep.csv: the barrier, and its outcome (*wrc,
 * *failed, *unjudged) on every rank */
void sweep_mpi_share_csv(const struct sweep_opts *o, int rank, int *wrc, int *failed,
			 int *unjudged, char *err, size_t errlen);

/* ---- calibrate: values and the search (calibrate.c) ---- */

/* the margin of a run that did not finish its traffic or failed a job,
 * plus the fraction of its flows that completed (below -999: unfinished) */
#define CAL_MARGIN_UNFINISHED (-1000.0)
#define CAL_UNFINISHED_MARGIN(m) ((m) < CAL_MARGIN_UNFINISHED + 1)

/* one value and its unit, by its suffix; 0 or -1 with err */
int cal_parse_value(const char *s, enum cal_unit *u, int64_t *v, char *err, size_t errlen);
/* v in unit u as the loader reads it ("150KB"); returns buf */
char *cal_format_value(enum cal_unit u, int64_t v, char *buf, size_t len);

/* ---- calibrate: the search (calibrate_search.c) ---- */

/* the index of the point idx among those seen, -1 when not seen */
int cal_find_point(const struct cal_outcome *o, const int *idx, int nkeys);
/* the points idx[0..n) not seen yet evaluated as phase (step), added to
 * o; 0, or -1 with err */
int cal_eval_new(const struct cal_search *s, struct cal_outcome *o, int n,
		 const int (*idx)[CAL_MAX_KEYS], enum cal_phase phase, int step, char *err,
		 size_t errlen);
/* start, design and refine (o->best the best seen); 0, or -1 with err */
int cal_explore(const struct cal_search *s, struct cal_outcome *o, char *err, size_t errlen);
/* each key's influence (calibrate.h) from the points seen */
void cal_influence(const struct cal_search *s, struct cal_outcome *o);
/* the recommendation among every point seen: the neighbour check, the own
 * settings' tie, the runner-up, the influence of each key; 0, or -1 */
int cal_choose(const struct cal_search *s, struct cal_outcome *o, char *err, size_t errlen);

/* ---- calibrate: the evaluator (calibrate_eval.c) ---- */

/* what the evaluator and the report know of a calibration */
struct cal_ctx {
	const struct calibrate_opts *o;
	int nscn;
	const char *files[CAL_MAX_SCENARIOS];  /* NULL: the embedded default */
	char labels[CAL_MAX_SCENARIOS][48];
	struct cal_limits limits[CAL_MAX_SCENARIOS];
	int busbw_mean[CAL_MAX_SCENARIOS];     /* criteria.busbw_stat = mean */
	int64_t seed0[CAL_MAX_SCENARIOS];      /* each scenario's sim.seed */
	int nseeds;
	int batch;
	int interrupted;
	int own_start;                         /* the start is the scenario's own settings */
	/* progress: runs ended, runs expected (about), since when */
	long runs_done, runs_expected;
	double t0;
	int tty;                               /* the log is a terminal: a line that updates */
	const char *phase;                     /* of the batch running */
	int plane_base[CAL_MAX_KEYS];          /* the point the plane goes through */
	char *notes;                           /* the imported configurations' notes
						* (scenario_config_notes); NULL: none */
};

/* scenario file (NULL: the default) with the configurations, sets and then
 * assigns, finalized; NULL with err */
struct scenario *cal_load_with(const struct calibrate_opts *o, const char *file,
			       char (*assigns)[96], int nassigns, struct scn_error *err);
/* the point idx as --set assignments, one per key ("ecn.kmin=600KB") */
void cal_point_assigns(const struct calibrate_opts *o, const int *idx, char (*a)[96]);
/* the evaluator (cal_eval_fn) of calibrate_run: ctx is its cal_ctx */
int cal_eval_points(void *ctx, int n, const int (*idx)[CAL_MAX_KEYS], struct cal_score *out,
		    char *err, size_t errlen);

/* ---- calibrate: files and report (calibrate_report.c) ---- */

/* calibrate.csv, plane.csv over keys a and b (b < 0 or --no-plane: none),
 * and recommended.ini and export/ when the recommendation may be deployed
 * (or o->export_failing, marked); 0, or -1 with err (the first that failed) */
int cal_write_files(const struct cal_ctx *c, const struct cal_outcome *out, int a, int b,
		    char *err, size_t errlen);

/* ---- calibrate: the report (calibrate_table.c) ---- */

/* a point's figures over some of its runs, as calibrate.csv has them */
struct cal_figures {
	int n, nbusbw;                         /* runs; runs with a judged iteration */
	double busbw_min, busbw_mean;          /* the smallest, the mean */
	double ecn, pause_rate, paused, retrans, fct_p99;  /* the largest */
	int64_t pause_frames, queue, drops;    /* the largest */
};
/* the figures of point sc over scenario scn (-1: all) and seed (-1: all) */
void cal_figures(const struct cal_ctx *c, const struct cal_score *sc, int scn, int seed,
		 struct cal_figures *f);
/* the figures as 10 CSV fields, each after a comma */
void cal_put_figures(FILE *fp, const struct cal_figures *f);
/* margin m of a point as the report says it: "+5.2 %", or "did not finish
 * in sim.duration (83 % of flows)" */
char *cal_format_margin(const struct cal_score *sc, double m, char *buf, size_t len);
/* the report, as the command prints it */
void cal_print_result(const struct cal_ctx *c, const struct cal_outcome *out, FILE *f);
/* the verdict line every exported file starts with when the recommendation
 * does not pass or was not checked ("" when it may be deployed) */
void cal_verdict(const struct cal_ctx *c, const struct cal_outcome *out, char *buf, size_t len);

/* nccl-tests' sizes (nccltests_opts.c): the one after size (times the
 * factor, or plus the step), 0 past -e; how many from -b to -e (one more
 * than NCCLTESTS_MAX_SIZES at most) */
struct nccltests_opts;
int64_t nccltests_next_size(const struct nccltests_opts *o, int64_t size);
int nccltests_count_sizes(const struct nccltests_opts *o);
/* "job.nccl-tests.KEY" of an assignment, KEY into key; 0 when it is not one */
int nccltests_job_key(const char *assign, char *key, size_t len);

#endif
