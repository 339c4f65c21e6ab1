/*
 * queues.c - the data of queues.png (queues.gp): the QUEUES_MAX busiest
 * switch egress queues of queues.csv over time, in KB.
 */
#include "plots/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define QUEUES_MAX 6 /* queue series drawn */

static const char *const queue_cols[] = {"time_us", "node", "port", "queue", "bytes", NULL};

/* biggest peak first, then the key: a deterministic order */
static int by_peak(const void *a, const void *b)
{
	const struct series *x = *(struct series *const *)a, *y = *(struct series *const *)b;
	if (x->peak != y->peak)
		return x->peak < y->peak ? 1 : -1;
	return strcmp(x->key, y->key);
}

struct queues {
	struct table t;
	double last_t, min_step, max_t;
	double first_held;             /* the first time a queue held bytes; -1 none */
	/* pass 2 */
	struct thin th;
	int nsel;
	double cur_t, emit_t;
	int have_cur, emitted;
	double val[QUEUES_MAX];
	double last_val_sum;
};

static void queue_key(char *buf, size_t len, char *const *f)
{
	snprintf(buf, len, "%s\t%s\t%s", f[1], f[2], f[3]);
}

static int queues_pass1(struct scan *sc, char *const *f)
{
	struct queues *q = sc->ctx;
	double t, b;
	if (scan_num(sc, f, 0, &t) || scan_num(sc, f, 4, &b))
		return -1;
	char key[96];
	queue_key(key, sizeof(key), f);
	struct series *s = table_get(&q->t, key);
	if (!s)
		return fail(sc->err, sc->errlen, "%s:%lu: out of memory or key too long",
			    sc->path, sc->line);
	if (b > s->peak)
		s->peak = b;
	if (b > 0 && (q->first_held < 0 || t < q->first_held))
		q->first_held = t;
	if (sc->rows > 1 && t > q->last_t && (q->min_step == 0 || t - q->last_t < q->min_step))
		q->min_step = t - q->last_t;
	q->last_t = t;
	if (t > q->max_t)
		q->max_t = t;
	return 0;
}

/* one row of the wide grid: time_us, then each drawn queue in KB */
static void queues_emit(struct queues *q, double t, int zeros)
{
	double kb[QUEUES_MAX], sum = 0;
	for (int i = 0; i < q->nsel; i++) {
		kb[i] = zeros ? 0 : q->val[i] / 1000;
		sum += kb[i];
	}
	thin_add(&q->th, t, kb);
	q->emit_t = t;
	q->emitted = 1;
	q->last_val_sum = sum;
}

/*
 * Flush the samples of time cur_t as one row.  A queue has a row while it
 * is non-empty and once more when it empties, so a selected queue without a
 * row at a time that another one has is empty then, and when none of them
 * has a row for more than one interval they were all empty: a zero row one
 * interval before the next sample keeps the line from ramping across it.
 */
static void queues_flush(struct queues *q, double interval)
{
	if (!q->have_cur)
		return;
	if (!q->emitted && q->cur_t > 0)
		queues_emit(q, 0, 1);
	if (q->cur_t - q->emit_t > 1.5 * interval)
		queues_emit(q, q->cur_t - interval, 1);
	queues_emit(q, q->cur_t, 0);
	for (int i = 0; i < q->nsel; i++)
		q->val[i] = 0;
	q->have_cur = 0;
}

static int queues_pass2(struct scan *sc, char *const *f)
{
	struct queues *q = sc->ctx;
	char key[96];
	queue_key(key, sizeof(key), f);
	const struct series *s = table_find(&q->t, key);
	if (!s || s->slot < 0)
		return 0;
	double t, b;
	if (scan_num(sc, f, 0, &t) || scan_num(sc, f, 4, &b))
		return -1;
	if (q->have_cur && t != q->cur_t)
		queues_flush(q, q->min_step);
	q->cur_t = t;
	q->have_cur = 1;
	q->val[s->slot] = b;
	return 0;
}

int shape_queues(struct fig *g, const struct run_info *ri, char *err, size_t errlen)
{
	struct queues q = { .first_held = -1 };
	struct series **sel = NULL;
	FILE *out = NULL;
	int rc = -1;
	long rows = scan_csv(g->dir, "queues.csv", queue_cols, queues_pass1, &q, err, errlen);
	if (rows < 0)
		goto done;
	if (rows == 0 && ri->queues_none) {
		snprintf(g->note, sizeof(g->note), "queues.csv has no rows (output.queues = none)");
		rc = 1;
		goto done;
	}
	if (rows == 0) { /* nothing to draw: skipped, as the other figures are */
		snprintf(g->note, sizeof(g->note), "queues.csv has no rows: no switch queue was "
			 "ever sampled non-empty");
		rc = 1;
		goto done;
	}
	if (ri->interval_us > 0)
		q.min_step = ri->interval_us;
	if (q.min_step <= 0)
		q.min_step = 1;
	int n = table_select(&q.t, by_peak, QUEUES_MAX, &sel);
	if (n < 0) {
		fail(err, errlen, "out of memory");
		goto done;
	}
	while (n > 0 && sel[n - 1]->peak <= 0)
		sel[--n]->slot = -1;
	if (n == 0) {
		fail(err, errlen, "%s/queues.csv: column bytes is 0 in every row", g->dir);
		goto done;
	}
	if (!(out = data_open(g, "queues.dat", err, errlen)))
		goto done;
	fputs("time_us", out);
	int ecn_shown = 0;
	for (int i = 0; i < n; i++) {
		char node[96], *port, *queue;
		strcpy(node, sel[i]->key);
		port = strchr(node, '\t');
		*port++ = '\0';
		queue = strchr(port, '\t');
		*queue++ = '\0';
		int qn = atoi(queue);
		if (qn >= 0 && qn < 32 && (ri->ecn_queues >> qn & 1))
			ecn_shown = 1;
		fprintf(out, "\t%s " ARROW " %s  q%s  (peak %.0f KB)", node, port, queue,
			sel[i]->peak / 1000);
	}
	fputc('\n', out);
	double t_end = ri->t_end_us > 0 ? ri->t_end_us : q.max_t;
	thin_init(&q.th, out, n, t_end, q.min_step);
	q.nsel = n;
	if (scan_csv(g->dir, "queues.csv", queue_cols, queues_pass2, &q, err, errlen) < 0)
		goto done;
	queues_flush(&q, q.min_step);
	if (q.last_val_sum == 0 && t_end > q.emit_t)
		queues_emit(&q, t_end, 1);
	thin_flush(&q.th);
	rc = data_close(out, g, "queues.dat", err, errlen);
	out = NULL;
	if (rc)
		goto done;
	char a[32], b[32];
	int fluid = shape_fluid(g, "queues.csv", 1e-3, "queues_fluid.dat", err, errlen);
	if (fluid < 0) {
		rc = -1;
		goto done;
	}
	/* the window where the queues held data (the last row: one emptied) */
	double win0, win1;
	int zoomed = plot_window(q.first_held - q.min_step, q.max_t, q.min_step, t_end, &win0,
				 &win1);
	rc = write_vars(g, ri, q.max_t, err, errlen,
			"nseries = %d\nnqueues = %zu\nkmin_kb = %s\nkmax_kb = %s\nfluid = %d\n"
			"win0_us = %.3f\nwin1_us = %.3f\nzoomed = %d\n",
			n, q.t.n, gp_num(ecn_shown ? ri->kmin_kb : NAN, a, sizeof(a)),
			gp_num(ecn_shown ? ri->kmax_kb : NAN, b, sizeof(b)), fluid, win0, win1,
			zoomed);
done:
	if (out)
		fclose(out);
	free(sel);
	table_free(&q.t);
	return rc;
}
