/*
 * sweep.c - the page of a sweep folder (internal.h): how many points pass,
 * which fail and on what, a sortable table of the points (each linked to its
 * own folder), and the sweep's figures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/report/internal.h"

/* a failed criterion and the sweep.csv column that measures it */
static const char *measure_of(const char *criterion)
{
	static const char *const map[][2] = {
		{ "max_ecn_mark_pct", "ecn_mark_pct" },
		{ "max_lossless_drops", "drops_lossless" },
		{ "min_busbw_pct_line", "busbw_judged_min_pct" },
		{ "max_pause_frame_rate", "pause_frame_rate" },
		{ "jobs_failed", "jobs_failed" },
		{ "max_drops", "drops_lossy" },
		{ "max_retransmitted_pct", "retransmitted_pct" },
	};
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(map[i][0], criterion))
			return map[i][1];
	return NULL;
}

/* is column c an axis's value in its base unit (ecn.kmin_B after ecn.kmin)? */
static int base_col(const struct rtable *t, int c)
{
	if (c <= 2)
		return 0;
	size_t l = strlen(t->cell[c - 1]);
	return !strncmp(t->cell[c], t->cell[c - 1], l) && t->cell[c][l] == '_';
}

/* "p001 (ecn.kmin=50KB): max_ecn_mark_pct (ecn_mark_pct 18.303)" */
static void failing_point(struct page *p, const struct rtable *t, size_t r, int first_metric)
{
	h_raw(p, "<li>");
	h_text(p, rt_get(t, r, "dir"));
	h_raw(p, " (");
	for (int c = 2; c < first_metric; c++) {
		const char *name = t->cell[c];
		if (base_col(t, c))
			continue;
		h_textf(p, "%s%s=%s", c > 2 ? " " : "", name, rt_get(t, r, name));
	}
	h_raw(p, "): ");
	const char *failed = rt_get(t, r, "criteria_failed");
	for (const char *s = failed; *s;) {
		size_t l = strcspn(s, ";");
		char crit[128];
		snprintf(crit, sizeof(crit), "%.*s", (int)l, s);
		const char *m = measure_of(crit);
		h_raw(p, "<strong>");
		h_text(p, crit);
		h_raw(p, "</strong>");
		if (m && rt_col(t, m) >= 0)
			h_textf(p, " (%s %s)", m, rt_get(t, r, m));
		s += l;
		if (*s == ';') {
			h_raw(p, ", ");
			s++;
		}
	}
	h_raw(p, "</li>\n");
}

/* the points the sweep has (sweep-identity.txt's points = N), 0 unknown */
static long sweep_points(const char *dir)
{
	char path[RPT_PATH_MAX], line[512];
	long n = 0;
	snprintf(path, sizeof(path), "%s/sweep-identity.txt", dir);
	FILE *fp = fopen(path, "r");
	while (fp && fgets(line, sizeof(line), fp))
		if (sscanf(line, "points = %ld", &n) == 1)
			break;
	if (fp)
		fclose(fp);
	return n;
}

static const struct caption sweep_captions[] = {
	{ "sweep_pass", "pass (green) or fail (red) over the first two axes, a failing cell "
			"labelled with the criterion it missed and the value measured; a cell over "
			"further axes passes only if all its points do" },
	{ "sweep_", "the metric against the first axis, a line per value of the others "
		    "(min-max bars over repeats)" },
	{ NULL, NULL },
};

/* the sweep's figures, every metric (page_draw_fn) */
static int sweep_draw(const char *dir, const char *scripts_dir, const char *format,
		      struct plot_figs *figs, char *err, size_t errlen)
{
	return plot_sweep_to(dir, scripts_dir, format, NULL, figs, err, errlen);
}

int page_sweep(struct page *p, char *err, size_t errlen)
{
	struct rtable t;
	static const char *const need[] = { "point", "dir", "sim_time_us", "criteria_pass",
					    "criteria_failed", NULL };
	if (rt_read(&t, p->dir, "sweep.csv", err, errlen))
		return -1;
	if (rt_need(&t, need, err, errlen)) {
		rt_free(&t);
		return -1;
	}
	int first_metric = rt_col(&t, "sim_time_us"), naxes = 0;
	for (int c = 2; c < first_metric; c++)
		naxes += !base_col(&t, c);
	size_t pass = 0, fail = 0, nj = 0;
	for (size_t r = 0; r < t.nrows; r++) {
		const char *v = rt_get(&t, r, "criteria_pass");
		if (!strcmp(v, "1"))
			pass++;
		else if (!strcmp(v, "0"))
			fail++;
		else
			nj++;
	}
	const char *base = strrchr(p->dir, '/');
	char title[512], why[256];
	snprintf(title, sizeof(title), "dcqcn-sim sweep: %s", base && base[1] ? base + 1 : p->dir);
	page_begin(p, title);
	h_raw(p, "<h1>");
	h_text(p, title);
	h_raw(p, "</h1>\n<p class=\"sub\">");
	h_textf(p, "%zu points over %d ax%s", t.nrows, naxes, naxes == 1 ? "is" : "es");
	h_raw(p, "</p>\n");
	long want = sweep_points(p->dir);
	int partial = want > 0 && (long)t.nrows < want;
	snprintf(why, sizeof(why), "%zu of %zu points pass, %zu fail, %zu not judged", pass,
		 t.nrows, fail, nj);
	h_banner(p, fail ? "fail" : nj || partial || !t.nrows ? "nj" : "pass",
		 fail ? "FAIL" : partial ? "INCOMPLETE" : nj || !t.nrows ? "NOT JUDGED" : "PASS",
		 why);
	if (partial) {
		h_raw(p, "<div class=\"box bad\" id=\"incomplete\">");
		h_textf(p, "Only %zu of the sweep's %ld points finished (sweep-identity.txt): the "
			"sweep was stopped; sweep --resume runs the others.", t.nrows, want);
		h_raw(p, "</div>\n");
	}
	if (fail) {
		h_raw(p, "<ul id=\"failing\">");
		for (size_t r = 0; r < t.nrows; r++)
			if (!strcmp(rt_get(&t, r, "criteria_pass"), "0"))
				failing_point(p, &t, r, first_metric);
		h_raw(p, "</ul>\n");
	}
	h_section(p, "points", "Points");
	h_raw(p, "<p>Click a column to sort; a point's folder links to its own page when "
		 "it has one (<code>sweep --report</code> writes them, or "
		 "<code>dcqcn-sim report DIR/p000</code>), else to its summary.csv.</p>\n");
	const char *cols[64];
	int n = 0;
	for (int c = 0; c < first_metric && n < 40; c++)
		cols[n++] = t.cell[c];
	static const char *const metrics[] = {
		"end", "criteria_pass", "criteria_failed", "busbw_judged_min_pct",
		"busbw_judged_mean_pct", "ecn_mark_pct", "pause_frame_rate", "max_paused_fraction",
		"drops_lossless", "drops_lossy", "retransmitted_pct", "fct_p99_us",
		"collective_time_us", NULL
	};
	for (int i = 0; metrics[i]; i++)
		cols[n++] = metrics[i];
	cols[n] = NULL;
	h_table(p, &t, cols, 1, "dir");
	h_raw(p, "<details><summary>every column of sweep.csv</summary>\n");
	h_table(p, &t, NULL, 1, "dir");
	h_raw(p, "</details>\n");
	h_section_end(p);
	rt_free(&t);
	if (h_figures_section(p, sweep_draw, sweep_captions, err, errlen))
		return -1;
	page_end(p, NULL);
	return 0;
}
