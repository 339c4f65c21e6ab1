/*
 * compare.c - the pages of a compare folder and of an nccl-tests folder
 * (internal.h): the table, each fabric's or size's run linked, and the
 * figure: compare's bars, nccl-tests' busbw against size (drawn here as a
 * small SVG of its own: two lines, out-of-place and in-place).
 */
#include <math.h>
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
	h_section_end(p);
	rt_free(&t);
	h_section(p, "figures", "Figures");
	struct plot_figs *figs = calloc(1, sizeof(*figs));
	if (!figs) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	char ferr[1024] = "";
	figs->out_dir = p->tmp;
	int frc = plot_compare_to(p->dir, p->meta ? p->meta->scripts_dir : NULL, "svg", figs,
				  ferr, sizeof(ferr));
	h_figures(p, frc, ferr, figs, compare_captions);
	free(figs);
	h_section_end(p);
	page_end(p, NULL);
	return 0;
}

/* busbw (GB/s) against size (log2 axis) as an inline SVG: out-of-place
 * and in-place, a point per size */
static void busbw_svg(struct page *p, const struct rtable *t)
{
	const double w = 800, h = 360, l = 70, r = 20, top = 20, b = 50;
	double xmin = INFINITY, xmax = -INFINITY, ymax = 0;
	for (size_t i = 0; i < t->nrows; i++) {
		double s, o, ip;
		if (cell_num(rt_get(t, i, "size_B"), &s) || s <= 0)
			continue;
		xmin = fmin(xmin, log2(s));
		xmax = fmax(xmax, log2(s));
		if (!cell_num(rt_get(t, i, "oop_busbw_GBps"), &o))
			ymax = fmax(ymax, o);
		if (!cell_num(rt_get(t, i, "ip_busbw_GBps"), &ip))
			ymax = fmax(ymax, ip);
	}
	if (!isfinite(xmin) || ymax <= 0)
		return;
	if (xmax <= xmin)
		xmax = xmin + 1;
	ymax *= 1.1;
	h_fmt(p, "<figure id=\"busbw\"><svg role=\"img\" viewBox=\"0 0 %.0f %.0f\" "
		 "xmlns=\"http://www.w3.org/2000/svg\" font-family=\"sans-serif\" font-size=\"13\">\n",
	      w, h);
	h_fmt(p, "<path d=\"M%.1f %.1fV%.1fH%.1f\" fill=\"none\" stroke=\"#404040\"/>\n", l, top,
	      h - b, w - r);
	for (int k = 0; k <= 4; k++) {
		double y = h - b - (h - b - top) * k / 4.0;
		h_fmt(p, "<path d=\"M%.1f %.1fH%.1f\" stroke=\"#e0e0e0\"/><text x=\"%.1f\" "
			 "y=\"%.1f\" text-anchor=\"end\">%.3g</text>\n",
		      l, y, w - r, l - 6, y + 4, ymax * k / 4.0);
	}
	static const char *const cols[2] = { "oop_busbw_GBps", "ip_busbw_GBps" };
	static const char *const colours[2] = { "#1f77b4", "#ff7f0e" };
	for (int c = 0; c < 2; c++) {
		h_fmt(p, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"",
		      colours[c]);
		for (size_t i = 0; i < t->nrows; i++) {
			double s, v;
			if (cell_num(rt_get(t, i, "size_B"), &s) || s <= 0 ||
			    cell_num(rt_get(t, i, cols[c]), &v))
				continue;
			h_fmt(p, "%.1f,%.1f ", l + (w - l - r) * (log2(s) - xmin) / (xmax - xmin),
			      h - b - (h - b - top) * v / ymax);
		}
		h_raw(p, "\"/>\n");
		h_fmt(p, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\">%s</text>\n", l + 10,
		      top + 16 + 16.0 * c, colours[c], c ? "in-place" : "out-of-place");
	}
	for (size_t i = 0; i < t->nrows; i++) {
		double s;
		if (cell_num(rt_get(t, i, "size_B"), &s) || s <= 0)
			continue;
		double x = l + (w - l - r) * (log2(s) - xmin) / (xmax - xmin);
		char label[32];
		if (s >= 1 << 30)
			snprintf(label, sizeof(label), "%gG", s / (1 << 30));
		else if (s >= 1 << 20)
			snprintf(label, sizeof(label), "%gM", s / (1 << 20));
		else if (s >= 1 << 10)
			snprintf(label, sizeof(label), "%gK", s / (1 << 10));
		else
			snprintf(label, sizeof(label), "%g", s);
		h_fmt(p, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", x,
		      h - b + 18, label);
	}
	h_fmt(p, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">message size (B)</text>\n",
	      (l + w - r) / 2, h - 8);
	h_fmt(p, "<text transform=\"rotate(-90)\" x=\"%.1f\" y=\"16\" text-anchor=\"middle\">"
		 "busbw (GB/s)</text>\n", -(top + h - b) / 2);
	h_raw(p, "</svg>\n<figcaption><strong>busbw</strong>: bus bandwidth against message size, "
		 "out-of-place and in-place, as nccl-tests reports it</figcaption></figure>\n");
}

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
	h_section(p, "table", "nccl-tests' table");
	h_raw(p, "<p>A size links to its run folder's page, or its summary.csv.</p>\n");
	h_table(p, &t, NULL, 1, "size_B");
	h_section_end(p);
	h_section(p, "figures", "Figures");
	busbw_svg(p, &t);
	h_section_end(p);
	rt_free(&t);
	page_end(p, NULL);
	return 0;
}
