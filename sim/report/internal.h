/*
 * internal.h - what the files of the report share; nothing outside
 * sim/report/ includes it.
 *
 * page.c writes the page: the skeleton (head, style sheet, the sorting
 * script), escaped text, tables, the verdict banner, figures inlined from
 * gnuplot's SVG (their ids prefixed, so that two figures' "gpPt0" do not
 * collide in one document).  table.c reads a CSV file whole into memory
 * (the small ones: summary.csv, collectives.csv, sweep.csv, ...; never
 * flows.csv).  One file per kind of page: run.c, sweep.c, calibrate.c,
 * compare.c (and nccl-tests' page); run.c's page has its table per job in
 * jobs.c and its timeline in timeline.c; report.c tells the kind and writes
 * the file.
 */
#ifndef DCQCN_REPORT_INTERNAL_H
#define DCQCN_REPORT_INTERNAL_H

#include <stddef.h>
#include <stdio.h>

#include "plots/plot.h"
#include "sim/report/report.h"

#define RPT_PATH_MAX 4200
#define TABLE_BYTES_MAX (16u << 20) /* a CSV the page reads whole */

/* ---- table.c: a CSV file in memory ---------------------------------------- */

struct rtable {
	char path[RPT_PATH_MAX]; /* for messages */
	size_t nrows, ncols;	 /* data rows; columns of the header */
	char **cell;		 /* (nrows + 1) x ncols, row 0 the header; a short
				  * row's missing cells are "" */
};

/* dir/name into t; 0, or -1 with err (missing: "PATH: cannot open: ...";
 * larger than TABLE_BYTES_MAX; a row with more fields than the header) */
int rt_read(struct rtable *t, const char *dir, const char *name, char *err, size_t errlen);
void rt_free(struct rtable *t);
/* the column called name, or -1 */
int rt_col(const struct rtable *t, const char *name);
/* the cell of row r (0-based data row) and column name; "" when the column
 * is missing */
const char *rt_get(const struct rtable *t, size_t r, const char *name);
/* 0 when every name of the NULL-terminated cols is a column; else -1 with
 * "PATH: no column NAME" */
int rt_need(const struct rtable *t, const char *const *cols, char *err, size_t errlen);
/* the cell as a number: 0, or -1 when empty or not a number */
int cell_num(const char *s, double *v);

/* ---- page.c: the page ------------------------------------------------------ */

struct page {
	FILE *fp;
	const char *dir;	  /* the folder reported */
	const struct report_meta *meta;
	char tmp[RPT_PATH_MAX];	  /* the temporary folder of the figures */
	int nsvg;		  /* figures inlined (their ids' prefix) */
	int fig_failed;		  /* a figure could not be drawn */
	char fig_err[1024];	  /* the first such failure */
	int sortable;		  /* the page has a sortable table: add the script */
};

/* the escaped text of s (& < > " ') */
void h_text(struct page *p, const char *s);
/* markup, as is */
void h_raw(struct page *p, const char *s);
/* markup, formatted (arguments that are text from files go through h_text) */
__attribute__((format(printf, 2, 3))) void h_fmt(struct page *p, const char *fmt, ...);
/* formatted, then escaped */
__attribute__((format(printf, 2, 3))) void h_textf(struct page *p, const char *fmt, ...);
/* a relative link to a file of the folder: href percent-encoded, text escaped */
void h_link(struct page *p, const char *href, const char *text);

/* <!DOCTYPE html> to <body>, with the title (escaped) */
void page_begin(struct page *p, const char *title);
/* the provenance section, the script when p->sortable, </body></html> */
void page_end(struct page *p, const char *wall_note);

/* the banner: cls "pass", "fail" or "nj"; word ("PASS"), then detail (escaped) */
void h_banner(struct page *p, const char *cls, const char *word, const char *detail);
/* a section: <section id=ID><h2>TITLE</h2> ... h_section_end */
void h_section(struct page *p, const char *id, const char *title);
void h_section_end(struct page *p);
/* a table from t: the columns listed (NULL: all), header and rows, escaped;
 * sortable adds the click-to-sort script; link_col (or NULL): the column whose
 * cell is a folder of DIR, linked to its report.html or summary.csv */
void h_table(struct page *p, const struct rtable *t, const char *const *cols, int sortable,
	     const char *link_col);
/* a warnings box from the lines of text (NULL or empty: "none") */
void h_warnings(struct page *p, const char *title, const char *text);
/* a <pre> block of text (escaped) */
void h_pre(struct page *p, const char *text);

/* caption of a figure by name, for figs; NULL at the end of the list */
struct caption {
	const char *name;
	const char *text;
};
/* the figures a plot_*_to call gave (its rc and err), each in a <figure>
 * with its caption (caps, else none); a failed or missing gnuplot marks the
 * page (p->fig_failed) and says so where the figures would be */
void h_figures(struct page *p, int rc, const char *err, const struct plot_figs *figs,
	       const struct caption *caps);
/* the "Figures" section: draw(dir, scripts, "svg", figs, ...) into the
 * page's temporary folder, then h_figures; 0, or -1 with err (out of
 * memory) */
typedef int (*page_draw_fn)(const char *dir, const char *scripts_dir, const char *format,
			    struct plot_figs *figs, char *err, size_t errlen);
int h_figures_section(struct page *p, page_draw_fn draw, const struct caption *captions,
		      char *err, size_t errlen);

/* a whole file's text (at most max bytes) into a new string, NULL when it
 * cannot be read */
char *rpt_read_text(const char *path, size_t max);

/* ---- the pages (one file each) ------------------------------------------------ */

struct scenario;
/* jobs.c: the run page's table per job (counters.csv, collectives.csv,
 * storage_jobs.csv); 0, or -1 with err (a damaged collectives.csv) */
int run_jobs_table(struct page *p, const struct scenario *s, const char *ini,
		   const struct rtable *sum, char *err, size_t errlen);
/* timeline.c: the run's iterations, faults and watchdog storms on one time axis */
void run_timeline(struct page *p, const struct scenario *s, double t_end_us);

/* each writes the page body between page_begin and page_end; 0, or -1 with
 * err when a file it needs is missing or damaged (nothing is kept) */
int page_run(struct page *p, char *err, size_t errlen);
int page_sweep(struct page *p, char *err, size_t errlen);
int page_calibrate(struct page *p, char *err, size_t errlen);
int page_compare(struct page *p, char *err, size_t errlen);
int page_nccltests(struct page *p, char *err, size_t errlen);

#endif
