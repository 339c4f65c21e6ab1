/*
 * calibrate_report.c - what `dcqcn-sim calibrate` writes (see
 * calibrate.h): calibrate.csv (every point), plane.csv (the margin over two
 * keys), recommended.ini, export/ (the recommendation for switches and
 * NICs), and the recommendation it prints.
 */
#include "sim/sweeps/calibrate.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "models/base/files.h"
#include "models/scenario/configs/config.h"
#include "models/scenario/scenario.h"
#include "sim/sweeps/internal.h"

static void put_margin(FILE *fp, const struct cal_score *sc, double m)
{
	if (sc->valid && isfinite(m))
		fprintf(fp, "%.4f", m);
}

/* a CSV field, quoted when it needs to be */
static void put_field(FILE *fp, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s == '\n' ? ' ' : *s, fp);
	}
	fputc('"', fp);
}

static int write_points(const struct cal_ctx *c, const struct cal_outcome *out, char *err,
			size_t errlen)
{
	const struct calibrate_opts *o = c->o;
	char path[4200];
	snprintf(path, sizeof(path), "%s/calibrate.csv", o->out_dir);
	FILE *fp = fopen(path, "w");
	if (!fp) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	fputs("point,round", fp);
	for (int k = 0; k < o->nkeys; k++)
		fprintf(fp, ",%s", o->keys[k].key);
	fputs(",pass,margin,binding,binding_scenario,runs", fp);
	for (int s = 0; s < c->nscn; s++)
		fprintf(fp, ",%s_pass,%s_margin,%s_binding", c->labels[s], c->labels[s],
			c->labels[s]);
	fputs(",note\n", fp);
	for (int i = 0; i < out->npoints; i++) {
		const struct cal_point *p = &out->points[i];
		const struct cal_score *sc = &p->score;
		fprintf(fp, "%d,", i);
		if (p->round > CAL_MAX_ROUNDS)
			fputs(cal_phase_names[p->round], fp);
		else
			fprintf(fp, "%d", p->round);
		for (int k = 0; k < o->nkeys; k++)
			fprintf(fp, ",%s", o->keys[k].text[p->idx[k]]);
		fprintf(fp, ",%d,", sc->valid && sc->pass);
		put_margin(fp, sc, sc->margin);
		fprintf(fp, ",%s,%s,%ld", sc->valid ? cal_criterion_names[sc->binding] : "invalid",
			sc->valid ? c->labels[sc->binding_scn] : "", sc->runs);
		for (int s = 0; s < c->nscn; s++) {
			fprintf(fp, ",%d,", sc->valid && sc->scn_pass[s]);
			put_margin(fp, sc, sc->scn_margin[s]);
			fprintf(fp, ",%s", sc->valid ? cal_criterion_names[sc->scn_binding[s]] : "");
		}
		fputc(',', fp);
		put_field(fp, sc->valid ? (i == out->best ? "recommended"
					   : i == out->runner_up ? "runner-up"
								 : "")
					: sc->why);
		fputc('\n', fp);
	}
	if (file_close(fp)) {
		snprintf(err, errlen, "%s: write failed", path);
		return -1;
	}
	return 0;
}

/* plane.csv: the margin over keys a (x) and b (y), the others at the best;
 * a row per pair of values, a's outer, in grid order */
static int write_plane(const struct cal_ctx *c, const struct cal_outcome *out, int a, int b,
		       char *err, size_t errlen)
{
	const struct calibrate_opts *o = c->o;
	char path[4200];
	snprintf(path, sizeof(path), "%s/plane.csv", o->out_dir);
	FILE *fp = fopen(path, "w");
	if (!fp) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	const struct cal_key *ka = &o->keys[a], *kb = &o->keys[b];
	fputs("key_a,a,a_base,key_b,b,b_base,pass,margin,binding,recommended\n", fp);
	for (int i = 0; i < ka->n; i++)
		for (int j = 0; j < kb->n; j++) {
			int at[CAL_MAX_KEYS];
			memcpy(at, out->points[out->best].idx, sizeof(at));
			at[a] = i;
			at[b] = j;
			int p = cal_find_point(out, at, o->nkeys);
			const struct cal_score *sc = p >= 0 ? &out->points[p].score : NULL;
			fprintf(fp, "%s,%s,%lld,%s,%s,%lld,", ka->key, ka->text[i],
				(long long)ka->base[i], kb->key, kb->text[j], (long long)kb->base[j]);
			if (sc && sc->valid) {
				fprintf(fp, "%d,", sc->pass);
				put_margin(fp, sc, sc->margin);
				fprintf(fp, ",%s", cal_criterion_names[sc->binding]);
			} else {
				fprintf(fp, "0,,%s", sc ? "invalid" : "not run");
			}
			fprintf(fp, ",%d\n", p == out->best);
		}
	if (file_close(fp)) {
		snprintf(err, errlen, "%s: write failed", path);
		return -1;
	}
	return 0;
}

static int write_recommended(const struct cal_ctx *c, const struct cal_outcome *out,
			     char *err, size_t errlen)
{
	const struct calibrate_opts *o = c->o;
	const struct cal_point *p = &out->points[out->best];
	char path[4200];
	snprintf(path, sizeof(path), "%s/recommended.ini", o->out_dir);
	FILE *fp = fopen(path, "w");
	if (!fp) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	fprintf(fp, "# dcqcn-sim calibrate: the recommended settings (%s, margin %+.1f %%, "
		"binding: %s on %s)\n", p->score.pass ? "pass" : "NO SETTING PASSES",
		100 * p->score.margin, cal_criterion_names[p->score.binding],
		c->labels[p->score.binding_scn]);
	if (p->score.pass && out->neighbours)
		fprintf(fp, "# %d of its %d one-step neighbours pass\n", out->neighbours_pass,
			out->neighbours);
	int done[CAL_MAX_KEYS] = {0};
	for (int k = 0; k < o->nkeys; k++) {
		if (done[k])
			continue;
		const char *dot = strrchr(o->keys[k].key, '.');
		int sl = (int)(dot - o->keys[k].key);
		fprintf(fp, "\n[%.*s]\n", sl, o->keys[k].key);
		for (int j = k; j < o->nkeys; j++)
			if (!done[j] && !strncmp(o->keys[j].key, o->keys[k].key, (size_t)sl + 1)) {
				fprintf(fp, "%s = %s\n", o->keys[j].key + sl + 1,
					o->keys[j].text[p->idx[j]]);
				done[j] = 1;
			}
	}
	if (file_close(fp)) {
		snprintf(err, errlen, "%s: write failed", path);
		return -1;
	}
	return 0;
}

/* DIR/export/: the recommendation for switches and NICs (config.h) */
static int export_best(const struct cal_ctx *c, const struct cal_outcome *out, char *err,
		       size_t errlen)
{
	const struct calibrate_opts *o = c->o;
	char a[CAL_MAX_KEYS][96], dir[4200];
	cal_point_assigns(o, out->points[out->best].idx, a);
	struct scn_error e;
	struct scenario *s = cal_load_with(o, o->scenario, a, o->nkeys, &e);
	if (!s) {
		snprintf(err, errlen, "%s", e.msg);
		return -1;
	}
	snprintf(dir, sizeof(dir), "%s/export", o->out_dir);
	int rc = scenario_export(s, dir, NULL, err, errlen);
	scenario_close(s);
	return rc;
}

int cal_write_files(const struct cal_ctx *c, const struct cal_outcome *out, int a, int b,
		    char *err, size_t errlen)
{
	const struct calibrate_opts *o = c->o;
	if (write_points(c, out, err, errlen) || write_recommended(c, out, err, errlen) ||
	    (b >= 0 && !o->no_plane && write_plane(c, out, a, b, err, errlen)) ||
	    export_best(c, out, err, errlen))
		return -1;
	return 0;
}

static void print_point(const struct cal_ctx *c, const struct cal_point *p, FILE *f)
{
	for (int k = 0; k < c->o->nkeys; k++)
		fprintf(f, "%s%s = %s", k ? ", " : "", c->o->keys[k].key,
			c->o->keys[k].text[p->idx[k]]);
}

void cal_print_result(const struct cal_ctx *c, const struct cal_outcome *out, long search_runs,
		      long plane_runs, FILE *f)
{
	const struct calibrate_opts *o = c->o;
	const struct cal_point *b = &out->points[out->best];
	double grid = calibrate_grid_points(o->keys, o->nkeys) * c->nscn *
		      (o->seeds > 1 ? o->seeds : 1);
	fprintf(f, "calibrate: %d scenario%s x %d seed%s, %d key%s: %ld runs for the search "
		"(%d points, %d round%s), %ld for the figure's plane; a full grid of the same "
		"values is %.0f runs\n", c->nscn, c->nscn == 1 ? "" : "s",
		o->seeds > 1 ? o->seeds : 1, o->seeds > 1 ? "s" : "", o->nkeys,
		o->nkeys == 1 ? "" : "s", search_runs, out->npoints, out->rounds,
		out->rounds == 1 ? "" : "s", plane_runs, grid);
	if (b->score.pass)
		fprintf(f, "recommended (passes everywhere; margin %+.1f %%, binding: %s on %s):\n",
			100 * b->score.margin, cal_criterion_names[b->score.binding],
			c->labels[b->score.binding_scn]);
	else
		fprintf(f, "NO SETTING PASSES; the closest (margin %+.1f %%, binding: %s on %s):\n",
			100 * b->score.margin, cal_criterion_names[b->score.binding],
			c->labels[b->score.binding_scn]);
	for (int k = 0; k < o->nkeys; k++)
		fprintf(f, "  %-28s = %s\n", o->keys[k].key, o->keys[k].text[b->idx[k]]);
	if (b->score.pass && out->neighbours) {
		const struct cal_point *w = &out->points[out->weakest];
		int k = 0;
		while (k < o->nkeys - 1 && w->idx[k] == b->idx[k])
			k++;
		fprintf(f, "%s: %d of its %d one-step neighbours pass; the weakest, %s = %s, %s "
			"(margin %+.1f %%)\n", out->neighbours_pass == out->neighbours ? "robust"
										: "FRAGILE",
			out->neighbours_pass, out->neighbours, o->keys[k].key,
			o->keys[k].text[w->idx[k]], w->score.pass ? "passes" : "fails",
			100 * w->score.margin);
	}
	fprintf(f, "per scenario:\n");
	for (int s = 0; s < c->nscn; s++)
		fprintf(f, "  %-20s %s  margin %+7.1f %%  binding %s\n", c->labels[s],
			b->score.scn_pass[s] ? "pass" : "FAIL", 100 * b->score.scn_margin[s],
			cal_criterion_names[b->score.scn_binding[s]]);
	const struct cal_point *own = &out->points[0];
	if (c->own_start && own->score.valid)
		fprintf(f, "the scenario's own settings: %s, margin %+.1f %% (binding: %s on %s)\n",
			own->score.pass ? "pass" : "FAIL", 100 * own->score.margin,
			cal_criterion_names[own->score.binding], c->labels[own->score.binding_scn]);
	if (out->runner_up >= 0) {
		const struct cal_point *r = &out->points[out->runner_up];
		fprintf(f, "runner-up (%s, margin %+.1f %%): ", r->score.pass ? "pass" : "fails",
			100 * r->score.margin);
		print_point(c, r, f);
		fputc('\n', f);
	}
	fprintf(f, "run it: dcqcn-sim run%s%s", o->scenario ? " " : "",
		o->scenario ? o->scenario : "");
	for (int i = 0; i < o->nsets; i++)
		fprintf(f, " --set %s", o->sets[i]);
	for (int k = 0; k < o->nkeys; k++)
		fprintf(f, " --set %s=%s", o->keys[k].key, o->keys[k].text[b->idx[k]]);
	fprintf(f, "\nresults: %s/calibrate.csv (every point), recommended.ini, export/ (SONiC "
		"config_db.json, mlx5 cc_params, NCCL environment)\n", o->out_dir);
}
