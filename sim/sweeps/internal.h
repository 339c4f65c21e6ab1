/*
 * internal.h - what the files of sim/sweeps share and nothing outside
 * them uses.
 *
 * A sweep (sweep.h) is four files: sweep.c (the grid of points, their runs
 * in worker processes, sweep_run), sweep_csv.c (the runs' summary.csv rows
 * joined into sweep.csv), sweep_shard.c (a shard's description and
 * sweep_merge) and sweep_mpi.c (the ranks of the MPI build).
 */
#ifndef DCQCN_SWEEPS_INTERNAL_H
#define DCQCN_SWEEPS_INTERNAL_H

#include <stddef.h>

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

/* ---- MPI ranks (sweep_mpi.c; without MPI, one rank) ---- */

/* the largest of x over the ranks (x itself without MPI) */
int sweep_mpi_max(int x, int mpi);
/* every rank's statuses (the largest of each task's), its worst outcome
 * and whether one was interrupted, on every rank */
void sweep_mpi_gather(int *status, int ntasks, int *worst, int *interrupted);
/* rank 0 has written sweep.csv: the barrier, and its outcome (*wrc,
 * *failed, *unjudged) on every rank */
void sweep_mpi_share_csv(const struct sweep_opts *o, int rank, int *wrc, int *failed,
			 int *unjudged, char *err, size_t errlen);

#endif
