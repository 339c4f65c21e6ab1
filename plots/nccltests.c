/*
 * nccltests.c - the data of an nccl-tests directory's figure
 * (nccltests.gp): from nccl-tests.csv, busbw and time against the message
 * size, out-of-place and in-place.
 */
#include "plots/internal.h"

#include <math.h>
#include <string.h>

static const char *const nccl_cols[] = { "size_B", "oop_time_us", "oop_busbw_GBps",
					 "ip_time_us", "ip_busbw_GBps", NULL };

struct nccl_plot {
	FILE *dat;
	double max_size, min_size;
	int rows;
};

/* a number cell, or NaN when empty (an iteration that failed or did not
 * end has no time); -1 when it is not a number */
static int nccl_cell(struct scan *sc, char *const *f, size_t k, double *v)
{
	if (!f[k][0]) {
		*v = NAN;
		return 0;
	}
	return scan_num(sc, f, k, v);
}

static int nccl_row(struct scan *sc, char *const *f)
{
	struct nccl_plot *np = sc->ctx;
	double size, v[4];
	if (scan_num(sc, f, 0, &size) || nccl_cell(sc, f, 1, &v[0]) || nccl_cell(sc, f, 2, &v[1]) ||
	    nccl_cell(sc, f, 3, &v[2]) || nccl_cell(sc, f, 4, &v[3]))
		return -1;
	if (size <= 0)
		return fail(sc->err, sc->errlen, "%s:%lu: size_B %s is not a size", sc->path,
			    sc->line, f[0]);
	char label[32], a[4][32];
	if (size >= 1 << 30)
		snprintf(label, sizeof(label), "%gG", size / (1 << 30));
	else if (size >= 1 << 20)
		snprintf(label, sizeof(label), "%gM", size / (1 << 20));
	else if (size >= 1 << 10)
		snprintf(label, sizeof(label), "%gK", size / (1 << 10));
	else
		snprintf(label, sizeof(label), "%g", size);
	fprintf(np->dat, "%.0f\t%s\t%s\t%s\t%s\t%s\n", size, label, gp_num(v[1], a[0], 32),
		gp_num(v[3], a[1], 32), gp_num(v[0], a[2], 32), gp_num(v[2], a[3], 32));
	if (!np->rows++ || size < np->min_size)
		np->min_size = size;
	if (size > np->max_size)
		np->max_size = size;
	return 0;
}

int shape_nccltests(struct fig *g, char *err, size_t errlen)
{
	struct nccl_plot np = { 0 };
	long rows = 0;
	np.dat = data_open(g, "nccltests.dat", err, errlen);
	int rc = np.dat ? 0 : -1;
	if (rc == 0) {
		fprintf(np.dat, "size_B\tsize\tout-of-place busbw\tin-place busbw\t"
				"out-of-place time\tin-place time\n");
		rows = scan_csv(g->dir, "nccl-tests.csv", nccl_cols, nccl_row, &np, err, errlen);
		int crc = data_close(np.dat, g, "nccltests.dat", err, errlen);
		if (rows < 0 || crc)
			rc = -1;
		else if (rows == 0)
			rc = fail(err, errlen, "%s/nccl-tests.csv: no size", g->dir);
	}
	if (rc == 0) {
		FILE *fp = data_open(g, "nccltests.vars", err, errlen);
		rc = fp ? 0 : -1;
		if (fp) {
			fprintf(fp, "# written by dcqcn-sim plot for nccltests.gp\nn = %ld\n"
				    "min_size = %.0f\nmax_size = %.0f\n",
				rows, np.min_size, np.max_size);
			rc = data_close(fp, g, "nccltests.vars", err, errlen);
		}
	}
	return rc;
}
