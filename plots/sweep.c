/*
 * sweep.c - the data of a sweep directory's figures (plot_sweep), from
 * sweep.csv alone: sweep_METRIC.png (sweep.gp), each metric against the
 * first axis with a base unit, a line per combination of the other axes,
 * and sweep_pass.png (sweep_pass.gp), the verdicts over the first two axes.
 */
#include "plots/internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SW_LINE_BYTES 65536
#define SW_COLS_MAX 512
#define SW_ROWS_MAX 10000 /* sweep.h SWEEP_MAX_POINTS */
#define SW_AXES_MAX 8
#define SW_SERIES_MAX 64   /* lines of one chart */

struct sw_axis {
	int col, base;		   /* columns of KEY and KEY_unit (-1: none) */
	const char *unit;	   /* "B", "ps", ... or NULL */
	const char *vals[SW_ROWS_MAX]; /* distinct values, in order of appearance */
	double num[SW_ROWS_MAX];       /* their base values (base >= 0) */
	int n;
};

struct sw {
	char *hdr, **h;		/* the header line and its fields */
	int nh;
	char **lines;		/* the data rows, split in place */
	char ***f;
	int *nf, nrows;
	struct sw_axis ax[SW_AXES_MAX];
	int nax;
	int xa;			/* the axis on x */
	int *xi, *si;		/* per row: its x value, its series */
	char series[SW_SERIES_MAX][256];
	int nseries;
};

static int sw_col(const struct sw *w, const char *name)
{
	for (int i = 0; i < w->nh; i++)
		if (!strcmp(w->h[i], name))
			return i;
	return -1;
}

static const char *sw_cell(const struct sw *w, int r, int c)
{
	return c >= 0 && c < w->nf[r] ? w->f[r][c] : "";
}

static void sw_free(struct sw *w)
{
	for (int r = 0; r < w->nrows; r++) {
		free(w->lines[r]);
		free(w->f[r]);
	}
	free(w->lines);
	free(w->f);
	free(w->nf);
	free(w->xi);
	free(w->si);
	free(w->hdr);
	free(w->h);
}

/* read DIR/sweep.csv: its rows, its axes (the columns between dir and
 * sim_time_us, each followed by its base-unit column KEY_unit when it has
 * one), the axis on x and each row's line; 0, or -1 with err */
static int sw_read(struct sw *w, const char *dir, char *err, size_t errlen)
{
	char path[PLOT_PATH_MAX], *line = malloc(SW_LINE_BYTES);
	if (!line || join(path, sizeof(path), dir, "sweep.csv", err, errlen)) {
		free(line);
		return line ? -1 : fail(err, errlen, "out of memory");
	}
	FILE *fp = fopen(path, "r");
	if (!fp) {
		free(line);
		return fail(err, errlen, "%s: cannot read: %s", path, strerror(errno));
	}
	w->lines = calloc(SW_ROWS_MAX, sizeof(*w->lines));
	w->f = calloc(SW_ROWS_MAX, sizeof(*w->f));
	w->nf = calloc(SW_ROWS_MAX, sizeof(*w->nf));
	w->h = calloc(SW_COLS_MAX, sizeof(*w->h));
	int rc = w->lines && w->f && w->nf && w->h ? 0 : fail(err, errlen, "out of memory");
	for (int row = 0; rc == 0 && fgets(line, SW_LINE_BYTES, fp); row++) {
		line[strcspn(line, "\r\n")] = '\0';
		char *copy = strdup(line), **f = calloc(SW_COLS_MAX, sizeof(char *));
		if (!copy || !f) {
			free(copy);
			free(f);
			rc = fail(err, errlen, "out of memory");
			break;
		}
		int n = 0;
		for (char *c = copy; n < SW_COLS_MAX;) {
			f[n++] = c;
			if (!(c = strchr(c, ',')))
				break;
			*c++ = '\0';
		}
		if (row == 0) {
			w->hdr = copy;
			memcpy(w->h, f, sizeof(char *) * (size_t)n);
			w->nh = n;
			free(f);
		} else if (w->nrows == SW_ROWS_MAX) {
			free(copy);
			free(f);
			rc = fail(err, errlen, "%s: more than %d rows", path, SW_ROWS_MAX);
		} else {
			w->lines[w->nrows] = copy;
			w->f[w->nrows] = f;
			w->nf[w->nrows++] = n;
		}
	}
	fclose(fp);
	free(line);
	if (rc)
		return rc;
	int first = sw_col(w, "sim_time_us");
	if (w->nh < 3 || strcmp(w->h[0], "point") || strcmp(w->h[1], "dir") || first < 0)
		return fail(err, errlen, "%s: not a sweep.csv (point,dir,AXES...,sim_time_us,...)",
			    path);
	if (!w->nrows)
		return fail(err, errlen, "%s: no point finished (no rows)", path);
	for (int c = 2; c < first; c++) {
		struct sw_axis *a = &w->ax[w->nax];
		size_t l = w->nax ? strlen(w->h[w->ax[w->nax - 1].col]) : 0;
		if (w->nax && w->ax[w->nax - 1].base < 0 &&
		    !strncmp(w->h[c], w->h[w->ax[w->nax - 1].col], l) && w->h[c][l] == '_') {
			w->ax[w->nax - 1].base = c;
			w->ax[w->nax - 1].unit = w->h[c] + l + 1;
			continue;
		}
		if (w->nax == SW_AXES_MAX)
			return fail(err, errlen, "%s: more than %d axes", path, SW_AXES_MAX);
		a->col = c;
		a->base = -1;
		w->nax++;
	}
	w->xa = 0;
	for (int i = w->nax - 1; i >= 0; i--)
		if (w->ax[i].base >= 0)
			w->xa = i;
	w->xi = calloc((size_t)w->nrows, sizeof(int));
	w->si = calloc((size_t)w->nrows, sizeof(int));
	if (!w->xi || !w->si)
		return fail(err, errlen, "out of memory");
	for (int r = 0; r < w->nrows; r++) {
		for (int i = 0; i < w->nax; i++) { /* the distinct values of each axis */
			struct sw_axis *a = &w->ax[i];
			const char *v = sw_cell(w, r, a->col);
			int k = 0;
			while (k < a->n && strcmp(a->vals[k], v))
				k++;
			if (k == a->n) {
				a->vals[a->n] = v;
				if (a->base < 0 || parse_double(sw_cell(w, r, a->base), &a->num[k]))
					a->num[k] = NAN;
				a->n++;
			}
			if (i == w->xa)
				w->xi[r] = k;
		}
		char key[256] = ""; /* the line: the other axes' values */
		size_t n = 0;
		for (int i = 0; i < w->nax; i++)
			if (i != w->xa && n < sizeof(key))
				n += (size_t)snprintf(key + n, sizeof(key) - n, "%s%s=%s", n ? ", " : "",
						      w->h[w->ax[i].col], sw_cell(w, r, w->ax[i].col));
		int k = 0;
		while (k < w->nseries && strcmp(w->series[k], key))
			k++;
		if (k == w->nseries) {
			if (w->nseries == SW_SERIES_MAX)
				return fail(err, errlen, "%s: more than %d lines (combinations of the axes "
					    "after the first): plot fewer", path, SW_SERIES_MAX);
			snprintf(w->series[w->nseries++], sizeof(w->series[0]), "%s", key);
		}
		w->si[r] = k;
	}
	return 0;
}

/* the x values in the order drawn: by base value (numeric axis), else as
 * they appear */

/* a new struct sw for sw_read; sw_close frees it */
int sw_open(struct sw **w, const char *dir, char *err, size_t errlen)
{
	*w = calloc(1, sizeof(**w));
	if (!*w)
		return fail(err, errlen, "out of memory");
	return sw_read(*w, dir, err, errlen);
}

void sw_close(struct sw *w)
{
	if (w)
		sw_free(w);
	free(w);
}

int sw_axes(const struct sw *w)
{
	return w->nax;
}

static void sw_x_order(const struct sw *w, int *order)
{
	const struct sw_axis *a = &w->ax[w->xa];
	for (int i = 0; i < a->n; i++)
		order[i] = i;
	for (int i = 1; a->base >= 0 && i < a->n; i++) /* insertion sort, few values */
		for (int j = i; j > 0 && a->num[order[j]] < a->num[order[j - 1]]; j--) {
			int t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
}

/* sweep_METRIC.dat and .vars; 0, 1 when the metric has no number (note in
 * g->note), -1 with err */
int sw_shape_metric(const struct sw *w, struct fig *g, const char *metric, char *err, size_t errlen)
{
	char name[160], file[200], q[600], qx[300], qu[64];
	int c = sw_col(w, metric);
	snprintf(name, sizeof(name), "%s_min", metric);
	int cmin = sw_col(w, name);
	snprintf(name, sizeof(name), "%s_max", metric);
	int cmax = sw_col(w, name);
	int bars = cmin >= 0 && cmax >= 0, numbers = 0;
	const struct sw_axis *a = &w->ax[w->xa];
	int *order = malloc(sizeof(int) * (size_t)a->n);
	if (!order)
		return fail(err, errlen, "out of memory");
	if (c < 0) {
		free(order);
		return fail(err, errlen, "sweep.csv has no column %s", metric);
	}
	sw_x_order(w, order);
	snprintf(file, sizeof(file), "%s.dat", g->name);
	FILE *fp = data_open(g, file, err, errlen);
	if (!fp) {
		free(order);
		return -1;
	}
	fprintf(fp, "x\txlabel");
	for (int k = 0; k < w->nseries; k++) {
		const char *t = w->nseries == 1 && !w->series[k][0] ? metric : w->series[k];
		fprintf(fp, "\t%s", t);
		if (bars)
			fprintf(fp, "\t%s min\t%s max", t, t);
	}
	fprintf(fp, "\n");
	for (int i = 0; i < a->n; i++) {
		int x = order[i];
		char b[32];
		if (a->base >= 0) /* a numeric axis: its base value; categories: their index */
			fprintf(fp, "%s\t%s", gp_num(a->num[x], b, sizeof(b)), a->vals[x]);
		else
			fprintf(fp, "%d\t%s", i, a->vals[x]);
		for (int k = 0; k < w->nseries; k++) {
			int cols[3] = { c, cmin, cmax };
			for (int j = 0; j < (bars ? 3 : 1); j++) {
				double v = NAN;
				for (int r = 0; r < w->nrows; r++)
					if (w->xi[r] == x && w->si[r] == k) { /* one row per x and line */
						if (parse_double(sw_cell(w, r, cols[j]), &v))
							v = NAN;
						break;
					}
				numbers += !isnan(v);
				fprintf(fp, "\t%s", gp_num(v, b, sizeof(b)));
			}
		}
		fprintf(fp, "\n");
	}
	free(order);
	if (data_close(fp, g, file, err, errlen))
		return -1;
	if (!numbers) {
		snprintf(g->note, sizeof(g->note), "%s has no number in sweep.csv", metric);
		return 1;
	}
	double lo = INFINITY, hi = -INFINITY;
	for (int i = 0; i < a->n; i++)
		if (!isnan(a->num[i])) {
			lo = fmin(lo, a->num[i]);
			hi = fmax(hi, a->num[i]);
		}
	snprintf(file, sizeof(file), "%s.vars", g->name);
	fp = data_open(g, file, err, errlen);
	if (!fp)
		return -1;
	gp_quote(q, sizeof(q), metric);
	gp_quote(qx, sizeof(qx), w->h[a->col]);
	gp_quote(qu, sizeof(qu), a->unit ? a->unit : "");
	fprintf(fp, "# written by dcqcn-sim plot for sweep.gp\n"
		    "metric = %s\nxkey = %s\nxunit = %s\nnseries = %d\nbars = %d\n"
		    "numeric_x = %d\nlog_x = %d\nnx = %d\n",
		q, qx, qu, w->nseries, bars, a->base >= 0,
		a->base >= 0 && lo > 0 && hi / lo >= 100, a->n);
	return data_close(fp, g, file, err, errlen);
}

/* sweep_pass.dat and .vars: the verdicts over the first two axes, the
 * worst over the others; 0, or -1 with err */
/* the sweep.csv value that a failed criterion judged ("" when none: jobs_failed
 * is its own count) */
static void sw_measured(const struct sw *w, int r, const char *crit, char *buf, size_t len)
{
	static const char *const map[][2] = {
		{ "max_ecn_mark_pct", "ecn_mark_pct" },
		{ "max_lossless_drops", "drops_lossless" },
		{ "min_busbw_pct_line", "busbw_judged_min_pct" },
		{ "max_pause_frame_rate", "pause_frame_rate" },
		{ "jobs_failed", "jobs_failed" },
		{ "max_retransmitted_pct", "retransmitted_pct" },
	};
	buf[0] = '\0';
	if (!strcmp(crit, "max_drops")) {
		double sum = 0, v;
		static const char *const d[] = { "drops_lossless", "drops_lossy", "drops_pfcwd" };
		for (int i = 0; i < 3; i++)
			if (!parse_double(sw_cell(w, r, sw_col(w, d[i])), &v))
				sum += v;
		snprintf(buf, len, "%.0f", sum);
		return;
	}
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(map[i][0], crit)) {
			snprintf(buf, len, "%s", sw_cell(w, r, sw_col(w, map[i][1])));
			return;
		}
}

/*
 * sweep_pass_why.dat: xi, yi and what a failing cell missed: the first
 * failed criterion of its first failing point and the value measured
 * ("max_ecn_mark_pct 18.303"), "+N" for its other failed criteria; a cell
 * not judged says so.  Tab-separated, one row per such cell.
 */
static int sw_shape_why(const struct sw *w, struct fig *g, int cp, int *nwhy, char *err,
			size_t errlen)
{
	const struct sw_axis *ax = &w->ax[0], *ay = &w->ax[1];
	int cf = sw_col(w, "criteria_failed");
	FILE *fp = data_open(g, "sweep_pass_why.dat", err, errlen);
	if (!fp)
		return -1;
	fprintf(fp, "xi\tyi\twhy\n");
	for (int y = 0; y < ay->n; y++)
		for (int x = 0; x < ax->n; x++) {
			int first = -1, unjudged = 0;
			for (int r = 0; r < w->nrows && first < 0; r++) {
				if (strcmp(sw_cell(w, r, ax->col), ax->vals[x]) ||
				    strcmp(sw_cell(w, r, ay->col), ay->vals[y]))
					continue;
				const char *v = sw_cell(w, r, cp);
				if (!strcmp(v, "0"))
					first = r;
				else if (strcmp(v, "1"))
					unjudged = 1;
			}
			if (first < 0) {
				if (unjudged) {
					fprintf(fp, "%d\t%d\tnot judged\n", x, y);
					++*nwhy;
				}
				continue;
			}
			const char *failed = sw_cell(w, first, cf);
			char crit[96], val[64];
			size_t l = strcspn(failed, ";");
			snprintf(crit, sizeof(crit), "%.*s", (int)l, failed);
			int more = 0;
			for (const char *c = failed; *c; c++)
				more += *c == ';';
			sw_measured(w, first, crit, val, sizeof(val));
			for (char *c = crit; *c; c++)
				if (*c == '\t')
					*c = ' ';
			fprintf(fp, "%d\t%d\t%s%s%s", x, y, crit, *val ? " " : "", val);
			if (more)
				fprintf(fp, " +%d", more);
			fputc('\n', fp);
			++*nwhy;
		}
	return data_close(fp, g, "sweep_pass_why.dat", err, errlen);
}

int sw_shape_pass(const struct sw *w, struct fig *g, char *err, size_t errlen)
{
	const struct sw_axis *ax = &w->ax[0], *ay = &w->ax[1];
	int cp = sw_col(w, "criteria_pass");
	if (cp < 0)
		return fail(err, errlen, "sweep.csv has no column criteria_pass");
	FILE *fp = data_open(g, "sweep_pass.dat", err, errlen);
	if (!fp)
		return -1;
	fprintf(fp, "xi\tyi\txlabel\tylabel\tpass\n");
	for (int y = 0; y < ay->n; y++)
		for (int x = 0; x < ax->n; x++) {
			int seen = 0, fails = 0, unjudged = 0;
			for (int r = 0; r < w->nrows; r++) {
				if (strcmp(sw_cell(w, r, ax->col), ax->vals[x]) ||
				    strcmp(sw_cell(w, r, ay->col), ay->vals[y]))
					continue;
				const char *v = sw_cell(w, r, cp);
				seen++;
				fails += !strcmp(v, "0");
				unjudged += strcmp(v, "0") && strcmp(v, "1");
			}
			fprintf(fp, "%d\t%d\t%s\t%s\t%s\n", x, y, ax->vals[x], ay->vals[y],
				!seen ? "NaN" : fails ? "0" : unjudged ? "0.5" : "1");
		}
	int nwhy = 0;
	if (data_close(fp, g, "sweep_pass.dat", err, errlen) ||
	    sw_shape_why(w, g, cp, &nwhy, err, errlen))
		return -1;
	fp = data_open(g, "sweep_pass.vars", err, errlen);
	if (!fp)
		return -1;
	char qx[300], qy[300];
	gp_quote(qx, sizeof(qx), w->h[ax->col]);
	gp_quote(qy, sizeof(qy), w->h[ay->col]);
	fprintf(fp, "# written by dcqcn-sim plot for sweep_pass.gp\n"
		    "xkey = %s\nykey = %s\nnx = %d\nny = %d\nmore_axes = %d\nnwhy = %d\n",
		qx, qy, ax->n, ay->n, w->nax > 2, nwhy);
	return data_close(fp, g, "sweep_pass.vars", err, errlen);
}
