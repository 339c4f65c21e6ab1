/*
 * calibrate_eval.c - the evaluator of `dcqcn-sim calibrate` (see
 * calibrate.h): a batch of points runs as one zipped sweep per scenario
 * (run r: point r / seeds on seed r % seeds), the keys that differ within
 * the batch as axes, the others as --set; each run's figures are read back
 * from sweep.csv into the point's detail, and its margins computed.
 *
 * Choices:
 * - The seeds of a scenario are its own sim.seed + 0..N-1, so the first
 *   seed is the one a plain run of the scenario uses (the report's `run
 *   it:` line reproduces it).
 * - A point's risk warnings (scenario_warnings) come from loading it, which
 *   every point does before any run (the loader rejects ecn.kmax <= kmin).
 * - On a terminal a line updates as each run ends: run N of about M and
 *   the time left at the pace so far.
 */
#include "sim/sweeps/calibrate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* the value of column col of row f as a number; 0 when absent or empty */
static int64_t int_at(char **f, int n, int col)
{
	return (int64_t)num_at(f, n, col);
}

enum { C_POINT, C_PASS, C_JUDGED, C_BUSBW, C_BMIN, C_BMEAN, C_ECN, C_PRATE, C_RETRANS,
       C_LOSSLESS, C_LOSSY, C_PFCWD, C_JOBS, C_DONE, C_FLOWS, C_PFRAMES, C_PAUSED, C_QUEUE,
       C_FCT, C_NCOLS };

/* one sweep.csv row into r */
static void read_row(char **f, int n, const int *col, struct cal_run *r)
{
	memset(r, 0, sizeof(*r));
	r->ran = 1;
	const char *pass = col[C_PASS] >= 0 && col[C_PASS] < n ? f[col[C_PASS]] : "";
	r->judged = pass[0] == '0' || pass[0] == '1';
	r->pass = pass[0] == '1';
	r->has_busbw = num_at(f, n, col[C_JUDGED]) > 0;
	r->busbw_pct = num_at(f, n, col[C_BUSBW]);
	r->busbw_min_pct = num_at(f, n, col[C_BMIN]);
	r->busbw_mean_pct = num_at(f, n, col[C_BMEAN]);
	r->ecn_mark_pct = num_at(f, n, col[C_ECN]);
	r->pause_frame_rate = num_at(f, n, col[C_PRATE]);
	r->retransmitted_pct = num_at(f, n, col[C_RETRANS]);
	r->drops_lossless = int_at(f, n, col[C_LOSSLESS]);
	r->drops = r->drops_lossless + int_at(f, n, col[C_LOSSY]) + int_at(f, n, col[C_PFCWD]);
	r->jobs_failed = (int)num_at(f, n, col[C_JOBS]);
	double total = num_at(f, n, col[C_FLOWS]);
	r->progress = total > 0 ? num_at(f, n, col[C_DONE]) / total : 0;
	r->pause_frames = int_at(f, n, col[C_PFRAMES]);
	r->max_paused_fraction = num_at(f, n, col[C_PAUSED]);
	r->max_queue_bytes = int_at(f, n, col[C_QUEUE]);
	r->fct_p99_us = num_at(f, n, col[C_FCT]);
}

/* the runs of sweep directory dir (run r: point P[r / nseeds], seed r %
 * nseeds) into the points' detail of scenario scn; a run without a row
 * (it failed: its error.txt says why) keeps ran = 0.  0, or -1 with err */
static int read_sweep(struct cal_ctx *c, int scn, const char *dir, const int *P, int np,
		      struct cal_score *out, char *err, size_t errlen)
{
	static const char *const names[C_NCOLS] = {
		"point", "criteria_pass", "judged_iterations", NULL, "busbw_judged_min_pct",
		"busbw_judged_mean_pct", "ecn_mark_pct", "pause_frame_rate", "retransmitted_pct",
		"drops_lossless", "drops_lossy", "drops_pfcwd", "jobs_failed", "flows_completed",
		"flows_total", "pause_frames", "max_paused_fraction", "max_queue_bytes",
		"fct_p99_us",
	};
	int nseeds = c->nseeds;
	char path[4400];
	snprintf(path, sizeof(path), "%s/sweep.csv", dir);
	char *line = malloc(LINE_BYTES), *hline = malloc(LINE_BYTES);
	if (!line || !hline) {
		free(line);
		free(hline);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	FILE *fp = fopen(path, "r");
	char *h[MAX_COLS], *f[MAX_COLS];
	int nh = 0, col[C_NCOLS];
	if (fp && fgets(hline, LINE_BYTES, fp)) {
		hline[strcspn(hline, "\n")] = '\0';
		nh = output_split_csv(hline, h, MAX_COLS);
	}
	for (int i = 0; i < C_NCOLS; i++)
		col[i] = col_of(h, nh, i == C_BUSBW ? (c->busbw_mean[scn] ? names[C_BMEAN]
									  : names[C_BMIN])
						    : names[i]);
	while (fp && nh && fgets(line, LINE_BYTES, fp)) {
		line[strcspn(line, "\n")] = '\0';
		int n = output_split_csv(line, f, MAX_COLS);
		long p = col[C_POINT] >= 0 && col[C_POINT] < n ? strtol(f[col[C_POINT]], NULL, 10)
							       : -1;
		if (p < 0 || p >= (long)np * nseeds)
			continue;
		struct cal_score *sc = &out[P[p / nseeds]];
		read_row(f, n, col, &sc->detail[scn * nseeds + p % nseeds]);
	}
	if (fp)
		fclose(fp);
	free(line);
	free(hline);
	return 0;
}

/* the risk warnings' keys, once each */
struct warned {
	char keys[200];
};

static void note_warning(void *ctx, const char *key, const char *text)
{
	struct warned *w = ctx;
	(void)text;
	size_t n = strlen(w->keys), kl = strlen(key);
	for (const char *p = strstr(w->keys, key); p; p = strstr(p + 1, key))
		if ((p == w->keys || p[-1] == ' ') && (p[kl] == ',' || !p[kl]))
			return;
	if (n + kl + 3 < sizeof(w->keys))
		snprintf(w->keys + n, sizeof(w->keys) - n, "%s%s", n ? ", " : "", key);
}

/* point idx loads in every scenario (else sc->valid = 0 and why); its
 * warnings: the scenario that raises the most */
static void load_point(struct cal_ctx *c, const int *idx, struct cal_score *sc)
{
	const struct calibrate_opts *o = c->o;
	char a[CAL_MAX_KEYS][96];
	cal_point_assigns(o, idx, a);
	sc->valid = 1;
	for (int s = 0; s < c->nscn && sc->valid; s++) {
		struct scn_error e;
		struct scenario *scn = cal_load_with(o, c->files[s], a, o->nkeys, &e);
		if (!scn) {
			sc->valid = 0;
			const char *m = e.msg;
			if (!strncmp(m, "--set: ", 7)) /* the point's own values */
				m += 7;
			snprintf(sc->why, sizeof(sc->why), "%.255s", m);
			continue;
		}
		struct warned w = { "" };
		int nw = (int)scenario_warnings(scn, note_warning, &w);
		if (nw > sc->warnings) {
			sc->warnings = nw;
			snprintf(sc->warned, sizeof(sc->warned), "%s", w.keys);
		}
		scenario_close(scn);
	}
}

/* a run ended: on a terminal, run N of about M and the time left */
static void run_ended(void *ctxp)
{
	struct cal_ctx *c = ctxp;
	c->runs_done++;
	if (!c->tty || !c->o->log)
		return;
	if (c->runs_expected < c->runs_done)
		c->runs_expected = c->runs_done;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	double el = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec - c->t0;
	double left = el / (double)c->runs_done * (double)(c->runs_expected - c->runs_done);
	fprintf(c->o->log, "\rcalibrate: run %ld of about %ld (%s), about %.0fm%02.0fs left\033[K",
		c->runs_done, c->runs_expected, c->phase ? c->phase : "", floor(left / 60),
		fmod(left, 60));
	fflush(c->o->log);
}

/* the points P[0..np) (valid, at most SWEEP_MAX_VALUES runs) of scenario
 * scn as one zipped sweep into runs/bNNN-LABEL; 0, or -1 with err */
static int sweep_batch(struct cal_ctx *c, int scn, const int (*idx)[CAL_MAX_KEYS], const int *P,
		       int np, struct cal_score *out, char *err, size_t errlen)
{
	const struct calibrate_opts *o = c->o;
	int nseeds = c->nseeds, nruns = np * nseeds;
	const char **sets = malloc(sizeof(*sets) * (size_t)(o->nsets + CAL_MAX_KEYS));
	char(*seedtext)[24] = malloc(sizeof(*seedtext) * (size_t)nruns);
	char fixed[CAL_MAX_KEYS][96];
	if (!sets || !seedtext) {
		free(sets);
		free(seedtext);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	struct sweep_opts so = { .nsets = 0, .jobs = o->jobs, .interrupt = o->interrupt,
				 .switch_config = o->switch_config, .nic_config = o->nic_config,
				 .zip = 1, .ran = run_ended, .ran_ctx = c };
	for (int i = 0; i < o->nsets; i++)
		sets[so.nsets++] = o->sets[i];
	cal_point_assigns(o, idx[P[0]], fixed);
	for (int k = 0; k < o->nkeys; k++) {
		int varies = 0;
		for (int i = 1; i < np && !varies; i++)
			varies = idx[P[i]][k] != idx[P[0]][k];
		if (!varies) {
			sets[so.nsets++] = fixed[k];
			continue;
		}
		struct sweep_axis *ax = &so.axes[so.naxes++];
		ax->key = o->keys[k].key;
		for (int r = 0; r < nruns; r++)
			ax->values[r] = o->keys[k].text[idx[P[r / nseeds]][k]];
		ax->n = nruns;
	}
	if (nseeds > 1) {
		struct sweep_axis *ax = &so.axes[so.naxes++];
		ax->key = "sim.seed";
		for (int r = 0; r < nruns; r++) {
			snprintf(seedtext[r], sizeof(seedtext[r]), "%lld",
				 (long long)c->seed0[scn] + r % nseeds);
			ax->values[r] = seedtext[r];
		}
		ax->n = nruns;
	}
	so.sets = sets;
	char dir[4200];
	snprintf(dir, sizeof(dir), "%s/runs/b%03d-%s", o->out_dir, c->batch, c->labels[scn]);
	so.scenario = c->files[scn];
	so.out_dir = dir;
	int failed, unjudged, rc = 0;
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
		rc = read_sweep(c, scn, dir, P, np, out, err, errlen);
	}
	free(sets);
	free(seedtext);
	return rc;
}

/* a point's margins from its runs' detail */
static void score_point(const struct cal_ctx *c, struct cal_score *sc)
{
	sc->runs = (long)c->nscn * c->nseeds;
	sc->pass = 1;
	sc->margin = INFINITY;
	sc->progress = 1;
	for (int cr = 0; cr < CAL_N_CRITERIA; cr++)
		sc->crit[cr] = INFINITY;
	for (int s = 0; s < c->nscn; s++) {
		sc->scn_pass[s] = 1;
		sc->scn_margin[s] = INFINITY;
		for (int j = 0; j < c->nseeds; j++) {
			const struct cal_run *r = &sc->detail[s * c->nseeds + j];
			enum cal_criterion b;
			double each[CAL_N_CRITERIA];
			double m = calibrate_margin(r, &c->limits[s], &b, each);
			for (int k = 1; k < CAL_N_CRITERIA; k++)
				sc->crit[k] = fmin(sc->crit[k], each[k]);
			if (m < sc->scn_margin[s]) {
				sc->scn_margin[s] = m;
				sc->scn_binding[s] = b;
			}
			sc->scn_pass[s] &= r->ran && r->pass;
			if (!r->ran || !r->judged || r->jobs_failed)
				sc->progress = fmin(sc->progress, r->ran ? r->progress : 0);
		}
		sc->pass &= sc->scn_pass[s];
		if (sc->scn_margin[s] < sc->margin) {
			sc->margin = sc->scn_margin[s];
			sc->binding = sc->scn_binding[s];
			sc->binding_scn = s;
		}
	}
}

int cal_eval_points(void *ctxp, int n, const int (*idx)[CAL_MAX_KEYS], struct cal_score *out,
		    char *err, size_t errlen)
{
	struct cal_ctx *c = ctxp;
	int *V = malloc(sizeof(int) * (size_t)n), nvalid = 0, rc = 0;
	if (!V) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int i = 0; i < n && rc == 0; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		load_point(c, idx[i], &out[i]);
		if (!out[i].valid)
			continue;
		V[nvalid++] = i;
		out[i].ndetail = c->nscn * c->nseeds;
		if (!(out[i].detail = calloc((size_t)out[i].ndetail, sizeof(struct cal_run)))) {
			snprintf(err, errlen, "out of memory");
			rc = -1;
		}
	}
	int per = SWEEP_MAX_VALUES / c->nseeds; /* points per sweep */
	for (int first = 0; first < nvalid && rc == 0; first += per) {
		int np = nvalid - first < per ? nvalid - first : per;
		c->batch++;
		for (int s = 0; s < c->nscn && rc == 0; s++)
			rc = sweep_batch(c, s, idx, V + first, np, out, err, errlen);
	}
	if (c->tty && c->o->log && nvalid) {
		fputs("\r\033[K", c->o->log); /* the next line starts clean */
		fflush(c->o->log);
	}
	for (int i = 0; i < nvalid && rc == 0; i++)
		score_point(c, &out[V[i]]);
	free(V);
	return rc;
}
