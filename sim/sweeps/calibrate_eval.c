/*
 * calibrate_eval.c - the evaluator of `dcqcn-sim calibrate` (see
 * calibrate.h): the points of a line run as one sweep per scenario, their
 * margins read from sweep.csv; and calibrate_run, which loads the
 * scenarios, starts the search at their own settings, runs the figure's
 * plane and has the report written (calibrate_report.c).
 *
 * Choices:
 * - The start is the scenario's own settings: each key's value joins its
 *   grid.  The value is read from what `check` prints, so any key works; a
 *   key printed in another unit than its grid's starts mid-grid.
 * - The seeds are the sweep's last axis (sim.seed = 1..N); with one seed
 *   each scenario keeps its own sim.seed.
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

#include "models/scenario/scenario.h"
#include "sim/run/output.h"
#include "sim/run/run.h"
#include "sim/sweeps/internal.h"
#include "sim/sweeps/sweep.h"

#define LINE_BYTES 8192
#define MAX_COLS 160
#define MAX_SETS 256 /* --set options (as the command line takes) */

/* ---- the evaluator: points as sweeps ---- */

struct scenario *cal_load_with(const struct calibrate_opts *o, const char *file,
			       char (*assigns)[96], int nassigns, struct scn_error *err)
{
	const char *all[MAX_SETS + CAL_MAX_KEYS];
	int n = 0;
	for (int i = 0; i < o->nsets && n < MAX_SETS; i++)
		all[n++] = o->sets[i];
	for (int i = 0; i < nassigns; i++)
		all[n++] = assigns[i];
	struct scenario_inputs in = { .path = file, .switch_config = o->switch_config,
				      .nic_config = o->nic_config, .sets = all, .nsets = n };
	return scenario_open(&in, err);
}

void cal_point_assigns(const struct calibrate_opts *o, const int *idx, char (*a)[96])
{
	for (int k = 0; k < o->nkeys; k++)
		snprintf(a[k], sizeof(a[k]), "%s=%s", o->keys[k].key, o->keys[k].text[idx[k]]);
}

static int col_of(char **h, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(h[i], name))
			return i;
	return -1;
}

static double num_at(char **f, int n, int col)
{
	return col >= 0 && col < n && f[col][0] ? strtod(f[col], NULL) : 0;
}

/* the runs of sweep directory dir (points in V order x seeds) into out[] */
static int read_sweep(struct cal_ctx *c, int scn, const char *dir, const int *V, int nvalid,
		      int nseeds, struct cal_score *out, char *err, size_t errlen)
{
	char path[4400];
	snprintf(path, sizeof(path), "%s/sweep.csv", dir);
	unsigned char *seen = calloc((size_t)nvalid * (size_t)nseeds, 1);
	char *line = malloc(LINE_BYTES), *hline = malloc(LINE_BYTES);
	if (!seen || !line || !hline) {
		free(seen);
		free(line);
		free(hline);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	FILE *fp = fopen(path, "r");
	char *h[MAX_COLS], *f[MAX_COLS];
	int nh = 0;
	if (fp && fgets(hline, LINE_BYTES, fp)) {
		hline[strcspn(hline, "\n")] = '\0';
		nh = output_split_csv(hline, h, MAX_COLS);
	}
	int cp = col_of(h, nh, "point"), cpass = col_of(h, nh, "criteria_pass"),
	    cjudged = col_of(h, nh, "judged_iterations"),
	    cbusbw = col_of(h, nh, c->busbw_mean[scn] ? "busbw_judged_mean_pct"
						       : "busbw_judged_min_pct"),
	    cecn = col_of(h, nh, "ecn_mark_pct"), cpause = col_of(h, nh, "pause_frame_rate"),
	    cre = col_of(h, nh, "retransmitted_pct"), cll = col_of(h, nh, "drops_lossless"),
	    cly = col_of(h, nh, "drops_lossy"), cwd = col_of(h, nh, "drops_pfcwd"),
	    cjf = col_of(h, nh, "jobs_failed");
	while (fp && nh && fgets(line, LINE_BYTES, fp)) {
		line[strcspn(line, "\n")] = '\0';
		int n = output_split_csv(line, f, MAX_COLS);
		long p = cp >= 0 && cp < n ? strtol(f[cp], NULL, 10) : -1;
		if (p < 0 || p >= (long)nvalid * nseeds)
			continue;
		seen[p] = 1;
		struct cal_run r = { .ran = 1 };
		const char *pass = cpass >= 0 && cpass < n ? f[cpass] : "";
		r.judged = pass[0] == '0' || pass[0] == '1';
		r.pass = pass[0] == '1';
		r.has_busbw = num_at(f, n, cjudged) > 0;
		r.busbw_pct = num_at(f, n, cbusbw);
		r.ecn_mark_pct = num_at(f, n, cecn);
		r.pause_frame_rate = num_at(f, n, cpause);
		r.retransmitted_pct = num_at(f, n, cre);
		r.drops_lossless = (int64_t)num_at(f, n, cll);
		r.drops = r.drops_lossless + (int64_t)num_at(f, n, cly) + (int64_t)num_at(f, n, cwd);
		r.jobs_failed = (int)num_at(f, n, cjf);
		enum cal_criterion b;
		double each[CAL_N_CRITERIA];
		double m = calibrate_margin(&r, &c->limits[scn], &b, each);
		struct cal_score *sc = &out[V[p / nseeds]];
		for (int k = 1; k < CAL_N_CRITERIA; k++)
			sc->crit[k] = fmin(sc->crit[k], each[k]);
		if (m < sc->scn_margin[scn]) {
			sc->scn_margin[scn] = m;
			sc->scn_binding[scn] = b;
		}
		sc->scn_pass[scn] &= r.pass;
	}
	if (fp)
		fclose(fp);
	for (int i = 0; i < nvalid * nseeds; i++)
		if (!seen[i]) { /* no row: the run failed (its error.txt says why) */
			struct cal_score *sc = &out[V[i / nseeds]];
			sc->scn_margin[scn] = CAL_MARGIN_UNFINISHED;
			sc->scn_binding[scn] = CAL_RUN_FAILED;
			sc->crit[CAL_RUN_FAILED] = CAL_MARGIN_UNFINISHED;
			sc->scn_pass[scn] = 0;
		}
	free(seen);
	free(line);
	free(hline);
	return 0;
}

static int eval_points(void *ctxp, int n, const int (*idx)[CAL_MAX_KEYS], const int *varying,
		       struct cal_score *out, char *err, size_t errlen)
{
	struct cal_ctx *c = ctxp;
	const struct calibrate_opts *o = c->o;
	int k = -1;
	for (int j = 0; j < o->nkeys; j++)
		if (varying[j])
			k = j;
	int V[CAL_MAX_VALUES], nvalid = 0;
	for (int i = 0; i < n; i++) {
		struct cal_score *sc = &out[i];
		memset(sc, 0, sizeof(*sc));
		sc->valid = 1;
		for (int cr = 0; cr < CAL_N_CRITERIA; cr++)
			sc->crit[cr] = INFINITY;
		for (int s = 0; s < c->nscn; s++) {
			sc->scn_pass[s] = 1;
			sc->scn_margin[s] = INFINITY;
		}
		char a[CAL_MAX_KEYS][96];
		cal_point_assigns(o, idx[i], a);
		for (int s = 0; s < c->nscn && sc->valid; s++) {
			struct scn_error e;
			struct scenario *scn = cal_load_with(o, c->files[s], a, o->nkeys, &e);
			if (!scn) {
				sc->valid = 0;
				const char *m = e.msg;
				if (!strncmp(m, "--set: ", 7)) /* the point's own values */
					m += 7;
				snprintf(sc->why, sizeof(sc->why), "%.255s", m);
			} else {
				scenario_close(scn);
			}
		}
		if (sc->valid)
			V[nvalid++] = i;
	}
	if (!nvalid)
		return 0;
	/* the sweep: the key of the line as an axis (its valid values), the
	 * seeds as another, every other key as a --set */
	int nsets = 0;
	const char **sets = malloc(sizeof(*sets) * (size_t)(o->nsets + CAL_MAX_KEYS));
	char fixed[CAL_MAX_KEYS][96];
	if (!sets) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int i = 0; i < o->nsets; i++)
		sets[nsets++] = o->sets[i];
	cal_point_assigns(o, idx[V[0]], fixed);
	for (int j = 0; j < o->nkeys; j++)
		if (j != k || nvalid == 1)
			sets[nsets++] = fixed[j];
	struct sweep_opts so = { .sets = sets, .nsets = nsets, .jobs = o->jobs,
				 .interrupt = o->interrupt, .switch_config = o->switch_config,
				 .nic_config = o->nic_config };
	if (k >= 0 && nvalid > 1) {
		so.axes[so.naxes].key = o->keys[k].key;
		for (int i = 0; i < nvalid; i++)
			so.axes[so.naxes].values[i] = o->keys[k].text[idx[V[i]][k]];
		so.axes[so.naxes++].n = nvalid;
	}
	int nseeds = o->seeds > 1 ? o->seeds : 1;
	char seedtext[CAL_MAX_SEEDS][12];
	if (nseeds > 1) {
		so.axes[so.naxes].key = "sim.seed";
		for (int i = 0; i < nseeds; i++) {
			snprintf(seedtext[i], sizeof(seedtext[i]), "%d", i + 1);
			so.axes[so.naxes].values[i] = seedtext[i];
		}
		so.axes[so.naxes++].n = nseeds;
	}
	int rc = 0;
	c->batch++;
	for (int s = 0; s < c->nscn && rc == 0; s++) {
		char dir[4200];
		snprintf(dir, sizeof(dir), "%s/runs/b%03d-%s", o->out_dir, c->batch, c->labels[s]);
		so.scenario = c->files[s];
		so.out_dir = dir;
		int failed, unjudged;
		char why[2048] = "";
		int st = sweep_run(&so, &failed, &unjudged, why, sizeof(why));
		if (st == RUN_INTERRUPTED) {
			c->interrupted = 1;
			snprintf(err, errlen, "interrupted");
			rc = -1;
		} else if (st == RUN_EIO) {
			snprintf(err, errlen, "%s: %s", dir, why);
			rc = -1;
		} else {
			rc = read_sweep(c, s, dir, V, nvalid, nseeds, out, err, errlen);
		}
	}
	free(sets);
	for (int i = 0; i < nvalid && rc == 0; i++) {
		struct cal_score *sc = &out[V[i]];
		sc->runs = (long)c->nscn * nseeds;
		sc->pass = 1;
		sc->margin = INFINITY;
		for (int s = 0; s < c->nscn; s++) {
			sc->pass &= sc->scn_pass[s];
			if (sc->scn_margin[s] < sc->margin) {
				sc->margin = sc->scn_margin[s];
				sc->binding = sc->scn_binding[s];
				sc->binding_scn = s;
			}
		}
	}
	return rc;
}

/* ---- the command ---- */

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

/* the figure's plane: the margin over keys a (x) and b (y), the others at
 * the best, a line of b per value of a; 0, or 1 on an error (err) */
static int run_plane(const struct cal_search *s, struct cal_outcome *out, int a, int b,
		     char *err, size_t errlen)
{
	const struct cal_key *keys = s->keys;
	int rc = 0;
	if (s->log)
		fprintf(s->log, "calibrate: the margin over %s and %s\n", keys[a].key, keys[b].key);
	for (int i = 0; i < keys[a].n && rc == 0; i++) {
		int base[CAL_MAX_KEYS], dummy = out->best;
		memcpy(base, out->points[out->best].idx, sizeof(base));
		base[a] = i;
		rc = cal_search_line(s, out, base, b, CAL_MAX_ROUNDS + 1, &dummy, err, errlen) < 0;
	}
	return rc;
}

/* the files (rank 0 alone), then the report and the best's settings; the
 * command's status */
static int finish(const struct cal_ctx *c, struct cal_outcome *out, long search_runs, int a,
		  int b, int rc, char (*sets_out)[96], char *err, size_t errlen)
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
			cal_print_result(c, out, search_runs, out->runs - search_runs, o->out);
		for (int k = 0; sets_out && k < o->nkeys; k++)
			snprintf(sets_out[k], sizeof(sets_out[k]), "%s=%s", o->keys[k].key,
				 o->keys[k].text[out->points[out->best].idx[k]]);
		if (!out->points[out->best].score.pass)
			st = CALIBRATE_NONE_PASSES;
	}
	return st;
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
	c->files[c->nscn++] = o->scenario;
	for (int i = 0; i < o->nstress && c->nscn < CAL_MAX_SCENARIOS; i++)
		c->files[c->nscn++] = o->stress[i];
	int start[CAL_MAX_KEYS] = {0};
	if (load_scenarios(c, oc, start, err, errlen) || check_start(c, start, err, errlen)) {
		free(c);
		free(oc);
		return RUN_EIO;
	}
	o = oc;
	struct cal_search s = { .keys = o->keys, .nkeys = o->nkeys, .eval = eval_points,
				.ctx = c, .log = o->log };
	memcpy(s.start, start, sizeof(start));
	struct cal_outcome out;
	int rc = calibrate_search(&s, &out, err, errlen);
	long search_runs = out.runs;
	/* the plane of the two most influential keys, the others at the best */
	int a = -1, b = -1;
	for (int k = 0; k < o->nkeys; k++) {
		if (a < 0 || out.influence[k] > out.influence[a]) {
			b = a;
			a = k;
		} else if (b < 0 || out.influence[k] > out.influence[b]) {
			b = k;
		}
	}
	if (rc == 0 && out.npoints && b >= 0 && !o->no_plane)
		rc = run_plane(&s, &out, a, b, err, errlen);
	int st = finish(c, &out, search_runs, a, b, rc, sets_out, err, errlen);
	calibrate_outcome_free(&out);
	free(c);
	free(oc);
	return st;
}
