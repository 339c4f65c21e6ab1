/*
 * kit.c - the shaping kit of the figures (internal.h): small helpers, CSV
 * scanning with libcsv, the series table, what a run directory says about
 * itself (scenario.ini, summary.csv), the data files under DIR/plots/data/,
 * thinning long time series and counters.csv's sample intervals.
 */
#include "plots/internal.h"

#include <csv.h>
#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "models/base/files.h"
#include "models/base/units.h"

/* ---- small helpers ---------------------------------------------------- */

__attribute__((format(printf, 3, 4))) int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* dir/name into buf; -1 (with err) when it does not fit */
int join(char *buf, size_t len, const char *dir, const char *name, char *err, size_t errlen)
{
	int n = snprintf(buf, len, "%s/%s", dir, name);
	if (n < 0 || (size_t)n >= len)
		return fail(err, errlen, "%s/%s: path too long", dir, name);
	return 0;
}

int make_dir(const char *path, char *err, size_t errlen)
{
	if (mkdir(path, 0777) && errno != EEXIST)
		return fail(err, errlen, "%s: cannot create: %s", path, strerror(errno));
	return 0;
}

int parse_double(const char *s, double *v)
{
	char *end;
	errno = 0;
	*v = strtod(s, &end);
	return end == s || *end || errno || !isfinite(*v) ? -1 : 0;
}

/* s as a gnuplot single-quoted string ('' stands for a quote inside) */
int gp_quote(char *buf, size_t len, const char *s)
{
	size_t o = 0;
	if (len < 3)
		return -1;
	buf[o++] = '\'';
	for (; *s; s++) {
		if (o + (*s == '\'') + 3 > len)
			return -1;
		if (*s == '\'')
			buf[o++] = '\'';
		buf[o++] = *s;
	}
	buf[o++] = '\'';
	buf[o] = '\0';
	return 0;
}

/* ---- CSV scanning (libcsv) -------------------------------------------- */

static void scan_field(void *s, size_t len, void *data)
{
	struct scan *sc = data;
	if (sc->failed)
		return;
	size_t i = sc->field++;
	if (sc->line == 1) {
		size_t h = strlen(sc->header);
		snprintf(sc->header + h, sizeof(sc->header) - h, "%s%.*s", i ? "," : "",
			 (int)len, (const char *)s);
		for (size_t k = 0; k < sc->ncols; k++)
			if (strlen(sc->cols[k]) == len && !memcmp(sc->cols[k], s, len) &&
			    sc->idx[k] < 0)
				sc->idx[k] = (int)i;
		return;
	}
	for (size_t k = 0; k < sc->ncols; k++) {
		if (sc->idx[k] != (int)i)
			continue;
		if (len >= SCAN_FIELD_MAX) {
			sc->failed = fail(sc->err, sc->errlen, "%s:%lu: column %s: value too long",
					  sc->path, sc->line, sc->cols[k]);
			return;
		}
		memcpy(sc->val[k], s, len);
		sc->val[k][len] = '\0';
		sc->got[k] = 1;
	}
}

static void scan_row(int c, void *data)
{
	(void)c;
	struct scan *sc = data;
	if (sc->failed)
		return;
	if (sc->line == 1) {
		for (size_t k = 0; k < sc->ncols; k++)
			if (sc->idx[k] < 0) {
				sc->failed = fail(sc->err, sc->errlen,
						  "%s: no column '%s' (header: %s)", sc->path,
						  sc->cols[k], sc->header);
				return;
			}
	} else {
		char *f[SCAN_COLS_MAX];
		for (size_t k = 0; k < sc->ncols; k++) {
			if (!sc->got[k]) {
				sc->failed = fail(sc->err, sc->errlen,
						  "%s:%lu: no value for column %s", sc->path,
						  sc->line, sc->cols[k]);
				return;
			}
			f[k] = sc->val[k];
			sc->got[k] = 0;
		}
		sc->rows++;
		if (sc->row(sc, f))
			sc->failed = -1;
	}
	sc->line++;
	sc->field = 0;
}

/*
 * Scan dir/name.  Returns the number of data rows (0 for a header alone),
 * or -1 with err set: the file missing, a wanted column missing, a short
 * row, or the row callback's error.
 */
long scan_csv(const char *dir, const char *name, const char *const *cols,
	      int (*row)(struct scan *, char *const *), void *ctx, char *err, size_t errlen)
{
	struct scan *sc = calloc(1, sizeof(*sc));
	if (!sc)
		return fail(err, errlen, "out of memory");
	size_t n = 0;
	while (cols[n])
		n++;
	if (n > SCAN_COLS_MAX) {
		free(sc);
		return fail(err, errlen, "%s/%s: %zu columns wanted, at most %d", dir, name, n,
			    SCAN_COLS_MAX);
	}
	if (join(sc->path, sizeof(sc->path), dir, name, err, errlen)) {
		free(sc);
		return -1;
	}
	sc->cols = cols;
	sc->ncols = n;
	for (size_t k = 0; k < SCAN_COLS_MAX; k++)
		sc->idx[k] = -1;
	sc->line = 1;
	sc->row = row;
	sc->ctx = ctx;
	sc->err = err;
	sc->errlen = errlen;
	FILE *fp = fopen(sc->path, "rb");
	if (!fp) {
		fail(err, errlen, "%s: cannot open: %s", sc->path, strerror(errno));
		free(sc);
		return -1;
	}
	struct csv_parser p;
	csv_init(&p, 0);
	char buf[65536];
	size_t got;
	while (!sc->failed && (got = fread(buf, 1, sizeof(buf), fp)) > 0)
		if (csv_parse(&p, buf, got, scan_field, scan_row, sc) != got && !sc->failed)
			sc->failed = fail(err, errlen, "%s: %s", sc->path,
					  csv_strerror(csv_error(&p)));
	if (!sc->failed && ferror(fp))
		sc->failed = fail(err, errlen, "%s: read error", sc->path);
	if (!sc->failed)
		csv_fini(&p, scan_field, scan_row, sc);
	if (!sc->failed && sc->line == 1)
		sc->failed = fail(err, errlen, "%s: empty file (no header row)", sc->path);
	csv_free(&p);
	fclose(fp);
	long rows = sc->failed ? -1 : (long)sc->rows;
	free(sc);
	return rows;
}

/* field k of the row as a number, or -1 with "file:line: column ..." */
int scan_num(struct scan *sc, char *const *f, size_t k, double *v)
{
	if (parse_double(f[k], v))
		return fail(sc->err, sc->errlen, "%s:%lu: column %s: '%s' is not a number",
			    sc->path, sc->line, sc->cols[k], f[k]);
	return 0;
}

/* ---- series table: string key -> statistics --------------------------- */

static uint64_t fnv1a(const char *s)
{
	uint64_t h = UINT64_C(1469598103934665603);
	while (*s)
		h = (h ^ (unsigned char)*s++) * UINT64_C(1099511628211);
	return h;
}

struct series *table_find(const struct table *t, const char *key)
{
	if (!t->hcap)
		return NULL;
	for (size_t i = fnv1a(key) & (t->hcap - 1);; i = (i + 1) & (t->hcap - 1)) {
		if (!t->hash[i])
			return NULL;
		if (!strcmp(t->v[t->hash[i] - 1].key, key))
			return &t->v[t->hash[i] - 1];
	}
}

static int table_rehash(struct table *t, size_t hcap)
{
	size_t *h = calloc(hcap, sizeof(*h));
	if (!h)
		return -1;
	for (size_t e = 0; e < t->n; e++) {
		size_t i = fnv1a(t->v[e].key) & (hcap - 1);
		while (h[i])
			i = (i + 1) & (hcap - 1);
		h[i] = e + 1;
	}
	free(t->hash);
	t->hash = h;
	t->hcap = hcap;
	return 0;
}

/* the entry of key, added (zeroed, slot -1) when new; NULL when out of memory */
struct series *table_get(struct table *t, const char *key)
{
	struct series *s = table_find(t, key);
	if (s)
		return s;
	if (strlen(key) >= sizeof(s->key))
		return NULL;
	if (2 * (t->n + 1) > t->hcap && table_rehash(t, t->hcap ? 2 * t->hcap : 64))
		return NULL;
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		struct series *v = realloc(t->v, cap * sizeof(*v));
		if (!v)
			return NULL;
		t->v = v;
		t->cap = cap;
	}
	s = &t->v[t->n];
	*s = (struct series){.low = INFINITY, .first_us = INFINITY, .slot = -1};
	strcpy(s->key, key);
	size_t i = fnv1a(key) & (t->hcap - 1);
	while (t->hash[i])
		i = (i + 1) & (t->hcap - 1);
	t->hash[i] = ++t->n;
	return s;
}

void table_free(struct table *t)
{
	free(t->v);
	free(t->hash);
	*t = (struct table){0};
}

/*
 * Point sel[0..] at the table's entries sorted by cmp and give the first
 * max of them slots 0..; returns how many got one, or -1 out of memory.
 */
int table_select(struct table *t, int (*cmp)(const void *, const void *), size_t max,
		 struct series ***sel)
{
	*sel = malloc((t->n ? t->n : 1) * sizeof(**sel));
	if (!*sel)
		return -1;
	for (size_t i = 0; i < t->n; i++)
		(*sel)[i] = &t->v[i];
	qsort(*sel, t->n, sizeof(**sel), cmp);
	size_t n = t->n < max ? t->n : max;
	for (size_t i = 0; i < n; i++)
		(*sel)[i]->slot = (int)i;
	return (int)n;
}

/* ---- what the run directory says about itself ------------------------- */

/* the job called name in scenario.ini, NULL when not there */
const struct run_job *run_job(const struct run_info *ri, const char *name)
{
	for (int j = 0; j < ri->njobs; j++)
		if (!strcmp(ri->jobs[j].name, name))
			return &ri->jobs[j];
	return NULL;
}

/* busbw against a target means something for the collectives only
 * (output.c's nccl-tests factors); an incast's, a permutation's or a
 * trace's "busbw" is its mean sender rate */
int is_collective(const struct run_job *j)
{
	return j && (!strcmp(j->pattern, "ring-allreduce") || !strcmp(j->pattern, "alltoall"));
}

static int ini_value(void *user, const char *section, const char *name, const char *value)
{
	struct run_info *ri = user;
	char e[128];
	int64_t v;
	if (!strcmp(section, "ecn")) {
		if (!strcmp(name, "kmin") && !units_parse_size(value, &v, e, sizeof(e)))
			ri->kmin_kb = (double)v / 1000;
		if (!strcmp(name, "kmax") && !units_parse_size(value, &v, e, sizeof(e)))
			ri->kmax_kb = (double)v / 1000;
		if (!strcmp(name, "queues")) {
			ri->ecn_queues = 0;
			for (const char *c = value; *c; c++)
				if (*c >= '0' && *c <= '7' && (c == value || c[-1] < '0' || c[-1] > '9') &&
				    (c[1] < '0' || c[1] > '9'))
					ri->ecn_queues |= 1u << (*c - '0');
		}
	} else if (!strcmp(section, "output")) {
		if (!strcmp(name, "sample_interval") && !units_parse_time(value, &v, e, sizeof(e)))
			ri->interval_us = (double)v / (double)UNITS_PS_PER_US;
		if (!strcmp(name, "queues"))
			ri->queues_none = !strcmp(value, "none");
		if (!strcmp(name, "rates"))
			ri->rates_zero = !strcmp(value, "0");
		if (!strcmp(name, "plot_qps")) {
			/* "auto", or QP ids "0,5,9" (the loader checked them) */
			ri->nplot_qps = 0;
			for (const char *c = value; *c && ri->nplot_qps < FLOWS_MAX;) {
				char *end;
				double id = strtod(c, &end);
				if (end == c)
					break;
				ri->plot_qps[ri->nplot_qps++] = id;
				c = end + strspn(end, " ,");
			}
		}
	} else if (!strncmp(section, "job.", 4)) {
		int j = 0;
		while (j < ri->njobs && strcmp(ri->jobs[j].name, section + 4))
			j++;
		if (j == ri->njobs && ri->njobs < RUN_JOBS_MAX &&
		    strlen(section + 4) < sizeof(ri->jobs[0].name))
			snprintf(ri->jobs[ri->njobs++].name, sizeof(ri->jobs[0].name), "%s",
				 section + 4);
		if (j < ri->njobs && !strcmp(name, "pattern"))
			snprintf(ri->jobs[j].pattern, sizeof(ri->jobs[j].pattern), "%s", value);
	} else if (!strcmp(section, "topology")) {
		if (!strcmp(name, "host_link") && !units_parse_rate(value, &v, e, sizeof(e)))
			ri->host_link_gbps = (double)v / 1e9;
	} else if (!strcmp(section, "nic")) {
		if (!strcmp(name, "cc"))
			ri->cc_none = !strcmp(value, "none");
	} else if (!strcmp(section, "criteria")) {
		double d;
		if (!strcmp(name, "max_ecn_mark_pct") && !parse_double(value, &d))
			ri->max_ecn_mark_pct = d;
		if (!strcmp(name, "min_busbw_pct_line") && !parse_double(value, &d))
			ri->min_busbw_pct = d;
		if (!strcmp(name, "warmup_iterations") && !parse_double(value, &d))
			ri->warmup_iterations = d;
	}
	return 1;
}

/* the first and the last time of a one-column scan */
struct span_us {
	double first, last;
};

static int span_row(struct scan *sc, char *const *f)
{
	struct span_us *sp = sc->ctx;
	if (scan_num(sc, f, 0, &sp->last))
		return -1;
	if (sc->rows == 1)
		sp->first = sp->last;
	return 0;
}

/*
 * scenario.ini is optional (the defaults above, docs/contract.md#scenario-files's, stand in).
 * The end time comes from summary.csv, else the last row of counters.csv,
 * else 0 (each figure then uses its own data's last time); without
 * output.sample_interval, the interval is the end of counters.csv's first
 * interval.  Errors here are not reported: each figure reads what it needs
 * and reports its own.
 */
void read_run_info(const char *dir, struct run_info *ri)
{
	*ri = (struct run_info){.kmin_kb = NAN, .kmax_kb = NAN, .ecn_queues = 1u << 3,
				.host_link_gbps = NAN, .max_ecn_mark_pct = 2,
				.min_busbw_pct = 95, .warmup_iterations = 1};
	char path[PLOT_PATH_MAX], e[512];
	/* inih returns the number of a line longer than it reads, and reads
	 * on: only -1 (no file) and -2 (no memory) leave it unread */
	if (!join(path, sizeof(path), dir, "scenario.ini", e, sizeof(e)))
		ri->ini_read = ini_parse(path, ini_value, ri) >= 0;
	static const char *const sum_cols[] = {"sim_time_us", NULL};
	static const char *const cnt_cols[] = {"time_us", NULL};
	struct span_us sum = {0}, cnt = {0};
	int have_cnt = scan_csv(dir, "counters.csv", cnt_cols, span_row, &cnt, e, sizeof(e)) > 0;
	if (scan_csv(dir, "summary.csv", sum_cols, span_row, &sum, e, sizeof(e)) > 0)
		ri->t_end_us = sum.last;
	else if (have_cnt)
		ri->t_end_us = cnt.last;
	if (ri->interval_us <= 0 && have_cnt)
		ri->interval_us = cnt.first;
}

/* ---- output files ----------------------------------------------------- */

FILE *data_open(const struct fig *g, const char *file, char *err, size_t errlen)
{
	char path[PLOT_PATH_MAX];
	if (join(path, sizeof(path), g->data, file, err, errlen))
		return NULL;
	FILE *fp = fopen(path, "w");
	if (!fp)
		fail(err, errlen, "%s: cannot write: %s", path, strerror(errno));
	return fp;
}

int data_close(FILE *fp, const struct fig *g, const char *file, char *err, size_t errlen)
{
	if (file_close(fp))
		return fail(err, errlen, "%s/%s: write failed", g->data, file);
	return 0;
}

/* NAME.vars: t_end_us and the figure's own assignments (printf format) */
__attribute__((format(printf, 6, 7))) int write_vars(const struct fig *g, const struct run_info *ri,
						     double t_end_us, char *err, size_t errlen,
						     const char *fmt, ...)
{
	char file[64];
	snprintf(file, sizeof(file), "%s.vars", g->name);
	FILE *fp = data_open(g, file, err, errlen);
	if (!fp)
		return -1;
	fprintf(fp, "# written by dcqcn-sim plot for %s.gp\n", g->name);
	fprintf(fp, "t_end_us = %.3f\ninterval_us = %.6g\n",
		ri->t_end_us > 0 ? ri->t_end_us : t_end_us, ri->interval_us);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(fp, fmt, ap);
	va_end(ap);
	return data_close(fp, g, file, err, errlen);
}

/* NaN as gnuplot reads it ("NaN" is undefined: no point, no line) */
const char *gp_num(double v, char *buf, size_t len)
{
	if (isnan(v))
		return "NaN";
	snprintf(buf, len, "%.6g", v);
	return buf;
}

/* ---- thinning long time series --------------------------------------- */

/*
 * A chart 1200 pixels wide shows no more than a couple of thousand distinct
 * times, and gnuplot takes seconds over millions of points (a 1 s run
 * sampled every 10 us has 100,000 samples per series).  So when a series
 * has more than 2 x THIN_BUCKETS samples over the run, time is cut into
 * THIN_BUCKETS buckets and a bucket holding several samples is written as
 * two rows: the minimum of each column at the bucket's first time and the
 * maximum at its last.  Peaks and troughs (a queue's peak, a rate cut) stay
 * on the chart; shorter runs pass through unchanged.
 */
#define THIN_BUCKETS 2000

void thin_init(struct thin *th, FILE *out, int ncols, double t_end_us, double interval_us)
{
	*th = (struct thin){.out = out, .ncols = ncols};
	if (interval_us > 0 && t_end_us / interval_us > 2 * THIN_BUCKETS)
		th->bucket_us = t_end_us / THIN_BUCKETS;
}

static void thin_row(const struct thin *th, double t, const double *v)
{
	char a[32];
	fprintf(th->out, "%.3f", t);
	for (int i = 0; i < th->ncols; i++)
		fprintf(th->out, "\t%s", gp_num(v[i], a, sizeof(a)));
	fputc('\n', th->out);
}

void thin_flush(struct thin *th)
{
	if (th->n == 1) {
		thin_row(th, th->t0, th->first);
	} else if (th->n > 1) {
		thin_row(th, th->t0, th->lo);
		thin_row(th, th->t1, th->hi);
	}
	th->n = 0;
}

void thin_add(struct thin *th, double t, const double *v)
{
	if (th->bucket_us <= 0) {
		thin_row(th, t, v);
		return;
	}
	double b = floor(t / th->bucket_us);
	if (th->n && b != th->bucket)
		thin_flush(th);
	if (!th->n) {
		th->bucket = b;
		th->t0 = t;
		for (int i = 0; i < th->ncols; i++)
			th->first[i] = th->lo[i] = th->hi[i] = v[i];
	}
	for (int i = 0; i < th->ncols; i++) {
		th->lo[i] = fmin(th->lo[i], v[i]); /* fmin and fmax skip a NaN */
		th->hi[i] = fmax(th->hi[i], v[i]);
	}
	th->t1 = t;
	th->n++;
}

/* a blank line: gnuplot breaks the line there */
void thin_break(struct thin *th)
{
	thin_flush(th);
	fputc('\n', th->out);
}

/* ---- counters.csv: counts per sample interval --------------------------- */

/*
 * counters.csv has a row per sample interval (time_us: its end) and a last
 * row at the run's end for the interval since the last sample, which can be
 * any part of an interval (models/fabric/series.c).  A few packets counted
 * over a few nanoseconds make a rate spike that never happened, so a last
 * interval shorter than half a sample interval is added to the one before
 * it: that point then stands for both, at the run's end.  Totals do not
 * change.
 */

int cnt_add(struct cnt_acc *a, struct scan *sc, const char *time, double t, const double *v)
{
	double dt = t - a->prev_t;
	if (dt <= 0)
		return fail(sc->err, sc->errlen, "%s:%lu: time_us %s does not increase",
			    sc->path, sc->line, time);
	if (a->have && a->interval > 0 && dt < 0.5 * a->interval) {
		a->t = t;
		a->dt += dt;
		for (int i = 0; i < a->n; i++)
			a->v[i] += v[i];
	} else {
		if (a->have)
			a->emit(a->ctx, a->t, a->dt, a->v);
		a->have = 1;
		a->t = t;
		a->dt = dt;
		memcpy(a->v, v, (size_t)a->n * sizeof(*v));
	}
	a->prev_t = t;
	return 0;
}

void cnt_flush(struct cnt_acc *a)
{
	if (a->have)
		a->emit(a->ctx, a->t, a->dt, a->v);
	a->have = 0;
}

int plot_window(double first, double last, double step, double t_end, double *w0, double *w1)
{
	*w0 = 0;
	*w1 = t_end;
	if (last <= 0 || step <= 0)
		return 0;
	double a = fmax(0, first), pad = fmax(0.15 * (last - a), 2 * step);
	double s = floor(fmax(0, a - pad) / step) * step, e = fmin(t_end, last + pad);
	if (e - s >= 0.5 * t_end)
		return 0;
	*w0 = s;
	*w1 = e;
	return 1;
}
