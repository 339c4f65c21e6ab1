/*
 * compare.c - the pages of a compare folder and of an nccl-tests folder
 * (internal.h): the table, each fabric's or size's run linked, and the
 * figure: compare's bars, nccl-tests' busbw and time against size.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/report/internal.h"

static void title_of(struct page *p, const char *what, char *title, size_t len)
{
	const char *base = strrchr(p->dir, '/');
	snprintf(title, len, "dcqcn-sim %s: %s", what, base && base[1] ? base + 1 : p->dir);
	page_begin(p, title);
	h_raw(p, "<h1>");
	h_text(p, title);
	h_raw(p, "</h1>\n");
}

/* each fabric's own summary.csv: busbw as [criteria] judges it and when
 * its traffic ended (a fabric whose folder has none is said so) */
static void compare_judged(struct page *p, const struct rtable *t)
{
	static const char *const cols[] = { "busbw_judged_min_pct", "busbw_judged_mean_pct",
					    "judged_iterations", "collective_time_us",
					    "sim_time_us", "fct_p99_us", NULL };
	h_raw(p, "<h3>Judged busbw and completion, from each fabric's summary.csv</h3>\n"
		 "<div class=\"tw\"><table id=\"judged\"><thead><tr><th>fabric</th>");
	for (int k = 0; cols[k]; k++) {
		h_raw(p, "<th>");
		h_text(p, cols[k]);
		h_raw(p, "</th>");
	}
	h_raw(p, "</tr></thead><tbody>\n");
	for (size_t r = 0; r < t->nrows; r++) {
		const char *fabric = rt_get(t, r, "fabric");
		char sub[RPT_PATH_MAX], err[512];
		struct rtable s;
		snprintf(sub, sizeof(sub), "%s/%s", p->dir, fabric);
		h_raw(p, "<tr><td>");
		h_text(p, fabric);
		h_raw(p, "</td>");
		if (strstr(fabric, "..") || strchr(fabric, '/') ||
		    rt_read(&s, sub, "summary.csv", err, sizeof(err))) {
			h_fmt(p, "<td colspan=\"%d\">no summary.csv in its folder</td></tr>\n", 6);
			continue;
		}
		for (int k = 0; cols[k]; k++) {
			const char *v = rt_get(&s, 0, cols[k]);
			double x;
			h_raw(p, cell_num(v, &x) == 0 ? "<td class=\"n\">" : "<td>");
			h_text(p, *v ? v : "-");
			h_raw(p, "</td>");
		}
		h_raw(p, "</tr>\n");
		rt_free(&s);
	}
	h_raw(p, "</tbody></table></div>\n");
}

static const struct caption compare_captions[] = {
	{ "compare", "each fabric's collective time, bus bandwidth, latency, flow completion, "
		     "bytes sent again and drops; a fabric whose run did not finish is starred" },
	{ NULL, NULL },
};

int page_compare(struct page *p, char *err, size_t errlen)
{
	struct rtable t;
	static const char *const need[] = { "fabric", "end", "criteria_pass", "criteria_failed",
					    NULL };
	if (rt_read(&t, p->dir, "compare.csv", err, errlen))
		return -1;
	if (rt_need(&t, need, err, errlen)) {
		rt_free(&t);
		return -1;
	}
	char title[512], why[1024] = "";
	title_of(p, "compare", title, sizeof(title));
	size_t fail = 0, nj = 0, n = 0;
	for (size_t r = 0; r < t.nrows; r++) {
		const char *v = rt_get(&t, r, "criteria_pass");
		const char *state = !strcmp(v, "1") ? "pass" : !strcmp(v, "0") ? "FAIL" : "not judged";
		fail += !strcmp(v, "0");
		nj += !*v;
		n += (size_t)snprintf(why + n, n < sizeof(why) ? sizeof(why) - n : 0, "%s%s: %s%s%s",
				      r ? "; " : "", rt_get(&t, r, "fabric"), state,
				      *rt_get(&t, r, "criteria_failed") ? " " : "",
				      rt_get(&t, r, "criteria_failed"));
	}
	h_banner(p, fail ? "fail" : nj || !t.nrows ? "nj" : "pass",
		 fail ? "FAIL" : nj || !t.nrows ? "NOT JUDGED" : "PASS", why);
	h_section(p, "matrix", "The fabrics side by side");
	h_raw(p, "<p>Each fabric's name links to its run folder's page, or its summary.csv "
		 "(<code>dcqcn-sim report DIR/FABRIC</code> writes the page).</p>\n");
	h_table(p, &t, NULL, 1, "fabric");
	compare_judged(p, &t);
	h_section_end(p);
	rt_free(&t);
	if (h_figures_section(p, plot_compare_to, compare_captions, err, errlen))
		return -1;
	page_end(p, NULL);
	return 0;
}

/* each failed size's run: how it ended and why it was not judged or
 * failed (its folder's summary.csv) */
static void nccl_why(struct page *p, const struct rtable *t)
{
	h_raw(p, "<ul id=\"failed-sizes\">");
	for (size_t r = 0; r < t->nrows; r++) {
		const char *size = rt_get(t, r, "size_B");
		double v;
		if (!cell_num(rt_get(t, r, "oop_busbw_GBps"), &v) &&
		    !cell_num(rt_get(t, r, "ip_busbw_GBps"), &v) &&
		    !strcmp(rt_get(t, r, "oop_wrong"), "0") && !strcmp(rt_get(t, r, "ip_wrong"), "0"))
			continue;
		char sub[RPT_PATH_MAX], err[512];
		struct rtable s;
		snprintf(sub, sizeof(sub), "%s/%s", p->dir, size);
		h_raw(p, "<li>");
		h_textf(p, "size %s: ", size);
		if (strstr(size, "..") || strchr(size, '/') ||
		    rt_read(&s, sub, "summary.csv", err, sizeof(err))) {
			h_raw(p, "its run folder has no summary.csv</li>");
			continue;
		}
		h_textf(p, "the run ended: %s at %s us; jobs failed: %s; %s",
			rt_get(&s, 0, "end"), rt_get(&s, 0, "sim_time_us"),
			rt_get(&s, 0, "jobs_failed"),
			*rt_get(&s, 0, "criteria_failed") ? rt_get(&s, 0, "criteria_failed")
							   : "criteria met");
		h_raw(p, "</li>");
		rt_free(&s);
	}
	h_raw(p, "</ul>\n");
}

static const struct caption nccl_captions[] = {
	{ "nccltests", "bus bandwidth (top) and the time of one iteration (bottom) against the "
		       "message size, out-of-place and in-place, as nccl-tests reports them" },
	{ NULL, NULL },
};

int page_nccltests(struct page *p, char *err, size_t errlen)
{
	struct rtable t;
	static const char *const need[] = { "size_B", "oop_time_us", "oop_busbw_GBps", "oop_wrong",
					    "ip_time_us", "ip_busbw_GBps", "ip_wrong", NULL };
	if (rt_read(&t, p->dir, "nccl-tests.csv", err, errlen))
		return -1;
	if (rt_need(&t, need, err, errlen)) {
		rt_free(&t);
		return -1;
	}
	char title[512], why[1024] = "";
	title_of(p, "nccl-tests", title, sizeof(title));
	size_t bad = 0, nbw = 0;
	double sum = 0, v;
	for (size_t r = 0; r < t.nrows; r++) {
		int ok = 1;
		for (int k = 0; k < 2; k++) {
			const char *bw = rt_get(&t, r, k ? "ip_busbw_GBps" : "oop_busbw_GBps");
			const char *wrong = rt_get(&t, r, k ? "ip_wrong" : "oop_wrong");
			if (cell_num(bw, &v) || strcmp(wrong, "0"))
				ok = 0;
			else
				sum += v, nbw++;
		}
		bad += !ok;
	}
	if (bad)
		snprintf(why, sizeof(why), "%zu of %zu sizes have an iteration that failed or did "
			 "not end (an empty time or a #wrong that is not 0)", bad, t.nrows);
	else
		snprintf(why, sizeof(why), "%zu sizes; average bus bandwidth %.3f GB/s", t.nrows,
			 nbw ? sum / (double)nbw : 0.0);
	h_banner(p, bad ? "fail" : "pass", bad ? "FAILED" : "COMPLETED", why);
	if (bad)
		nccl_why(p, &t);
	h_section(p, "table", "nccl-tests' table");
	h_raw(p, "<p>A size links to its run folder's page, or its summary.csv.</p>\n");
	h_table(p, &t, NULL, 1, "size_B");
	h_section_end(p);
	rt_free(&t);
	if (h_figures_section(p, plot_nccltests_to, nccl_captions, err, errlen))
		return -1;
	page_end(p, NULL);
	return 0;
}
