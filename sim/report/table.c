/*
 * table.c - a small CSV file read whole into memory with libcsv (internal.h):
 * summary.csv, collectives.csv, sweep.csv and the other tables a page shows.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <csv.h>

#include "sim/report/internal.h"

struct reader {
	struct rtable *t;
	char **cells;	   /* the fields, row after row */
	size_t n, cap;	   /* fields held */
	size_t row_fields; /* fields of the current row */
	size_t rows;	   /* rows ended, header included */
	int oom, too_wide;
	unsigned long wide_line;
};

static void on_field(void *s, size_t len, void *ctx)
{
	struct reader *r = ctx;
	if (r->oom)
		return;
	if (r->rows > 0 && r->row_fields >= r->t->ncols) {
		if (!r->too_wide) {
			r->too_wide = 1;
			r->wide_line = (unsigned long)r->rows + 1;
		}
		return;
	}
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 256;
		char **c = realloc(r->cells, cap * sizeof(*c));
		if (!c) {
			r->oom = 1;
			return;
		}
		r->cells = c;
		r->cap = cap;
	}
	char *v = malloc(len + 1);
	if (!v) {
		r->oom = 1;
		return;
	}
	if (len)
		memcpy(v, s, len);
	v[len] = '\0';
	r->cells[r->n++] = v;
	r->row_fields++;
}

/* a short row is padded with empty cells */
static void on_row(int c, void *ctx)
{
	(void)c;
	struct reader *r = ctx;
	if (r->rows == 0)
		r->t->ncols = r->row_fields;
	while (!r->oom && r->rows > 0 && r->row_fields < r->t->ncols)
		on_field((void *)"", 0, ctx);
	r->rows++;
	r->row_fields = 0;
}

int rt_read(struct rtable *t, const char *dir, const char *name, char *err, size_t errlen)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->path, sizeof(t->path), "%s/%s", dir, name);
	FILE *fp = fopen(t->path, "rb");
	if (!fp) {
		snprintf(err, errlen, "%s: cannot open: %s", t->path, strerror(errno));
		return -1;
	}
	struct csv_parser cp;
	if (csv_init(&cp, CSV_APPEND_NULL)) {
		fclose(fp);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	struct reader r = { .t = t };
	char buf[65536];
	size_t got, total = 0;
	int bad = 0;
	while (!bad && (got = fread(buf, 1, sizeof(buf), fp)) > 0) {
		total += got;
		if (total > TABLE_BYTES_MAX)
			bad = 1;
		else if (csv_parse(&cp, buf, got, on_field, on_row, &r) != got)
			bad = 2;
	}
	int rd_err = ferror(fp);
	fclose(fp);
	if (!bad)
		csv_fini(&cp, on_field, on_row, &r);
	int cerr = csv_error(&cp);
	csv_free(&cp);
	if (bad || rd_err || r.oom || r.too_wide || r.rows == 0) {
		if (bad == 1)
			snprintf(err, errlen, "%s: larger than %u MB: not a table a page reads",
				 t->path, TABLE_BYTES_MAX >> 20);
		else if (bad == 2)
			snprintf(err, errlen, "%s: not CSV: %s", t->path,
				 csv_strerror(cerr));
		else if (rd_err)
			snprintf(err, errlen, "%s: read error", t->path);
		else if (r.oom)
			snprintf(err, errlen, "out of memory reading %s", t->path);
		else if (r.too_wide)
			snprintf(err, errlen, "%s:%lu: more fields than the header's %zu (a "
				 "damaged file)", t->path, r.wide_line, t->ncols);
		else
			snprintf(err, errlen, "%s: empty (no header row)", t->path);
		for (size_t i = 0; i < r.n; i++)
			free(r.cells[i]);
		free(r.cells);
		memset(t, 0, sizeof(*t));
		return -1;
	}
	t->cell = r.cells;
	t->nrows = r.rows - 1;
	return 0;
}

void rt_free(struct rtable *t)
{
	size_t n = (t->nrows + 1) * t->ncols;
	for (size_t i = 0; t->cell && i < n; i++)
		free(t->cell[i]);
	free(t->cell);
	memset(t, 0, sizeof(*t));
}

int rt_col(const struct rtable *t, const char *name)
{
	for (size_t c = 0; c < t->ncols; c++)
		if (!strcmp(t->cell[c], name))
			return (int)c;
	return -1;
}

const char *rt_get(const struct rtable *t, size_t r, const char *name)
{
	int c = rt_col(t, name);
	if (c < 0 || r >= t->nrows)
		return "";
	return t->cell[(r + 1) * t->ncols + (size_t)c];
}

int rt_need(const struct rtable *t, const char *const *cols, char *err, size_t errlen)
{
	for (; *cols; cols++)
		if (rt_col(t, *cols) < 0) {
			snprintf(err, errlen, "%s: no column %s (a damaged file, or one from "
				 "another version)", t->path, *cols);
			return -1;
		}
	return 0;
}

int cell_num(const char *s, double *v)
{
	if (!s || !*s)
		return -1;
	char *end;
	errno = 0;
	*v = strtod(s, &end);
	return *end || errno || !isfinite(*v) ? -1 : 0;
}
