/*
 * sweep.c - parameter sweeps (see sweep.h).
 *
 * Points are numbered in odometer order, the last --vary axis fastest.
 * Each point runs in a child process (fork), so a point that runs out of
 * memory or breaks an invariant cannot take the others down, and -j N uses
 * N cores (a point with sim.threads = auto gets its share of the cores).  The children write ordinary run directories; the parent only
 * collects their summary.csv rows.
 */
#include "sweep.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "keyhelp.h"
#include "output.h"
#include "run.h"
#include "scenario.h"
#include "workers.h"

#define LINE_MAX_BYTES 4096

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
			snprintf(err, errlen, "--vary %s: at most %d values", arg, SWEEP_MAX_VALUES);
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

/* the value index of each axis at point p */
static void point_index(const struct sweep_opts *o, int p, int *idx)
{
	for (int a = o->naxes - 1; a >= 0; a--) {
		idx[a] = p % o->axes[a].n;
		p /= o->axes[a].n;
	}
}

static void point_label(const struct sweep_opts *o, int p, char *buf, size_t len)
{
	int idx[SWEEP_MAX_AXES];
	size_t n = 0;
	point_index(o, p, idx);
	buf[0] = '\0';
	for (int a = 0; a < o->naxes && n < len; a++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s=%s", a ? ", " : "", o->axes[a].key,
				      o->axes[a].values[idx[a]]);
}

/* the finalized scenario of point p; NULL with err set */
static struct scenario *load_point(const struct sweep_opts *o, int p, struct scn_error *err)
{
	int idx[SWEEP_MAX_AXES];
	struct scenario *s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err->msg, sizeof(err->msg), "out of memory");
		return NULL;
	}
	scenario_init(s);
	int rc = o->scenario ? scenario_load_file(s, o->scenario, err)
			     : scenario_load_string(s, "scenarios/default.ini (embedded)",
						    scenario_default_text, err);
	for (int i = 0; rc == 0 && i < o->nsets; i++)
		rc = scenario_set(s, o->sets[i], err);
	point_index(o, p, idx);
	for (int a = 0; rc == 0 && a < o->naxes; a++) {
		char assign[512];
		snprintf(assign, sizeof(assign), "%s=%s", o->axes[a].key, o->axes[a].values[idx[a]]);
		rc = scenario_set(s, assign, err);
		/* the loader names the place "--set"; here it is an axis */
		if (rc && !strncmp(err->msg, "--set: ", 7)) {
			size_t n = strlen(err->msg + 7);
			if (8 + n >= sizeof(err->msg))
				n = sizeof(err->msg) - 9;
			memmove(err->msg + 8, err->msg + 7, n);
			err->msg[8 + n] = '\0';
			memcpy(err->msg, "--vary: ", 8);
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

static void point_dir(const struct sweep_opts *o, int p, char *buf, size_t len)
{
	snprintf(buf, len, "%s/p%03d", o->out_dir, p);
}

/* child: run point p into its directory; the exit status is run_status */
static _Noreturn void run_child(const struct sweep_opts *o, int p)
{
	struct scn_error err;
	char dir[4200];
	struct scenario *s = load_point(o, p, &err);
	if (!s)
		_exit(RUN_EIO);
	point_dir(o, p, dir, sizeof(dir));
	/* sim.threads = auto shares the cores among the -j points at once */
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	long share = o->jobs > 1 && cores > 0 ? cores / o->jobs : 0;
	struct run_opts ro = { .out_dir = dir, .interrupt = o->interrupt, /* the handler's flag */
			       .threads = s->threads != SCN_AUTO ? 0
					  : o->jobs > 1 ? (unsigned)(share > 1 ? share : 1) : 0 };
	struct run_result r;
	enum run_status st = run_scenario(s, &ro, &r);
	if (st == RUN_INVARIANT || st == RUN_EIO) {
		/* the parent reports it; leave the reason next to the results */
		char path[4300];
		snprintf(path, sizeof(path), "%s/error.txt", dir);
		FILE *fp = fopen(path, "w");
		if (fp) {
			fprintf(fp, "%s\n", r.err);
			fclose(fp);
		}
	}
	fflush(NULL);
	_exit((int)st);
}

/* the two lines of DIR/summary.csv; 0 or -1 */
static int read_summary(const char *dir, char *header, char *row)
{
	char path[4300];
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	FILE *fp = fopen(path, "r");
	if (!fp)
		return -1;
	int ok = fgets(header, LINE_MAX_BYTES, fp) && fgets(row, LINE_MAX_BYTES, fp);
	fclose(fp);
	if (!ok)
		return -1;
	header[strcspn(header, "\n")] = '\0';
	row[strcspn(row, "\n")] = '\0';
	return 0;
}

/* the value of column `name` in a CSV row of unquoted fields */
static int column_is(const char *header, const char *row, const char *name, const char *want)
{
	int col = 0;
	size_t nl = strlen(name);
	for (const char *h = header;; col++) {
		if (!strncmp(h, name, nl) && (h[nl] == ',' || !h[nl]))
			break;
		h = strchr(h, ',');
		if (!h)
			return 0;
		h++;
	}
	const char *v = row;
	for (int i = 0; i < col && v; i++)
		if ((v = strchr(v, ',')))
			v++;
	return v && !strncmp(v, want, strlen(want)) &&
	       (v[strlen(want)] == ',' || !v[strlen(want)]);
}

static int write_csv(const struct sweep_opts *o, int npoints, const int *status, int *failed,
		     int *unjudged, char *err, size_t errlen)
{
	char path[4200], header[LINE_MAX_BYTES], row[LINE_MAX_BYTES], dir[4200];
	snprintf(path, sizeof(path), "%s/sweep.csv", o->out_dir);
	FILE *fp = fopen(path, "w");
	if (!fp) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	int wrote_header = 0;
	*failed = *unjudged = 0;
	for (int p = 0; p < npoints; p++) {
		point_dir(o, p, dir, sizeof(dir));
		if (status[p] != RUN_OK || read_summary(dir, header, row))
			continue;
		if (!wrote_header) {
			fputs("point,dir", fp);
			for (int a = 0; a < o->naxes; a++)
				fprintf(fp, ",%s", o->axes[a].key);
			fprintf(fp, ",%s\n", header);
			wrote_header = 1;
		}
		int idx[SWEEP_MAX_AXES];
		point_index(o, p, idx);
		fprintf(fp, "%d,p%03d", p, p);
		for (int a = 0; a < o->naxes; a++)
			fprintf(fp, ",%s", o->axes[a].values[idx[a]]);
		fprintf(fp, ",%s\n", row);
		*failed += column_is(header, row, "criteria_pass", "0");
		*unjudged += column_is(header, row, "criteria_pass", "");
	}
	int bad = ferror(fp);
	if (fclose(fp) || bad) {
		snprintf(err, errlen, "%s: write failed", path);
		return -1;
	}
	return 0;
}

/* the worker pool's view of a sweep (workers.h) */
struct sweep_pool {
	const struct sweep_opts *o;
	int *status;                   /* per point: its run's exit status, -1 not run */
	long npoints, done;
	int worst;
	int killed;                    /* the signal that killed a point's process, 0 none */
};

static int point_resumed(void *ctx, int p)
{
	return ((struct sweep_pool *)ctx)->status[p] == RUN_OK;
}

static void point_child(void *ctx, int p)
{
	run_child(((struct sweep_pool *)ctx)->o, p);
}

static int point_done(void *ctx, int p, int st)
{
	struct sweep_pool *sp = ctx;
	const struct sweep_opts *o = sp->o;
	sp->status[p] = st;
	sp->done++;
	if (st == RUN_INVARIANT || (st == RUN_EIO && sp->worst != RUN_INVARIANT))
		sp->worst = st;
	if (st >= WORKERS_KILLED && !sp->killed) /* from outside, or a crash */
		sp->killed = st - WORKERS_KILLED;
	if (o->log) {
		char label[512];
		point_label(o, p, label, sizeof(label));
		char killed[48];
		snprintf(killed, sizeof(killed), "killed by signal %d", st - WORKERS_KILLED);
		fprintf(o->log, "sweep: point %d (%s): %s; %ld of %ld done\n", p, label,
			st == RUN_OK	      ? "ok"
			: st == RUN_INVARIANT  ? "invariant broken (see error.txt)"
			: st == RUN_INTERRUPTED ? "interrupted"
			: st >= WORKERS_KILLED  ? killed
						: "failed (see error.txt)",
			sp->done, sp->npoints);
		fflush(o->log);
	}
	return 0;
}

int sweep_run(const struct sweep_opts *o, int *failed, int *unjudged, char *err,
	      size_t errlen)
{
	long npoints = 1;
	err[0] = '\0';
	*failed = *unjudged = 0;
	for (int a = 0; a < o->naxes; a++) {
		npoints *= o->axes[a].n;
		if (npoints > SWEEP_MAX_POINTS) {
			snprintf(err, errlen, "more than %d points: vary fewer values", SWEEP_MAX_POINTS);
			return RUN_EIO;
		}
	}
	/* every point must load before anything runs */
	for (int p = 0; p < npoints; p++) {
		struct scn_error e;
		struct scenario *s = load_point(o, p, &e);
		if (!s) {
			char label[512];
			point_label(o, p, label, sizeof(label));
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
	int *status = calloc((size_t)npoints, sizeof(*status));
	if (!status) {
		snprintf(err, errlen, "out of memory");
		return RUN_EIO;
	}
	for (int p = 0; p < npoints; p++)
		status[p] = -1;
	int resumed = 0;
	for (int p = 0; o->resume && p < npoints; p++) { /* what ended stays */
		char dir[4200], header[LINE_MAX_BYTES], row[LINE_MAX_BYTES];
		point_dir(o, p, dir, sizeof(dir));
		if (!read_summary(dir, header, row) && (column_is(header, row, "end", "done") ||
							column_is(header, row, "end", "duration"))) {
			status[p] = RUN_OK;
			resumed++;
		}
	}
	if (o->log && o->resume)
		fprintf(o->log, "sweep: %d of %ld points ended before: not run again\n", resumed,
			npoints);
	struct sweep_pool sp = { .o = o, .status = status, .npoints = npoints, .done = resumed,
				 .worst = RUN_OK };
	struct workers w = { .jobs = o->jobs, .interrupt = o->interrupt, .ctx = &sp,
			     .skip = point_resumed, .child = point_child, .done = point_done };
	int done = workers_run(&w, (int)npoints, err, errlen);
	if (done < 0 || err[0])
		sp.worst = RUN_EIO;
	if (sp.killed && sp.worst == RUN_OK) {
		snprintf(err, errlen, "a point's process was killed by signal %d", sp.killed);
		sp.worst = RUN_EIO;
	}
	int worst = sp.worst;
	int interrupted = done < npoints || (o->interrupt && *o->interrupt);
	if (write_csv(o, (int)npoints, status, failed, unjudged, err, errlen))
		worst = RUN_EIO;
	else if (worst == RUN_INVARIANT)
		snprintf(err, errlen, "a point broke an invariant (its error.txt says which)");
	else if (worst == RUN_EIO && !err[0])
		snprintf(err, errlen, "a point could not write its results (see its error.txt)");
	free(status);
	if (worst != RUN_OK)
		return worst;
	return interrupted ? RUN_INTERRUPTED : RUN_OK;
}
