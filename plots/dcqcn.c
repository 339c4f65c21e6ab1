/*
 * dcqcn.c - the data of dcqcn.png (dcqcn.gp): the DCQCN rate limit Rc of the
 * QPs output.plot_qps lists, or of the most cut, from rates.csv, named from
 * qps.csv.
 */
#include "plots/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FLOWS_AUTO 8 /* DCQCN QPs drawn with plot_qps = auto: the 8 most cut */

/*
 * Which QPs: those output.plot_qps lists, in its order; with auto the
 * FLOWS_AUTO "most cut", those whose Rc fell lowest (the smallest rate_gbps
 * in rates.csv; all QPs share the host link rate, so that is also the
 * deepest cut relative to line rate), ties to the lower QP id.  Each line
 * is named from qps.csv ("QP 3  incast h5 → h0"); without it (a run
 * directory of an older dcqcn-sim) by its id alone.
 *
 * rates.csv has a QP's rows only while it has data outstanding.  A gap of
 * more than DCQCN_GAP sample intervals (the QP was idle) breaks its line
 * (a blank line in the data) instead of drawing a ramp across idle time;
 * shorter gaps, between the messages of a busy QP (a ring step waiting for
 * its neighbour), are drawn through, or a busy QP would look like dust.
 * Column 3 marks the samples drawn as points: every sample of a QP with few
 * of them (DCQCN_MARK_ALL: points still apart on a 1200-pixel axis), else
 * only the lone ones (no neighbour on either side), which a line alone
 * would not show.
 */
#define DCQCN_GAP 5
#define DCQCN_MARK_ALL 300

static const char *const rate_cols[] = {"time_us", "flow", "rate_gbps", NULL};
static const char *const qp_cols[] = {"qp", "job", "src", "dst", NULL};

struct dcqcn_pending {
	double t, r;
	int alone_before; /* no sample in the DCQCN_GAP intervals before it */
	int have;
};

struct dcqcn {
	struct table t;
	double max_t, interval;
	FILE *out[FLOWS_MAX];
	struct thin th[FLOWS_MAX];
	double last_t[FLOWS_MAX];
	int mark_all[FLOWS_MAX];
	struct dcqcn_pending pend[FLOWS_MAX];
	char label[FLOWS_MAX][192];
	const struct run_info *ri;
	unsigned char traced[RUN_JOBS_MAX]; /* scenario.ini's job j has a QP in qps.csv */
};

static int dcqcn_pass1(struct scan *sc, char *const *f)
{
	struct dcqcn *d = sc->ctx;
	double t, flow, r;
	if (scan_num(sc, f, 0, &t) || scan_num(sc, f, 1, &flow) || scan_num(sc, f, 2, &r))
		return -1;
	struct series *s = table_get(&d->t, f[1]);
	if (!s)
		return fail(sc->err, sc->errlen, "%s:%lu: out of memory or key too long",
			    sc->path, sc->line);
	s->num = flow;
	s->sum++;
	if (r > s->peak)
		s->peak = r;
	if (r < s->low)
		s->low = r;
	if (t > d->max_t)
		d->max_t = t;
	return 0;
}

static int by_num(const void *a, const void *b)
{
	const struct series *x = *(struct series *const *)a, *y = *(struct series *const *)b;
	return (x->num > y->num) - (x->num < y->num);
}

/* the lowest Rc first (the most cut), then the QP id */
static int by_low(const void *a, const void *b)
{
	const struct series *x = *(struct series *const *)a, *y = *(struct series *const *)b;
	if (x->low != y->low)
		return x->low > y->low ? 1 : -1;
	return by_num(a, b);
}

static void dcqcn_write(struct dcqcn *d, int slot, int alone_after)
{
	struct dcqcn_pending *p = &d->pend[slot];
	if (!p->have)
		return;
	double v[2] = {p->r, d->mark_all[slot] || (p->alone_before && alone_after) ? p->r : NAN};
	thin_add(&d->th[slot], p->t, v);
	p->have = 0;
}

static int dcqcn_pass2(struct scan *sc, char *const *f)
{
	struct dcqcn *d = sc->ctx;
	const struct series *s = table_find(&d->t, f[1]);
	if (!s || s->slot < 0)
		return 0;
	double t, r;
	if (scan_num(sc, f, 0, &t) || scan_num(sc, f, 2, &r))
		return -1;
	int i = s->slot;
	int gap = d->last_t[i] < 0 || t - d->last_t[i] > (DCQCN_GAP + 0.5) * d->interval;
	/* a sample waits for the next one, to know whether it stands alone */
	dcqcn_write(d, i, gap);
	if (gap && d->last_t[i] >= 0)
		thin_break(&d->th[i]);
	d->pend[i] = (struct dcqcn_pending){.t = t, .r = r, .alone_before = gap, .have = 1};
	d->last_t[i] = t;
	return 0;
}

static int qps_row(struct scan *sc, char *const *f)
{
	struct dcqcn *d = sc->ctx;
	const struct series *s = table_find(&d->t, f[0]);
	for (int j = 0; j < d->ri->njobs; j++)
		if (!strcmp(d->ri->jobs[j].name, f[1]))
			d->traced[j] = 1;
	if (s && s->slot >= 0)
		snprintf(d->label[s->slot], sizeof(d->label[0]), "QP %s  %s %s " ARROW " %s", f[0],
			 f[1], f[2], f[3]);
	return 0;
}

int shape_dcqcn(struct fig *g, const struct run_info *ri, char *err, size_t errlen)
{
	struct dcqcn *d = calloc(1, sizeof(*d));
	struct series **sel = NULL;
	char missing[160] = "";
	int rc = -1, n = 0;
	if (!d)
		return fail(err, errlen, "out of memory");
	long rows = scan_csv(g->dir, "rates.csv", rate_cols, dcqcn_pass1, d, err, errlen);
	if (rows < 0)
		goto done;
	if (rows == 0) {
		snprintf(g->note, sizeof(g->note), "rates.csv has no rows (%s)",
			 ri->cc_none	 ? "nic.cc = none: no DCQCN"
			 : ri->rates_zero ? "output.rates = 0"
					  : "no QP was sampled");
		rc = 1;
		goto done;
	}
	d->interval = ri->interval_us > 0 ? ri->interval_us : 1;
	if (ri->nplot_qps == 0) {
		if ((n = table_select(&d->t, by_low, FLOWS_AUTO, &sel)) < 0) {
			fail(err, errlen, "out of memory");
			goto done;
		}
	} else {
		/* the listed QPs, in the order listed; one without rows (never
		 * had data outstanding) is named in the title */
		if (!(sel = malloc(FLOWS_MAX * sizeof(*sel)))) {
			fail(err, errlen, "out of memory");
			goto done;
		}
		for (int k = 0; k < ri->nplot_qps; k++) {
			char key[32];
			snprintf(key, sizeof(key), "%.0f", ri->plot_qps[k]);
			struct series *s = table_find(&d->t, key);
			if (s && s->slot < 0) {
				s->slot = n;
				sel[n++] = s;
			} else if (!s) {
				snprintf(missing + strlen(missing), sizeof(missing) - strlen(missing),
					 "%s%s", *missing ? ", " : "", key);
			}
		}
		if (n == 0) {
			snprintf(g->note, sizeof(g->note),
				 "no QP of output.plot_qps (%s) has rows in rates.csv", missing);
			rc = 1;
			goto done;
		}
	}
	for (int i = 0; i < n; i++)
		snprintf(d->label[i], sizeof(d->label[0]), "QP %s", sel[i]->key);
	char qpath[PLOT_PATH_MAX];
	if (join(qpath, sizeof(qpath), g->dir, "qps.csv", err, errlen))
		goto done;
	d->ri = ri;
	int have_qps = !access(qpath, F_OK);
	if (have_qps && scan_csv(g->dir, "qps.csv", qp_cols, qps_row, d, err, errlen) < 0)
		goto done;
	/* the jobs none of whose QPs rates.csv traced (output.rates takes the
	 * first QPs in job order): said in the figure, never silently absent */
	char untraced[256] = "";
	for (int j = 0; have_qps && ri->ini_read && j < ri->njobs; j++)
		if (!d->traced[j])
			snprintf(untraced + strlen(untraced), sizeof(untraced) - strlen(untraced),
				 "%s%s", *untraced ? ", " : "", ri->jobs[j].name);
	for (int i = 0; i < n; i++) {
		char file[64];
		snprintf(file, sizeof(file), "dcqcn_%d.dat", i + 1);
		if (!(d->out[i] = data_open(g, file, err, errlen)))
			goto done;
		fprintf(d->out[i], "time_us\t%s\tsample\n", d->label[i]);
		thin_init(&d->th[i], d->out[i], 2, ri->t_end_us > 0 ? ri->t_end_us : d->max_t,
			  d->interval);
		d->mark_all[i] = sel[i]->sum <= DCQCN_MARK_ALL;
		d->last_t[i] = -1;
	}
	if (scan_csv(g->dir, "rates.csv", rate_cols, dcqcn_pass2, d, err, errlen) < 0)
		goto done;
	rc = 0;
	for (int i = 0; i < n; i++) {
		char file[64];
		snprintf(file, sizeof(file), "dcqcn_%d.dat", i + 1);
		dcqcn_write(d, i, 1);
		thin_flush(&d->th[i]);
		if (data_close(d->out[i], g, file, err, errlen))
			rc = -1;
		d->out[i] = NULL;
	}
	char a[32], qm[400], qu[520];
	if (!rc && gp_quote(qm, sizeof(qm), missing))
		rc = fail(err, errlen, "output.plot_qps: list too long");
	if (!rc && gp_quote(qu, sizeof(qu), untraced))
		rc = fail(err, errlen, "the untraced jobs' names: too long");
	int fluid = rc ? 0 : shape_fluid(g, "rates.csv", 1, "dcqcn_fluid.dat", err, errlen);
	if (fluid < 0)
		rc = -1;
	if (!rc)
		rc = write_vars(g, ri, d->max_t, err, errlen,
				"nflows = %d\nntraced = %zu\nline_gbps = %s\nauto = %d\n"
				"missing = %s\nfluid = %d\nuntraced = %s\n",
				n, d->t.n, gp_num(ri->host_link_gbps, a, sizeof(a)),
				ri->nplot_qps == 0, qm, fluid, qu);
done:
	for (int i = 0; i < FLOWS_MAX; i++)
		if (d->out[i])
			fclose(d->out[i]);
	free(sel);
	table_free(&d->t);
	free(d);
	return rc;
}
