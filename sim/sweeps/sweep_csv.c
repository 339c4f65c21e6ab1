/*
 * sweep_csv.c - a sweep's runs joined into DIR/sweep.csv (see sweep.h):
 * each run's summary.csv row, and with repeats the rows of a point's runs
 * joined into one.
 *
 * With repeats, a point is listed in sweep.csv only when all of its runs
 * ended (as a point whose one run failed is left out without).  The mean
 * of a metric keeps the decimals of its values (an integer metric whose
 * mean is not whole gets 3); _min and _max are copied as the runs wrote
 * them.  A column whose values are not numbers (end) lists its distinct
 * values joined by ';'.
 */
#include "sim/sweeps/internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "models/base/files.h"
#include "models/scenario/keyhelp.h"
#include "sim/run/output.h"
#include "sim/run/run.h"
#include "sim/sweeps/sweep.h"

#define MAX_COLS 128

int sweep_read_summary(const char *dir, char *header, char *row)
{
	char path[SWEEP_PATH_BYTES + 16];
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	FILE *fp = fopen(path, "r");
	if (!fp)
		return -1;
	int ok = fgets(header, SWEEP_LINE_BYTES, fp) && fgets(row, SWEEP_LINE_BYTES, fp);
	fclose(fp);
	if (!ok)
		return -1;
	header[strcspn(header, "\n")] = '\0';
	row[strcspn(row, "\n")] = '\0';
	return 0;
}

int sweep_column_is(const char *header, const char *row, const char *name, const char *want)
{
	int col = 0;
	size_t nl = strlen(name);
	for (const char *h = header;; col++) {
		if (!strncmp(h, name, nl) && (h[nl] == ',' || !h[nl]))
			break;
		h = strchr(h, ',');
		if (!h)
			return 0;
		h++;
	}
	const char *v = row;
	for (int i = 0; i < col && v; i++)
		if ((v = strchr(v, ',')))
			v++;
	return v && !strncmp(v, want, strlen(want)) &&
	       (v[strlen(want)] == ',' || !v[strlen(want)]);
}

/* the columns that are not numbers: no mean, min or max */
static int text_column(const char *name)
{
	return !strcmp(name, "end") || !strcmp(name, "criteria_pass") ||
	       !strcmp(name, "criteria_failed");
}

/* decimals of a number as written ("18.303": 3); -1 when it is not one */
static int number_decimals(const char *v)
{
	char *end;
	if (!*v)
		return -1;
	errno = 0;
	strtod(v, &end);
	if (*end || errno)
		return -1;
	const char *dot = strchr(v, '.');
	return dot ? (int)strlen(dot + 1) : 0;
}

/* the fields of a summary row are printable, numbers where the column
 * is numeric; the reason into why, or 0 */
static int check_fields(char **hf, char **f, int n, char *why, size_t len)
{
	for (int c = 0; c < n; c++) {
		for (const unsigned char *v = (const unsigned char *)f[c]; *v; v++)
			if (*v < 0x20 || *v > 0x7e) {
				snprintf(why, len, "column %s holds a byte that is not text (0x%02x)",
					 hf[c], *v);
				return -1;
			}
		if (!text_column(hf[c]) && f[c][0] && number_decimals(f[c]) < 0) {
			snprintf(why, len, "column %s is not a number: %.40s", hf[c], f[c]);
			return -1;
		}
	}
	return 0;
}

int sweep_check_summary(const char *dir, char *why, size_t len)
{
	char path[SWEEP_PATH_BYTES + 16], want[SWEEP_LINE_BYTES], row0[SWEEP_LINE_BYTES];
	static struct run_result zero;
	struct stat st;
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	if (stat(path, &st) || !S_ISREG(st.st_mode)) {
		snprintf(why, len, "%s: %s", path,
			 errno == ENOENT ? "missing" : S_ISREG(st.st_mode) ? strerror(errno)
									 : "not a regular file");
		return -1;
	}
	char *text = malloc(3 * SWEEP_LINE_BYTES), *hf[MAX_COLS], *f[MAX_COLS];
	FILE *fp = text ? fopen(path, "r") : NULL;
	size_t n = fp ? fread(text, 1, 3 * SWEEP_LINE_BYTES - 1, fp) : 0;
	int rc = -1;
	if (fp)
		fclose(fp);
	if (!fp) {
		snprintf(why, len, "%s: %s", path, text ? strerror(errno) : "out of memory");
		goto out;
	}
	text[n] = '\0';
	char *nl1 = strchr(text, '\n'), *nl2 = nl1 ? strchr(nl1 + 1, '\n') : NULL;
	if (!n || !nl1 || !nl2 || nl2[1] || memchr(text, '\0', n)) {
		snprintf(why, len, "%s: %s", path,
			 !n ? "empty" : nl2 && !nl2[1] ? "not text" : nl2 ? "more than two lines"
								 : "truncated (not two whole lines)");
		goto out;
	}
	*nl1 = *nl2 = '\0';
	run_summary_csv(&zero, want, sizeof(want), row0, sizeof(row0));
	if (strcmp(text, want)) {
		snprintf(why, len, "%s: its header is not that of a summary.csv", path);
		goto out;
	}
	int nh = output_split_csv(text, hf, MAX_COLS), nf = output_split_csv(nl1 + 1, f, MAX_COLS);
	if (nf != nh) {
		snprintf(why, len, "%s: %d columns where the header has %d", path, nf, nh);
		goto out;
	}
	if (check_fields(hf, f, nf, why, len) == 0)
		rc = 0;
	else {
		char reason[256];
		snprintf(reason, sizeof(reason), "%s", why);
		snprintf(why, len, "%s: %s", path, reason);
	}
out:
	free(text);
	return rc;
}

/* append s to buf (n: its length so far) */
static void put(char *buf, size_t len, size_t *n, const char *s)
{
	if (*n < len)
		*n += (size_t)snprintf(buf + *n, len - *n, "%s", s);
}

/* the distinct non-empty items (separated by ';') of vals[0..n), in order
 * of appearance, joined by ';' */
static void union_items(char *const *vals, int n, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < n; i++) {
		char item[SWEEP_LINE_BYTES];
		for (const char *v = vals[i]; *v;) {
			size_t l = strcspn(v, ";");
			snprintf(item, sizeof(item), "%.*s", (int)l, v);
			v += l + (v[l] == ';');
			if (!item[0])
				continue;
			int seen = 0;
			for (const char *b = buf; *b && !seen;) {
				size_t bl = strcspn(b, ";");
				seen = bl == strlen(item) && !strncmp(b, item, bl);
				b += bl + (b[bl] == ';');
			}
			if (!seen) {
				if (used)
					put(buf, len, &used, ";");
				put(buf, len, &used, item);
			}
		}
	}
}

/* one numeric metric over the repeats: mean, min, max into buf (as
 * ",MEAN,MIN,MAX" appended at *n) */
static void put_stats(char *const *vals, int n, char *buf, size_t len, size_t *used)
{
	int dec = 0, have = 0, all_int = 1, imin = 0, imax = 0;
	double sum = 0, vmin = 0, vmax = 0;
	int64_t isum = 0;
	for (int i = 0; i < n; i++) {
		int d = number_decimals(vals[i]);
		if (!vals[i][0])
			continue;
		if (d < 0) { /* not a number after all: the distinct values */
			char u[SWEEP_LINE_BYTES];
			union_items(vals, n, u, sizeof(u));
			put(buf, len, used, ",");
			put(buf, len, used, u);
			put(buf, len, used, ",,");
			return;
		}
		double v = strtod(vals[i], NULL);
		if (d > dec)
			dec = d;
		if (d == 0) {
			errno = 0;
			long long iv = strtoll(vals[i], NULL, 10);
			if (errno || (iv > 0 && isum > INT64_MAX - iv) ||
			    (iv < 0 && isum < INT64_MIN - iv))
				all_int = 0;
			else
				isum += iv;
		} else {
			all_int = 0;
		}
		if (!have || v < vmin) {
			vmin = v;
			imin = i;
		}
		if (!have || v > vmax) {
			vmax = v;
			imax = i;
		}
		sum += v;
		have++;
	}
	char mean[64];
	if (!have) {
		put(buf, len, used, ",,,");
		return;
	}
	if (all_int && dec == 0 && isum % have == 0)
		snprintf(mean, sizeof(mean), "%" PRId64, isum / have);
	else
		snprintf(mean, sizeof(mean), "%.*f", dec ? dec : 3, sum / have);
	put(buf, len, used, ",");
	put(buf, len, used, mean);
	put(buf, len, used, ",");
	put(buf, len, used, vals[imin]);
	put(buf, len, used, ",");
	put(buf, len, used, vals[imax]);
}

/* the summary rows of point p's R runs, joined into one (header and row
 * as sweep.csv has them); 0, or -1 when a run has no summary */
static int aggregate(const char *out_dir, int p, int R, char *header, char *row, size_t len)
{
	char dir[SWEEP_PATH_BYTES], h[SWEEP_LINE_BYTES], scratch[SWEEP_LINE_BYTES];
	char(*rows)[SWEEP_LINE_BYTES] = malloc((size_t)R * sizeof(*rows));
	char *(*f)[MAX_COLS] = malloc((size_t)R * sizeof(*f));
	char *hf[MAX_COLS], *vals[SWEEP_MAX_REPEAT];
	int nh = 0, rc = -1;
	if (!rows || !f)
		goto out;
	for (int k = 0; k < R; k++) {
		sweep_task_dir(out_dir, R, p * R + k, dir, sizeof(dir));
		if (sweep_read_summary(dir, k ? scratch : h, rows[k]))
			goto out;
		int nf = output_split_csv(rows[k], f[k], MAX_COLS);
		if (k == 0)
			nh = output_split_csv(h, hf, MAX_COLS);
		for (int c = nf; c < MAX_COLS; c++)
			f[k][c] = "";
	}
	size_t hn = 0, rn = 0;
	header[0] = row[0] = '\0';
	for (int c = 0; c < nh; c++) {
		for (int k = 0; k < R; k++)
			vals[k] = f[k][c];
		put(header, len, &hn, c ? "," : "");
		put(header, len, &hn, hf[c]);
		if (!strcmp(hf[c], "criteria_pass")) {
			/* 0 when a repeat missed; empty when one was not judged */
			const char *v = "1";
			for (int k = 0; k < R; k++)
				if (!strcmp(vals[k], "0"))
					v = "0";
				else if (strcmp(vals[k], "1") && strcmp(v, "0"))
					v = "";
			put(row, len, &rn, c ? "," : "");
			put(row, len, &rn, v);
		} else if (text_column(hf[c])) {
			char u[SWEEP_LINE_BYTES];
			union_items(vals, R, u, sizeof(u));
			put(row, len, &rn, c ? "," : "");
			put(row, len, &rn, u);
		} else {
			put(header, len, &hn, ",");
			put(header, len, &hn, hf[c]);
			put(header, len, &hn, "_min,");
			put(header, len, &hn, hf[c]);
			put(header, len, &hn, "_max");
			if (c)
				put_stats(vals, R, row, len, &rn);
			else { /* no leading comma on the first column */
				size_t at = rn;
				put_stats(vals, R, row, len, &rn);
				memmove(row + at, row + at + 1, rn - at);
				rn--;
			}
		}
	}
	rc = hn < len && rn < len ? 0 : -1;
out:
	free(rows);
	free(f);
	return rc;
}

int sweep_write_csv(const struct sweep_opts *o, int npoints, const int *status, int *failed,
		    int *unjudged, char *err, size_t errlen)
{
	char path[SWEEP_PATH_BYTES], dir[SWEEP_PATH_BYTES], tmp[SWEEP_PATH_BYTES + 32];
	char *header = malloc(2 * SWEEP_LINE_BYTES), *row = malloc(2 * SWEEP_LINE_BYTES);
	int R = sweep_repeats(o);
	snprintf(path, sizeof(path), "%s/sweep.csv", o->out_dir);
	/* written aside and renamed: a failure never leaves a partial sweep.csv */
	FILE *fp = header && row ? file_open_aside(path, tmp, sizeof(tmp)) : NULL;
	if (!fp) {
		snprintf(err, errlen, "%s: cannot write it: %s", tmp,
			 header && row ? strerror(errno) : "out of memory");
		free(header);
		free(row);
		return -1;
	}
	const char *unit[SWEEP_MAX_AXES];
	for (int a = 0; a < o->naxes; a++) {
		char num[64];
		scenario_key_base_value(o->axes[a].key, o->axes[a].values[0], num, sizeof(num),
					&unit[a]);
	}
	int wrote_header = 0;
	*failed = *unjudged = 0;
	for (int p = 0; p < npoints; p++) {
		int ok = 1;
		for (int k = 0; k < R; k++)
			ok &= status[p * R + k] == RUN_OK;
		if (!ok)
			continue;
		if (R > 1) {
			if (aggregate(o->out_dir, p, R, header, row, 2 * SWEEP_LINE_BYTES))
				continue;
		} else {
			sweep_point_dir(o->out_dir, p, dir, sizeof(dir));
			if (sweep_read_summary(dir, header, row))
				continue;
		}
		if (!wrote_header) {
			fputs("point,dir", fp);
			for (int a = 0; a < o->naxes; a++) {
				fprintf(fp, ",%s", o->axes[a].key);
				if (unit[a])
					fprintf(fp, ",%s_%s", o->axes[a].key, unit[a]);
			}
			fprintf(fp, ",%s\n", header);
			wrote_header = 1;
		}
		int idx[SWEEP_MAX_AXES];
		sweep_point_index(o, p, idx);
		fprintf(fp, "%d,p%03d", p, p);
		for (int a = 0; a < o->naxes; a++) {
			const char *v = o->axes[a].values[idx[a]], *u;
			char num[64];
			fprintf(fp, ",%s", v);
			if (unit[a]) {
				if (scenario_key_base_value(o->axes[a].key, v, num, sizeof(num),
							    &u))
					num[0] = '\0';
				fprintf(fp, ",%s", num);
			}
		}
		fprintf(fp, ",%s\n", row);
		*failed += sweep_column_is(header, row, "criteria_pass", "0");
		*unjudged += sweep_column_is(header, row, "criteria_pass", "");
	}
	free(header);
	free(row);
	if (file_commit(fp, tmp, path)) {
		snprintf(err, errlen, "%s: cannot write it: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}
