/*
 * calibrate.c - the page of a calibrate folder (internal.h): the verdict
 * (RECOMMENDED, FRAGILE when a one-step neighbour of the recommendation
 * fails, NO SETTING PASSES; "do not deploy" on exports marked so), the own,
 * recommended and runner-up settings side by side, every point in a
 * sortable table, the exports, and the margin plane.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/report/internal.h"

#define TEXT_MAX (1u << 20)

/* the line of recommended.ini that starts with prefix, into buf */
static int line_with(const char *text, const char *prefix, char *buf, size_t len)
{
	size_t pl = strlen(prefix);
	for (const char *s = text; s && *s;) {
		size_t l = strcspn(s, "\n");
		if (l >= pl && !strncmp(s, prefix, pl)) {
			snprintf(buf, len, "%.*s", (int)(l - pl), s + pl);
			return 1;
		}
		s += l + (s[l] == '\n');
	}
	buf[0] = '\0';
	return 0;
}

/* the banner, from recommended.ini (absent: no setting may be deployed) */
static void cal_banner(struct page *p, const char *rec, const struct rtable *t)
{
	char line[1200], nb[256];
	int any_pass = 0;
	for (size_t r = 0; r < t->nrows; r++)
		any_pass |= !strcmp(rt_get(t, r, "pass"), "1");
	if (!rec) {
		h_banner(p, "fail", any_pass ? "NOT RECOMMENDED" : "NO SETTING PASSES",
			 any_pass ? "the search did not end with a recommendation (no "
				    "recommended.ini): do not deploy"
				  : "no point meets [criteria] on every scenario; nothing was "
				    "exported: do not deploy");
		return;
	}
	line_with(rec, "# dcqcn-sim calibrate: ", line, sizeof(line));
	if (strncmp(rec, "# dcqcn-sim calibrate:", 22)) { /* a verdict line first */
		char v[512];
		line_with(rec, "# ", v, sizeof(v));
		snprintf(line, sizeof(line), "%s: exported anyway, marked: do not deploy", v);
		int stopped = !strncmp(v, "INTERRUPTED", 11);
		h_banner(p, stopped ? "nj" : "fail", stopped ? "INTERRUPTED" : "NO SETTING PASSES",
			 line);
		return;
	}
	int np = 0, nn = 0;
	if (line_with(rec, "# ", nb, sizeof(nb)) && line_with(rec + strcspn(rec, "\n") + 1, "# ",
							       nb, sizeof(nb)) &&
	    sscanf(nb, "%d of its %d", &np, &nn) == 2 && np < nn) {
		char why[1600];
		snprintf(why, sizeof(why), "%s; only %s: a small change of a setting fails", line,
			 nb);
		h_banner(p, "nj", "FRAGILE", why);
		return;
	}
	h_banner(p, "pass", "RECOMMENDED", line);
}

/* export/'s files linked, each said to be marked when it starts with a verdict */
static void cal_exports(struct page *p)
{
	char dir[RPT_PATH_MAX];
	snprintf(dir, sizeof(dir), "%s/export", p->dir);
	DIR *d = opendir(dir);
	if (!d) {
		h_raw(p, "<p>No export/ folder: nothing to deploy.</p>\n");
		return;
	}
	h_raw(p, "<ul id=\"export-files\">");
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char path[RPT_PATH_MAX + 300], href[400], first[256] = "";
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		snprintf(href, sizeof(href), "export/%s", e->d_name);
		FILE *fp = fopen(path, "r");
		if (fp) {
			if (!fgets(first, sizeof(first), fp))
				first[0] = '\0';
			fclose(fp);
		}
		int marked = strstr(first, "DOES NOT PASS") || strstr(first, "INTERRUPTED");
		h_raw(p, "<li>");
		h_link(p, href, e->d_name);
		if (marked)
			h_raw(p, " <strong class=\"bad\">do not deploy</strong> (marked with the "
				 "verdict)");
		h_raw(p, "</li>");
	}
	closedir(d);
	h_raw(p, "</ul>\n");
	snprintf(dir, sizeof(dir), "%s/export/changes.txt", p->dir);
	char *changes = rpt_read_text(dir, TEXT_MAX);
	if (changes) {
		h_raw(p, "<h3>The exports against the imported configurations (changes.txt)</h3>\n");
		h_pre(p, changes);
		free(changes);
	}
}

static const struct caption cal_captions[] = {
	{ "calibrate", "the margin of each point over the two keys of the plane: green "
		       "passes, red fails (hatched), the recommendation framed" },
	{ NULL, NULL },
};

int page_calibrate(struct page *p, char *err, size_t errlen)
{
	struct rtable t;
	static const char *const need[] = { "point", "phase", "pass", "margin", "binding", "note",
					    NULL };
	if (rt_read(&t, p->dir, "calibrate.csv", err, errlen))
		return -1;
	if (rt_need(&t, need, err, errlen)) {
		rt_free(&t);
		return -1;
	}
	char path[RPT_PATH_MAX], title[512];
	snprintf(path, sizeof(path), "%s/recommended.ini", p->dir);
	char *rec = rpt_read_text(path, TEXT_MAX);
	const char *base = strrchr(p->dir, '/');
	snprintf(title, sizeof(title), "dcqcn-sim calibrate: %s", base && base[1] ? base + 1 : p->dir);
	page_begin(p, title);
	h_raw(p, "<h1>");
	h_text(p, title);
	h_raw(p, "</h1>\n");
	cal_banner(p, rec, &t);
	h_section(p, "choice", "Own, recommended and runner-up settings");
	/* the rows whose note names them, side by side: a column each, a row
	 * per column of calibrate.csv */
	size_t keep[3], nk = 0;
	static const char *const notes[3] = { "own", "recommended", "runner-up" };
	for (int k = 0; k < 3; k++)
		for (size_t r = 0; r < t.nrows; r++)
			if (!strcmp(rt_get(&t, r, "note"), notes[k]) && nk < 3)
				keep[nk++] = r;
	h_raw(p, "<div class=\"tw\"><table id=\"side-by-side\"><thead><tr><th></th>");
	for (size_t i = 0; i < nk; i++) {
		h_raw(p, "<th>");
		h_textf(p, "%s (point %s)", rt_get(&t, keep[i], "note"), rt_get(&t, keep[i], "point"));
		h_raw(p, "</th>");
	}
	h_raw(p, "</tr></thead><tbody>\n");
	for (size_t c = 0; c < t.ncols; c++) {
		if (!strcmp(t.cell[c], "note") || !strcmp(t.cell[c], "point"))
			continue;
		h_raw(p, "<tr><th>");
		h_text(p, t.cell[c]);
		h_raw(p, "</th>");
		for (size_t i = 0; i < nk; i++) {
			const char *v = t.cell[(keep[i] + 1) * t.ncols + c];
			double x;
			h_raw(p, cell_num(v, &x) == 0 ? "<td class=\"n\">" : "<td>");
			h_text(p, v);
			h_raw(p, "</td>");
		}
		h_raw(p, "</tr>\n");
	}
	h_raw(p, "</tbody></table></div>\n");
	if (!nk)
		h_raw(p, "<p>calibrate.csv names no own, recommended or runner-up point.</p>\n");
	if (rec) {
		h_raw(p, "<h3>recommended.ini</h3>\n");
		h_pre(p, rec);
	}
	h_section_end(p);
	h_section(p, "exports", "Exports for switches and NICs");
	cal_exports(p);
	h_section_end(p);
	h_section(p, "points", "Every point");
	h_table(p, &t, NULL, 1, NULL);
	h_section_end(p);
	rt_free(&t);
	free(rec);
	char plane[RPT_PATH_MAX];
	snprintf(plane, sizeof(plane), "%s/plane.csv", p->dir);
	if (access(plane, F_OK)) { /* one key tuned, or --no-plane: no figure to draw */
		page_end(p, NULL);
		return 0;
	}
	if (h_figures_section(p, plot_calibrate_to, cal_captions, err, errlen))
		return -1;
	page_end(p, NULL);
	return 0;
}
