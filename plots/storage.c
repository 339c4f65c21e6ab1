/*
 * storage.c - the data of storage.png (storage.gp): the storage jobs'
 * completion latency per interval above the collectives' iterations.
 */
#include "plots/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * Each storage job's completion latency per sample interval (top panel)
 * above each collective's iterations (bottom panel), on one time axis, so
 * that a latency spike stands next to the iteration it shares the fabric
 * with.  storage.csv has a job's row only for the intervals in which some
 * of its I/Os completed: a gap of more than STORAGE_GAP intervals (nothing
 * completed: the job was idle, done, or its I/Os all stuck) breaks its
 * line, unless it is shorter than 1/200 of the run (6 pixels: sparse
 * completions sampled finely would otherwise be dust).  The collectives
 * are the ring-allreduce and alltoall jobs of scenario.ini (without it,
 * every job of collectives.csv that is not in storage.csv); each iteration
 * is drawn as a bar from its start to its end in its job's row, and when
 * there are at most STORAGE_MARKS_MAX iterations their ends are marked
 * across both panels.  storage_jobs.csv (optional) gives each job's rw and
 * the whole run's percentiles for the title.  A run without a storage job,
 * or whose storage.csv has no rows, is skipped; one without a collective
 * gets the top panel alone.  IOPS and MiB/s are in the data but not drawn:
 * completions come in bursts, and per interval they hid the latency.
 */
#define STORAGE_GAP 5
#define STORAGE_MARKS_MAX 40 /* iteration ends marked across both panels */

static const char *const storage_cols[] = {"time_us",	   "job",	  "iops", "bw_MiBps",
					   "clat_mean_us", "clat_max_us", NULL};
static const char *const storage_job_cols[] = {"job",	      "rw",	     "ios",
					       "clat_p50_us", "clat_p99_us", "clat_max_us",
					       NULL};
static const char *const coll_span_cols[] = {"job",    "iteration", "start_us",
					     "end_us", "time_us",   NULL};

struct storage {
	const struct fig *g;
	const struct run_info *ri;
	/* storage_jobs.csv: each job's rw; the `all` row's I/Os and clat */
	char rw_job[JOBS_MAX][64], rw[JOBS_MAX][16];
	int nrw;
	double ios_all, p50_us, p99_us, max_us;
	/* storage.csv */
	char jobs[JOBS_MAX][64];
	int njobs;
	FILE *out[JOBS_MAX];
	struct thin th[JOBS_MAX];
	double last_t[JOBS_MAX];
	double interval, gap_us, max_t, clat_lo, clat_hi;
	/* collectives.csv */
	char coll[JOBS_MAX][64];
	int ncoll;
	FILE *cout[JOBS_MAX];
	double max_iter_us, iters;
	double mark_us[STORAGE_MARKS_MAX]; /* the first iterations' ends */
	int mark_job[STORAGE_MARKS_MAX];   /* ... and their job, 1.. */
};

/* index of name among the first n of names, or -1 */
static int name_index(char (*names)[64], int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

/* a number, or NaN for an empty field (a job without I/Os) */
static int scan_opt(struct scan *sc, char *const *f, size_t k, double *v)
{
	if (!*f[k]) {
		*v = NAN;
		return 0;
	}
	return scan_num(sc, f, k, v);
}

static int storage_jobs_row(struct scan *sc, char *const *f)
{
	struct storage *st = sc->ctx;
	if (!*f[1] && !strcmp(f[0], "all")) { /* the row of all jobs has no rw */
		if (scan_opt(sc, f, 2, &st->ios_all) || scan_opt(sc, f, 3, &st->p50_us) ||
		    scan_opt(sc, f, 4, &st->p99_us) || scan_opt(sc, f, 5, &st->max_us))
			return -1;
		return 0;
	}
	if (st->nrw < JOBS_MAX && strlen(f[0]) < sizeof(st->rw_job[0])) {
		strcpy(st->rw_job[st->nrw], f[0]);
		snprintf(st->rw[st->nrw++], sizeof(st->rw[0]), "%s", f[1]);
	}
	return 0;
}

/* storage_K.dat for a job seen for the first time; its index, -2 when
 * JOBS_MAX are drawn already, -1 on an error */
static int storage_open(struct storage *st, struct scan *sc, const char *job)
{
	if (st->njobs == JOBS_MAX || strlen(job) >= sizeof(st->jobs[0]))
		return -2;
	int k = st->njobs;
	char file[64];
	snprintf(file, sizeof(file), "storage_%d.dat", k + 1);
	if (!(st->out[k] = data_open(st->g, file, sc->err, sc->errlen)))
		return -1;
	strcpy(st->jobs[k], job);
	st->njobs++;
	int r = name_index(st->rw_job, st->nrw, job);
	fprintf(st->out[k], "time_us\t%s%s%s%s: mean clat\t%s: max clat\t%s: IOPS\t%s: MiB/s\n",
		job, r >= 0 ? " (" : "", r >= 0 ? st->rw[r] : "", r >= 0 ? ")" : "", job, job,
		job);
	thin_init(&st->th[k], st->out[k], 4, st->ri->t_end_us, st->interval);
	st->last_t[k] = -1;
	return k;
}

static int storage_row(struct scan *sc, char *const *f)
{
	struct storage *st = sc->ctx;
	double t, v[4]; /* clat mean, clat max, IOPS, MiB/s */
	if (scan_num(sc, f, 0, &t) || scan_num(sc, f, 2, &v[2]) || scan_num(sc, f, 3, &v[3]) ||
	    scan_num(sc, f, 4, &v[0]) || scan_num(sc, f, 5, &v[1]))
		return -1;
	int k = name_index(st->jobs, st->njobs, f[1]);
	if (k < 0 && (k = storage_open(st, sc, f[1])) == -1)
		return -1;
	if (k < 0)
		return 0; /* past the JOBS_MAX drawn */
	if (st->last_t[k] >= 0 && st->gap_us > 0 && t - st->last_t[k] > st->gap_us)
		thin_break(&st->th[k]);
	thin_add(&st->th[k], t, v);
	st->last_t[k] = t;
	if (v[0] > 0 && v[0] < st->clat_lo)
		st->clat_lo = v[0];
	if (v[1] > st->clat_hi)
		st->clat_hi = v[1];
	if (t > st->max_t)
		st->max_t = t;
	return 0;
}

static int storage_coll_row(struct scan *sc, char *const *f)
{
	struct storage *st = sc->ctx;
	if (!*f[4])
		return 0; /* a failed iteration (status failed) has no time: not drawn */
	int coll = st->ri->ini_read ? is_collective(run_job(st->ri, f[0]))
				    : name_index(st->jobs, st->njobs, f[0]) < 0;
	if (!coll)
		return 0;
	double it, t0, t1, time;
	if (scan_num(sc, f, 1, &it) || scan_num(sc, f, 2, &t0) || scan_num(sc, f, 3, &t1) ||
	    scan_num(sc, f, 4, &time))
		return -1;
	int k = name_index(st->coll, st->ncoll, f[0]);
	if (k < 0) {
		if (st->ncoll == JOBS_MAX || strlen(f[0]) >= sizeof(st->coll[0]))
			return 0;
		k = st->ncoll;
		char file[64];
		snprintf(file, sizeof(file), "storage_coll_%d.dat", k + 1);
		if (!(st->cout[k] = data_open(st->g, file, sc->err, sc->errlen)))
			return -1;
		strcpy(st->coll[k], f[0]);
		st->ncoll++;
		const struct run_job *rj = run_job(st->ri, f[0]);
		fprintf(st->cout[k], "start_us\tend_us\t%s%s%s%s\titeration\n", f[0],
			rj && *rj->pattern ? " (" : "", rj ? rj->pattern : "",
			rj && *rj->pattern ? ")" : "");
	}
	fprintf(st->cout[k], "%.3f\t%.3f\t%.3f\t%.0f\n", t0, t1, time, it);
	if (st->iters < STORAGE_MARKS_MAX) {
		st->mark_us[(int)st->iters] = t1;
		st->mark_job[(int)st->iters] = k + 1;
	}
	st->iters++;
	if (time > st->max_iter_us)
		st->max_iter_us = time;
	if (t1 > st->max_t)
		st->max_t = t1;
	return 0;
}

/* how many [job.*] sections of scenario.ini match */
static int count_pattern(const struct run_info *ri, int (*match)(const struct run_job *))
{
	int n = 0;
	for (int j = 0; j < ri->njobs; j++)
		n += match(&ri->jobs[j]);
	return n;
}

static int is_storage(const struct run_job *j)
{
	return !strcmp(j->pattern, "storage");
}

int shape_storage(struct fig *g, const struct run_info *ri, char *err, size_t errlen)
{
	struct storage *st = calloc(1, sizeof(*st));
	if (!st)
		return fail(err, errlen, "out of memory");
	*st = (struct storage){.g = g, .ri = ri, .ios_all = NAN, .p50_us = NAN, .p99_us = NAN,
			       .max_us = NAN, .interval = ri->interval_us, .clat_lo = INFINITY};
	if (st->interval > 0)
		st->gap_us = fmax((STORAGE_GAP + 0.5) * st->interval, ri->t_end_us / 200);
	int rc = -1;
	char path[PLOT_PATH_MAX];
	/* scenario.ini, when it lists every job, says whether there is storage
	 * (a storage.csv beside a scenario without it is an earlier run's);
	 * without it, storage.csv's presence does */
	int jobs_known = ri->ini_read && ri->njobs < RUN_JOBS_MAX;
	int nstorage_ini = count_pattern(ri, is_storage);
	if (jobs_known && nstorage_ini == 0) {
		snprintf(g->note, sizeof(g->note), "the run has no storage job");
		rc = 1;
		goto done;
	}
	if (join(path, sizeof(path), g->dir, "storage.csv", err, errlen))
		goto done;
	if (!jobs_known && nstorage_ini == 0 && access(path, F_OK)) {
		snprintf(g->note, sizeof(g->note), "no storage.csv (the run has no storage job)");
		rc = 1;
		goto done;
	}
	if (join(path, sizeof(path), g->dir, "storage_jobs.csv", err, errlen))
		goto done;
	if (!access(path, F_OK) && scan_csv(g->dir, "storage_jobs.csv", storage_job_cols,
					    storage_jobs_row, st, err, errlen) < 0)
		goto done;
	long rows = scan_csv(g->dir, "storage.csv", storage_cols, storage_row, st, err, errlen);
	if (rows < 0)
		goto done;
	if (rows == 0) {
		snprintf(g->note, sizeof(g->note), "storage.csv has no rows (no I/O completed)");
		rc = 1;
		goto done;
	}
	for (int k = 0; k < st->njobs; k++) {
		char file[64];
		snprintf(file, sizeof(file), "storage_%d.dat", k + 1);
		thin_flush(&st->th[k]);
		int bad = data_close(st->out[k], g, file, err, errlen);
		st->out[k] = NULL;
		if (bad)
			goto done;
	}
	if (scan_csv(g->dir, "collectives.csv", coll_span_cols, storage_coll_row, st, err,
		     errlen) < 0)
		goto done;
	for (int k = 0; k < st->ncoll; k++) {
		char file[64];
		snprintf(file, sizeof(file), "storage_coll_%d.dat", k + 1);
		int bad = data_close(st->cout[k], g, file, err, errlen);
		st->cout[k] = NULL;
		if (bad)
			goto done;
	}
	/* a log scale once the slowest interval's worst I/O is 10 x the
	 * fastest interval's mean: a spike then does not flatten the rest */
	int logy = st->clat_lo > 0 && st->clat_hi > 10 * st->clat_lo;
	/* mark_us[], mark_job[]: gnuplot 5.2 arrays cannot be empty, so they
	 * are defined only when nmarks > 0 */
	int nmarks = st->iters <= STORAGE_MARKS_MAX ? (int)st->iters : 0;
	char marks[STORAGE_MARKS_MAX * 24 + 64] = "", mjobs[STORAGE_MARKS_MAX * 4 + 64] = "";
	if (nmarks) {
		size_t o = (size_t)snprintf(marks, sizeof(marks), "array mark_us[%d] = [", nmarks);
		size_t p = (size_t)snprintf(mjobs, sizeof(mjobs), "array mark_job[%d] = [", nmarks);
		for (int i = 0; i < nmarks; i++) {
			o += (size_t)snprintf(marks + o, sizeof(marks) - o, "%s%.3f", i ? ", " : "",
					      st->mark_us[i]);
			p += (size_t)snprintf(mjobs + p, sizeof(mjobs) - p, "%s%d", i ? ", " : "",
					      st->mark_job[i]);
		}
		snprintf(marks + o, sizeof(marks) - o, "]\n");
		snprintf(mjobs + p, sizeof(mjobs) - p, "]\n");
	}
	char a[32], b[32], c[32], d[32], e[32], h[32];
	rc = write_vars(g, ri, st->max_t, err, errlen,
			"nstorage = %d\nnstorage_all = %d\nncoll = %d\nncoll_all = %d\n"
			"logy = %d\nclat_lo_us = %s\nclat_hi_us = %s\nios_all = %s\n"
			"clat_p50_us = %s\nclat_p99_us = %s\nclat_max_us = %s\n"
			"iterations = %.0f\nmax_iter_us = %.3f\nnmarks = %d\n%s%s",
			st->njobs,
			st->njobs == JOBS_MAX && nstorage_ini > st->njobs ? nstorage_ini : st->njobs,
			st->ncoll,
			ri->ini_read ? count_pattern(ri, is_collective) : st->ncoll, logy,
			gp_num(isfinite(st->clat_lo) ? st->clat_lo : NAN, a, sizeof(a)),
			gp_num(st->clat_hi, b, sizeof(b)), gp_num(st->ios_all, c, sizeof(c)),
			gp_num(st->p50_us, d, sizeof(d)), gp_num(st->p99_us, e, sizeof(e)),
			gp_num(st->max_us, h, sizeof(h)), st->iters, st->max_iter_us, nmarks, marks,
			mjobs);
done:
	for (int k = 0; k < JOBS_MAX; k++) {
		if (st->out[k])
			fclose(st->out[k]);
		if (st->cout[k])
			fclose(st->cout[k]);
	}
	free(st);
	return rc;
}
