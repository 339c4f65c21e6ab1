/*
 * pause_map.c - the data of pause_map.png (pause_map.gp): the paused
 * fraction of the most paused transmitters of pause.csv, binned in time.
 */
#include "plots/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PAUSE_ROWS_MAX 40 /* rows of the pause map */
#define PAUSE_COLS_MAX 1000 /* time bins of the pause map */

static const char *const pause_cols[] = {"time_us",	    "node",   "port", "priority",
					 "paused_fraction", "frames", NULL};

static int by_sum(const void *a, const void *b)
{
	const struct series *x = *(struct series *const *)a, *y = *(struct series *const *)b;
	if (x->sum != y->sum)
		return x->sum < y->sum ? 1 : -1;
	return strcmp(x->key, y->key);
}

/* earliest onset first (a storm spreading reads top to bottom) */
static int by_onset(const void *a, const void *b)
{
	const struct series *x = *(struct series *const *)a, *y = *(struct series *const *)b;
	if (x->first_us != y->first_us)
		return x->first_us > y->first_us ? 1 : -1;
	return by_sum(a, b);
}

struct pause {
	struct table t;
	unsigned prios; /* bit p: priority p seen */
	double max_t, min_t;
	double first_t, last_t; /* the first and the last row with a pause (0: none) */
	/* pass 2 */
	double interval, bin_us;
	double win0;		/* the window's start: bin 0 starts there */
	size_t ncols;
	double *grid; /* [slot][col], sum of fractions */
};

static int pause_pass1(struct scan *sc, char *const *f)
{
	struct pause *p = sc->ctx;
	double t, frac, frames, prio;
	if (scan_num(sc, f, 0, &t) || scan_num(sc, f, 3, &prio) || scan_num(sc, f, 4, &frac) ||
	    scan_num(sc, f, 5, &frames))
		return -1;
	char key[96];
	snprintf(key, sizeof(key), "%s\t%s\t%s", f[1], f[2], f[3]);
	struct series *s = table_get(&p->t, key);
	if (!s)
		return fail(sc->err, sc->errlen, "%s:%lu: out of memory or key too long",
			    sc->path, sc->line);
	s->sum += frac;
	if (frac > s->peak)
		s->peak = frac;
	if ((frac > 0 || frames > 0) && t < s->first_us)
		s->first_us = t;
	if (prio >= 0 && prio < 32)
		p->prios |= 1u << (unsigned)prio;
	if (frac > 0 || frames > 0) {
		if (p->first_t == 0 || t < p->first_t)
			p->first_t = t;
		if (t > p->last_t)
			p->last_t = t;
	}
	if (t > p->max_t)
		p->max_t = t;
	if (t > 0 && (p->min_t == 0 || t < p->min_t))
		p->min_t = t;
	return 0;
}

static int pause_pass2(struct scan *sc, char *const *f)
{
	struct pause *p = sc->ctx;
	char key[96];
	snprintf(key, sizeof(key), "%s\t%s\t%s", f[1], f[2], f[3]);
	const struct series *s = table_find(&p->t, key);
	if (!s || s->slot < 0)
		return 0;
	double t, frac;
	if (scan_num(sc, f, 0, &t) || scan_num(sc, f, 4, &frac))
		return -1;
	/* the row's time is the end of its interval: bin by the interval's middle */
	double col = floor((t - p->interval / 2 - p->win0) / p->bin_us);
	if (col < 0 || col >= (double)p->ncols)
		return 0; /* outside the window: no pause there */
	p->grid[(size_t)s->slot * p->ncols + (size_t)col] += frac;
	return 0;
}

int shape_pause(struct fig *g, const struct run_info *ri, char *err, size_t errlen)
{
	struct pause p = {0};
	struct series **sel = NULL;
	FILE *out = NULL;
	int rc = -1;
	long rows = scan_csv(g->dir, "pause.csv", pause_cols, pause_pass1, &p, err, errlen);
	if (rows < 0)
		goto done;
	double t_end = ri->t_end_us > 0 ? ri->t_end_us : p.max_t;
	p.interval = ri->interval_us > 0 ? ri->interval_us : p.min_t > 0 ? p.min_t : 1;
	/* the window where something happens: the pauses' span and 15 % of it
	 * (two intervals at least) either side, when that is under half the run;
	 * else the whole run */
	double win0, win1;
	plot_window(p.first_t - p.interval, p.last_t, p.interval, t_end, &win0, &win1);
	p.win0 = win0;
	double nint = ceil((win1 - win0) / p.interval - 1e-9);
	if (nint < 1)
		nint = 1;
	double per_col = ceil(nint / PAUSE_COLS_MAX);
	p.bin_us = per_col * p.interval;
	p.ncols = (size_t)ceil(nint / per_col);
	int n = table_select(&p.t, by_sum, PAUSE_ROWS_MAX, &sel);
	if (n < 0) {
		fail(err, errlen, "out of memory");
		goto done;
	}
	/* the drawn rows, earliest onset at the top */
	qsort(sel, (size_t)n, sizeof(*sel), by_onset);
	for (int i = 0; i < n; i++)
		sel[i]->slot = i;
	p.grid = calloc((size_t)(n ? n : 1) * p.ncols, sizeof(*p.grid));
	if (!p.grid) {
		fail(err, errlen, "out of memory");
		goto done;
	}
	if (n > 0 && scan_csv(g->dir, "pause.csv", pause_cols, pause_pass2, &p, err, errlen) < 0)
		goto done;
	int show_prio = (p.prios & (p.prios - 1)) != 0;
	if (!(out = data_open(g, "pause_rows.dat", err, errlen)))
		goto done;
	fputs("row\ttransmitter\tpaused_us\n", out);
	size_t label_chars = 0; /* the longest row label, for the left margin */
	for (int i = 0; i < n; i++) {
		char node[96], *port, *prio;
		strcpy(node, sel[i]->key);
		port = strchr(node, '\t');
		*port++ = '\0';
		prio = strchr(port, '\t');
		*prio++ = '\0';
		size_t w = strlen(node) + strlen(port) + 3 + (show_prio ? 3 + strlen(prio) : 0);
		if (w > label_chars)
			label_chars = w;
		fprintf(out, "%d\t%s " ARROW " %s%s%s\t%.3f\n", i, node, port,
			show_prio ? "  p" : "", show_prio ? prio : "", sel[i]->sum * p.interval);
	}
	rc = data_close(out, g, "pause_rows.dat", err, errlen);
	out = NULL;
	if (rc)
		goto done;
	rc = -1;
	if (!(out = data_open(g, "pause_map.dat", err, errlen)))
		goto done;
	/* gnuplot draws `with image` only from a grid of at least 2 x 2
	 * points, so each transmitter is two scan lines (y = row -+ 0.25) and
	 * a single time bin two half bins */
	fputs("time_us\trow\tpaused_fraction\n", out);
	for (int i = 0; i < n; i++) {
		for (int half = 0; half < 2; half++) {
			for (size_t c = 0; c < p.ncols; c++) {
				double lo = (double)c * per_col, hi = fmin(lo + per_col, nint);
				double v = p.grid[(size_t)i * p.ncols + c] / (hi - lo);
				double y = i + (half ? 0.25 : -0.25);
				if (v > 1)
					v = 1;
				if (p.ncols > 1) {
					fprintf(out, "%.3f\t%.2f\t%.4f\n",
						win0 + ((double)c + 0.5) * p.bin_us, y, v);
				} else {
					fprintf(out, "%.3f\t%.2f\t%.4f\n", win0 + 0.25 * p.bin_us, y,
						v);
					fprintf(out, "%.3f\t%.2f\t%.4f\n", win0 + 0.75 * p.bin_us, y,
						v);
				}
			}
			fputc('\n', out);
		}
	}
	rc = data_close(out, g, "pause_map.dat", err, errlen);
	out = NULL;
	if (rc)
		goto done;
	char prios[32] = "";
	for (unsigned b = 0; b < 32; b++)
		if (p.prios >> b & 1)
			snprintf(prios + strlen(prios), sizeof(prios) - strlen(prios), "%s%u",
				 *prios ? "," : "", b);
	rc = write_vars(g, ri, t_end, err, errlen,
			"nrows = %d\nntransmitters = %zu\nbin_us = %.6g\npriorities = \"%s\"\n"
			"label_chars = %zu\nwin0_us = %.3f\nwin1_us = %.3f\nzoomed = %d\n",
			n, p.t.n, p.bin_us, prios, label_chars, win0, win1,
			win0 > 0 || win1 < t_end);
done:
	if (out)
		fclose(out);
	free(p.grid);
	free(sel);
	table_free(&p.t);
	return rc;
}
