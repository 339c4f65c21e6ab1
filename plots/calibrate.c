/*
 * calibrate.c - the data of a calibrate directory's figure (calibrate.gp):
 * from plane.csv, the margin of each point over the two keys of the plane,
 * and the recommendation's cell.
 */
#include "plots/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CAL_PLANE_MAX 64 /* values per key (calibrate.h: CAL_MAX_VALUES) */

struct cal_plane {
	char key_a[96], key_b[96];
	char a[CAL_PLANE_MAX][32], b[CAL_PLANE_MAX][32];
	int na, nb;
	int best_a, best_b;
	FILE *dat;
	int overflow;
};

/* the index of value v in vals[n] (added when new); -1 when full */
static int plane_index(char (*vals)[32], int *n, const char *v)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp(vals[i], v))
			return i;
	if (*n == CAL_PLANE_MAX)
		return -1;
	snprintf(vals[*n], sizeof(vals[0]), "%s", v);
	return (*n)++;
}

static const char *const plane_cols[] = { "key_a", "a", "key_b", "b", "pass",
					  "margin", "binding", "recommended", NULL };

static int plane_row(struct scan *sc, char *const *f)
{
	struct cal_plane *pl = sc->ctx;
	snprintf(pl->key_a, sizeof(pl->key_a), "%s", f[0]);
	snprintf(pl->key_b, sizeof(pl->key_b), "%s", f[2]);
	int ia = plane_index(pl->a, &pl->na, f[1]), ib = plane_index(pl->b, &pl->nb, f[3]);
	if (ia < 0 || ib < 0)
		return fail(sc->err, sc->errlen, "%s:%lu: more than %d values of a key", sc->path,
			    sc->line, CAL_PLANE_MAX);
	if (!strcmp(f[7], "1")) {
		pl->best_a = ia;
		pl->best_b = ib;
	}
	double m = NAN;
	if (f[5][0] && scan_num(sc, f, 5, &m))
		return -1;
	char num[32], label[48];
	/* the colour: the margin in % of the binding limit, clamped */
	double pct = isnan(m) ? NAN : fmax(-100, fmin(100, 100 * m));
	if (isnan(m))
		snprintf(label, sizeof(label), "%s", f[6]);
	else if (m <= -10)
		snprintf(label, sizeof(label), "%s", f[6][0] == 'u' ? "unfinished" : "fails");
	else
		snprintf(label, sizeof(label), "%+.1f%%", 100 * m);
	fprintf(pl->dat, "%d\t%d\t%s\t%s\t%s\t%s\n", ia, ib, gp_num(pct, num, sizeof(num)),
		f[4], label, f[6]);
	return 0;
}

/* a gnuplot array of the values: array NAME[n] = ["v1", ...]; a tic label
 * is a format, so "%" is written "%%" ("32%" is a value of ecn.pmax) */
static void gp_labels(FILE *fp, const char *name, char (*vals)[32], int n)
{
	fprintf(fp, "array %s[%d] = [", name, n);
	for (int i = 0; i < n; i++) {
		char q[80], v[64];
		size_t k = 0;
		for (const char *c = vals[i]; *c && k + 2 < sizeof(v); c++) {
			if (*c == '%')
				v[k++] = '%';
			v[k++] = *c;
		}
		v[k] = '\0';
		gp_quote(q, sizeof(q), v);
		fprintf(fp, "%s%s", i ? ", " : "", q);
	}
	fprintf(fp, "]\n");
}

int shape_calibrate(struct fig *g, char *err, size_t errlen)
{
	struct cal_plane *pl = calloc(1, sizeof(*pl));
	if (!pl)
		return fail(err, errlen, "out of memory");
	pl->best_a = pl->best_b = -1;
	pl->dat = data_open(g, "calibrate.dat", err, errlen);
	int rc = pl->dat ? 0 : -1;
	if (rc == 0) {
		fprintf(pl->dat, "ia\tib\tmargin_pct\tpass\tlabel\tbinding\n");
		long rows = scan_csv(g->dir, "plane.csv", plane_cols, plane_row, pl, err, errlen);
		int crc = data_close(pl->dat, g, "calibrate.dat", err, errlen);
		if (rows < 0 || crc)
			rc = -1;
		else if (rows == 0)
			rc = fail(err, errlen, "%s/plane.csv: no points", g->dir);
	}
	if (rc == 0) {
		FILE *fp = data_open(g, "calibrate.vars", err, errlen);
		rc = fp ? 0 : -1;
		if (fp) {
			char qa[200], qb[200], qt[400], title[300];
			snprintf(title, sizeof(title), "calibrate: the margin of each setting, the "
				 "other keys at the search's best (framed: the recommendation)");
			gp_quote(qa, sizeof(qa), pl->key_a);
			gp_quote(qb, sizeof(qb), pl->key_b);
			gp_quote(qt, sizeof(qt), title);
			fprintf(fp, "# written by dcqcn-sim plot for calibrate.gp\n"
				    "key_a = %s\nkey_b = %s\nna = %d\nnb = %d\nbest_ia = %d\n"
				    "best_ib = %d\ntitle_line = %s\n", qa, qb, pl->na, pl->nb,
				pl->best_a, pl->best_b, qt);
			gp_labels(fp, "a_label", pl->a, pl->na);
			gp_labels(fp, "b_label", pl->b, pl->nb);
			rc = data_close(fp, g, "calibrate.vars", err, errlen);
		}
	}
	free(pl);
	return rc;
}
