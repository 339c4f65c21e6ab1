/*
 * calibrate_table.c - the report `dcqcn-sim calibrate` prints (see
 * calibrate.h): the runs spent by phase, the recommendation and why it was
 * chosen, the scenario's own settings, the recommendation and the
 * runner-up side by side with their figures, per seed, and the command
 * line that reproduces the recommendation's first seed.
 */
#include "sim/sweeps/calibrate.h"

#include <math.h>
#include <string.h>

#include "models/base/units.h"
#include "sim/sweeps/internal.h"

void cal_figures(const struct cal_ctx *c, const struct cal_score *sc, int scn, int seed,
		 struct cal_figures *f)
{
	memset(f, 0, sizeof(*f));
	f->busbw_min = INFINITY;
	for (int s = 0; s < c->nscn && sc->detail; s++)
		for (int j = 0; j < c->nseeds; j++) {
			const struct cal_run *r = &sc->detail[s * c->nseeds + j];
			if ((scn >= 0 && s != scn) || (seed >= 0 && j != seed) || !r->ran)
				continue;
			f->n++;
			if (r->has_busbw) {
				f->nbusbw++;
				f->busbw_min = fmin(f->busbw_min, r->busbw_min_pct);
				f->busbw_mean += r->busbw_mean_pct;
			}
			f->ecn = fmax(f->ecn, r->ecn_mark_pct);
			f->pause_rate = fmax(f->pause_rate, r->pause_frame_rate);
			f->paused = fmax(f->paused, r->max_paused_fraction);
			f->retrans = fmax(f->retrans, r->retransmitted_pct);
			f->fct_p99 = fmax(f->fct_p99, r->fct_p99_us);
			f->pause_frames = r->pause_frames > f->pause_frames ? r->pause_frames
									    : f->pause_frames;
			f->queue = r->max_queue_bytes > f->queue ? r->max_queue_bytes : f->queue;
			f->drops = r->drops > f->drops ? r->drops : f->drops;
		}
	if (f->nbusbw)
		f->busbw_mean /= f->nbusbw;
}

void cal_put_figures(FILE *fp, const struct cal_figures *f)
{
	if (f->nbusbw)
		fprintf(fp, ",%.2f,%.2f", f->busbw_min, f->busbw_mean);
	else
		fputs(",,", fp);
	if (!f->n) {
		fputs(",,,,,,,,", fp);
		return;
	}
	fprintf(fp, ",%.3f,%lld,%.1f,%.4f,%lld,%lld,%.3f,%.2f", f->ecn, (long long)f->pause_frames,
		f->pause_rate, f->paused, (long long)f->queue, (long long)f->drops, f->retrans,
		f->fct_p99);
}

char *cal_format_margin(const struct cal_score *sc, double m, char *buf, size_t len)
{
	if (!sc->valid)
		snprintf(buf, len, "rejected by the loader");
	else if (m < CAL_MARGIN_UNFINISHED)
		snprintf(buf, len, "a run failed");
	else if (CAL_UNFINISHED_MARGIN(m))
		snprintf(buf, len, "did not finish in sim.duration (%.0f %% of flows)",
			 100 * sc->progress);
	else
		snprintf(buf, len, "margin %+.1f %%", 100 * m);
	return buf;
}

/* one argument of a command line, quoted for a POSIX shell when needed */
static void put_arg(FILE *f, const char *a)
{
	if (a[0] && strspn(a, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
			      "_./=:,%+-@") == strlen(a)) {
		fprintf(f, " %s", a);
		return;
	}
	fputs(" '", f);
	for (; *a; a++)
		fputs(*a == '\'' ? "'\\''" : (char[]){ *a, 0 }, f);
	fputc('\'', f);
}

/* the runs spent, by phase */
static void print_spent(const struct cal_ctx *c, const struct cal_outcome *out, FILE *f)
{
	const struct calibrate_opts *o = c->o;
	double grid = calibrate_grid_points(o->keys, o->nkeys);
	int points = 0;
	for (int p = 0; p < CAL_N_PHASES; p++)
		points += out->phase_points[p];
	fprintf(f, "calibrate: %d scenario%s x %d seed%s, %d key%s: %ld runs for %d points (",
		c->nscn, c->nscn == 1 ? "" : "s", c->nseeds, c->nseeds == 1 ? "" : "s", o->nkeys,
		o->nkeys == 1 ? "" : "s", out->runs, points);
	for (int p = 0; p < CAL_N_PHASES; p++)
		fprintf(f, "%s%d %s%s", p ? ", " : "", out->phase_points[p], cal_phase_names[p],
			p == CAL_DESIGN && out->whole_grid ? " (the whole grid)" : "");
	fprintf(f, "); %d rejected by the loader; a full grid of the same values is %.0f points "
		"(%.0f runs)\n", out->rejected, grid, grid * c->nscn * c->nseeds);
}

static void print_keys(const struct cal_ctx *c, const struct cal_point *p, FILE *f)
{
	for (int k = 0; k < c->o->nkeys; k++)
		fprintf(f, "%s%s = %s", k ? ", " : "", c->o->keys[k].key,
			c->o->keys[k].text[p->idx[k]]);
}

/* why this point: robust or fragile, kept, a better margin passed over */
static void print_why(const struct cal_ctx *c, const struct cal_outcome *out, FILE *f)
{
	const struct calibrate_opts *o = c->o;
	const struct cal_point *b = &out->points[out->best];
	char m[160];
	if (b->score.pass && out->neighbours) {
		const struct cal_point *w = &out->points[out->weakest];
		int k = 0;
		while (k < o->nkeys - 1 && w->idx[k] == b->idx[k])
			k++;
		fprintf(f, "%s: %d of its %d one-step neighbours pass; the weakest, %s = %s, %s "
			"(%s)\n", out->neighbours_pass == out->neighbours ? "robust"
										 : "FRAGILE",
			out->neighbours_pass, out->neighbours, o->keys[k].key,
			o->keys[k].text[w->idx[k]], w->score.pass ? "passes" : "fails",
			cal_format_margin(&w->score, w->score.margin, m, sizeof(m)));
	}
	if (out->own_kept)
		fprintf(f, "kept: the scenario's own settings pass, and no setting gains more than "
			"%.1f %% of margin over them\n", 100 * CAL_MIN_GAIN);
	if (out->passed_over >= 0) {
		const struct cal_point *p = &out->points[out->passed_over];
		fprintf(f, "not preferred: ");
		print_keys(c, p, f);
		fprintf(f, " passes with a larger margin (%s) but raises %d risk warning%s (%s; "
			"`dcqcn-sim check` says why), the recommendation %d\n",
			cal_format_margin(&p->score, p->score.margin, m, sizeof(m)), p->score.warnings,
			p->score.warnings == 1 ? "" : "s", p->score.warned, b->score.warnings);
	}
}

#define COL 22

/* a row of the table: its label, then one cell per column */
static void row(FILE *f, const char *label, char cells[][64], int n)
{
	fprintf(f, "  %-28s", label);
	for (int i = 0; i < n; i++)
		if (i + 1 < n)
			fprintf(f, " %-*s", COL, cells[i]);
		else
			fprintf(f, " %s", cells[i]);
	fputc('\n', f);
}

/* the own settings, the recommendation and the runner-up side by side */
static void print_table(const struct cal_ctx *c, const struct cal_outcome *out, FILE *f)
{
	const struct calibrate_opts *o = c->o;
	int col[3], n = 0;
	char cells[3][64];
	int own = out->points[0].phase == CAL_START && out->points[0].score.valid ? 0 : -1;
	if (own >= 0 && own != out->best)
		col[n++] = own;
	col[n++] = out->best;
	if (out->runner_up >= 0 && out->runner_up != own)
		col[n++] = out->runner_up;
	for (int i = 0; i < n; i++)
		snprintf(cells[i], sizeof(cells[i]), "%s%s",
			 col[i] == own ? (c->own_start ? "own settings" : "start") : "",
			 col[i] == out->best ? (col[i] == own ? " = recommended" : "recommended")
					     : col[i] != own ? "runner-up" : "");
	row(f, "", cells, n);
	for (int k = 0; k < o->nkeys; k++) {
		for (int i = 0; i < n; i++)
			snprintf(cells[i], sizeof(cells[i]), "%s",
				 o->keys[k].text[out->points[col[i]].idx[k]]);
		row(f, o->keys[k].key, cells, n);
	}
	struct cal_figures fig[3];
	for (int i = 0; i < n; i++) {
		const struct cal_score *sc = &out->points[col[i]].score;
		cal_figures(c, sc, -1, -1, &fig[i]);
		snprintf(cells[i], sizeof(cells[i]), "%s", sc->pass ? "pass" : "FAIL");
	}
	row(f, "verdict (every run)", cells, n);
	for (int i = 0; i < n; i++) {
		const struct cal_score *sc = &out->points[col[i]].score;
		if (CAL_UNFINISHED_MARGIN(sc->margin) && sc->margin >= CAL_MARGIN_UNFINISHED)
			snprintf(cells[i], sizeof(cells[i]), "unfinished (%.0f %%)",
				 100 * sc->progress);
		else if (CAL_UNFINISHED_MARGIN(sc->margin))
			snprintf(cells[i], sizeof(cells[i]), "run failed");
		else
			snprintf(cells[i], sizeof(cells[i]), "%+.1f %%", 100 * sc->margin);
	}
	row(f, "margin", cells, n);
	for (int i = 0; i < n; i++)
		snprintf(cells[i], sizeof(cells[i]), "%s",
			 cal_criterion_names[out->points[col[i]].score.binding]);
	row(f, "binding", cells, n);
#define FIG_ROW(label, ...)                                                        \
	do {                                                                       \
		for (int i = 0; i < n; i++) {                                      \
			const struct cal_figures *g = &fig[i];                     \
			snprintf(cells[i], sizeof(cells[i]), __VA_ARGS__);         \
		}                                                                  \
		row(f, label, cells, n);                                           \
	} while (0)
	FIG_ROW("busbw judged min % line", g->nbusbw ? "%.1f" : "-", g->busbw_min);
	FIG_ROW("busbw judged mean % line", g->nbusbw ? "%.1f" : "-", g->busbw_mean);
	FIG_ROW("ECN marked % (max)", "%.2f", g->ecn);
	FIG_ROW("pause frames (max)", "%lld", (long long)g->pause_frames);
	FIG_ROW("pause frames/s (max)", "%.0f", g->pause_rate);
	FIG_ROW("max paused fraction", "%.3f", g->paused);
	FIG_ROW("peak queue (max)", "%.2f MB", (double)g->queue / 1e6);
	FIG_ROW("drops (max)", "%lld", (long long)g->drops);
	FIG_ROW("retransmitted % (max)", "%.3f", g->retrans);
	FIG_ROW("FCT p99 us (max)", "%.1f", g->fct_p99);
#undef FIG_ROW
	for (int i = 0; i < n; i++) {
		const struct cal_score *sc = &out->points[col[i]].score;
		snprintf(cells[i], sizeof(cells[i]), "%d%s%.40s", sc->warnings,
			 sc->warnings ? ": " : "", sc->warned);
	}
	row(f, "risk warnings", cells, n);
	fprintf(f, "per seed (judged busbw min %% line / ECN marked %% / pause frames):\n");
	for (int s = 0; s < c->nscn; s++)
		for (int j = 0; j < c->nseeds; j++) {
			char label[96];
			snprintf(label, sizeof(label), "%.40s sim.seed=%lld", c->labels[s],
				 (long long)c->seed0[s] + j);
			for (int i = 0; i < n; i++) {
				struct cal_figures g;
				cal_figures(c, &out->points[col[i]].score, s, j, &g);
				if (!g.n)
					snprintf(cells[i], sizeof(cells[i]), "run failed");
				else if (g.nbusbw)
					snprintf(cells[i], sizeof(cells[i]), "%.1f / %.2f / %lld",
						 g.busbw_min, g.ecn, (long long)g.pause_frames);
				else
					snprintf(cells[i], sizeof(cells[i]), "- / %.2f / %lld", g.ecn,
						 (long long)g.pause_frames);
			}
			row(f, label, cells, n);
		}
}

/* the command line that runs the recommendation as calibrated (its first
 * seed): the scenario, the configurations, every --set, the keys */
static void print_run_it(const struct cal_ctx *c, const struct cal_outcome *out, FILE *f)
{
	const struct calibrate_opts *o = c->o;
	fprintf(f, "run it: dcqcn-sim run");
	if (o->scenario)
		put_arg(f, o->scenario);
	if (o->switch_config) {
		fputs(" --switch-config", f);
		put_arg(f, o->switch_config);
	}
	if (o->nic_config) {
		fputs(" --nic-config", f);
		put_arg(f, o->nic_config);
	}
	for (int i = 0; i < o->nsets; i++) {
		fputs(" --set", f);
		put_arg(f, o->sets[i]);
	}
	char a[CAL_MAX_KEYS][96];
	cal_point_assigns(o, out->points[out->best].idx, a);
	for (int k = 0; k < o->nkeys; k++) {
		fputs(" --set", f);
		put_arg(f, a[k]);
	}
	fputc('\n', f);
	if (c->nseeds > 1)
		fprintf(f, "  (its first seed, sim.seed=%lld; --set sim.seed=N runs another)\n",
			(long long)c->seed0[0]);
}

void cal_print_result(const struct cal_ctx *c, const struct cal_outcome *out, FILE *f)
{
	const struct calibrate_opts *o = c->o;
	const struct cal_point *b = &out->points[out->best];
	char m[160];
	print_spent(c, out, f);
	cal_format_margin(&b->score, b->score.margin, m, sizeof(m));
	if (b->score.pass)
		fprintf(f, "recommended (passes every run, %d scenario%s x %d seed%s; %s, "
			"binding: %s on %s):\n", c->nscn, c->nscn == 1 ? "" : "s", c->nseeds,
			c->nseeds == 1 ? "" : "s", m, cal_criterion_names[b->score.binding],
			c->labels[b->score.binding_scn]);
	else
		fprintf(f, "NO SETTING PASSES; the closest (%s, binding: %s on %s):\n", m,
			cal_criterion_names[b->score.binding], c->labels[b->score.binding_scn]);
	for (int k = 0; k < o->nkeys; k++)
		fprintf(f, "  %-28s = %s\n", o->keys[k].key, o->keys[k].text[b->idx[k]]);
	print_why(c, out, f);
	const struct cal_point *own = &out->points[0];
	if (c->own_start && own->score.valid)
		fprintf(f, "the scenario's own settings: %s, %s (binding: %s on %s)\n",
			own->score.pass ? "pass" : "FAIL",
			cal_format_margin(&own->score, own->score.margin, m, sizeof(m)),
			cal_criterion_names[own->score.binding], c->labels[own->score.binding_scn]);
	if (out->runner_up >= 0) {
		const struct cal_point *r = &out->points[out->runner_up];
		fprintf(f, "runner-up (%s, %s): ", r->score.pass ? "pass" : "fails",
			cal_format_margin(&r->score, r->score.margin, m, sizeof(m)));
		print_keys(c, r, f);
		fputc('\n', f);
	}
	print_table(c, out, f);
	if (c->notes && c->notes[0]) { /* how the imported files were read */
		fprintf(f, "the configurations as read:\n");
		for (const char *l = c->notes; *l;) {
			size_t n = strcspn(l, "\n");
			fprintf(f, "  %.*s\n", (int)n, l);
			l += n + (l[n] == '\n');
		}
	}
	fprintf(f, "per scenario (recommended):\n");
	for (int s = 0; s < c->nscn; s++)
		fprintf(f, "  %-20s %s  %s  binding %s\n", c->labels[s],
			b->score.scn_pass[s] ? "pass" : "FAIL",
			cal_format_margin(&b->score, b->score.scn_margin[s], m, sizeof(m)),
			cal_criterion_names[b->score.scn_binding[s]]);
	print_run_it(c, out, f);
	if (b->score.pass || o->export_failing)
		fprintf(f, "results: %s/calibrate.csv (every point and its figures), "
			"recommended.ini, export/ (SONiC config_db.json, mlx5 cc_params, NCCL "
			"environment)%s\n", o->out_dir, b->score.pass ? "" : ", each marked DOES NOT PASS");
	else
		fprintf(f, "results: %s/calibrate.csv (every point and its figures); no "
			"recommended.ini or export/: nothing passes (--export-failing writes them, "
			"marked)\n", o->out_dir);
}
