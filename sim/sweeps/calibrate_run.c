/*
 * calibrate_run.c - calibrate_run() (see calibrate.h): load the scenarios,
 * start the search at their own settings, run the figure's plane, choose
 * the recommendation and have the files and the report written
 * (calibrate_report.c).
 *
 * Choices:
 * - The start is the scenario's own settings: each key's value joins its
 *   grid.  The value is read from what `check` prints, so any key works; a
 *   key printed in another unit than its grid's starts mid-grid.
 * - Under mpirun (the MPI build) every rank runs the same search: each
 *   sweep spreads its points over the ranks and every rank reads the
 *   sweep.csv rank 0 wrote, so all take the same steps; rank 0 alone writes
 *   calibrate.csv, plane.csv and recommended.ini.
 */
#include "sim/sweeps/calibrate.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "models/scenario/configs/config.h"
#include "models/scenario/scenario.h"
#include "sim/run/output.h"
#include "sim/run/run.h"
#include "sim/sweeps/internal.h"
#include "sim/sweeps/sweep.h"

/* the value of key (section.key) as `check` prints it; 0 or -1 */
static int printed_value(const struct scenario *s, const char *key, char *buf, size_t len)
{
	char *text = NULL;
	size_t size = 0;
	FILE *m = open_memstream(&text, &size);
	if (!m)
		return -1;
	scenario_print(s, m);
	fclose(m);
	const char *dot = strrchr(key, '.');
	char section[64];
	snprintf(section, sizeof(section), "[%.*s]", (int)(dot - key), key);
	int in = 0, found = -1;
	for (char *save = NULL, *l = strtok_r(text, "\n", &save); l && found;
	     l = strtok_r(NULL, "\n", &save)) {
		if (l[0] == '[') {
			in = !strcmp(l, section);
			continue;
		}
		size_t kl = strlen(dot + 1);
		if (in && !strncmp(l, dot + 1, kl) && !strncmp(l + kl, " = ", 3)) {
			snprintf(buf, len, "%s", l + kl + 3);
			buf[strcspn(buf, " ;#")] = '\0';
			found = 0;
		}
	}
	free(text);
	return found;
}

/*
 * The grid index of the scenario's own value of k: inserted into the grid
 * (in order) when it is not on it; when it is printed in another unit than
 * the grid's, or the grid is full, the nearest value (log scale) or the
 * middle.  *own is cleared unless the index holds the scenario's value.
 */
static int own_value(struct cal_key *k, const struct scenario *s, int *own)
{
	char text[96], why[160];
	enum cal_unit u;
	int64_t v;
	if (printed_value(s, k->key, text, sizeof(text)) ||
	    cal_parse_value(text, &u, &v, why, sizeof(why)) || u != k->unit) {
		*own = 0;
		return k->n / 2;
	}
	int at = 0;
	while (at < k->n && k->base[at] < v)
		at++;
	if (at < k->n && k->base[at] == v)
		return at;
	if (k->n < CAL_MAX_VALUES) {
		memmove(&k->base[at + 1], &k->base[at], sizeof(k->base[0]) * (size_t)(k->n - at));
		memmove(&k->text[at + 1], &k->text[at], sizeof(k->text[0]) * (size_t)(k->n - at));
		k->base[at] = v;
		cal_format_value(k->unit, v, k->text[at], sizeof(k->text[0]));
		k->n++;
		return at;
	}
	*own = 0;
	int best = 0;
	double bd = INFINITY;
	for (int i = 0; i < k->n; i++) {
		double d = v > 0 && k->base[i] > 0 ? fabs(log((double)v / (double)k->base[i]))
						   : fabs((double)(v - k->base[i]));
		if (d < bd) {
			bd = d;
			best = i;
		}
	}
	return best;
}

static const char *stem(const char *path, char *buf, size_t len)
{
	if (!path)
		return snprintf(buf, len, "default"), buf;
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	size_t n = strlen(b);
	if (n > 4 && !strcmp(b + n - 4, ".ini"))
		n -= 4;
	snprintf(buf, len, "%.*s", (int)n, b);
	for (char *p = buf; *p; p++)
		if (*p == ',' || *p == '"' || *p == ' ')
			*p = '_';
	return buf;
}


/* the scenario of each line's label ("incast", "incast-2"), its criteria
 * as limits, and (from the first) the start: each key's own value; 0, or
 * -1 with err */
static int load_scenarios(struct cal_ctx *c, struct calibrate_opts *oc, int *start, char *err,
			  size_t errlen)
{
	for (int s = 0; s < c->nscn; s++) {
		char base[48];
		stem(c->files[s], base, sizeof(base));
		snprintf(c->labels[s], sizeof(c->labels[s]), "%s", base);
		for (int t = 0, dup = 1; t < s; t++)
			if (!strcmp(c->labels[t], c->labels[s]))
				snprintf(c->labels[s], sizeof(c->labels[s]), "%.36s-%d", base,
					 ++dup % 1000);
		struct scn_error e;
		struct scenario *scn = cal_load_with(oc, c->files[s], NULL, 0, &e);
		if (!scn) {
			snprintf(err, errlen, "%s", e.msg);
			return -1;
		}
		struct cal_limits *l = &c->limits[s];
		l->min_busbw_pct = (double)scn->crit_min_busbw_ppb / 1e7;
		l->max_ecn_mark_pct = (double)scn->crit_max_ecn_mark_ppb / 1e7;
		l->max_pause_frame_rate = scn->crit_max_pause_frame_rate == SCN_AUTO
						  ? -1
						  : (double)scn->crit_max_pause_frame_rate;
		l->max_retransmitted_pct = (double)scn->crit_max_retransmitted_ppb / 1e7;
		l->max_lossless_drops = scn->crit_max_lossless_drops;
		l->max_drops = scn->crit_max_drops;
		c->busbw_mean[s] = scn->crit_busbw_stat == SCN_BUSBW_MEAN;
		c->seed0[s] = (int64_t)scn->seed;
		size_t size = 0;
		FILE *m = s == 0 ? open_memstream(&c->notes, &size) : NULL;
		if (m) {
			scenario_config_notes(scn, m);
			fclose(m);
		}
		if (s == 0)
			for (int k = 0; k < oc->nkeys; k++)
				start[k] = own_value(&oc->keys[k], scn, &c->own_start);
		scenario_close(scn);
	}
	return 0;
}

/* the start must load everywhere (a tuned key that does not apply, e.g. a
 * [dcqcn] knob with nic.cc = none, fails here, before any run); then
 * DIR/runs is made.  0, or -1 with err */
static int check_start(const struct cal_ctx *c, const int *start, char *err, size_t errlen)
{
	const struct calibrate_opts *o = c->o;
	for (int s = 0; s < c->nscn; s++) {
		char a[CAL_MAX_KEYS][96];
		struct scn_error e;
		cal_point_assigns(o, start, a);
		struct scenario *scn = cal_load_with(o, c->files[s], a, o->nkeys, &e);
		if (!scn) {
			snprintf(err, errlen, "the tuned keys at the scenario's own values: %s",
				 strncmp(e.msg, "--set: ", 7) ? e.msg : e.msg + 7);
			return -1;
		}
		scenario_close(scn);
	}
	char runs_dir[4200];
	snprintf(runs_dir, sizeof(runs_dir), "%s/runs", o->out_dir);
	if (output_mkdir_p(runs_dir)) {
		snprintf(err, errlen, "%s: cannot create the output directory: %s", runs_dir,
			 strerror(errno));
		return -1;
	}
	return 0;
}

/* the figure's plane: every pair of values of keys a (x) and b (y), the
 * others at the search's best, as one batch; 0, or -1 on an error (err) */
static int run_plane(struct cal_ctx *c, const struct cal_search *s, struct cal_outcome *out,
		     int a, int b, char *err, size_t errlen)
{
	const struct cal_key *keys = s->keys;
	int n = keys[a].n * keys[b].n;
	int (*idx)[CAL_MAX_KEYS] = malloc(sizeof(*idx) * (size_t)n);
	if (!idx) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memcpy(c->plane_base, out->points[out->best].idx, sizeof(c->plane_base));
	for (int i = 0; i < n; i++) {
		memcpy(idx[i], c->plane_base, sizeof(idx[i]));
		idx[i][a] = i / keys[b].n;
		idx[i][b] = i % keys[b].n;
	}
	if (s->log)
		fprintf(s->log, "calibrate: the margin over %s and %s\n", keys[a].key, keys[b].key);
	c->phase = "plane";
	int rc = cal_eval_new(s, out, n, (const int(*)[CAL_MAX_KEYS])idx, CAL_PLANE, 0, err,
			      errlen);
	free(idx);
	return rc;
}

/* the files (rank 0 alone), then the report and the best's settings; the
 * command's status */
static int finish(const struct cal_ctx *c, struct cal_outcome *out, int a, int b, int rc,
		  char (*sets_out)[96], char *err, size_t errlen)
{
	const struct calibrate_opts *o = c->o;
	int st = RUN_OK;
	if (rc && !c->interrupted)
		st = RUN_EIO;
	int rank, size;
	sweep_mpi_ranks(&rank, &size); /* under mpirun every rank searched alike */
	if (out->npoints && rank == 0) {
		char werr[4300];
		if (cal_write_files(c, out, a, b, werr, sizeof(werr))) {
			snprintf(err, errlen, "%s", werr);
			st = RUN_EIO;
		}
	}
	if (st == RUN_OK && c->interrupted)
		st = RUN_INTERRUPTED;
	if (st == RUN_OK) {
		if (o->out)
			cal_print_result(c, out, o->out);
		for (int k = 0; sets_out && k < o->nkeys; k++)
			snprintf(sets_out[k], sizeof(sets_out[k]), "%s=%s", o->keys[k].key,
				 o->keys[k].text[out->points[out->best].idx[k]]);
		if (!out->points[out->best].score.pass)
			st = CALIBRATE_NONE_PASSES;
	}
	return st;
}

/* the two most influential keys into *a and *b (-1: fewer keys) */
static void plane_keys(const struct cal_outcome *out, int nkeys, int *a, int *b)
{
	*a = *b = -1;
	for (int k = 0; k < nkeys; k++) {
		if (*a < 0 || out->influence[k] > out->influence[*a]) {
			*b = *a;
			*a = k;
		} else if (*b < 0 || out->influence[k] > out->influence[*b]) {
			*b = k;
		}
	}
}

/* about how many runs the calibration takes, for the progress line */
static long runs_expected(const struct cal_ctx *c, const struct calibrate_opts *o)
{
	double grid = calibrate_grid_points(o->keys, o->nkeys);
	int budget = o->budget > 0 ? o->budget : CAL_DEFAULT_BUDGET;
	double points = 1 + (grid <= budget ? grid : budget) + 2 * o->nkeys;
	if (!o->no_plane && o->nkeys > 1) /* the plane of two mid-sized grids */
		points += o->keys[0].n * o->keys[1].n;
	return (long)fmin(points, grid + 1) * c->nscn * c->nseeds;
}

int calibrate_run(const struct calibrate_opts *o, char (*sets_out)[96], char *err,
		  size_t errlen)
{
	struct cal_ctx *c = calloc(1, sizeof(*c));
	struct calibrate_opts *oc = malloc(sizeof(*oc));
	if (!c || !oc) {
		free(c);
		free(oc);
		snprintf(err, errlen, "out of memory");
		return RUN_EIO;
	}
	*oc = *o; /* its grids get the scenario's own values */
	c->o = oc;
	c->own_start = 1;
	c->nseeds = o->seeds > 1 ? o->seeds : 1;
	c->files[c->nscn++] = o->scenario;
	for (int i = 0; i < o->nstress && c->nscn < CAL_MAX_SCENARIOS; i++)
		c->files[c->nscn++] = o->stress[i];
	int start[CAL_MAX_KEYS] = {0};
	if (load_scenarios(c, oc, start, err, errlen) || check_start(c, start, err, errlen)) {
		free(c->notes);
		free(c);
		free(oc);
		return RUN_EIO;
	}
	o = oc;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	c->t0 = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
	c->tty = o->log && isatty(fileno(o->log));
	c->runs_expected = runs_expected(c, o);
	c->phase = "search";
	struct cal_search s = { .keys = o->keys, .nkeys = o->nkeys, .budget = o->budget,
				.eval = cal_eval_points, .ctx = c, .log = o->log };
	memcpy(s.start, start, sizeof(start));
	s.own = c->own_start;
	struct cal_outcome out;
	int rc = cal_explore(&s, &out, err, errlen);
	/* the plane of the two most influential keys, the others at the best */
	int a, b;
	cal_influence(&s, &out);
	plane_keys(&out, o->nkeys, &a, &b);
	if (rc == 0 && out.npoints && b >= 0 && !o->no_plane)
		rc = run_plane(c, &s, &out, a, b, err, errlen);
	c->phase = "neighbours";
	if (rc == 0)
		rc = cal_choose(&s, &out, err, errlen);
	int st = finish(c, &out, a, b, rc, sets_out, err, errlen);
	calibrate_outcome_free(&out);
	free(c->notes);
	free(c);
	free(oc);
	return st;
}
