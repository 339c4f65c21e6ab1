/*
 * rates.c - the data of rates.png (rates.gp): pause frames per second and
 * the % of packets CE-marked, per sample interval of counters.csv.
 */
#include "plots/internal.h"

#include <math.h>

static const char *const counter_cols[] = {"time_us", "data_pkts_delivered",
					   "ecn_marked_pkts", "pause_frames", NULL};

struct counters {
	struct cnt_acc acc;
	struct thin th;
	double max_t;
	double delivered, marked, pauses;
};

/* v: data packets delivered, of them CE-marked, pause frames */
static void counters_emit(void *ctx, double t, double dt, const double *v)
{
	struct counters *c = ctx;
	double r[2] = {v[2] / (dt * 1e-6), v[0] > 0 ? 100 * v[1] / v[0] : NAN};
	thin_add(&c->th, t, r);
}

static int counters_row(struct scan *sc, char *const *f)
{
	struct counters *c = sc->ctx;
	double t, v[3];
	if (scan_num(sc, f, 0, &t) || scan_num(sc, f, 1, &v[0]) || scan_num(sc, f, 2, &v[1]) ||
	    scan_num(sc, f, 3, &v[2]))
		return -1;
	c->max_t = t;
	c->delivered += v[0];
	c->marked += v[1];
	c->pauses += v[2];
	return cnt_add(&c->acc, sc, f[0], t, v);
}

int shape_rates(struct fig *g, const struct run_info *ri, char *err, size_t errlen)
{
	struct counters c = {.acc = {.interval = ri->interval_us, .n = 3, .emit = counters_emit}};
	c.acc.ctx = &c;
	FILE *out = data_open(g, "rates.dat", err, errlen);
	if (!out)
		return -1;
	fputs("time_us\tpause_frames_per_s\tecn_marked_pct\n", out);
	thin_init(&c.th, out, 2, ri->t_end_us, ri->interval_us);
	long rows = scan_csv(g->dir, "counters.csv", counter_cols, counters_row, &c, err,
			     errlen);
	if (rows < 0) {
		fclose(out);
		return -1;
	}
	cnt_flush(&c.acc);
	thin_flush(&c.th);
	if (data_close(out, g, "rates.dat", err, errlen))
		return -1;
	if (rows == 0)
		return fail(err, errlen, "%s/counters.csv: no rows", g->dir);
	char a[32], b[32];
	return write_vars(g, ri, c.max_t, err, errlen,
			  "pause_total = %.0f\nmark_pct_total = %s\nmax_ecn_mark_pct = %s\n",
			  c.pauses,
			  gp_num(c.delivered > 0 ? 100 * c.marked / c.delivered : NAN, a,
				 sizeof(a)),
			  gp_num(ri->max_ecn_mark_pct, b, sizeof(b)));
}
