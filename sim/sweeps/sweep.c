/*
 * sweep.c - parameter sweeps (see sweep.h): the grid of points, their runs
 * in worker processes (or, under MPI, one after another in each rank), and
 * sweep_run.  sweep.csv is sweep_csv.c's, shards and their merge
 * sweep_shard.c's, the MPI calls sweep_mpi.c's.
 *
 * Points are numbered in odometer order, the last --vary axis fastest.
 * Each point runs in a child process (fork), so a point that runs out of
 * memory or breaks an invariant cannot take the others down, and -j N uses
 * N cores (a point with sim.threads = auto gets its share of the cores).
 * The children write ordinary run directories; the parent only collects
 * their summary.csv rows.
 *
 * Choices
 *   - The unit of work is a run: point p, repeat k is task p * repeat + k,
 *     so -j spreads the repeats of one point too.  A shard or an MPI rank
 *     takes whole points (p % N), so that a point's repeats stay together.
 *   - Under MPI the runs of a rank go in its own process one after
 *     another: fork after MPI_Init is unsafe with some transports, and -j
 *     is ignored (start more ranks instead); sim.threads = auto is 1
 *     thread per run (ranks share the cores).
 */
#include "sim/sweeps/sweep.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "models/base/files.h"
#include "models/scenario/keyhelp.h"
#include "models/scenario/scenario.h"
#include "sim/run/output.h"
#include "sim/run/run.h"
#include "sim/sweeps/internal.h"
#include "sim/sweeps/workers.h"

int sweep_parse_vary(char *arg, struct sweep_axis *axis, char *err, size_t errlen)
{
	char *eq = strchr(arg, '=');
	if (!eq || eq == arg || !eq[1] || !strchr(arg, '.') || strchr(arg, '.') > eq) {
		snprintf(err, errlen, "--vary %s: expected section.key=V1,V2,...", arg);
		return -1;
	}
	*eq = '\0';
	/* a key that does not exist fails here, with "did you mean", rather than
	 * as the --set of point 0; whether a job or fault exists is the
	 * scenario's question (load_point) */
	char why[512];
	if (scenario_key_known(arg, why, sizeof(why))) {
		snprintf(err, errlen, "--vary %s", why);
		return -1;
	}
	axis->key = arg;
	axis->n = 0;
	for (char *v = eq + 1, *save = NULL, *tok; (tok = strtok_r(v, ",", &save)); v = NULL) {
		if (axis->n == SWEEP_MAX_VALUES) {
			snprintf(err, errlen, "--vary %s: at most %d values", arg,
				 SWEEP_MAX_VALUES);
			return -1;
		}
		axis->values[axis->n++] = tok;
	}
	if (!axis->n) {
		snprintf(err, errlen, "--vary %s: no values", arg);
		return -1;
	}
	return 0;
}


int sweep_repeats(const struct sweep_opts *o)
{
	return o->repeat > 1 ? o->repeat : 1;
}

void sweep_point_index(const struct sweep_opts *o, int p, int *idx)
{
	if (o->zip) {
		for (int a = 0; a < o->naxes; a++)
			idx[a] = p;
		return;
	}
	for (int a = o->naxes - 1; a >= 0; a--) {
		idx[a] = p % o->axes[a].n;
		p /= o->axes[a].n;
	}
}

void sweep_point_label(const struct sweep_opts *o, int p, char *buf, size_t len)
{
	int idx[SWEEP_MAX_AXES];
	size_t n = 0;
	sweep_point_index(o, p, idx);
	buf[0] = '\0';
	for (int a = 0; a < o->naxes && n < len; a++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s=%s", a ? ", " : "", o->axes[a].key,
				      o->axes[a].values[idx[a]]);
}

/* the loader names the place "--set"; for an axis it is "--vary" */
static void blame_vary(struct scn_error *err)
{
	if (strncmp(err->msg, "--set: ", 7))
		return;
	size_t n = strlen(err->msg + 7);
	if (8 + n >= sizeof(err->msg))
		n = sizeof(err->msg) - 9;
	memmove(err->msg + 8, err->msg + 7, n);
	err->msg[8 + n] = '\0';
	memcpy(err->msg, "--vary: ", 8);
}

/* the finalized scenario of point p, repeat k (sim.seed + k); NULL with
 * err set */
static struct scenario *load_point(const struct sweep_opts *o, int p, int k,
				   struct scn_error *err)
{
	int idx[SWEEP_MAX_AXES];
	struct scenario *s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err->msg, sizeof(err->msg), "out of memory");
		return NULL;
	}
	scenario_init(s);
	struct scenario_inputs in = { .path = o->scenario, .switch_config = o->switch_config,
				      .nic_config = o->nic_config, .sets = o->sets,
				      .nsets = o->nsets, .text = o->scenario_text,
				      .switch_text = o->switch_text, .nic_text = o->nic_text };
	int rc = scenario_load_inputs(s, &in, err);
	sweep_point_index(o, p, idx);
	for (int a = 0; rc == 0 && a < o->naxes; a++) {
		char assign[512];
		snprintf(assign, sizeof(assign), "%s=%s", o->axes[a].key,
			 o->axes[a].values[idx[a]]);
		rc = scenario_set(s, assign, err);
		if (rc)
			blame_vary(err);
	}
	if (rc == 0 && k > 0) {
		char assign[64];
		if (s->seed > (uint64_t)INT64_MAX - (uint64_t)k) {
			snprintf(err->msg, sizeof(err->msg),
				 "--repeat: sim.seed %" PRIu64 " + %d is out of range (0-%" PRId64 ")",
				 s->seed, k, INT64_MAX);
			rc = -1;
		} else {
			snprintf(assign, sizeof(assign), "sim.seed=%" PRIu64,
				 s->seed + (uint64_t)k);
			rc = scenario_set(s, assign, err);
		}
	}
	if (rc == 0)
		rc = scenario_finalize(s, err);
	if (rc) {
		scenario_free(s);
		free(s);
		return NULL;
	}
	return s;
}

void sweep_point_dir(const char *out_dir, int p, char *buf, size_t len)
{
	snprintf(buf, len, "%s/p%03d", out_dir, p);
}

void sweep_task_dir(const char *out_dir, int repeat, int t, char *buf, size_t len)
{
	if (repeat > 1)
		snprintf(buf, len, "%s/p%03d/r%d", out_dir, t / repeat, t % repeat);
	else
		sweep_point_dir(out_dir, t, buf, len);
}

/* the reason a run failed, as DIR/error.txt (the parent reports it) */
static void leave_error(const char *dir, const char *msg)
{
	char path[SWEEP_PATH_BYTES + 16];
	snprintf(path, sizeof(path), "%s/error.txt", dir);
	FILE *fp = output_mkdir_p(dir) ? NULL : fopen(path, "w");
	if (fp) {
		fprintf(fp, "%s\n", msg);
		file_close(fp);
	}
}

/* run task t (point t / repeat, repeat t % repeat) into its directory;
 * threads: for sim.threads = auto (0: all the cores) */
static enum run_status run_task(const struct sweep_opts *o, int t, unsigned auto_threads)
{
	struct scn_error err;
	char dir[SWEEP_PATH_BYTES], path[SWEEP_PATH_BYTES + 16];
	int R = sweep_repeats(o);
	sweep_task_dir(o->out_dir, R, t, dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/error.txt", dir);
	unlink(path); /* an earlier attempt's */
	struct scenario *s = load_point(o, t / R, t % R, &err);
	if (!s) {
		leave_error(dir, err.msg);
		return RUN_EIO;
	}
	struct run_opts ro = { .out_dir = dir, .interrupt = o->interrupt, /* the handler's flag */
			       .threads = s->threads != SCN_AUTO ? 0 : auto_threads };
	struct run_result r;
	enum run_status st = run_scenario(s, &ro, &r);
	if (st == RUN_INVARIANT || st == RUN_EIO) /* the caller reports it */
		leave_error(dir, r.err);
	scenario_free(s);
	free(s);
	return st;
}

/* child: run task t; the exit status is run_status */
static _Noreturn void run_child(const struct sweep_opts *o, int t)
{
	/* sim.threads = auto shares the cores among the -j points at once */
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	long share = o->jobs > 1 && cores > 0 ? cores / o->jobs : 0;
	enum run_status st = run_task(o, t, o->jobs > 1 ? (unsigned)(share > 1 ? share : 1) : 0);
	fflush(NULL);
	_exit((int)st);
}

/* ---- the worker pool's view of a sweep (workers.h) ---- */

struct sweep_pool {
	const struct sweep_opts *o;
	int *status;                   /* per task: its run's exit status, -1 not run */
	long ntasks, owned, done;
	int worst;
	int killed;                    /* the signal that killed a point's process, 0 none */
	int rank, size;                /* MPI: this rank of size; size 1 without */
	const char *identity;          /* a shard's: its description is rewritten as
					* each run ends (a shard killed outright
					* keeps what it finished) */
};

/* is task t this process's (its shard's, its rank's)? */
static int task_mine(const struct sweep_pool *sp, int t)
{
	const struct sweep_opts *o = sp->o;
	int p = t / sweep_repeats(o);
	if (o->shard_count > 0)
		return p % o->shard_count == o->shard_index;
	return p % sp->size == sp->rank;
}

static int task_skipped(void *ctx, int t)
{
	struct sweep_pool *sp = ctx;
	return !task_mine(sp, t) || sp->status[t] == RUN_OK;
}

static void task_child(void *ctx, int t)
{
	run_child(((struct sweep_pool *)ctx)->o, t);
}

static int task_done(void *ctx, int t, int st)
{
	struct sweep_pool *sp = ctx;
	const struct sweep_opts *o = sp->o;
	int R = sweep_repeats(o);
	sp->status[t] = st;
	sp->done++;
	if (st == RUN_INVARIANT || (st == RUN_EIO && sp->worst != RUN_INVARIANT))
		sp->worst = st;
	if (st >= WORKERS_KILLED && !sp->killed) /* from outside, or a crash */
		sp->killed = st - WORKERS_KILLED;
	if (sp->identity) {
		char why[256];
		sweep_write_shard(o, sp->identity, (int)sp->ntasks, sp->status, why, sizeof(why));
	}
	if (o->log) {
		char label[512], rank[32] = "", rep[48] = "", dir[SWEEP_PATH_BYTES];
		char why[SWEEP_LINE_BYTES + 2 * SWEEP_PATH_BYTES], reason[SWEEP_LINE_BYTES];
		sweep_point_label(o, t / R, label, sizeof(label));
		sweep_task_dir(o->out_dir, R, t, dir, sizeof(dir));
		sweep_run_error(dir, reason, sizeof(reason));
		snprintf(why, sizeof(why), "%s: %s (%s/error.txt)",
			 st == RUN_INVARIANT ? "invariant broken" : "failed",
			 reason[0] ? reason : "no reason written", dir);
		char killed[48];
		snprintf(killed, sizeof(killed), "killed by signal %d", st - WORKERS_KILLED);
		if (sp->size > 1)
			snprintf(rank, sizeof(rank), "rank %d of %d: ", sp->rank, sp->size);
		if (R > 1)
			snprintf(rep, sizeof(rep), " repeat %d", t % R);
		fprintf(o->log, "sweep: %spoint %d%s (%s): %s; %ld of %ld done\n", rank, t / R, rep,
			label,
			st == RUN_OK		? "ok"
			: st == RUN_INTERRUPTED ? "interrupted"
			: st >= WORKERS_KILLED  ? killed
						: why,
			sp->done, sp->owned);
		fflush(o->log);
	}
	if (o->ran)
		o->ran(o->ran_ctx);
	return 0;
}

/* the tasks of this rank in this process, one after another (MPI: no
 * fork); how many ended or were skipped */
static int run_in_process(struct sweep_pool *sp, int ntasks)
{
	int ended = 0;
	for (int t = 0; t < ntasks; t++) {
		if (task_skipped(sp, t)) {
			ended++;
			continue;
		}
		if (sp->o->interrupt && *sp->o->interrupt)
			break;
		enum run_status st = run_task(sp->o, t, 1);
		ended++;
		task_done(sp, t, (int)st);
	}
	return ended;
}

/* every point loads, the output directory exists; 0, or RUN_EIO with err */
static int prepare(const struct sweep_opts *o, long *npoints, char *err, size_t errlen)
{
	*npoints = 1;
	if (o->zip && o->naxes) {
		for (int a = 1; a < o->naxes; a++)
			if (o->axes[a].n != o->axes[0].n || o->shard_count) {
				snprintf(err, errlen, "zipped axes of unequal lengths, or shards");
				return RUN_EIO;
			}
		*npoints = o->axes[0].n;
	}
	for (int a = 0; a < o->naxes && !o->zip; a++) {
		*npoints *= o->axes[a].n;
		if (*npoints > SWEEP_MAX_POINTS) {
			snprintf(err, errlen, "more than %d points: vary fewer values",
				 SWEEP_MAX_POINTS);
			return RUN_EIO;
		}
	}
	if (o->repeat < 0 || o->repeat > SWEEP_MAX_REPEAT) {
		snprintf(err, errlen, "--repeat %d: 1-%d runs per point", o->repeat,
			 SWEEP_MAX_REPEAT);
		return RUN_EIO;
	}
	if (*npoints * sweep_repeats(o) > (long)SWEEP_MAX_POINTS * 10) {
		snprintf(err, errlen, "more than %d runs (points x --repeat): vary fewer values",
			 SWEEP_MAX_POINTS * 10);
		return RUN_EIO;
	}
	if (o->shard_count < 0 || (o->shard_count > 0 && (o->shard_index < 0 ||
							   o->shard_index >= o->shard_count))) {
		snprintf(err, errlen, "--shard %d/%d: I/N with 0 <= I < N", o->shard_index,
			 o->shard_count);
		return RUN_EIO;
	}
	/* every point must load before anything runs; with repeats, the
	 * last seed too */
	for (int p = 0; p < *npoints; p++) {
		struct scn_error e;
		struct scenario *s = load_point(o, p, sweep_repeats(o) - 1, &e);
		if (!s) {
			char label[512];
			sweep_point_label(o, p, label, sizeof(label));
			snprintf(err, errlen, "point %d (%s): %s", p, label, e.msg);
			return RUN_EIO;
		}
		scenario_free(s);
		free(s);
	}
	if (output_mkdir_p(o->out_dir)) {
		snprintf(err, errlen, "%s: cannot create the output directory: %s", o->out_dir,
			 strerror(errno));
		return RUN_EIO;
	}
	return 0;
}

/* prepare, on every rank: 0 when each can go on, or RUN_EIO with err */
static int start(const struct sweep_opts *o, int mpi, long *npoints, char *err, size_t errlen)
{
	int rc = prepare(o, npoints, err, errlen);
	if (!rc && mpi && o->shard_count > 0) {
		snprintf(err, errlen, "--shard under mpirun: give one or the other (the ranks "
				      "are the shards)");
		rc = RUN_EIO;
	}
	/* the ranks agree on whether to go on (an I/O error may hit one) */
	if (sweep_mpi_max(rc, mpi) && !rc) {
		snprintf(err, errlen,
			 "another rank could not start the sweep (its message says why)");
		rc = RUN_EIO;
	}
	return rc;
}

/* --resume: the runs of this process that ended before stay (RUN_OK);
 * how many */
static int resume(struct sweep_pool *sp)
{
	const struct sweep_opts *o = sp->o;
	int R = sweep_repeats(o), resumed = 0;
	for (int t = 0; !o->resume && t < sp->ntasks; t++) {
		/* a new start: another sweep's results left in the folder must not
		 * pass for this one's when it is resumed after an interruption */
		char path[SWEEP_PATH_BYTES + 16];
		sweep_task_dir(o->out_dir, R, t, path, sizeof(path) - 16);
		strcat(path, "/summary.csv");
		if (task_mine(sp, t))
			unlink(path);
	}
	for (int t = 0; o->resume && t < sp->ntasks; t++) { /* what ended stays */
		char dir[SWEEP_PATH_BYTES], header[SWEEP_LINE_BYTES], row[SWEEP_LINE_BYTES];
		sweep_task_dir(o->out_dir, R, t, dir, sizeof(dir));
		if (task_mine(sp, t) && !sweep_read_summary(dir, header, row) &&
		    (sweep_column_is(header, row, "end", "done") ||
		     sweep_column_is(header, row, "end", "duration"))) {
			sp->status[t] = RUN_OK;
			resumed++;
		}
	}
	if (o->log && o->resume)
		fprintf(o->log, "sweep: %d of %ld %s ended before: not run again\n", resumed,
			sp->owned, R > 1 ? "runs" : "points");
	return resumed;
}

/* the runs of this process: forked workers, or under MPI one after
 * another; *interrupted when they did not all run.  The worst status */
static int run_tasks(struct sweep_pool *sp, int mpi, int *interrupted, char *err, size_t errlen)
{
	const struct sweep_opts *o = sp->o;
	int done, ntasks = (int)sp->ntasks;
	if (mpi) {
		done = run_in_process(sp, ntasks);
	} else {
		struct workers w = { .jobs = o->jobs, .interrupt = o->interrupt, .ctx = sp,
				     .skip = task_skipped, .child = task_child, .done = task_done };
		done = workers_run(&w, ntasks, err, errlen);
	}
	if (done < 0 || err[0])
		sp->worst = RUN_EIO;
	if (sp->killed && sp->worst == RUN_OK) {
		snprintf(err, errlen, "a point's process was killed by signal %d", sp->killed);
		sp->worst = RUN_EIO;
	}
	*interrupted = done < ntasks || (o->interrupt && *o->interrupt);
	return sp->worst;
}

/* the folder is this sweep's: the ranks read the same inputs; then (but
 * for zipped sweeps) rank 0 takes the lock into lock[] (*locked) and
 * records the identity, refusing another sweep's folder on --resume.  0,
 * or -1 with err on every rank */
static int claim(const struct sweep_opts *o, int mpi, int rank, const char *identity,
		 char *lock, size_t len, int *locked, char *err, size_t errlen)
{
	int rc = 0;
	uint64_t h = strtoull(identity + strlen("scenario_fnv1a = "), NULL, 16);
	*locked = 0;
	if (!sweep_mpi_same(h, mpi)) {
		snprintf(err, errlen, "the ranks read different scenario or configuration files "
				      "(every rank must see the same bytes)");
		return -1;
	}
	if (!o->zip && rank == 0) {
		rc = sweep_lock(o, lock, len, err, errlen);
		*locked = !rc;
		if (!rc && o->resume && o->shard_count > 0)
			rc = sweep_shard_check(o, identity, err, errlen);
		if (!rc)
			rc = sweep_claim_identity(o, identity, err, errlen);
	}
	if (sweep_mpi_max(rc ? 1 : 0, mpi) && !rc) {
		snprintf(err, errlen, "rank 0 could not start the sweep (its message says why)");
		rc = -1;
	}
	if (rc && *locked) {
		unlink(lock);
		*locked = 0;
	}
	return rc;
}

/* the first run that ended with status st, and its reason, into err */
static void first_failure(const struct sweep_opts *o, const int *status, int ntasks, int st,
			  char *err, size_t errlen)
{
	int R = sweep_repeats(o), t = 0;
	while (t < ntasks && status[t] != st)
		t++;
	if (t == ntasks) {
		snprintf(err, errlen, "%s", st == RUN_INVARIANT ? "a point broke an invariant"
								: "a point could not run");
		return;
	}
	char label[512], dir[SWEEP_PATH_BYTES], reason[SWEEP_LINE_BYTES], rep[48] = "";
	sweep_point_label(o, t / R, label, sizeof(label));
	sweep_task_dir(o->out_dir, R, t, dir, sizeof(dir));
	sweep_run_error(dir, reason, sizeof(reason));
	if (R > 1)
		snprintf(rep, sizeof(rep), " repeat %d", t % R);
	snprintf(err, errlen, "point %d%s (%s) %s: %s (%s/error.txt)", t / R, rep, label,
		 st == RUN_INVARIANT ? "broke an invariant" : "failed",
		 reason[0] ? reason
			   : "it left no reason (error.txt missing or empty: a full disk, or "
			     "the process died)",
		 dir);
}

/* sweep_run with the inputs read (o's texts) */
static int run_sweep(const struct sweep_opts *o, int *failed, int *unjudged, char *err,
		     size_t errlen)

{
	long npoints;
	int rank, size;
	int mpi = sweep_mpi_ranks(&rank, &size);
	err[0] = '\0';
	*failed = *unjudged = 0;
	int rc = start(o, mpi, &npoints, err, errlen);
	if (rc) {
		if (o->refused) /* nothing ran */
			*o->refused = 1;
		return rc;
	}
	int ntasks = (int)npoints * sweep_repeats(o);
	int *status = calloc((size_t)ntasks, sizeof(*status));
	char *identity = NULL;
	if (!status) {
		snprintf(err, errlen, "out of memory");
		return RUN_EIO;
	}
	struct sweep_pool sp = { .o = o, .status = status, .ntasks = ntasks, .worst = RUN_OK,
				 .rank = rank, .size = size };
	for (int t = 0; t < ntasks; t++) {
		status[t] = -1;
		sp.owned += task_mine(&sp, t);
	}
	char lock[SWEEP_PATH_BYTES + 32];
	int locked = 0;
	if (sweep_shard_identity(o, npoints, &identity, err, errlen) ||
	    claim(o, mpi, rank, identity, lock, sizeof(lock), &locked, err, errlen) ||
	    (o->shard_count > 0 && /* the shard's description, before anything runs */
	     sweep_write_shard(o, identity, ntasks, status, err, errlen))) {
		if (o->refused)
			*o->refused = 1;
		if (locked)
			unlink(lock);
		free(status);
		free(identity);
		return RUN_EIO;
	}
	sp.done = resume(&sp);
	sp.identity = o->shard_count > 0 ? identity : NULL;
	int interrupted;
	int worst = run_tasks(&sp, mpi, &interrupted, err, errlen);
	if (mpi) /* every rank's statuses, worst outcome and interruption */
		sweep_mpi_gather(status, ntasks, &worst, &interrupted);
	int wrc = 0;
	if (o->shard_count > 0)
		wrc = sweep_write_shard(o, identity, ntasks, status, err, errlen);
	else if (!mpi || rank == 0)
		wrc = sweep_write_csv(o, (int)npoints, status, failed, unjudged, err, errlen);
	if (mpi) /* rank 0 has written sweep.csv: the barrier, and its outcome */
		sweep_mpi_share_csv(o, rank, &wrc, failed, unjudged, err, errlen);
	if (wrc)
		worst = RUN_EIO;
	else if (worst == RUN_INVARIANT || (worst == RUN_EIO && !err[0]))
		first_failure(o, status, ntasks, worst, err, errlen);
	if (locked)
		unlink(lock);
	free(status);
	free(identity);
	if (worst != RUN_OK)
		return worst;
	return interrupted ? RUN_INTERRUPTED : RUN_OK;
}

int sweep_run(const struct sweep_opts *o, int *failed, int *unjudged, char *err,
	      size_t errlen)
{
	struct sweep_opts own = *o;
	sweep_read_inputs(&own); /* once: every point loads these bytes */
	int rc = run_sweep(&own, failed, unjudged, err, errlen);
	sweep_free_inputs(&own, o);
	return rc;
}
