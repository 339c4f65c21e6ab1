/*
 * page.c - the page's HTML (internal.h): the skeleton and its style sheet,
 * escaped text, tables, the banner, the figures inlined from SVG, and the
 * provenance at the end.
 */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "sim/report/internal.h"

#define SVG_BYTES_MAX (32u << 20) /* a figure larger than this is not inlined */

/* screens, phones (the tables scroll sideways, the figures shrink) and A4 */
static const char style[] =
	":root{--ok:#1a7f37;--bad:#b3261e;--nj:#7a5c00;--line:#d0d7de}\n"
	"body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;"
	"color:#1b1f24;max-width:1100px;margin:0 auto;padding:12px}\n"
	"h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.2em;margin:1.2em 0 .4em;"
	"border-bottom:1px solid var(--line)}h3{font-size:1em}\n"
	".sub{color:#57606a;margin:0 0 .8em}\n"
	".banner{border-left:10px solid;padding:8px 14px;margin:10px 0;border-radius:4px}\n"
	".banner .word{font-size:2em;font-weight:700;letter-spacing:.04em}\n"
	".banner .why{font-size:1.05em}\n"
	".pass{border-color:var(--ok);background:#e7f5ea}.pass .word{color:var(--ok)}\n"
	".fail{border-color:var(--bad);background:#fbe9e7}.fail .word{color:var(--bad)}\n"
	".nj{border-color:var(--nj);background:#fff6d6}.nj .word{color:var(--nj)}\n"
	"td.ok{color:var(--ok);font-weight:600}td.bad{color:var(--bad);font-weight:600}\n"
	".tw{overflow-x:auto;max-width:100%}\n"
	"table{border-collapse:collapse;font-size:.9em;margin:.3em 0}\n"
	"th,td{border-bottom:1px solid var(--line);padding:3px 8px;text-align:left;"
	"vertical-align:top}\n"
	"th{background:#f6f8fa}td.n{text-align:right;font-variant-numeric:tabular-nums;"
	"white-space:nowrap}\n"
	"table.sortable th{cursor:pointer}\n"
	".box{border:1px solid #d4a72c;background:#fff8c5;padding:6px 12px;border-radius:4px}\n"
	".box.bad{border-color:var(--bad);background:#fbe9e7}\n"
	".box ul{margin:.2em 0;padding-left:1.2em}\n"
	"pre{white-space:pre-wrap;overflow-wrap:anywhere;font-size:.82em;background:#f6f8fa;"
	"padding:8px;border-radius:4px}\n"
	"code{font-size:.92em;overflow-wrap:anywhere}\n"
	"figure{margin:1em 0;break-inside:avoid}figure svg{width:100%;height:auto;"
	"display:block}\n"
	"figcaption{font-size:.9em;color:#333}\n"
	"dl.kv{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px}"
	"dl.kv dt{color:#57606a}dl.kv dd{margin:0;overflow-wrap:anywhere}\n"
	"@media (max-width:640px){body{font-size:14px;padding:6px}.banner .word{font-size:1.5em}"
	"dl.kv{grid-template-columns:1fr}dl.kv dd{margin-bottom:4px}}\n"
	"@media print{@page{size:A4;margin:12mm}body{max-width:none;font-size:9.5pt;padding:0}"
	"a{color:inherit;text-decoration:none}h2{break-after:avoid}"
	".banner,.box{-webkit-print-color-adjust:exact;print-color-adjust:exact}"
	"details>summary{list-style:none}}\n";

/* click a column's header to sort the rows by it (numbers as numbers) */
static const char sorter[] =
	"document.querySelectorAll('table.sortable th').forEach(function(th){"
	"th.addEventListener('click',function(){var t=th.closest('table'),b=t.tBodies[0],"
	"i=th.cellIndex,d=th.getAttribute('data-dir')==='a'?-1:1;"
	"th.setAttribute('data-dir',d>0?'a':'d');"
	"var r=Array.prototype.slice.call(b.rows);r.sort(function(x,y){"
	"var a=x.cells[i].textContent,c=y.cells[i].textContent,p=parseFloat(a),q=parseFloat(c);"
	"if(!isNaN(p)&&!isNaN(q))return(p-q)*d;return a.localeCompare(c)*d;});"
	"r.forEach(function(e){b.appendChild(e);});});});\n";

void h_raw(struct page *p, const char *s)
{
	fputs(s, p->fp);
}

void h_text(struct page *p, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", p->fp); break;
		case '<': fputs("&lt;", p->fp); break;
		case '>': fputs("&gt;", p->fp); break;
		case '"': fputs("&quot;", p->fp); break;
		case '\'': fputs("&#39;", p->fp); break;
		default:
			/* control characters (but tab and newline) are not HTML */
			if ((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t')
				fputc(' ', p->fp);
			else
				fputc(*s, p->fp);
		}
	}
}

void h_fmt(struct page *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(p->fp, fmt, ap);
	va_end(ap);
}

void h_textf(struct page *p, const char *fmt, ...)
{
	char buf[8192];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	h_text(p, buf);
}

void h_link(struct page *p, const char *href, const char *text)
{
	h_raw(p, "<a href=\"");
	for (const unsigned char *s = (const unsigned char *)href; *s; s++) {
		if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || strchr("._~/-", *s))
			fputc(*s, p->fp);
		else
			fprintf(p->fp, "%%%02X", *s);
	}
	h_raw(p, "\">");
	h_text(p, text);
	h_raw(p, "</a>");
}

void page_begin(struct page *p, const char *title)
{
	h_raw(p, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		 "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		 "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		 "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
		 "<title>");
	h_text(p, title);
	h_raw(p, "</title>\n<style>\n");
	h_raw(p, style);
	h_raw(p, "</style>\n</head>\n<body>\n");
}

void h_banner(struct page *p, const char *cls, const char *word, const char *detail)
{
	h_fmt(p, "<div class=\"banner %s\" id=\"verdict\"><div class=\"word\">", cls);
	h_text(p, word);
	h_raw(p, "</div>");
	if (detail && *detail) {
		h_raw(p, "<div class=\"why\">");
		h_text(p, detail);
		h_raw(p, "</div>");
	}
	h_raw(p, "</div>\n");
}

void h_section(struct page *p, const char *id, const char *title)
{
	h_fmt(p, "<section id=\"%s\">\n<h2>", id);
	h_text(p, title);
	h_raw(p, "</h2>\n");
}

void h_section_end(struct page *p)
{
	h_raw(p, "</section>\n");
}

/* a cell: right-aligned when a number */
static void h_cell(struct page *p, const char *v)
{
	double x;
	h_raw(p, cell_num(v, &x) == 0 ? "<td class=\"n\">" : "<td>");
	h_text(p, v);
	h_raw(p, "</td>");
}

/* is dir/sub/name there? */
static int exists_in(const char *dir, const char *sub, const char *name)
{
	char path[RPT_PATH_MAX * 2];
	struct stat st;
	snprintf(path, sizeof(path), "%s/%s/%s", dir, sub, name);
	return stat(path, &st) == 0;
}

void h_table(struct page *p, const struct rtable *t, const char *const *cols, int sortable,
	     const char *link_col)
{
	size_t idx[512], n = 0;
	if (cols) {
		for (; *cols && n < 512; cols++) {
			int c = rt_col(t, *cols);
			if (c >= 0)
				idx[n++] = (size_t)c;
		}
	} else {
		for (size_t c = 0; c < t->ncols && n < 512; c++)
			idx[n++] = c;
	}
	if (sortable)
		p->sortable = 1;
	h_fmt(p, "<div class=\"tw\"><table%s>\n<thead><tr>",
	      sortable ? " class=\"sortable\"" : "");
	for (size_t i = 0; i < n; i++) {
		h_raw(p, "<th>");
		h_text(p, t->cell[idx[i]]);
		h_raw(p, "</th>");
	}
	h_raw(p, "</tr></thead>\n<tbody>\n");
	int lc = link_col ? rt_col(t, link_col) : -1;
	for (size_t r = 1; r <= t->nrows; r++) {
		h_raw(p, "<tr>");
		for (size_t i = 0; i < n; i++) {
			const char *v = t->cell[r * t->ncols + idx[i]];
			if ((int)idx[i] == lc && *v && !strstr(v, "..")) {
				/* its page, or with --repeat its first repeat's; else
				 * its summary.csv */
				static const char *const targets[] = { "report.html",
								       "r0/report.html",
								       "summary.csv",
								       "r0/summary.csv" };
				const char *to = targets[2];
				for (size_t k = 0; k < 4; k++)
					if (exists_in(p->dir, v, targets[k])) {
						to = targets[k];
						break;
					}
				char href[RPT_PATH_MAX];
				snprintf(href, sizeof(href), "%s/%s", v, to);
				h_raw(p, "<td>");
				h_link(p, href, v);
				h_raw(p, "</td>");
			} else {
				h_cell(p, v);
			}
		}
		h_raw(p, "</tr>\n");
	}
	h_raw(p, "</tbody></table></div>\n");
}

void h_warnings(struct page *p, const char *title, const char *text)
{
	h_raw(p, "<div class=\"box\" id=\"warnings\"><strong>");
	h_text(p, title);
	h_raw(p, "</strong>");
	if (!text || !*text) {
		h_raw(p, ": none</div>\n");
		return;
	}
	h_raw(p, "<ul>");
	for (const char *s = text; *s;) {
		size_t l = strcspn(s, "\n");
		if (l) {
			char line[4096];
			snprintf(line, sizeof(line), "%.*s", (int)l, s);
			h_raw(p, "<li>");
			h_text(p, line);
			h_raw(p, "</li>");
		}
		s += l + (s[l] == '\n');
	}
	h_raw(p, "</ul></div>\n");
}

void h_pre(struct page *p, const char *text)
{
	h_raw(p, "<pre>");
	h_text(p, text);
	h_raw(p, "</pre>\n");
}

char *rpt_read_text(const char *path, size_t max)
{
	FILE *fp = fopen(path, "rb");
	if (!fp)
		return NULL;
	char *buf = NULL;
	size_t n = 0, cap = 0;
	int c;
	while ((c = fgetc(fp)) != EOF && n < max) {
		if (n + 1 >= cap) {
			size_t ncap = cap ? 2 * cap : 4096;
			char *b = realloc(buf, ncap);
			if (!b) {
				free(buf);
				fclose(fp);
				return NULL;
			}
			buf = b;
			cap = ncap;
		}
		buf[n++] = (char)c;
	}
	int bad = ferror(fp);
	fclose(fp);
	if (bad) {
		free(buf);
		return NULL;
	}
	if (!buf)
		buf = calloc(1, 1);
	else
		buf[n] = '\0';
	return buf;
}

/* does s start with word? */
static int at(const char *s, const char *word)
{
	return !strncmp(s, word, strlen(word));
}

/*
 * The SVG of path inline: from its <svg element on (the XML declaration
 * and doctype left out), each id and each reference to one (href='#X',
 * url(#X)) prefixed with "fN-", so that the figures' identical ids stay
 * apart in one document.  0, or -1 when the file cannot be read.
 */
static int h_svg(struct page *p, const char *path)
{
	char *svg = rpt_read_text(path, SVG_BYTES_MAX);
	if (!svg)
		return -1;
	const char *s = strstr(svg, "<svg");
	if (!s) {
		free(svg);
		return -1;
	}
	char prefix[16];
	snprintf(prefix, sizeof(prefix), "f%d-", p->nsvg++);
	h_raw(p, "<svg role=\"img\"");
	s += 4;
	while (*s) {
		const char *q = s;
		size_t skip = 0;
		if ((at(q, "id='") || at(q, "id=\"")) && (q[-1] == ' ' || q[-1] == '\n' ||
							   q[-1] == '\t'))
			skip = 4;
		else if (at(q, "href='#") || at(q, "href=\"#"))
			skip = 7;
		else if (at(q, "url(#"))
			skip = 5;
		else if (at(q, "<title>Gnuplot</title>"))
			s += strlen("<title>Gnuplot</title>");
		if (skip) {
			fwrite(q, 1, skip, p->fp);
			fputs(prefix, p->fp);
			s += skip;
		} else if (*s) {
			size_t l = strcspn(s + 1, "iuh<") + 1;
			fwrite(s, 1, l, p->fp);
			s += l;
		}
	}
	free(svg);
	return 0;
}

/* the caption of figure name (sweep_X figures share "sweep_") */
static const char *caption_of(const struct caption *caps, const char *name)
{
	for (; caps && caps->name; caps++) {
		size_t l = strlen(caps->name);
		if (!strcmp(caps->name, name) ||
		    (l && caps->name[l - 1] == '_' && !strncmp(caps->name, name, l)))
			return caps->text;
	}
	return NULL;
}

static void mark_failed(struct page *p, const char *why)
{
	if (!p->fig_failed++) {
		size_t n = strlen(why);
		n = n < sizeof(p->fig_err) ? n : sizeof(p->fig_err) - 1;
		memcpy(p->fig_err, why, n);
		p->fig_err[n] = '\0';
	}
}

void h_figures(struct page *p, int rc, const char *err, const struct plot_figs *figs,
	       const struct caption *caps)
{
	if (rc < 0 && figs->n == 0) {
		mark_failed(p, err);
		h_raw(p, "<div class=\"box bad\"><strong>Figures not drawn:</strong> ");
		h_text(p, err);
		h_raw(p, "</div>\n");
		return;
	}
	for (int i = 0; i < figs->n; i++) {
		const struct plot_fig *f = &figs->fig[i];
		const char *cap = caption_of(caps, f->name);
		if (f->state == 0) {
			h_fmt(p, "<figure id=\"fig-%d\">", i);
			if (h_svg(p, f->path)) {
				char why[RPT_PATH_MAX + 64];
				snprintf(why, sizeof(why), "%s: cannot read the drawn figure",
					 f->path);
				mark_failed(p, why);
				h_raw(p, "<div class=\"box bad\">");
				h_text(p, why);
				h_raw(p, "</div>");
			}
			h_raw(p, "\n<figcaption><strong>");
			h_text(p, f->name);
			h_raw(p, "</strong>");
			if (cap) {
				h_raw(p, ": ");
				h_text(p, cap);
			}
			h_raw(p, "</figcaption></figure>\n");
		} else if (f->state > 0) {
			h_raw(p, "<p class=\"skip\"><strong>");
			h_text(p, f->name);
			h_raw(p, "</strong>: not drawn: ");
			h_text(p, f->note);
			h_raw(p, "</p>\n");
		} else {
			mark_failed(p, f->note);
			h_raw(p, "<div class=\"box bad\"><strong>");
			h_text(p, f->name);
			h_raw(p, " failed:</strong> ");
			h_text(p, f->note);
			h_raw(p, "</div>\n");
		}
	}
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the folder's files a reader may open: its CSVs and text files, linked */
static void h_files(struct page *p)
{
	DIR *d = opendir(p->dir);
	if (!d)
		return;
	char *names[256];
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < 256) {
		size_t l = strlen(e->d_name);
		static const char *const exts[] = { ".csv", ".ini", ".txt", ".json", ".env",
						    ".sh", NULL };
		for (int i = 0; exts[i]; i++) {
			size_t el = strlen(exts[i]);
			if (l > el && !strcmp(e->d_name + l - el, exts[i])) {
				names[n] = strdup(e->d_name);
				if (names[n])
					n++;
				break;
			}
		}
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), by_name);
	h_raw(p, "<dt>files</dt><dd>");
	for (size_t i = 0; i < n; i++) {
		char path[RPT_PATH_MAX + 300];
		struct stat st;
		snprintf(path, sizeof(path), "%s/%s", p->dir, names[i]);
		h_link(p, names[i], names[i]);
		if (stat(path, &st) == 0)
			h_fmt(p, " (%lld B)", (long long)st.st_size);
		h_raw(p, i + 1 < n ? ", " : "");
		free(names[i]);
	}
	h_raw(p, n ? "</dd>\n" : "none</dd>\n");
}

void page_end(struct page *p, const char *wall_note)
{
	const struct report_meta *m = p->meta;
	h_section(p, "provenance", "Provenance");
	h_raw(p, "<dl class=\"kv\">\n<dt>program</dt><dd>dcqcn-sim ");
	h_text(p, m && m->version ? m->version : "(version unknown)");
	h_raw(p, "</dd>\n<dt>build type</dt><dd>");
	h_text(p, m && m->build_type ? m->build_type : "unknown");
	h_raw(p, "</dd>\n<dt>folder</dt><dd><code>");
	h_text(p, p->dir);
	h_raw(p, "</code></dd>\n");
	char when[64] = "unknown";
	time_t now = time(NULL);
	struct tm tm;
	if (gmtime_r(&now, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	h_raw(p, "<dt>page written</dt><dd>");
	h_text(p, when);
	h_raw(p, "</dd>\n");
	/* when the results were: the folder's main table's time */
	static const char *const tables[] = { "compare.csv", "calibrate.csv", "nccl-tests.csv",
					      "sweep.csv", "summary.csv", NULL };
	for (int i = 0; tables[i]; i++) {
		char path[RPT_PATH_MAX + 32];
		struct stat st;
		snprintf(path, sizeof(path), "%s/%s", p->dir, tables[i]);
		if (stat(path, &st) || !gmtime_r(&st.st_mtime, &tm))
			continue;
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
		h_raw(p, "<dt>results written</dt><dd>");
		h_textf(p, "%s (%s)", when, tables[i]);
		h_raw(p, "</dd>\n");
		break;
	}
	char wall[128] = "";
	if ((!wall_note || !*wall_note) && m && m->wall_s >= 0) {
		snprintf(wall, sizeof(wall), "%.2f s (the command that wrote the folder)",
			 m->wall_s);
		wall_note = wall;
	}
	if (wall_note && *wall_note) {
		h_raw(p, "<dt>wall time</dt><dd>");
		h_text(p, wall_note);
		h_raw(p, "</dd>\n");
	}
	h_files(p);
	h_raw(p, "</dl>\n");
	h_section_end(p);
	if (p->sortable) {
		h_raw(p, "<script>\n");
		h_raw(p, sorter);
		h_raw(p, "</script>\n");
	}
	h_raw(p, "</body>\n</html>\n");
}

int h_figures_section(struct page *p, page_draw_fn draw, const struct caption *captions,
		      char *err, size_t errlen)
{
	h_section(p, "figures", "Figures");
	struct plot_figs *figs = calloc(1, sizeof(*figs));
	if (!figs) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	char ferr[1024] = "";
	figs->out_dir = p->tmp;
	int frc = draw(p->dir, p->meta ? p->meta->scripts_dir : NULL, "svg", figs, ferr,
		       sizeof(ferr));
	h_figures(p, frc, ferr, figs, captions);
	free(figs);
	h_section_end(p);
	return 0;
}
