/*
 * timeline.c - the run page's event timeline (internal.h): on one time axis,
 * from 0 to the run's end, each job's iterations (collectives.csv: warm-up
 * ones light, judged ones dark, failed ones red), each fault of the
 * scenario while it acts, and the PFC watchdog's storms (pfcwd.csv), drawn
 * in the page as a small SVG.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/scenario/loader.h"
#include "models/scenario/scenario.h"
#include "sim/report/internal.h"

#define TL_ROWS_MAX 40
#define TL_BARS_MAX 4000 /* bars drawn in all (iterations beyond are left out, said so) */
#define TL_W 1000.0
#define TL_LEFT 190.0
#define TL_RIGHT 20.0
#define TL_ROW 22.0

struct tl {
	struct page *p;
	double t_end_us;
	int rows, bars, dropped;
	char names[TL_ROWS_MAX][96];
};

static double tl_x(const struct tl *t, double us)
{
	double f = t->t_end_us > 0 ? us / t->t_end_us : 0;
	f = f < 0 ? 0 : f > 1 ? 1 : f;
	return TL_LEFT + (TL_W - TL_LEFT - TL_RIGHT) * f;
}

/* the row called name, added when new; -1 when there are too many */
static int tl_row(struct tl *t, const char *name)
{
	for (int i = 0; i < t->rows; i++)
		if (!strcmp(t->names[i], name))
			return i;
	if (t->rows == TL_ROWS_MAX)
		return -1;
	snprintf(t->names[t->rows], sizeof(t->names[0]), "%s", name);
	return t->rows++;
}

/* a bar of row from a to b (us), coloured, with a tooltip */
static void tl_bar(struct tl *t, int row, double a, double b, const char *colour,
		   const char *tip)
{
	if (row < 0)
		return;
	if (t->bars++ >= TL_BARS_MAX) {
		t->dropped++;
		return;
	}
	double x0 = tl_x(t, a), x1 = tl_x(t, b);
	if (x1 - x0 < 1.5)
		x1 = x0 + 1.5; /* an instant stays visible */
	h_fmt(t->p, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
		    "<title>", x0, 24 + row * TL_ROW + 3, x1 - x0, TL_ROW - 6, colour);
	h_text(t->p, tip);
	h_raw(t->p, "</title></rect>\n");
}

/* collectives.csv's iterations; warm-up iterations (not judged) light */
static void tl_iterations(struct tl *t, const struct scenario *s, const struct rtable *c)
{
	for (size_t r = 0; r < c->nrows; r++) {
		double a, b, it;
		const char *job = rt_get(c, r, "job");
		if (cell_num(rt_get(c, r, "start_us"), &a) || cell_num(rt_get(c, r, "end_us"), &b))
			continue;
		char name[96], tip[256];
		snprintf(name, sizeof(name), "job %s", job);
		int failed = strcmp(rt_get(c, r, "status"), "done") != 0;
		/* a collective's iteration before criteria.warmup_iterations, but its last */
		const struct scn_job *j = NULL;
		for (uint32_t k = 0; k < s->njobs && !j; k++)
			if (!strcmp(s->jobs[k].name, job))
				j = &s->jobs[k];
		int warm = j && (j->pattern == SCN_JOB_RING_ALLREDUCE ||
				 j->pattern == SCN_JOB_ALLTOALL) &&
			   !cell_num(rt_get(c, r, "iteration"), &it) &&
			   it < (double)s->crit_warmup_iterations && it + 1 < (double)j->iterations;
		snprintf(tip, sizeof(tip), "%s iteration %s: %.1f-%.1f us%s", job,
			 rt_get(c, r, "iteration"), a, b,
			 failed ? ", failed" : warm ? ", warm-up (not judged)" : "");
		tl_bar(t, tl_row(t, name), a, b, failed ? "#d62728" : warm ? "#9ecae1" : "#1f77b4",
		       tip);
	}
}

/* the scenario's faults while they act */
static void tl_faults(struct tl *t, const struct scenario *s)
{
	for (uint32_t i = 0; i < s->nfaults; i++) {
		const struct scn_fault *f = &s->faults[i];
		char name[96], tip[256];
		double a = (double)f->start_ps / 1e6;
		double b = f->duration_ps ? a + (double)f->duration_ps / 1e6 : t->t_end_us;
		snprintf(name, sizeof(name), "fault %s", f->name);
		snprintf(tip, sizeof(tip), "%s (%s): %.1f-%.1f us", f->name,
			 scn_fault_kind_names[f->kind], a, b);
		tl_bar(t, tl_row(t, name), a, b, "#ff7f0e", tip);
	}
}

/* pfcwd.csv's storms, each from its storm row to the restore of its queue */
static void tl_storms(struct tl *t, const struct rtable *w)
{
	for (size_t r = 0; r < w->nrows; r++) {
		if (strcmp(rt_get(w, r, "event"), "storm"))
			continue;
		double a, b = t->t_end_us, x;
		if (cell_num(rt_get(w, r, "time_us"), &a))
			continue;
		for (size_t k = r + 1; k < w->nrows; k++)
			if (!strcmp(rt_get(w, k, "event"), "restore") &&
			    !strcmp(rt_get(w, k, "node"), rt_get(w, r, "node")) &&
			    !strcmp(rt_get(w, k, "port"), rt_get(w, r, "port")) &&
			    !strcmp(rt_get(w, k, "priority"), rt_get(w, r, "priority")) &&
			    !cell_num(rt_get(w, k, "time_us"), &x)) {
				b = x;
				break;
			}
		char tip[256];
		snprintf(tip, sizeof(tip), "storm on %s to %s, priority %s: %.1f-%.1f us",
			 rt_get(w, r, "node"), rt_get(w, r, "port"), rt_get(w, r, "priority"), a, b);
		tl_bar(t, tl_row(t, "PFC watchdog storms"), a, b, "#8c564b", tip);
	}
}

/* a table of dir/name when the file is there (NULL otherwise or damaged) */
static int tl_read(struct page *p, const char *name, struct rtable *t)
{
	char err[512];
	return rt_read(t, p->dir, name, err, sizeof(err)) == 0;
}

void run_timeline(struct page *p, const struct scenario *s, double t_end_us)
{
	struct tl *t = calloc(1, sizeof(*t));
	if (!t || !(t_end_us > 0)) {
		free(t);
		return;
	}
	t->p = p;
	t->t_end_us = t_end_us;
	struct rtable c, w;
	int have_c = tl_read(p, "collectives.csv", &c), have_w = tl_read(p, "pfcwd.csv", &w);
	/* the rows first (their number sets the height), the bars written after */
	for (size_t r = 0; have_c && r < c.nrows; r++) {
		char name[96];
		snprintf(name, sizeof(name), "job %s", rt_get(&c, r, "job"));
		tl_row(t, name);
	}
	for (uint32_t i = 0; i < s->nfaults; i++) {
		char name[96];
		snprintf(name, sizeof(name), "fault %s", s->faults[i].name);
		tl_row(t, name);
	}
	for (size_t r = 0; have_w && r < w.nrows; r++)
		if (!strcmp(rt_get(&w, r, "event"), "storm"))
			tl_row(t, "PFC watchdog storms");
	h_raw(p, "<h3>Timeline</h3>\n");
	if (!t->rows) {
		h_raw(p, "<p>No iteration, fault or watchdog storm to draw.</p>\n");
	} else {
		double h = 24 + t->rows * TL_ROW + 34;
		h_fmt(p, "<figure id=\"timeline\"><svg role=\"img\" viewBox=\"0 0 %.0f %.0f\" "
			 "xmlns=\"http://www.w3.org/2000/svg\" font-family=\"sans-serif\" "
			 "font-size=\"12\">\n", TL_W, h);
		for (int i = 0; i < t->rows; i++) {
			h_fmt(p, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", TL_LEFT - 6,
			      24 + i * TL_ROW + 15);
			h_text(p, t->names[i]);
			h_raw(p, "</text>\n");
		}
		double scale = t_end_us > 5000 ? 1000 : 1;
		double step = pow(10, floor(log10(t_end_us / scale / 5)));
		while (t_end_us / scale / step > 10)
			step *= 2;
		for (double v = 0; v * scale <= t_end_us + 1e-9; v += step) {
			double x = tl_x(t, v * scale);
			h_fmt(p, "<path d=\"M%.1f 20V%.1f\" stroke=\"#e0e0e0\"/><text x=\"%.1f\" "
				 "y=\"%.1f\" text-anchor=\"middle\">%g</text>\n", x, h - 30, x,
			      h - 16, v);
		}
		h_fmt(p, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">simulated time (%s)"
			 "</text>\n", (TL_LEFT + TL_W) / 2, h - 2, scale > 1 ? "ms" : "us");
		if (have_c)
			tl_iterations(t, s, &c);
		tl_faults(t, s);
		if (have_w)
			tl_storms(t, &w);
		h_raw(p, "</svg>\n<figcaption><strong>timeline</strong>: each job's iterations "
			 "(light: a collective's warm-up, not judged on busbw; dark: the others; red: "
			 "failed), the faults while "
			 "they act and the PFC watchdog's storms, on the figures' time axis; hover a "
			 "bar for its times");
		if (t->dropped)
			h_fmt(p, " (%d bars beyond the first %d left out)", t->dropped, TL_BARS_MAX);
		h_raw(p, "</figcaption></figure>\n");
	}
	if (have_c)
		rt_free(&c);
	if (have_w)
		rt_free(&w);
	free(t);
}
