/*
 * trace.c - trace CSV files (pattern = trace), read with libcsv at
 * scenario_finalize() into the job's rows.
 *
 * Trace CSV (docs/contract.md#scenario-files): a header row names the columns in any order: src,
 * dst, bytes, start_us (required), dscp, after (optional).  Fields are
 * trimmed of spaces and tabs, quotes follow RFC 4180 (libcsv strict mode),
 * blank lines are skipped.  bytes is a plain integer, start_us a decimal
 * number of microseconds converted exactly (at most 6 decimals: whole ps),
 * dscp 0-63 or empty (the job's DSCP), after empty or the flow id of an
 * earlier row: flow ids count data rows from 0, and `after` must be below
 * the row's own id, which makes a dependency cycle impossible.  Line numbers
 * in messages count every line of the file (the header is line 1); a row
 * that spans lines inside quotes is reported at the line where its first
 * field ends.
 */
#include "models/scenario/loader.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TRACE_ROWS ((uint32_t)INT32_MAX) /* `after` is int32 */

enum trace_col { COL_SRC, COL_DST, COL_BYTES, COL_START, COL_DSCP, COL_AFTER, N_COLS };

static const char *const col_names[N_COLS + 1] = {
	"src", "dst", "bytes", "start_us", "dscp", "after", NULL
};
_Static_assert(N_COLS <= SCN_CSV_COLS, "scn_csv keeps the columns");

struct trace_read {
	struct scn_csv csv; /* first: the rows as read */
	uint32_t nhosts;
	int col_of[N_COLS];  /* header field of each column, -1 absent */
	struct scn_trace_row *rows;
	uint32_t nrows, cap;
};

/* a trace file's size at most: 10^7 rows of 100 bytes; /dev/zero is none */
#define TRACE_MAX_BYTES (INT64_C(1) << 30)

static void trace_header(struct trace_read *tr)
{
	uint32_t i;
	int c;

	for (c = 0; c < N_COLS; c++)
		tr->col_of[c] = -1;
	for (i = 0; i < tr->csv.nfield; i++) {
		/* the first N_COLS + 1 names are kept: a bad one is among them */
		const char *name = tr->csv.field[i];

		for (c = 0; c < N_COLS; c++)
			if (strcmp(name, col_names[c]) == 0)
				break;
		if (c == N_COLS) {
			if (name[0] == '\0')
				scn_csv_fail(&tr->csv, tr->csv.row_line,
					   "column %" PRIu32 ": empty column name", i + 1);
			else
				scn_csv_fail(&tr->csv, tr->csv.row_line,
					   "%s%s: unknown column (src, dst, bytes, start_us, dscp, after)",
					   name, tr->csv.field_long[i] ? "..." : "");
			return;
		}
		if (tr->col_of[c] >= 0) {
			scn_csv_fail(&tr->csv, tr->csv.row_line, "%s: duplicate column", name);
			return;
		}
		tr->col_of[c] = (int)i;
	}
	for (c = 0; c <= COL_START; c++)
		if (tr->col_of[c] < 0) {
			scn_csv_fail(&tr->csv, tr->csv.row_line,
				   "%s: missing column (the header needs src, dst, bytes, start_us)",
				   col_names[c]);
			return;
		}
	tr->csv.ncols = tr->csv.nfield;
	tr->csv.have_header = 1;
}

/* start_us: decimal microseconds, exact to the picosecond */
static int parse_start_us(const char *text, sim_time_ps *ps, char *e, size_t elen)
{
	char buf[SCN_CSV_FIELD_MAX + 3];
	const char *p;
	int dots = 0;

	for (p = text; *p; p++) {
		if (*p == '.')
			dots++;
		else if (!is_digit(*p))
			break;
	}
	if (*text == '\0' || *p || dots > 1) {
		snprintf(e, elen, "%s is not a number of microseconds (e.g. 12.5)", text);
		return -1;
	}
	snprintf(buf, sizeof(buf), "%sus", text);
	if (units_parse_time(buf, ps, e, elen))
		return -1;
	if (*ps > MAX_TIME_PS) {
		snprintf(e, elen, "%s out of range (0-1000000000, i.e. at most 1000 s)", text);
		return -1;
	}
	return 0;
}

static void trace_row(struct trace_read *tr)
{
	struct scn_trace_row row;
	const char *f[N_COLS];
	char e[200];
	int64_t v;
	int c;

	if (tr->csv.nfield != tr->csv.ncols) {
		scn_csv_fail(&tr->csv, tr->csv.row_line,
			   "row: %" PRIu32 " fields, the header has %" PRIu32,
			   tr->csv.nfield, tr->csv.ncols);
		return;
	}
	if (tr->nrows >= MAX_TRACE_ROWS) {
		scn_csv_fail(&tr->csv, tr->csv.row_line, "row: more than %" PRIu32 " rows",
			   MAX_TRACE_ROWS);
		return;
	}
	for (c = 0; c < N_COLS; c++) {
		f[c] = tr->col_of[c] >= 0 ? tr->csv.field[tr->col_of[c]] : "";
		if (tr->col_of[c] >= 0 && tr->csv.field_long[tr->col_of[c]]) {
			scn_csv_fail(&tr->csv, tr->csv.row_line, "%s: value too long", col_names[c]);
			return;
		}
	}

	if (units_parse_int(f[COL_SRC], 0, (int64_t)tr->nhosts - 1, &v, e, sizeof(e))) {
		scn_csv_fail(&tr->csv, tr->csv.row_line, "src: %s", e);
		return;
	}
	row.src = (uint32_t)v;
	if (units_parse_int(f[COL_DST], 0, (int64_t)tr->nhosts - 1, &v, e, sizeof(e))) {
		scn_csv_fail(&tr->csv, tr->csv.row_line, "dst: %s", e);
		return;
	}
	row.dst = (uint32_t)v;
	if (row.dst == row.src) {
		scn_csv_fail(&tr->csv, tr->csv.row_line, "dst: %" PRIu32 " is also src (a flow needs two hosts)",
			   row.dst);
		return;
	}
	if (units_parse_int(f[COL_BYTES], 1, MAX_BYTES, &row.bytes, e, sizeof(e))) {
		scn_csv_fail(&tr->csv, tr->csv.row_line, "bytes: %s", e);
		return;
	}
	if (parse_start_us(f[COL_START], &row.start_ps, e, sizeof(e))) {
		scn_csv_fail(&tr->csv, tr->csv.row_line, "start_us: %s", e);
		return;
	}
	row.dscp = -1;
	if (f[COL_DSCP][0]) {
		if (units_parse_int(f[COL_DSCP], 0, 63, &v, e, sizeof(e))) {
			scn_csv_fail(&tr->csv, tr->csv.row_line, "dscp: %s", e);
			return;
		}
		row.dscp = (int32_t)v;
	}
	row.after = -1;
	if (f[COL_AFTER][0]) {
		if (units_parse_int(f[COL_AFTER], 0, INT32_MAX, &v, e, sizeof(e))) {
			scn_csv_fail(&tr->csv, tr->csv.row_line, "after: %s", e);
			return;
		}
		if (v >= (int64_t)tr->nrows) {
			if (tr->nrows == 0)
				scn_csv_fail(&tr->csv, tr->csv.row_line,
					   "after: %" PRId64 " is not an earlier row (this is flow 0, the first)",
					   v);
			else
				scn_csv_fail(&tr->csv, tr->csv.row_line,
					   "after: %" PRId64 " is not an earlier row (0-%" PRIu32
					   "; this is flow %" PRIu32 ")",
					   v, tr->nrows - 1, tr->nrows);
			return;
		}
		row.after = (int32_t)v;
	}

	if (tr->nrows == tr->cap) {
		uint32_t cap = tr->cap ? (tr->cap > MAX_TRACE_ROWS / 2 ? MAX_TRACE_ROWS
									: tr->cap * 2)
				       : 64;
		struct scn_trace_row *nr = realloc(tr->rows, (size_t)cap * sizeof(*nr));

		if (!nr) {
			scn_csv_fail(&tr->csv, tr->csv.row_line, "row: out of memory");
			return;
		}
		tr->rows = nr;
		tr->cap = cap;
	}
	tr->rows[tr->nrows++] = row;
}

/* scn_csv's callbacks: the trace_read is its first member */
static void trace_header_of(struct scn_csv *c)
{
	trace_header((struct trace_read *)(void *)c);
}

static void trace_row_of(struct scn_csv *c)
{
	trace_row((struct trace_read *)(void *)c);
}

int scn_read_trace(struct scn_job *job, uint32_t nhosts, struct place jpl,
		   struct scn_error *err)
{
	struct trace_read tr;
	char why[128];

	memset(&tr, 0, sizeof(tr));
	tr.csv = (struct scn_csv){ .path = job->file, .err = err, .kept = N_COLS,
				   .header = trace_header_of, .row = trace_row_of };
	tr.nhosts = nhosts;
	enum scn_csv_open e = scn_csv_read(&tr.csv, TRACE_MAX_BYTES);
	if (e == SCN_CSV_CANNOT_OPEN)
		return scn_set_error(err, jpl, "job.%s.file: cannot open %s (%s)", job->name,
				     job->file, strerror(errno));
	if (e == SCN_CSV_NO_MEMORY)
		return scn_set_error(err, jpl, "job.%s.file: out of memory", job->name);
	if (e != SCN_CSV_READ)
		return scn_set_error(err, jpl, "job.%s.file: %s is %s", job->name, job->file,
				     scn_csv_open_text(e, "a trace CSV file", TRACE_MAX_BYTES, why,
						       sizeof(why)));
	if (!tr.csv.failed && !tr.csv.have_header)
		scn_csv_fail(&tr.csv, tr.csv.line > 0 ? tr.csv.line : 1,
			   "header: empty file (expected src,dst,bytes,start_us)");
	if (!tr.csv.failed && tr.nrows == 0)
		scn_csv_fail(&tr.csv, tr.csv.line, "row: no flows after the header");
	if (tr.csv.failed) {
		free(tr.rows);
		return -1;
	}
	free(job->rows);
	job->rows = tr.rows;
	job->nrows = tr.nrows;
	return 0;
}
