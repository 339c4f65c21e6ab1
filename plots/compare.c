/*
 * compare.c - the data of a compare directory's figure (compare.gp): from
 * compare.csv, a bar per fabric in a panel per metric.
 */
#include "plots/internal.h"

#include <string.h>

static const char *const compare_cols[] = { "fabric", "end", "collective_time_us",
					    "busbw_pct_line", "probe_p99_us", "fct_p99_us",
					    "retransmitted_bytes", "drops", NULL };

#define COMPARE_PANELS 6 /* compare.csv columns 2.. drawn */

struct cmp_plot {
	FILE *dat;
	int has[COMPARE_PANELS]; /* a panel has at least one value */
	int rows;
};

/* a number cell of compare.csv for compare.dat: empty (a dash there) or
 * the value divided by `div`; -1 when it is not a number */
static int compare_cell(struct scan *sc, char *const *f, size_t k, double div)
{
	struct cmp_plot *cp = sc->ctx;
	double v;
	if (!f[k][0]) {
		fprintf(cp->dat, "\t-");
		return 0;
	}
	if (scan_num(sc, f, k, &v))
		return -1;
	cp->has[k - 2] = 1;
	fprintf(cp->dat, "\t%.6g", v / div);
	return 0;
}

static int compare_row(struct scan *sc, char *const *f)
{
	struct cmp_plot *cp = sc->ctx;
	fprintf(cp->dat, "%d\t%s%s", cp->rows++, f[0], strcmp(f[1], "done") ? "*" : "");
	if (compare_cell(sc, f, 2, 1e3) || compare_cell(sc, f, 3, 1) || compare_cell(sc, f, 4, 1) ||
	    compare_cell(sc, f, 5, 1) || compare_cell(sc, f, 6, 1e6) || compare_cell(sc, f, 7, 1))
		return -1;
	fprintf(cp->dat, "\n");
	return 0;
}

int shape_compare(struct fig *g, char *err, size_t errlen)
{
	struct cmp_plot cp = { 0 };
	long rows = 0;
	cp.dat = data_open(g, "compare.dat", err, errlen);
	int rc = cp.dat ? 0 : -1;
	if (rc == 0) {
		fprintf(cp.dat, "i\tfabric\tcollective_ms\tbusbw_pct\tprobe_p99_us\tfct_p99_us\t"
				"retransmitted_MB\tdrops\n");
		rows = scan_csv(g->dir, "compare.csv", compare_cols, compare_row, &cp, err, errlen);
		int crc = data_close(cp.dat, g, "compare.dat", err, errlen);
		if (rows < 0 || crc)
			rc = -1;
		else if (rows == 0)
			rc = fail(err, errlen, "%s/compare.csv: no fabric", g->dir);
	}
	if (rc == 0) { /* the fabrics, and which panels have a value */
		FILE *fp = data_open(g, "compare.vars", err, errlen);
		rc = fp ? 0 : -1;
		if (fp) {
			fprintf(fp, "# written by dcqcn-sim plot for compare.gp\nn = %ld\nhas = \"", rows);
			for (int k = 0; k < COMPARE_PANELS; k++)
				fprintf(fp, "%d", cp.has[k]);
			fprintf(fp, "\"\n");
			rc = data_close(fp, g, "compare.vars", err, errlen);
		}
	}
	return rc;
}
