/*
 * calibrate_report.c - what `dcqcn-sim calibrate` writes (see
 * calibrate.h): calibrate.csv (every point and its figures), plane.csv (the
 * margin over two keys), recommended.ini and export/ (the recommendation
 * for switches and NICs, only when it may be deployed unless asked), and
 * the report it prints (calibrate_table.c: the side-by-side table).  Each
 * file is written aside and renamed (files.h): a full disk leaves the last
 * whole one, never a partial one.
 */
#include "sim/sweeps/calibrate.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>

#include "models/base/files.h"
#include "models/scenario/configs/config.h"
#include "models/scenario/scenario.h"
#include "sim/sweeps/internal.h"

/* a margin; empty for an unfinished or failed run (the binding says so) */
static void put_margin(FILE *fp, const struct cal_score *sc, double m)
{
	if (sc->valid && isfinite(m) && !CAL_UNFINISHED_MARGIN(m))
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

/* DIR/name (a result of the calibration: path, written aside as tmp); NULL
 * with err set */
struct result_file {
	char path[4200], tmp[4240];
};

static FILE *result_open(const struct cal_ctx *c, const char *name, struct result_file *rf,
			 char *err, size_t errlen)
{
	snprintf(rf->path, sizeof(rf->path), "%s/%s", c->o->out_dir, name);
	FILE *fp = file_open_aside(rf->path, rf->tmp, sizeof(rf->tmp));
	if (!fp)
		snprintf(err, errlen, "%s: %s", rf->path, strerror(errno));
	return fp;
}

/* the result whole, renamed into place; 0, or -1 with err set */
static int result_commit(FILE *fp, const struct result_file *rf, char *err, size_t errlen)
{
	if (file_commit(fp, rf->tmp, rf->path) == 0)
		return 0;
	snprintf(err, errlen, "%s: cannot write it: %s", rf->path, strerror(errno));
	return -1;
}

static int write_points(const struct cal_ctx *c, const struct cal_outcome *out, char *err,
			size_t errlen)
{
	const struct calibrate_opts *o = c->o;
	struct result_file rf;
	FILE *fp = result_open(c, "calibrate.csv", &rf, err, errlen);
	if (!fp)
		return -1;
	fputs("point,phase", fp);
	for (int k = 0; k < o->nkeys; k++)
		fprintf(fp, ",%s", o->keys[k].key);
	fputs(",pass,margin,binding,binding_scenario,runs,finished_pct,warnings,warned,"
	      "busbw_judged_min_pct,busbw_judged_mean_pct,ecn_mark_pct,pause_frames,"
	      "pause_frame_rate,max_paused_fraction,max_queue_bytes,drops,retransmitted_pct,"
	      "fct_p99_us", fp);
	for (int s = 0; s < c->nscn; s++)
		fprintf(fp, ",%s_pass,%s_margin,%s_binding", c->labels[s], c->labels[s],
			c->labels[s]);
	fputs(",note\n", fp);
	for (int i = 0; i < out->npoints; i++) {
		const struct cal_point *p = &out->points[i];
		const struct cal_score *sc = &p->score;
		fprintf(fp, "%d,%s", i, cal_phase_names[p->phase]);
		for (int k = 0; k < o->nkeys; k++)
			fprintf(fp, ",%s", o->keys[k].text[p->idx[k]]);
		fprintf(fp, ",%d,", sc->valid && sc->pass);
		put_margin(fp, sc, sc->margin);
		fprintf(fp, ",%s,%s,%ld,", sc->valid ? cal_criterion_names[sc->binding] : "invalid",
			sc->valid ? c->labels[sc->binding_scn] : "", sc->runs);
		if (sc->valid) {
			struct cal_figures f;
			cal_figures(c, sc, -1, -1, &f);
			fprintf(fp, "%.1f,%d,", 100 * sc->progress, sc->warnings);
			put_field(fp, sc->warned);
			cal_put_figures(fp, &f);
		} else {
			fputs(",,,,,,,,,,,,", fp);
		}
		for (int s = 0; s < c->nscn; s++) {
			fprintf(fp, ",%d,", sc->valid && sc->scn_pass[s]);
			put_margin(fp, sc, sc->scn_margin[s]);
			fprintf(fp, ",%s", sc->valid ? cal_criterion_names[sc->scn_binding[s]] : "");
		}
		fputc(',', fp);
		put_field(fp, sc->valid ? (i == out->best ? "recommended"
					   : i == out->runner_up ? "runner-up"
					   : i == 0 && out->points[0].phase == CAL_START ? "own"
											 : "")
					: sc->why);
		fputc('\n', fp);
	}
	return result_commit(fp, &rf, err, errlen);
}

/* plane.csv: the margin over keys a (x) and b (y), the others at the
 * search's best;
 * a row per pair of values, a's outer, in grid order */
static int write_plane(const struct cal_ctx *c, const struct cal_outcome *out, int a, int b,
		       char *err, size_t errlen)
{
	const struct calibrate_opts *o = c->o;
	struct result_file rf;
	FILE *fp = result_open(c, "plane.csv", &rf, err, errlen);
	if (!fp)
		return -1;
	const struct cal_key *ka = &o->keys[a], *kb = &o->keys[b];
	fputs("key_a,a,a_base,key_b,b,b_base,pass,margin,binding,recommended\n", fp);
	for (int i = 0; i < ka->n; i++)
		for (int j = 0; j < kb->n; j++) {
			int at[CAL_MAX_KEYS];
			memcpy(at, c->plane_base, sizeof(at));
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
	return result_commit(fp, &rf, err, errlen);
}

void cal_verdict(const struct cal_ctx *c, const struct cal_outcome *out, char *buf, size_t len)
{
	const struct cal_score *b = &out->points[out->best].score;
	char m[160];
	cal_format_margin(b, b->margin, m, sizeof(m));
	if (!out->checked)
		snprintf(buf, len, "INTERRUPTED: the search stopped before its neighbour check; "
			 "the best point so far %s (%s, binding: %s on %s)",
			 b->pass ? "passes" : "does not pass", m, cal_criterion_names[b->binding],
			 c->labels[b->binding_scn]);
	else if (!b->pass)
		snprintf(buf, len, "DOES NOT PASS: no setting passes; this is the closest (%s, "
			 "binding: %s on %s)", m, cal_criterion_names[b->binding],
			 c->labels[b->binding_scn]);
	else
		buf[0] = '\0';
}

static int write_recommended(const struct cal_ctx *c, const struct cal_outcome *out,
			     const char *verdict, char *err, size_t errlen)
{
	const struct calibrate_opts *o = c->o;
	const struct cal_point *p = &out->points[out->best];
	struct result_file rf;
	FILE *fp = result_open(c, "recommended.ini", &rf, err, errlen);
	if (!fp)
		return -1;
	if (verdict[0])
		fprintf(fp, "# %s\n", verdict);
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
	return result_commit(fp, &rf, err, errlen);
}

/* file path gets the line "MARK verdict" first (MARK: // in JSON, which
 * then does not load until the line is removed; # elsewhere), written
 * aside and renamed; 0 or -1 */
static int mark_file(const char *path, const char *verdict, char *err, size_t errlen)
{
	size_t n = strlen(path);
	const char *mark = n > 5 && !strcmp(path + n - 5, ".json") ? "//" : "#";
	char tmp[4600];
	FILE *in = fopen(path, "r");
	FILE *out = in ? file_open_aside(path, tmp, sizeof(tmp)) : NULL;
	int rc = out ? 0 : -1;
	if (out) {
		fprintf(out, "%s %s\n", mark, verdict);
		for (int ch; (ch = fgetc(in)) != EOF;)
			fputc(ch, out);
		rc = ferror(in) ? (file_close(out), unlink(tmp), -1) : file_commit(out, tmp, path);
	}
	if (in)
		fclose(in);
	if (rc)
		snprintf(err, errlen, "%s: cannot mark it: %s", path, strerror(errno));
	return rc;
}

/* DIR/export/: the recommendation for switches and NICs (config.h), every
 * file marked with the verdict when there is one */
static int export_best(const struct cal_ctx *c, const struct cal_outcome *out,
		       const char *verdict, char *err, size_t errlen)
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
	DIR *d = rc == 0 && verdict[0] ? opendir(dir) : NULL;
	for (struct dirent *de; d && rc == 0 && (de = readdir(d));) {
		char path[4500];
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (de->d_name[0] != '.')
			rc = mark_file(path, verdict, err, errlen);
	}
	if (d)
		closedir(d);
	return rc;
}

/* a recommendation that may not be deployed: no recommended.ini or
 * export/ of an earlier calibration into the same directory is left */
static void remove_stale(const struct calibrate_opts *o)
{
	char path[4500], dir[4200];
	snprintf(path, sizeof(path), "%s/recommended.ini", o->out_dir);
	unlink(path);
	snprintf(dir, sizeof(dir), "%s/export", o->out_dir);
	DIR *d = opendir(dir);
	for (struct dirent *de; d && (de = readdir(d));) {
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (de->d_name[0] != '.')
			unlink(path);
	}
	if (d) {
		closedir(d);
		rmdir(dir);
	}
}

int cal_write_files(const struct cal_ctx *c, const struct cal_outcome *out, int a, int b,
		    char *err, size_t errlen)
{
	const struct calibrate_opts *o = c->o;
	char verdict[512];
	cal_verdict(c, out, verdict, sizeof(verdict));
	if (write_points(c, out, err, errlen) ||
	    (b >= 0 && !o->no_plane && write_plane(c, out, a, b, err, errlen)))
		return -1;
	if (verdict[0] && !o->export_failing) {
		remove_stale(o);
		return 0;
	}
	return write_recommended(c, out, verdict, err, errlen) ||
			       export_best(c, out, verdict, err, errlen)
		       ? -1
		       : 0;
}
