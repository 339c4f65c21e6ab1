/*
 * plot.c - gnuplot figures of a run directory (docs/contract.md#commands `plot`, A3; plot.h).
 *
 * The work is split so that no chart is ever drawn from data that is not
 * there.  C reads the run's CSVs with libcsv, checks by name every column a
 * figure needs (gnuplot only warns about a missing `using "name"` column and
 * then draws an empty chart), and does the shaping gnuplot is bad at:
 * choosing the busiest queues, the most paused transmitters and the most
 * cut QPs, naming QPs by job and hosts, binning pause intervals into an
 * image, turning per-interval counts into rates, merging watchdog storms
 * into spans.  It writes tab-separated files with a header row under
 * DIR/plots/data/ (NAME.dat, NAME_K.dat, and NAME.vars: a few gnuplot
 * assignments such as the run's end time), then runs
 *
 *     gnuplot -e "dir='DIR';out='DIR/plots/NAME.png'" SCRIPTS/NAME.gp
 *
 * with fork/exec (posix_spawn), stdin and stdout on /dev/null and stderr in
 * DIR/plots/data/NAME.log, and checks its exit status and the PNG.  The
 * scripts only draw; each stops with `exit error` naming the file when its
 * data has no rows, so they fail loudly when run by hand on a bad folder too.
 *
 * Time: the CSVs' time_us is the end of a sample interval (pause.csv,
 * counters.csv, rates.csv) or the sample time (queues.csv); counters.csv's
 * last row ends at the run's end, a partial interval (cnt_add).  The interval
 * is output.sample_interval from scenario.ini, else the smallest step seen
 * in the data.  The x axes run from 0 to summary.csv's sim_time_us (else
 * the last time in counters.csv).
 *
 * Sizes are decimal, as everywhere in the project: 1 KB = 1000 B.
 */
#include "plots/plot.h"

#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <math.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "models/base/figures.h"
#include "models/base/units.h"

extern char **environ;

#define PLOT_PATH_MAX 4096
#define QUEUES_MAX 6	 /* queue series drawn */
#define PAUSE_ROWS_MAX 40 /* rows of the pause map */
#define PAUSE_COLS_MAX 1000 /* time bins of the pause map */
#define FLOWS_MAX 16	 /* DCQCN QPs drawn (output.plot_qps lists at most 16) */
#define FLOWS_AUTO 8	 /* ... with plot_qps = auto: the 8 most cut */
#define JOBS_MAX 16	 /* jobs drawn (collectives.png, throughput.png) */
#define RUN_JOBS_MAX 64	 /* [job.*] sections remembered from scenario.ini */
#define STORM_SPANS_MAX 64 /* shaded PFC watchdog storm spans */
#define ARROW "\xe2\x86\x92" /* U+2192, the transmitter -> peer arrow */

/* ---- small helpers ---------------------------------------------------- */

__attribute__((format(printf, 3, 4))) static int fail(char *err, size_t errlen,
						       const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* dir/name into buf; -1 (with err) when it does not fit */
static int join(char *buf, size_t len, const char *dir, const char *name, char *err,
		size_t errlen)
{
	int n = snprintf(buf, len, "%s/%s", dir, name);
	if (n < 0 || (size_t)n >= len)
		return fail(err, errlen, "%s/%s: path too long", dir, name);
	return 0;
}

static int make_dir(const char *path, char *err, size_t errlen)
{
	if (mkdir(path, 0777) && errno != EEXIST)
		return fail(err, errlen, "%s: cannot create: %s", path, strerror(errno));
	return 0;
}

static int parse_double(const char *s, double *v)
{
	char *end;
	errno = 0;
	*v = strtod(s, &end);
	return end == s || *end || errno || !isfinite(*v) ? -1 : 0;
}

/* s as a gnuplot single-quoted string ('' stands for a quote inside) */
static int gp_quote(char *buf, size_t len, const char *s)
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

#define SCAN_COLS_MAX (1 + 3 * JOBS_MAX) /* throughput: time_us and 3 per job */
#define SCAN_FIELD_MAX 128

/*
 * One pass over a CSV file with a header row.  The header is matched
 * against the wanted column names (any order, other columns ignored); each
 * data row is handed to row() as the wanted fields, NUL-terminated, in the
 * order of cols.  The first error stops the pass.
 */
struct scan {
	char path[PLOT_PATH_MAX]; /* for messages */
	const char *const *cols;
	size_t ncols;
	int idx[SCAN_COLS_MAX]; /* file column of each wanted column, -1 unseen */
	size_t field;		/* field number in the current row */
	unsigned long line;	/* line of the current row, header = 1 */
	unsigned long rows;	/* data rows seen */
	char header[512];	/* the header row, for messages */
	char val[SCAN_COLS_MAX][SCAN_FIELD_MAX];
	int got[SCAN_COLS_MAX];
	int (*row)(struct scan *sc, char *const *f);
	void *ctx;
	char *err;
	size_t errlen;
	int failed;
};

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
static long scan_csv(const char *dir, const char *name, const char *const *cols,
		     int (*row)(struct scan *, char *const *), void *ctx, char *err,
		     size_t errlen)
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
static int scan_num(struct scan *sc, char *const *f, size_t k, double *v)
{
	if (parse_double(f[k], v))
		return fail(sc->err, sc->errlen, "%s:%lu: column %s: '%s' is not a number",
			    sc->path, sc->line, sc->cols[k], f[k]);
	return 0;
}

/* ---- series table: string key -> statistics --------------------------- */

struct series {
	char key[96];	/* e.g. "leaf0\th3\t3" */
	double peak;	/* largest value */
	double low;	/* smallest value */
	double sum;	/* sum of values (dcqcn: the number of samples) */
	double first_us; /* time of the first non-zero value (INFINITY: none) */
	double num;	/* numeric key (flow id), for sorting */
	int slot;	/* index among the drawn series, -1 when not drawn */
};

struct table {
	struct series *v;
	size_t n, cap;
	size_t *hash; /* open addressing: entry index + 1, 0 = free */
	size_t hcap;
};

static uint64_t fnv1a(const char *s)
{
	uint64_t h = UINT64_C(1469598103934665603);
	while (*s)
		h = (h ^ (unsigned char)*s++) * UINT64_C(1099511628211);
	return h;
}

static struct series *table_find(const struct table *t, const char *key)
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
static struct series *table_get(struct table *t, const char *key)
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

static void table_free(struct table *t)
{
	free(t->v);
	free(t->hash);
	*t = (struct table){0};
}

/* biggest peak first, then the key: a deterministic order */
static int by_peak(const void *a, const void *b)
{
	const struct series *x = *(struct series *const *)a, *y = *(struct series *const *)b;
	if (x->peak != y->peak)
		return x->peak < y->peak ? 1 : -1;
	return strcmp(x->key, y->key);
}

static int by_sum(const void *a, const void *b)
{
	const struct series *x = *(struct series *const *)a, *y = *(struct series *const *)b;
	if (x->sum != y->sum)
		return x->sum < y->sum ? 1 : -1;
	return strcmp(x->key, y->key);
}

/* earliest onset first (a storm spreading reads top to bottom) */
static int by_onset(const void *a, const void *b)
{
	const struct series *x = *(struct series *const *)a, *y = *(struct series *const *)b;
	if (x->first_us != y->first_us)
		return x->first_us > y->first_us ? 1 : -1;
	return by_sum(a, b);
}

static int by_num(const void *a, const void *b)
{
	const struct series *x = *(struct series *const *)a, *y = *(struct series *const *)b;
	return (x->num > y->num) - (x->num < y->num);
}

/*
 * Point sel[0..] at the table's entries sorted by cmp and give the first
 * max of them slots 0..; returns how many got one, or -1 out of memory.
 */
static int table_select(struct table *t, int (*cmp)(const void *, const void *), size_t max,
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

struct run_info {
	double t_end_us;	/* x axes end here */
	double interval_us;	/* output.sample_interval, 0 unknown */
	double kmin_kb, kmax_kb; /* ECN thresholds, NaN unknown */
	unsigned ecn_queues;	/* bit q: queue q marks */
	double host_link_gbps;	/* NaN unknown */
	double max_ecn_mark_pct; /* [criteria], default 2 (docs/contract.md#scenario-files) */
	double min_busbw_pct;	/* [criteria], default 95 (docs/contract.md#scenario-files) */
	int ini_read;		/* scenario.ini was read: jobs[] lists its jobs */
	int queues_none;	/* output.queues = none */
	int cc_none;		/* nic.cc = none */
	int rates_zero;		/* output.rates = 0 */
	int nplot_qps;		/* output.plot_qps: 0 auto, else how many listed */
	double plot_qps[FLOWS_MAX];
	int njobs;		/* the [job.NAME] sections, in order */
	struct run_job {
		char name[64];
		char pattern[24]; /* "" unknown */
	} jobs[RUN_JOBS_MAX];
};

/* the job called name in scenario.ini, NULL when not there */
static const struct run_job *run_job(const struct run_info *ri, const char *name)
{
	for (int j = 0; j < ri->njobs; j++)
		if (!strcmp(ri->jobs[j].name, name))
			return &ri->jobs[j];
	return NULL;
}

/* busbw against a target means something for the collectives only
 * (output.c's nccl-tests factors); an incast's, a permutation's or a
 * trace's "busbw" is its mean sender rate */
static int is_collective(const struct run_job *j)
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
static void read_run_info(const char *dir, struct run_info *ri)
{
	*ri = (struct run_info){.kmin_kb = NAN, .kmax_kb = NAN, .ecn_queues = 1u << 3,
				.host_link_gbps = NAN, .max_ecn_mark_pct = 2,
				.min_busbw_pct = 95};
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

struct fig {
	const char *name; /* "queues": queues.gp, queues.png, data/queues* */
	char dir[PLOT_PATH_MAX];
	char data[PLOT_PATH_MAX]; /* dir/plots/data */
	char note[256];		  /* why the figure was skipped */
	const char *ext;	  /* "png", "svg" or "pdf" */
	const char *script;	  /* the script's NAME.gp when not name's (sweep
				   * figures: one script, a figure per metric);
				   * the script then gets fig='NAME' too */
};

static FILE *data_open(const struct fig *g, const char *file, char *err, size_t errlen)
{
	char path[PLOT_PATH_MAX];
	if (join(path, sizeof(path), g->data, file, err, errlen))
		return NULL;
	FILE *fp = fopen(path, "w");
	if (!fp)
		fail(err, errlen, "%s: cannot write: %s", path, strerror(errno));
	return fp;
}

static int data_close(FILE *fp, const struct fig *g, const char *file, char *err,
		      size_t errlen)
{
	int bad = ferror(fp);
	bad |= fclose(fp);
	if (bad)
		return fail(err, errlen, "%s/%s: write failed", g->data, file);
	return 0;
}

/* NAME.vars: t_end_us and the figure's own assignments (printf format) */
__attribute__((format(printf, 6, 7))) static int write_vars(const struct fig *g,
							    const struct run_info *ri,
							    double t_end_us, char *err,
							    size_t errlen, const char *fmt, ...)
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
static const char *gp_num(double v, char *buf, size_t len)
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
#define THIN_COLS_MAX 8

struct thin {
	FILE *out;
	int ncols;
	double bucket_us; /* 0: write every sample */
	double bucket;	  /* index of the open bucket */
	int n;		  /* samples in it */
	double t0, t1;	  /* its first and last time */
	double first[THIN_COLS_MAX], lo[THIN_COLS_MAX], hi[THIN_COLS_MAX];
};

static void thin_init(struct thin *th, FILE *out, int ncols, double t_end_us,
		      double interval_us)
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

static void thin_flush(struct thin *th)
{
	if (th->n == 1) {
		thin_row(th, th->t0, th->first);
	} else if (th->n > 1) {
		thin_row(th, th->t0, th->lo);
		thin_row(th, th->t1, th->hi);
	}
	th->n = 0;
}

static void thin_add(struct thin *th, double t, const double *v)
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
static void thin_break(struct thin *th)
{
	thin_flush(th);
	fputc('\n', th->out);
}

/* ---- the fluid model beside the packets (run --fluid: DIR/fluid/) ---- */

struct fluid_series {
	FILE *out;
	double scale;
	int of_flow0;	/* rates.csv: flow 0's rows only (every flow of a start time
			 * follows the same path) */
};

static const char *const fluid_queue_cols[] = {"time_us", "bytes", NULL};
static const char *const fluid_rate_cols[] = {"time_us", "rate_gbps", "flow", NULL};

static int fluid_pass(struct scan *sc, char *const *f)
{
	struct fluid_series *fs = sc->ctx;
	if (fs->of_flow0 && strcmp(f[2], "0"))
		return 0;
	fprintf(fs->out, "%s\t%.6g\n", f[0], atof(f[1]) * fs->scale);
	return 0;
}

/* DIR/fluid/NAME (the fluid model's run of `run --fluid`) as the data file
 * DAT: time_us and its value x scale (queues.csv: bytes; rates.csv: flow 0's
 * Rc).  1 written, 0 when there is no fluid run, -1 on an error. */
static int shape_fluid(const struct fig *g, const char *name, double scale, const char *dat,
		       char *err, size_t errlen)
{
	char dir[PLOT_PATH_MAX], path[PLOT_PATH_MAX];
	struct stat st;
	if (join(dir, sizeof(dir), g->dir, "fluid", err, errlen) ||
	    join(path, sizeof(path), dir, name, err, errlen))
		return -1;
	if (stat(path, &st))
		return 0;
	int rates = !strcmp(name, "rates.csv");
	struct fluid_series fs = {.scale = scale, .of_flow0 = rates};
	if (!(fs.out = data_open(g, dat, err, errlen)))
		return -1;
	fputs(rates ? "time_us\tfluid model Rc (each flow)\n" : "time_us\tfluid model queue\n",
	      fs.out);
	long rows = scan_csv(dir, name, rates ? fluid_rate_cols : fluid_queue_cols, fluid_pass,
			     &fs, err, errlen);
	if (data_close(fs.out, g, dat, err, errlen) || rows < 0)
		return -1;
	return 1;
}

/* ---- queues.png ------------------------------------------------------- */

static const char *const queue_cols[] = {"time_us", "node", "port", "queue", "bytes", NULL};

struct queues {
	struct table t;
	double last_t, min_step, max_t;
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

static int shape_queues(struct fig *g, const struct run_info *ri, char *err, size_t errlen)
{
	struct queues q = {0};
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
	if (rows == 0) {
		fail(err, errlen, "%s/queues.csv: no rows: no switch queue was ever sampled "
			"non-empty", g->dir);
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
	rc = write_vars(g, ri, q.max_t, err, errlen,
			"nseries = %d\nnqueues = %zu\nkmin_kb = %s\nkmax_kb = %s\nfluid = %d\n", n,
			q.t.n, gp_num(ecn_shown ? ri->kmin_kb : NAN, a, sizeof(a)),
			gp_num(ecn_shown ? ri->kmax_kb : NAN, b, sizeof(b)), fluid);
done:
	if (out)
		fclose(out);
	free(sel);
	table_free(&q.t);
	return rc;
}

/* ---- pause_map.png ---------------------------------------------------- */

static const char *const pause_cols[] = {"time_us",	    "node",   "port", "priority",
					 "paused_fraction", "frames", NULL};

struct pause {
	struct table t;
	unsigned prios; /* bit p: priority p seen */
	double max_t, min_t;
	/* pass 2 */
	double interval, bin_us;
	size_t ncols;
	double *grid; /* [slot][col], sum of fractions */
};

static int pause_pass1(struct scan *sc, char *const *f)
{
	struct pause *p = sc->ctx;
	double t, frac, frames, prio;
	if (scan_num(sc, f, 0, &t) || scan_num(sc, f, 3, &prio) || scan_num(sc, f, 4, &frac) ||
	    scan_num(sc, f, 5, &frames))
		return -1;
	char key[96];
	snprintf(key, sizeof(key), "%s\t%s\t%s", f[1], f[2], f[3]);
	struct series *s = table_get(&p->t, key);
	if (!s)
		return fail(sc->err, sc->errlen, "%s:%lu: out of memory or key too long",
			    sc->path, sc->line);
	s->sum += frac;
	if (frac > s->peak)
		s->peak = frac;
	if ((frac > 0 || frames > 0) && t < s->first_us)
		s->first_us = t;
	if (prio >= 0 && prio < 32)
		p->prios |= 1u << (unsigned)prio;
	if (t > p->max_t)
		p->max_t = t;
	if (t > 0 && (p->min_t == 0 || t < p->min_t))
		p->min_t = t;
	return 0;
}

static int pause_pass2(struct scan *sc, char *const *f)
{
	struct pause *p = sc->ctx;
	char key[96];
	snprintf(key, sizeof(key), "%s\t%s\t%s", f[1], f[2], f[3]);
	const struct series *s = table_find(&p->t, key);
	if (!s || s->slot < 0)
		return 0;
	double t, frac;
	if (scan_num(sc, f, 0, &t) || scan_num(sc, f, 4, &frac))
		return -1;
	/* the row's time is the end of its interval: bin by the interval's middle */
	double col = floor((t - p->interval / 2) / p->bin_us);
	if (col < 0)
		col = 0;
	if (col >= (double)p->ncols)
		col = (double)p->ncols - 1;
	p->grid[(size_t)s->slot * p->ncols + (size_t)col] += frac;
	return 0;
}

static int shape_pause(struct fig *g, const struct run_info *ri, char *err, size_t errlen)
{
	struct pause p = {0};
	struct series **sel = NULL;
	FILE *out = NULL;
	int rc = -1;
	long rows = scan_csv(g->dir, "pause.csv", pause_cols, pause_pass1, &p, err, errlen);
	if (rows < 0)
		goto done;
	double t_end = ri->t_end_us > 0 ? ri->t_end_us : p.max_t;
	p.interval = ri->interval_us > 0 ? ri->interval_us : p.min_t > 0 ? p.min_t : 1;
	double nint = ceil(t_end / p.interval - 1e-9);
	if (nint < 1)
		nint = 1;
	double per_col = ceil(nint / PAUSE_COLS_MAX);
	p.bin_us = per_col * p.interval;
	p.ncols = (size_t)ceil(nint / per_col);
	int n = table_select(&p.t, by_sum, PAUSE_ROWS_MAX, &sel);
	if (n < 0) {
		fail(err, errlen, "out of memory");
		goto done;
	}
	/* the drawn rows, earliest onset at the top */
	qsort(sel, (size_t)n, sizeof(*sel), by_onset);
	for (int i = 0; i < n; i++)
		sel[i]->slot = i;
	p.grid = calloc((size_t)(n ? n : 1) * p.ncols, sizeof(*p.grid));
	if (!p.grid) {
		fail(err, errlen, "out of memory");
		goto done;
	}
	if (n > 0 && scan_csv(g->dir, "pause.csv", pause_cols, pause_pass2, &p, err, errlen) < 0)
		goto done;
	int show_prio = (p.prios & (p.prios - 1)) != 0;
	if (!(out = data_open(g, "pause_rows.dat", err, errlen)))
		goto done;
	fputs("row\ttransmitter\tpaused_us\n", out);
	size_t label_chars = 0; /* the longest row label, for the left margin */
	for (int i = 0; i < n; i++) {
		char node[96], *port, *prio;
		strcpy(node, sel[i]->key);
		port = strchr(node, '\t');
		*port++ = '\0';
		prio = strchr(port, '\t');
		*prio++ = '\0';
		size_t w = strlen(node) + strlen(port) + 3 + (show_prio ? 3 + strlen(prio) : 0);
		if (w > label_chars)
			label_chars = w;
		fprintf(out, "%d\t%s " ARROW " %s%s%s\t%.3f\n", i, node, port,
			show_prio ? "  p" : "", show_prio ? prio : "", sel[i]->sum * p.interval);
	}
	rc = data_close(out, g, "pause_rows.dat", err, errlen);
	out = NULL;
	if (rc)
		goto done;
	rc = -1;
	if (!(out = data_open(g, "pause_map.dat", err, errlen)))
		goto done;
	/* gnuplot draws `with image` only from a grid of at least 2 x 2
	 * points, so each transmitter is two scan lines (y = row -+ 0.25) and
	 * a single time bin two half bins */
	fputs("time_us\trow\tpaused_fraction\n", out);
	for (int i = 0; i < n; i++) {
		for (int half = 0; half < 2; half++) {
			for (size_t c = 0; c < p.ncols; c++) {
				double lo = (double)c * per_col, hi = fmin(lo + per_col, nint);
				double v = p.grid[(size_t)i * p.ncols + c] / (hi - lo);
				double y = i + (half ? 0.25 : -0.25);
				if (v > 1)
					v = 1;
				if (p.ncols > 1) {
					fprintf(out, "%.3f\t%.2f\t%.4f\n",
						((double)c + 0.5) * p.bin_us, y, v);
				} else {
					fprintf(out, "%.3f\t%.2f\t%.4f\n", 0.25 * p.bin_us, y, v);
					fprintf(out, "%.3f\t%.2f\t%.4f\n", 0.75 * p.bin_us, y, v);
				}
			}
			fputc('\n', out);
		}
	}
	rc = data_close(out, g, "pause_map.dat", err, errlen);
	out = NULL;
	if (rc)
		goto done;
	char prios[32] = "";
	for (unsigned b = 0; b < 32; b++)
		if (p.prios >> b & 1)
			snprintf(prios + strlen(prios), sizeof(prios) - strlen(prios), "%s%u",
				 *prios ? "," : "", b);
	rc = write_vars(g, ri, t_end, err, errlen,
			"nrows = %d\nntransmitters = %zu\nbin_us = %.6g\npriorities = \"%s\"\n"
			"label_chars = %zu\n",
			n, p.t.n, p.bin_us, prios, label_chars);
done:
	if (out)
		fclose(out);
	free(p.grid);
	free(sel);
	table_free(&p.t);
	return rc;
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
#define CNT_VALS_MAX (3 * JOBS_MAX)

struct cnt_acc {
	double interval; /* the sample interval; 0 unknown: nothing is merged */
	double prev_t;	 /* end of the last row read */
	int n;		 /* counts per row */
	int have;	 /* a row waits in t, dt, v */
	double t, dt, v[CNT_VALS_MAX];
	void (*emit)(void *ctx, double t, double dt, const double *v);
	void *ctx;
};

static int cnt_add(struct cnt_acc *a, struct scan *sc, const char *time, double t,
		   const double *v)
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

static void cnt_flush(struct cnt_acc *a)
{
	if (a->have)
		a->emit(a->ctx, a->t, a->dt, a->v);
	a->have = 0;
}

/* ---- rates.png (counters.csv) ----------------------------------------- */

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

static int shape_rates(struct fig *g, const struct run_info *ri, char *err, size_t errlen)
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

/* ---- throughput.png (counters.csv, pfcwd.csv) -------------------------- */

#define JOB_DELIVERED "_delivered_bytes"

/*
 * The jobs of counters.csv: each column NAME_delivered_bytes names one, in
 * the scenario's order (sim/run/output.c).  Returns how many (at most max, in
 * names), *all how many there are, or -1 with err.
 */
static int counter_jobs(const char *dir, char names[][64], int max, int *all, char *err,
			size_t errlen)
{
	char path[PLOT_PATH_MAX];
	if (join(path, sizeof(path), dir, "counters.csv", err, errlen))
		return -1;
	FILE *fp = fopen(path, "r");
	if (!fp)
		return fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
	char *line = NULL;
	size_t cap = 0;
	ssize_t len = getline(&line, &cap, fp);
	fclose(fp);
	int n = 0;
	*all = 0;
	if (len > 0) {
		line[strcspn(line, "\r\n")] = '\0';
		for (char *tok = strtok(line, ","); tok; tok = strtok(NULL, ",")) {
			size_t k = strlen(tok), sl = strlen(JOB_DELIVERED);
			if (k <= sl || strcmp(tok + k - sl, JOB_DELIVERED))
				continue;
			(*all)++;
			if (n < max && k - sl < 64) {
				memcpy(names[n], tok, k - sl);
				names[n++][k - sl] = '\0';
			}
		}
	}
	free(line);
	return n;
}

struct storm {
	char key[96]; /* node, port, priority */
	double t0;
};

struct tput {
	struct cnt_acc acc;
	int njobs;
	FILE *out[JOBS_MAX];
	struct thin th[JOBS_MAX];
	double max_t;
	double delivered, retrans, drops; /* totals of the drawn jobs */
	/* pfcwd.csv */
	struct storm open[STORM_SPANS_MAX]; /* storms not yet restored */
	int nopen;
	double span[2 * STORM_SPANS_MAX][2]; /* storms' [start, end], merged when full */
	int nspans, storms;
	char seen[STORM_SPANS_MAX][96]; /* the queues that stormed (the first 64) */
	int nseen, more_ports;
};

/* v: per job delivered bytes, retransmitted bytes, drops */
static void tput_emit(void *ctx, double t, double dt, const double *v)
{
	struct tput *tp = ctx;
	for (int k = 0; k < tp->njobs; k++) {
		/* bytes x 8 over dt microseconds, in Gbps */
		double r[3] = {v[3 * k] * 8 / (dt * 1e3), v[3 * k + 1] * 8 / (dt * 1e3),
			       v[3 * k + 2]};
		thin_add(&tp->th[k], t, r);
	}
}

static int tput_row(struct scan *sc, char *const *f)
{
	struct tput *tp = sc->ctx;
	double t, v[CNT_VALS_MAX];
	if (scan_num(sc, f, 0, &t))
		return -1;
	for (int i = 0; i < 3 * tp->njobs; i++)
		if (scan_num(sc, f, (size_t)i + 1, &v[i]))
			return -1;
	for (int k = 0; k < tp->njobs; k++) {
		tp->delivered += v[3 * k];
		tp->retrans += v[3 * k + 1];
		tp->drops += v[3 * k + 2];
	}
	tp->max_t = t;
	return cnt_add(&tp->acc, sc, f[0], t, v);
}

static const char *const pfcwd_cols[] = {"time_us", "node", "port", "priority", "event", NULL};

static int by_start(const void *a, const void *b)
{
	const double *x = a, *y = b;
	return (x[0] > y[0]) - (x[0] < y[0]);
}

/* the spans in order of start, the overlapping ones merged (so that shading
 * never doubles), at most STORM_SPANS_MAX: past that, the last one grows */
static void storm_compact(struct tput *tp)
{
	qsort(tp->span, (size_t)tp->nspans, sizeof(tp->span[0]), by_start);
	int m = 0;
	for (int i = 0; i < tp->nspans; i++) {
		if (m && (tp->span[i][0] <= tp->span[m - 1][1] || m == STORM_SPANS_MAX)) {
			if (tp->span[i][1] > tp->span[m - 1][1])
				tp->span[m - 1][1] = tp->span[i][1];
		} else {
			tp->span[m][0] = tp->span[i][0];
			tp->span[m++][1] = tp->span[i][1];
		}
	}
	tp->nspans = m;
}

static void storm_span(struct tput *tp, double t0, double t1)
{
	if (tp->nspans == 2 * STORM_SPANS_MAX)
		storm_compact(tp);
	tp->span[tp->nspans][0] = t0;
	tp->span[tp->nspans++][1] = t1;
}

static int pfcwd_row(struct scan *sc, char *const *f)
{
	struct tput *tp = sc->ctx;
	double t;
	if (scan_num(sc, f, 0, &t))
		return -1;
	char key[96];
	snprintf(key, sizeof(key), "%s\t%s\t%s", f[1], f[2], f[3]);
	int i = 0;
	while (i < tp->nopen && strcmp(tp->open[i].key, key))
		i++;
	if (!strcmp(f[4], "storm")) {
		tp->storms++;
		int k = 0;
		while (k < tp->nseen && strcmp(tp->seen[k], key))
			k++;
		if (k == tp->nseen && k < STORM_SPANS_MAX)
			snprintf(tp->seen[tp->nseen++], sizeof(tp->seen[0]), "%s", key);
		else if (k == tp->nseen)
			tp->more_ports = 1;
		/* a storm on a queue already in one (never written) is the same */
		if (i == tp->nopen && tp->nopen < STORM_SPANS_MAX) {
			snprintf(tp->open[tp->nopen].key, sizeof(tp->open[0].key), "%s", key);
			tp->open[tp->nopen++].t0 = t;
		} else if (i == tp->nopen) { /* too many at once: shaded from now to the end */
			storm_span(tp, t, INFINITY);
		}
	} else if (!strcmp(f[4], "restore") && i < tp->nopen) {
		storm_span(tp, tp->open[i].t0, t);
		tp->open[i] = tp->open[--tp->nopen];
	}
	return 0;
}

/* the storms still on at the end last until t_end */
static void storm_merge(struct tput *tp, double t_end)
{
	for (int i = 0; i < tp->nopen; i++)
		storm_span(tp, tp->open[i].t0, t_end);
	tp->nopen = 0;
	storm_compact(tp);
	for (int i = 0; i < tp->nspans; i++)
		if (tp->span[i][1] > t_end)
			tp->span[i][1] = t_end;
}

/* "name = [a, b, ...]" (gnuplot 5.2 arrays) of the spans' column c */
static void gp_array(char *buf, size_t len, const char *name, const struct tput *tp, int c)
{
	int o = snprintf(buf, len, "array %s[%d] = [", name, tp->nspans);
	for (int i = 0; i < tp->nspans && o > 0 && (size_t)o < len; i++)
		o += snprintf(buf + o, len - (size_t)o, "%s%.3f", i ? ", " : "", tp->span[i][c]);
	if (o > 0 && (size_t)o < len)
		snprintf(buf + o, len - (size_t)o, "]\n");
}

static int shape_throughput(struct fig *g, const struct run_info *ri, char *err,
			    size_t errlen)
{
	struct tput *tp = calloc(1, sizeof(*tp));
	char (*names)[64] = calloc(JOBS_MAX, sizeof(*names));
	char (*colname)[96] = calloc(SCAN_COLS_MAX, sizeof(*colname));
	const char *cols[SCAN_COLS_MAX + 1];
	char *t0s = malloc(32 * STORM_SPANS_MAX + 64), *t1s = malloc(32 * STORM_SPANS_MAX + 64);
	int rc = -1, all = 0;
	if (!tp || !names || !colname || !t0s || !t1s) {
		fail(err, errlen, "out of memory");
		goto done;
	}
	int n = counter_jobs(g->dir, names, JOBS_MAX, &all, err, errlen);
	if (n < 0)
		goto done;
	if (n == 0 && ri->njobs > 0) {
		fail(err, errlen, "%s/counters.csv: no column '%s" JOB_DELIVERED "' (per-job "
		     "columns; a run of an older dcqcn-sim?)", g->dir, ri->jobs[0].name);
		goto done;
	}
	if (n == 0) {
		snprintf(g->note, sizeof(g->note), "counters.csv has no per-job columns (no job)");
		rc = 1;
		goto done;
	}
	tp->njobs = n;
	tp->acc = (struct cnt_acc){.interval = ri->interval_us, .n = 3 * n, .emit = tput_emit,
				   .ctx = tp};
	cols[0] = "time_us";
	for (int k = 0; k < n; k++) {
		snprintf(colname[3 * k], sizeof(colname[0]), "%s" JOB_DELIVERED, names[k]);
		snprintf(colname[3 * k + 1], sizeof(colname[0]), "%s_retransmitted_bytes",
			 names[k]);
		snprintf(colname[3 * k + 2], sizeof(colname[0]), "%s_drops", names[k]);
	}
	for (int i = 0; i < 3 * n; i++)
		cols[i + 1] = colname[i];
	cols[3 * n + 1] = NULL;
	for (int k = 0; k < n; k++) {
		char file[64];
		snprintf(file, sizeof(file), "throughput_%d.dat", k + 1);
		if (!(tp->out[k] = data_open(g, file, err, errlen)))
			goto done;
		const struct run_job *j = run_job(ri, names[k]);
		fprintf(tp->out[k], "time_us\t%s%s%s%s\t%s retransmitted\t%s drops\n", names[k],
			j && *j->pattern ? " (" : "", j ? j->pattern : "",
			j && *j->pattern ? ")" : "", names[k], names[k]);
		thin_init(&tp->th[k], tp->out[k], 3, ri->t_end_us, ri->interval_us);
	}
	long rows = scan_csv(g->dir, "counters.csv", cols, tput_row, tp, err, errlen);
	if (rows < 0)
		goto done;
	if (rows == 0) {
		fail(err, errlen, "%s/counters.csv: no rows", g->dir);
		goto done;
	}
	cnt_flush(&tp->acc);
	for (int k = 0; k < n; k++) {
		char file[64];
		snprintf(file, sizeof(file), "throughput_%d.dat", k + 1);
		thin_flush(&tp->th[k]);
		int bad = data_close(tp->out[k], g, file, err, errlen);
		tp->out[k] = NULL;
		if (bad)
			goto done;
	}
	if (scan_csv(g->dir, "pfcwd.csv", pfcwd_cols, pfcwd_row, tp, err, errlen) < 0)
		goto done;
	double t_end = ri->t_end_us > 0 ? ri->t_end_us : tp->max_t;
	storm_merge(tp, t_end);
	/* the key names the first 3 queues that stormed: "leaf0 → h0 p3" */
	char label[512] = "no PFC watchdog storm";
	if (tp->storms) {
		size_t o = (size_t)snprintf(label, sizeof(label), "PFC watchdog storm%s: ",
					    tp->storms > 1 ? "s" : "");
		for (int k = 0; k < tp->nseen && k < 3 && o < sizeof(label) - 1; k++) {
			char q[96], *port, *prio;
			strcpy(q, tp->seen[k]);
			port = strchr(q, '\t');
			*port++ = '\0';
			prio = strchr(port, '\t');
			*prio++ = '\0';
			o += (size_t)snprintf(label + o, sizeof(label) - o, "%s%s " ARROW " %s p%s",
					      k ? ", " : "", q, port, prio);
		}
		if ((tp->nseen > 3 || tp->more_ports) && o < sizeof(label) - 1)
			snprintf(label + o, sizeof(label) - o, " (+%d more)",
				 tp->nseen - 3 + tp->more_ports);
	}
	t0s[0] = t1s[0] = '\0';
	if (tp->nspans) {
		gp_array(t0s, 32 * STORM_SPANS_MAX + 64, "span_t0", tp, 0);
		gp_array(t1s, 32 * STORM_SPANS_MAX + 64, "span_t1", tp, 1);
	}
	char ql[1100];
	if (gp_quote(ql, sizeof(ql), label)) {
		fail(err, errlen, "storm label too long");
		goto done;
	}
	rc = write_vars(g, ri, tp->max_t, err, errlen,
			"njobs = %d\nnjobs_all = %d\ndelivered_bytes = %.0f\n"
			"retransmitted_bytes = %.0f\ndrops = %.0f\nstorms = %d\nnspans = %d\n%s%s"
			"storm_label = %s\n",
			n, all, tp->delivered, tp->retrans, tp->drops, tp->storms, tp->nspans, t0s,
			t1s, ql);
done:
	for (int k = 0; tp && k < JOBS_MAX; k++)
		if (tp->out[k])
			fclose(tp->out[k]);
	free(tp);
	free(names);
	free(colname);
	free(t0s);
	free(t1s);
	return rc;
}

/* ---- dcqcn.png (rates.csv, qps.csv) ----------------------------------- */

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
	if (s && s->slot >= 0)
		snprintf(d->label[s->slot], sizeof(d->label[0]), "QP %s  %s %s " ARROW " %s", f[0],
			 f[1], f[2], f[3]);
	return 0;
}

static int shape_dcqcn(struct fig *g, const struct run_info *ri, char *err, size_t errlen)
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
	if (!access(qpath, F_OK) &&
	    scan_csv(g->dir, "qps.csv", qp_cols, qps_row, d, err, errlen) < 0)
		goto done;
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
	char a[32], qm[400];
	if (!rc && gp_quote(qm, sizeof(qm), missing))
		rc = fail(err, errlen, "output.plot_qps: list too long");
	int fluid = rc ? 0 : shape_fluid(g, "rates.csv", 1, "dcqcn_fluid.dat", err, errlen);
	if (fluid < 0)
		rc = -1;
	if (!rc)
		rc = write_vars(g, ri, d->max_t, err, errlen,
				"nflows = %d\nntraced = %zu\nline_gbps = %s\nauto = %d\n"
				"missing = %s\nfluid = %d\n",
				n, d->t.n, gp_num(ri->host_link_gbps, a, sizeof(a)),
				ri->nplot_qps == 0, qm, fluid);
done:
	for (int i = 0; i < FLOWS_MAX; i++)
		if (d->out[i])
			fclose(d->out[i]);
	free(sel);
	table_free(&d->t);
	free(d);
	return rc;
}

/* ---- collectives.png -------------------------------------------------- */

/*
 * Every job's iteration times (top panel); bus bandwidth against the
 * [criteria] target only for the collectives, ring-allreduce and alltoall
 * (pattern from scenario.ini), whose busbw is nccl-tests'.  An incast's,
 * a permutation's or a trace's "busbw" is a mean sender rate with no such
 * target: those jobs get their times only, and when no collective is drawn
 * the busbw panel is left out.
 */

static const char *const coll_cols[] = {"job", "iteration", "time_us", "busbw_pct_line", NULL};

struct coll_row {
	int job; /* index into jobs */
	double iter, time_us, pct;
};

struct colls {
	char jobs[JOBS_MAX][64];
	int njobs, dropped_jobs;
	struct coll_row *v;
	size_t n, cap;
	double max_iter, max_time;
};

static int colls_row(struct scan *sc, char *const *f)
{
	struct colls *c = sc->ctx;
	struct coll_row r;
	if (!*f[2])
		return 0; /* a failed iteration (status failed) has no time: not drawn */
	if (scan_num(sc, f, 1, &r.iter) || scan_num(sc, f, 2, &r.time_us))
		return -1;
	/* busbw_pct_line is empty when the link rate is unknown: no point */
	if (!*f[3])
		r.pct = NAN;
	else if (scan_num(sc, f, 3, &r.pct))
		return -1;
	int j = 0;
	while (j < c->njobs && strcmp(c->jobs[j], f[0]))
		j++;
	if (j == c->njobs) {
		if (c->njobs == JOBS_MAX || strlen(f[0]) >= sizeof(c->jobs[0])) {
			c->dropped_jobs++;
			return 0;
		}
		strcpy(c->jobs[c->njobs++], f[0]);
	}
	r.job = j;
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 64;
		struct coll_row *v = realloc(c->v, cap * sizeof(*v));
		if (!v)
			return fail(sc->err, sc->errlen, "out of memory");
		c->v = v;
		c->cap = cap;
	}
	c->v[c->n++] = r;
	if (r.iter > c->max_iter)
		c->max_iter = r.iter;
	if (r.time_us > c->max_time)
		c->max_time = r.time_us;
	return 0;
}

static int shape_collectives(struct fig *g, const struct run_info *ri, char *err,
			     size_t errlen)
{
	struct colls c = {0};
	int rc = -1;
	long rows = scan_csv(g->dir, "collectives.csv", coll_cols, colls_row, &c, err, errlen);
	if (rows < 0)
		goto done;
	if (rows == 0) {
		snprintf(g->note, sizeof(g->note),
			 "collectives.csv has no rows (no collective iteration completed)");
		rc = 1;
		goto done;
	}
	char coll_idx[JOBS_MAX * 4 + 32] = "";
	int ncoll = 0;
	for (int j = 0; j < c.njobs; j++) {
		char file[64];
		const struct run_job *rj = run_job(ri, c.jobs[j]);
		int coll = is_collective(rj);
		snprintf(file, sizeof(file), "collectives_%d.dat", j + 1);
		FILE *out = data_open(g, file, err, errlen);
		if (!out)
			goto done;
		if (coll)
			fprintf(out, "iteration\t%s\t%s busbw\n", c.jobs[j], c.jobs[j]);
		else
			fprintf(out, "iteration\t%s (%s: time only)\t%s busbw (not drawn)\n", c.jobs[j],
				rj && *rj->pattern ? rj->pattern : "not a collective", c.jobs[j]);
		for (size_t i = 0; i < c.n; i++) {
			char a[32];
			if (c.v[i].job == j)
				fprintf(out, "%.0f\t%.3f\t%s\n", c.v[i].iter, c.v[i].time_us,
					gp_num(coll ? c.v[i].pct : NAN, a, sizeof(a)));
		}
		if (data_close(out, g, file, err, errlen))
			goto done;
		if (coll)
			snprintf(coll_idx + strlen(coll_idx), sizeof(coll_idx) - strlen(coll_idx),
				 "%s%d", ncoll++ ? ", " : "", j + 1);
	}
	/* coll_idx[i]: the file of the i-th collective job (gnuplot 5.2
	 * arrays cannot be empty: defined only when there is one) */
	char arr[sizeof(coll_idx) + 32] = "";
	if (ncoll)
		snprintf(arr, sizeof(arr), "array coll_idx[%d] = [%s]\n", ncoll, coll_idx);
	rc = write_vars(g, ri, 0, err, errlen,
			"njobs = %d\nncoll = %d\n%sdraw_target = %d\nmax_iteration = %.0f\n"
			"max_time_us = %.3f\nmin_busbw_pct = %.6g\n",
			c.njobs, ncoll, arr, ncoll > 0, c.max_iter, c.max_time,
			ri->min_busbw_pct);
done:
	free(c.v);
	return rc;
}

/* ---- storage.png (storage.csv, storage_jobs.csv, collectives.csv) ----- */

/*
 * Each storage job's completion latency per sample interval (top panel)
 * above each collective's iterations (bottom panel), on one time axis, so
 * that a latency spike stands next to the iteration it shares the fabric
 * with.  storage.csv has a job's row only for the intervals in which some
 * of its I/Os completed: a gap of more than STORAGE_GAP intervals (nothing
 * completed: the job was idle, done, or its I/Os all stuck) breaks its
 * line, unless it is shorter than 1/200 of the run (6 pixels: sparse
 * completions sampled finely would otherwise be dust).  The collectives
 * are the ring-allreduce and alltoall jobs of scenario.ini (without it,
 * every job of collectives.csv that is not in storage.csv); each iteration
 * is drawn from its start to its end at the height of its time, and when
 * there are at most STORAGE_MARKS_MAX iterations their ends are marked
 * across both panels.  storage_jobs.csv (optional) gives each job's rw and
 * the whole run's percentiles for the title.  A run without a storage job,
 * or whose storage.csv has no rows, is skipped; one without a collective
 * gets the top panel alone.  IOPS and MiB/s are in the data but not drawn:
 * completions come in bursts, and per interval they hid the latency.
 */
#define STORAGE_GAP 5
#define STORAGE_MARKS_MAX 40 /* iteration ends marked across both panels */

static const char *const storage_cols[] = {"time_us",	   "job",	  "iops", "bw_MiBps",
					   "clat_mean_us", "clat_max_us", NULL};
static const char *const storage_job_cols[] = {"job",	      "rw",	     "ios",
					       "clat_p50_us", "clat_p99_us", "clat_max_us",
					       NULL};
static const char *const coll_span_cols[] = {"job",    "iteration", "start_us",
					     "end_us", "time_us",   NULL};

struct storage {
	const struct fig *g;
	const struct run_info *ri;
	/* storage_jobs.csv: each job's rw; the `all` row's I/Os and clat */
	char rw_job[JOBS_MAX][64], rw[JOBS_MAX][16];
	int nrw;
	double ios_all, p50_us, p99_us, max_us;
	/* storage.csv */
	char jobs[JOBS_MAX][64];
	int njobs;
	FILE *out[JOBS_MAX];
	struct thin th[JOBS_MAX];
	double last_t[JOBS_MAX];
	double interval, gap_us, max_t, clat_lo, clat_hi;
	/* collectives.csv */
	char coll[JOBS_MAX][64];
	int ncoll;
	FILE *cout[JOBS_MAX];
	double max_iter_us, iters;
	double mark_us[STORAGE_MARKS_MAX]; /* the first iterations' ends */
	int mark_job[STORAGE_MARKS_MAX];   /* ... and their job, 1.. */
};

/* index of name among the first n of names, or -1 */
static int name_index(char (*names)[64], int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

/* a number, or NaN for an empty field (a job without I/Os) */
static int scan_opt(struct scan *sc, char *const *f, size_t k, double *v)
{
	if (!*f[k]) {
		*v = NAN;
		return 0;
	}
	return scan_num(sc, f, k, v);
}

static int storage_jobs_row(struct scan *sc, char *const *f)
{
	struct storage *st = sc->ctx;
	if (!*f[1] && !strcmp(f[0], "all")) { /* the row of all jobs has no rw */
		if (scan_opt(sc, f, 2, &st->ios_all) || scan_opt(sc, f, 3, &st->p50_us) ||
		    scan_opt(sc, f, 4, &st->p99_us) || scan_opt(sc, f, 5, &st->max_us))
			return -1;
		return 0;
	}
	if (st->nrw < JOBS_MAX && strlen(f[0]) < sizeof(st->rw_job[0])) {
		strcpy(st->rw_job[st->nrw], f[0]);
		snprintf(st->rw[st->nrw++], sizeof(st->rw[0]), "%s", f[1]);
	}
	return 0;
}

/* storage_K.dat for a job seen for the first time; its index, -2 when
 * JOBS_MAX are drawn already, -1 on an error */
static int storage_open(struct storage *st, struct scan *sc, const char *job)
{
	if (st->njobs == JOBS_MAX || strlen(job) >= sizeof(st->jobs[0]))
		return -2;
	int k = st->njobs;
	char file[64];
	snprintf(file, sizeof(file), "storage_%d.dat", k + 1);
	if (!(st->out[k] = data_open(st->g, file, sc->err, sc->errlen)))
		return -1;
	strcpy(st->jobs[k], job);
	st->njobs++;
	int r = name_index(st->rw_job, st->nrw, job);
	fprintf(st->out[k], "time_us\t%s%s%s%s: mean clat\t%s: max clat\t%s: IOPS\t%s: MiB/s\n",
		job, r >= 0 ? " (" : "", r >= 0 ? st->rw[r] : "", r >= 0 ? ")" : "", job, job,
		job);
	thin_init(&st->th[k], st->out[k], 4, st->ri->t_end_us, st->interval);
	st->last_t[k] = -1;
	return k;
}

static int storage_row(struct scan *sc, char *const *f)
{
	struct storage *st = sc->ctx;
	double t, v[4]; /* clat mean, clat max, IOPS, MiB/s */
	if (scan_num(sc, f, 0, &t) || scan_num(sc, f, 2, &v[2]) || scan_num(sc, f, 3, &v[3]) ||
	    scan_num(sc, f, 4, &v[0]) || scan_num(sc, f, 5, &v[1]))
		return -1;
	int k = name_index(st->jobs, st->njobs, f[1]);
	if (k < 0 && (k = storage_open(st, sc, f[1])) == -1)
		return -1;
	if (k < 0)
		return 0; /* past the JOBS_MAX drawn */
	if (st->last_t[k] >= 0 && st->gap_us > 0 && t - st->last_t[k] > st->gap_us)
		thin_break(&st->th[k]);
	thin_add(&st->th[k], t, v);
	st->last_t[k] = t;
	if (v[0] > 0 && v[0] < st->clat_lo)
		st->clat_lo = v[0];
	if (v[1] > st->clat_hi)
		st->clat_hi = v[1];
	if (t > st->max_t)
		st->max_t = t;
	return 0;
}

static int storage_coll_row(struct scan *sc, char *const *f)
{
	struct storage *st = sc->ctx;
	if (!*f[4])
		return 0; /* a failed iteration (status failed) has no time: not drawn */
	int coll = st->ri->ini_read ? is_collective(run_job(st->ri, f[0]))
				    : name_index(st->jobs, st->njobs, f[0]) < 0;
	if (!coll)
		return 0;
	double it, t0, t1, time;
	if (scan_num(sc, f, 1, &it) || scan_num(sc, f, 2, &t0) || scan_num(sc, f, 3, &t1) ||
	    scan_num(sc, f, 4, &time))
		return -1;
	int k = name_index(st->coll, st->ncoll, f[0]);
	if (k < 0) {
		if (st->ncoll == JOBS_MAX || strlen(f[0]) >= sizeof(st->coll[0]))
			return 0;
		k = st->ncoll;
		char file[64];
		snprintf(file, sizeof(file), "storage_coll_%d.dat", k + 1);
		if (!(st->cout[k] = data_open(st->g, file, sc->err, sc->errlen)))
			return -1;
		strcpy(st->coll[k], f[0]);
		st->ncoll++;
		const struct run_job *rj = run_job(st->ri, f[0]);
		fprintf(st->cout[k], "start_us\tend_us\t%s%s%s%s\titeration\n", f[0],
			rj && *rj->pattern ? " (" : "", rj ? rj->pattern : "",
			rj && *rj->pattern ? ")" : "");
	}
	fprintf(st->cout[k], "%.3f\t%.3f\t%.3f\t%.0f\n", t0, t1, time, it);
	if (st->iters < STORAGE_MARKS_MAX) {
		st->mark_us[(int)st->iters] = t1;
		st->mark_job[(int)st->iters] = k + 1;
	}
	st->iters++;
	if (time > st->max_iter_us)
		st->max_iter_us = time;
	if (t1 > st->max_t)
		st->max_t = t1;
	return 0;
}

/* how many [job.*] sections of scenario.ini match */
static int count_pattern(const struct run_info *ri, int (*match)(const struct run_job *))
{
	int n = 0;
	for (int j = 0; j < ri->njobs; j++)
		n += match(&ri->jobs[j]);
	return n;
}

static int is_storage(const struct run_job *j)
{
	return !strcmp(j->pattern, "storage");
}

static int shape_storage(struct fig *g, const struct run_info *ri, char *err, size_t errlen)
{
	struct storage *st = calloc(1, sizeof(*st));
	if (!st)
		return fail(err, errlen, "out of memory");
	*st = (struct storage){.g = g, .ri = ri, .ios_all = NAN, .p50_us = NAN, .p99_us = NAN,
			       .max_us = NAN, .interval = ri->interval_us, .clat_lo = INFINITY};
	if (st->interval > 0)
		st->gap_us = fmax((STORAGE_GAP + 0.5) * st->interval, ri->t_end_us / 200);
	int rc = -1;
	char path[PLOT_PATH_MAX];
	/* scenario.ini, when it lists every job, says whether there is storage
	 * (a storage.csv beside a scenario without it is an earlier run's);
	 * without it, storage.csv's presence does */
	int jobs_known = ri->ini_read && ri->njobs < RUN_JOBS_MAX;
	int nstorage_ini = count_pattern(ri, is_storage);
	if (jobs_known && nstorage_ini == 0) {
		snprintf(g->note, sizeof(g->note), "the run has no storage job");
		rc = 1;
		goto done;
	}
	if (join(path, sizeof(path), g->dir, "storage.csv", err, errlen))
		goto done;
	if (!jobs_known && nstorage_ini == 0 && access(path, F_OK)) {
		snprintf(g->note, sizeof(g->note), "no storage.csv (the run has no storage job)");
		rc = 1;
		goto done;
	}
	if (join(path, sizeof(path), g->dir, "storage_jobs.csv", err, errlen))
		goto done;
	if (!access(path, F_OK) && scan_csv(g->dir, "storage_jobs.csv", storage_job_cols,
					    storage_jobs_row, st, err, errlen) < 0)
		goto done;
	long rows = scan_csv(g->dir, "storage.csv", storage_cols, storage_row, st, err, errlen);
	if (rows < 0)
		goto done;
	if (rows == 0) {
		snprintf(g->note, sizeof(g->note), "storage.csv has no rows (no I/O completed)");
		rc = 1;
		goto done;
	}
	for (int k = 0; k < st->njobs; k++) {
		char file[64];
		snprintf(file, sizeof(file), "storage_%d.dat", k + 1);
		thin_flush(&st->th[k]);
		int bad = data_close(st->out[k], g, file, err, errlen);
		st->out[k] = NULL;
		if (bad)
			goto done;
	}
	if (scan_csv(g->dir, "collectives.csv", coll_span_cols, storage_coll_row, st, err,
		     errlen) < 0)
		goto done;
	for (int k = 0; k < st->ncoll; k++) {
		char file[64];
		snprintf(file, sizeof(file), "storage_coll_%d.dat", k + 1);
		int bad = data_close(st->cout[k], g, file, err, errlen);
		st->cout[k] = NULL;
		if (bad)
			goto done;
	}
	/* a log scale once the slowest interval's worst I/O is 10 x the
	 * fastest interval's mean: a spike then does not flatten the rest */
	int logy = st->clat_lo > 0 && st->clat_hi > 10 * st->clat_lo;
	/* mark_us[], mark_job[]: gnuplot 5.2 arrays cannot be empty, so they
	 * are defined only when nmarks > 0 */
	int nmarks = st->iters <= STORAGE_MARKS_MAX ? (int)st->iters : 0;
	char marks[STORAGE_MARKS_MAX * 24 + 64] = "", mjobs[STORAGE_MARKS_MAX * 4 + 64] = "";
	if (nmarks) {
		size_t o = (size_t)snprintf(marks, sizeof(marks), "array mark_us[%d] = [", nmarks);
		size_t p = (size_t)snprintf(mjobs, sizeof(mjobs), "array mark_job[%d] = [", nmarks);
		for (int i = 0; i < nmarks; i++) {
			o += (size_t)snprintf(marks + o, sizeof(marks) - o, "%s%.3f", i ? ", " : "",
					      st->mark_us[i]);
			p += (size_t)snprintf(mjobs + p, sizeof(mjobs) - p, "%s%d", i ? ", " : "",
					      st->mark_job[i]);
		}
		snprintf(marks + o, sizeof(marks) - o, "]\n");
		snprintf(mjobs + p, sizeof(mjobs) - p, "]\n");
	}
	char a[32], b[32], c[32], d[32], e[32], h[32];
	rc = write_vars(g, ri, st->max_t, err, errlen,
			"nstorage = %d\nnstorage_all = %d\nncoll = %d\nncoll_all = %d\n"
			"logy = %d\nclat_lo_us = %s\nclat_hi_us = %s\nios_all = %s\n"
			"clat_p50_us = %s\nclat_p99_us = %s\nclat_max_us = %s\n"
			"iterations = %.0f\nmax_iter_us = %.3f\nnmarks = %d\n%s%s",
			st->njobs,
			st->njobs == JOBS_MAX && nstorage_ini > st->njobs ? nstorage_ini : st->njobs,
			st->ncoll,
			ri->ini_read ? count_pattern(ri, is_collective) : st->ncoll, logy,
			gp_num(isfinite(st->clat_lo) ? st->clat_lo : NAN, a, sizeof(a)),
			gp_num(st->clat_hi, b, sizeof(b)), gp_num(st->ios_all, c, sizeof(c)),
			gp_num(st->p50_us, d, sizeof(d)), gp_num(st->p99_us, e, sizeof(e)),
			gp_num(st->max_us, h, sizeof(h)), st->iters, st->max_iter_us, nmarks, marks,
			mjobs);
done:
	for (int k = 0; k < JOBS_MAX; k++) {
		if (st->out[k])
			fclose(st->out[k]);
		if (st->cout[k])
			fclose(st->cout[k]);
	}
	free(st);
	return rc;
}

/* ---- gnuplot ---------------------------------------------------------- */

/* the gnuplot executable on PATH, into buf; -1 when there is none */
static int find_gnuplot(char *buf, size_t len)
{
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");
		int w = snprintf(buf, len, "%.*s%sgnuplot", (int)n, n ? path : ".", n ? "/" : "");
		if (w > 0 && (size_t)w < len && access(buf, X_OK) == 0)
			return 0;
		path += n + (path[n] == ':');
	}
	return -1;
}

/* the last non-blank line of a file, into buf (empty when none) */
static void last_line(const char *path, char *buf, size_t len)
{
	buf[0] = '\0';
	FILE *fp = fopen(path, "r");
	if (!fp)
		return;
	char line[1024];
	while (fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\r\n")] = '\0';
		const char *s = line + strspn(line, " \t^");
		if (*s)
			snprintf(buf, len, "%s", s);
	}
	fclose(fp);
}

static int run_gnuplot(const char *gnuplot, const struct fig *g, const char *scripts_dir,
		       char *err, size_t errlen)
{
	char script[PLOT_PATH_MAX], img[PLOT_PATH_MAX], log[PLOT_PATH_MAX];
	char qdir[2 * PLOT_PATH_MAX + 3], qout[2 * PLOT_PATH_MAX + 3];
	char qfig[160];
	char expr[sizeof(qdir) + sizeof(qout) + sizeof(qfig) + 16];
	char file[64];
	snprintf(file, sizeof(file), "%s.gp", g->script ? g->script : g->name);
	if (join(script, sizeof(script), scripts_dir, file, err, errlen))
		return -1;
	snprintf(file, sizeof(file), "plots/%s.%s", g->name, g->ext);
	if (join(img, sizeof(img), g->dir, file, err, errlen))
		return -1;
	snprintf(file, sizeof(file), "%s.log", g->name);
	if (join(log, sizeof(log), g->data, file, err, errlen))
		return -1;
	if (access(script, R_OK))
		return fail(err, errlen, "%s: cannot read the plot script: %s", script,
			    strerror(errno));
	if (gp_quote(qdir, sizeof(qdir), g->dir) || gp_quote(qout, sizeof(qout), img))
		return fail(err, errlen, "%s: path too long", g->dir);
	if (g->script && gp_quote(qfig, sizeof(qfig), g->name))
		return fail(err, errlen, "%s: figure name too long", g->name);
	snprintf(expr, sizeof(expr), "dir=%s;out=%s%s%s", qdir, qout, g->script ? ";fig=" : "",
		 g->script ? qfig : "");
	unlink(img);

	posix_spawn_file_actions_t fa;
	if (posix_spawn_file_actions_init(&fa))
		return fail(err, errlen, "posix_spawn_file_actions_init failed");
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, log, O_WRONLY | O_CREAT | O_TRUNC,
					 0666);
	char *argv[] = {(char *)"gnuplot", (char *)"-e", expr, script, NULL};
	pid_t pid;
	int e = posix_spawn(&pid, gnuplot, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (e)
		return fail(err, errlen, "%s: cannot run: %s", gnuplot, strerror(e));
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return fail(err, errlen, "waitpid: %s", strerror(errno));
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		char why[512];
		last_line(log, why, sizeof(why));
		if (WIFSIGNALED(status))
			return fail(err, errlen, "%s.%s: gnuplot killed by signal %d (log: %s)",
				    g->name, g->ext, WTERMSIG(status), log);
		return fail(err, errlen, "%s.%s: gnuplot %s failed: %s", g->name, g->ext, script,
			    *why ? why : "(no message)");
	}
	struct stat st;
	if (stat(img, &st) || st.st_size == 0)
		return fail(err, errlen, "%s: gnuplot exited 0 but wrote no image (log: %s)", img,
			    log);
	return 0;
}

/* ---- plot_run ----------------------------------------------------------- */


/* each figure's shaping, by enum figure_id (figures.h names them) */
static int (*const shapes[FIG_COUNT])(struct fig *, const struct run_info *, char *, size_t) = {
	[FIG_QUEUES] = shape_queues, [FIG_PAUSE_MAP] = shape_pause, [FIG_RATES] = shape_rates,
	[FIG_DCQCN] = shape_dcqcn, [FIG_THROUGHPUT] = shape_throughput,
	[FIG_COLLECTIVES] = shape_collectives, [FIG_STORAGE] = shape_storage,
};

int plot_format_valid(const char *format)
{
	for (int i = 0; figure_formats[i]; i++)
		if (!strcmp(format, figure_formats[i]))
			return 1;
	return 0;
}

/* remove DIR/plots/NAME.EXT in every format but keep (NULL: all of them) */
static void remove_figure(const char *plots, const char *name, const char *keep)
{
	for (int i = 0; figure_formats[i]; i++) {
		char path[PLOT_PATH_MAX + 64];
		if (keep && !strcmp(keep, figure_formats[i]))
			continue;
		snprintf(path, sizeof(path), "%s/%s.%s", plots, name, figure_formats[i]);
		unlink(path);
	}
}

int plot_run(const char *dir, const char *scripts_dir, const char *format, char *err,
	     size_t errlen)
{
	if (!format)
		format = "png";
	if (!plot_format_valid(format))
		return fail(err, errlen, "--format %s: not a figure format (png, svg, pdf)", format);
	char gnuplot[PLOT_PATH_MAX], plots[PLOT_PATH_MAX];
	struct stat st;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return fail(err, errlen, "%s: not a run directory: %s", dir,
			    errno ? strerror(errno) : "not a folder");
	if (!scripts_dir)
		return fail(err, errlen, "the plot scripts (plots/*.gp) were not found; set "
			    "DCQCN_SIM_PLOTS to their folder");
	char probe[PLOT_PATH_MAX];
	if (join(probe, sizeof(probe), scripts_dir, "queues.gp", err, errlen))
		return -1;
	if (access(probe, R_OK))
		return fail(err, errlen, "%s: no plot scripts there (queues.gp: %s)", scripts_dir,
			    strerror(errno));
	if (find_gnuplot(gnuplot, sizeof(gnuplot)))
		return fail(err, errlen, "gnuplot not found on PATH: install it "
			    "(apt-get install gnuplot-nox) to draw plots");
	struct fig *g = calloc(1, sizeof(*g));
	if (!g)
		return fail(err, errlen, "out of memory");
	struct run_info ri;
	read_run_info(dir, &ri);
	int failed = 0;
	char first[1024] = "", msg[1024], done[256] = "", skipped[768] = "";
	if (join(plots, sizeof(plots), dir, "plots", err, errlen) ||
	    make_dir(plots, err, errlen) || join(g->data, sizeof(g->data), plots, "data", err,
						 errlen) ||
	    make_dir(g->data, err, errlen)) {
		free(g);
		return -1;
	}
	snprintf(g->dir, sizeof(g->dir), "%s", dir);
	g->ext = format;
	for (int i = 0; i < FIG_COUNT; i++) {
		g->name = figure_names[i];
		g->note[0] = '\0';
		msg[0] = '\0';
		int rc = shapes[i](g, &ri, msg, sizeof(msg));
		if (rc == 0)
			rc = run_gnuplot(gnuplot, g, scripts_dir, msg, sizeof(msg));
		/* no stale figure from an earlier plot, in any format */
		remove_figure(plots, g->name, rc == 0 ? format : NULL);
		if (rc < 0) {
			if (!failed++)
				snprintf(first, sizeof(first), "%s", msg);
		} else if (rc > 0) {
			snprintf(skipped + strlen(skipped), sizeof(skipped) - strlen(skipped),
				 "; skipped %s.%s: %s", g->name, format, g->note);
		} else {
			snprintf(done + strlen(done), sizeof(done) - strlen(done), "%s%s.%s",
				 *done ? " " : "", g->name, format);
		}
	}
	free(g);
	if (failed) {
		if (failed > 1)
			snprintf(msg, sizeof(msg), " (and %d more figure%s failed)", failed - 1,
				 failed > 2 ? "s" : "");
		else
			msg[0] = '\0';
		return fail(err, errlen, "%s%s", first, msg);
	}
	snprintf(err, errlen, "plots in %s: %s%s", plots, *done ? done : "none", skipped);
	return 0;
}

const char *plot_scripts_dir(const char *const *candidates)
{
	static char env[PLOT_PATH_MAX];
	const char *e = getenv("DCQCN_SIM_PLOTS");
	if (e && *e) {
		snprintf(env, sizeof(env), "%s", e);
		return env;
	}
	for (; candidates && *candidates; candidates++) {
		char path[PLOT_PATH_MAX];
		int n = snprintf(path, sizeof(path), "%s/queues.gp", *candidates);
		if (n > 0 && (size_t)n < sizeof(path) && access(path, R_OK) == 0)
			return *candidates;
	}
	return NULL;
}


/* ---- a sweep's figures (plot_sweep) -------------------------------------- */

#define SW_LINE_BYTES 65536
#define SW_COLS_MAX 512
#define SW_ROWS_MAX 10000 /* sweep.h SWEEP_MAX_POINTS */
#define SW_AXES_MAX 8
#define SW_SERIES_MAX 64   /* lines of one chart */
#define SW_METRICS_MAX 16
#define SW_DEFAULT_METRICS "busbw_judged_min_pct,ecn_mark_pct"

struct sw_axis {
	int col, base;		   /* columns of KEY and KEY_unit (-1: none) */
	const char *unit;	   /* "B", "ps", ... or NULL */
	const char *vals[SW_ROWS_MAX]; /* distinct values, in order of appearance */
	double num[SW_ROWS_MAX];       /* their base values (base >= 0) */
	int n;
};

struct sw {
	char *hdr, **h;		/* the header line and its fields */
	int nh;
	char **lines;		/* the data rows, split in place */
	char ***f;
	int *nf, nrows;
	struct sw_axis ax[SW_AXES_MAX];
	int nax;
	int xa;			/* the axis on x */
	int *xi, *si;		/* per row: its x value, its series */
	char series[SW_SERIES_MAX][256];
	int nseries;
};

static int sw_col(const struct sw *w, const char *name)
{
	for (int i = 0; i < w->nh; i++)
		if (!strcmp(w->h[i], name))
			return i;
	return -1;
}

static const char *sw_cell(const struct sw *w, int r, int c)
{
	return c >= 0 && c < w->nf[r] ? w->f[r][c] : "";
}

static void sw_free(struct sw *w)
{
	for (int r = 0; r < w->nrows; r++) {
		free(w->lines[r]);
		free(w->f[r]);
	}
	free(w->lines);
	free(w->f);
	free(w->nf);
	free(w->xi);
	free(w->si);
	free(w->hdr);
	free(w->h);
}

/* read DIR/sweep.csv: its rows, its axes (the columns between dir and
 * sim_time_us, each followed by its base-unit column KEY_unit when it has
 * one), the axis on x and each row's line; 0, or -1 with err */
static int sw_read(struct sw *w, const char *dir, char *err, size_t errlen)
{
	char path[PLOT_PATH_MAX], *line = malloc(SW_LINE_BYTES);
	if (!line || join(path, sizeof(path), dir, "sweep.csv", err, errlen)) {
		free(line);
		return line ? -1 : fail(err, errlen, "out of memory");
	}
	FILE *fp = fopen(path, "r");
	if (!fp) {
		free(line);
		return fail(err, errlen, "%s: cannot read: %s", path, strerror(errno));
	}
	w->lines = calloc(SW_ROWS_MAX, sizeof(*w->lines));
	w->f = calloc(SW_ROWS_MAX, sizeof(*w->f));
	w->nf = calloc(SW_ROWS_MAX, sizeof(*w->nf));
	w->h = calloc(SW_COLS_MAX, sizeof(*w->h));
	int rc = w->lines && w->f && w->nf && w->h ? 0 : fail(err, errlen, "out of memory");
	for (int row = 0; rc == 0 && fgets(line, SW_LINE_BYTES, fp); row++) {
		line[strcspn(line, "\r\n")] = '\0';
		char *copy = strdup(line), **f = calloc(SW_COLS_MAX, sizeof(char *));
		if (!copy || !f) {
			free(copy);
			free(f);
			rc = fail(err, errlen, "out of memory");
			break;
		}
		int n = 0;
		for (char *c = copy; n < SW_COLS_MAX;) {
			f[n++] = c;
			if (!(c = strchr(c, ',')))
				break;
			*c++ = '\0';
		}
		if (row == 0) {
			w->hdr = copy;
			memcpy(w->h, f, sizeof(char *) * (size_t)n);
			w->nh = n;
			free(f);
		} else if (w->nrows == SW_ROWS_MAX) {
			free(copy);
			free(f);
			rc = fail(err, errlen, "%s: more than %d rows", path, SW_ROWS_MAX);
		} else {
			w->lines[w->nrows] = copy;
			w->f[w->nrows] = f;
			w->nf[w->nrows++] = n;
		}
	}
	fclose(fp);
	free(line);
	if (rc)
		return rc;
	int first = sw_col(w, "sim_time_us");
	if (w->nh < 3 || strcmp(w->h[0], "point") || strcmp(w->h[1], "dir") || first < 0)
		return fail(err, errlen, "%s: not a sweep.csv (point,dir,AXES...,sim_time_us,...)",
			    path);
	if (!w->nrows)
		return fail(err, errlen, "%s: no point finished (no rows)", path);
	for (int c = 2; c < first; c++) {
		struct sw_axis *a = &w->ax[w->nax];
		size_t l = w->nax ? strlen(w->h[w->ax[w->nax - 1].col]) : 0;
		if (w->nax && w->ax[w->nax - 1].base < 0 &&
		    !strncmp(w->h[c], w->h[w->ax[w->nax - 1].col], l) && w->h[c][l] == '_') {
			w->ax[w->nax - 1].base = c;
			w->ax[w->nax - 1].unit = w->h[c] + l + 1;
			continue;
		}
		if (w->nax == SW_AXES_MAX)
			return fail(err, errlen, "%s: more than %d axes", path, SW_AXES_MAX);
		a->col = c;
		a->base = -1;
		w->nax++;
	}
	w->xa = 0;
	for (int i = w->nax - 1; i >= 0; i--)
		if (w->ax[i].base >= 0)
			w->xa = i;
	w->xi = calloc((size_t)w->nrows, sizeof(int));
	w->si = calloc((size_t)w->nrows, sizeof(int));
	if (!w->xi || !w->si)
		return fail(err, errlen, "out of memory");
	for (int r = 0; r < w->nrows; r++) {
		for (int i = 0; i < w->nax; i++) { /* the distinct values of each axis */
			struct sw_axis *a = &w->ax[i];
			const char *v = sw_cell(w, r, a->col);
			int k = 0;
			while (k < a->n && strcmp(a->vals[k], v))
				k++;
			if (k == a->n) {
				a->vals[a->n] = v;
				if (a->base < 0 || parse_double(sw_cell(w, r, a->base), &a->num[k]))
					a->num[k] = NAN;
				a->n++;
			}
			if (i == w->xa)
				w->xi[r] = k;
		}
		char key[256] = ""; /* the line: the other axes' values */
		size_t n = 0;
		for (int i = 0; i < w->nax; i++)
			if (i != w->xa && n < sizeof(key))
				n += (size_t)snprintf(key + n, sizeof(key) - n, "%s%s=%s", n ? ", " : "",
						      w->h[w->ax[i].col], sw_cell(w, r, w->ax[i].col));
		int k = 0;
		while (k < w->nseries && strcmp(w->series[k], key))
			k++;
		if (k == w->nseries) {
			if (w->nseries == SW_SERIES_MAX)
				return fail(err, errlen, "%s: more than %d lines (combinations of the axes "
					    "after the first): plot fewer", path, SW_SERIES_MAX);
			snprintf(w->series[w->nseries++], sizeof(w->series[0]), "%s", key);
		}
		w->si[r] = k;
	}
	return 0;
}

/* the x values in the order drawn: by base value (numeric axis), else as
 * they appear */
static void sw_x_order(const struct sw *w, int *order)
{
	const struct sw_axis *a = &w->ax[w->xa];
	for (int i = 0; i < a->n; i++)
		order[i] = i;
	for (int i = 1; a->base >= 0 && i < a->n; i++) /* insertion sort, few values */
		for (int j = i; j > 0 && a->num[order[j]] < a->num[order[j - 1]]; j--) {
			int t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
}

/* sweep_METRIC.dat and .vars; 0, 1 when the metric has no number (note in
 * g->note), -1 with err */
static int sw_shape_metric(const struct sw *w, struct fig *g, const char *metric, char *err,
			   size_t errlen)
{
	char name[160], file[200], q[600], qx[300], qu[64];
	int c = sw_col(w, metric);
	snprintf(name, sizeof(name), "%s_min", metric);
	int cmin = sw_col(w, name);
	snprintf(name, sizeof(name), "%s_max", metric);
	int cmax = sw_col(w, name);
	int bars = cmin >= 0 && cmax >= 0, numbers = 0;
	const struct sw_axis *a = &w->ax[w->xa];
	int *order = malloc(sizeof(int) * (size_t)a->n);
	if (!order)
		return fail(err, errlen, "out of memory");
	if (c < 0) {
		free(order);
		return fail(err, errlen, "sweep.csv has no column %s", metric);
	}
	sw_x_order(w, order);
	snprintf(file, sizeof(file), "%s.dat", g->name);
	FILE *fp = data_open(g, file, err, errlen);
	if (!fp) {
		free(order);
		return -1;
	}
	fprintf(fp, "x\txlabel");
	for (int k = 0; k < w->nseries; k++) {
		const char *t = w->nseries == 1 && !w->series[k][0] ? metric : w->series[k];
		fprintf(fp, "\t%s", t);
		if (bars)
			fprintf(fp, "\t%s min\t%s max", t, t);
	}
	fprintf(fp, "\n");
	for (int i = 0; i < a->n; i++) {
		int x = order[i];
		char b[32];
		if (a->base >= 0) /* a numeric axis: its base value; categories: their index */
			fprintf(fp, "%s\t%s", gp_num(a->num[x], b, sizeof(b)), a->vals[x]);
		else
			fprintf(fp, "%d\t%s", i, a->vals[x]);
		for (int k = 0; k < w->nseries; k++) {
			int cols[3] = { c, cmin, cmax };
			for (int j = 0; j < (bars ? 3 : 1); j++) {
				double v = NAN;
				for (int r = 0; r < w->nrows; r++)
					if (w->xi[r] == x && w->si[r] == k) { /* one row per x and line */
						if (parse_double(sw_cell(w, r, cols[j]), &v))
							v = NAN;
						break;
					}
				numbers += !isnan(v);
				fprintf(fp, "\t%s", gp_num(v, b, sizeof(b)));
			}
		}
		fprintf(fp, "\n");
	}
	free(order);
	if (data_close(fp, g, file, err, errlen))
		return -1;
	if (!numbers) {
		snprintf(g->note, sizeof(g->note), "%s has no number in sweep.csv", metric);
		return 1;
	}
	double lo = INFINITY, hi = -INFINITY;
	for (int i = 0; i < a->n; i++)
		if (!isnan(a->num[i])) {
			lo = fmin(lo, a->num[i]);
			hi = fmax(hi, a->num[i]);
		}
	snprintf(file, sizeof(file), "%s.vars", g->name);
	fp = data_open(g, file, err, errlen);
	if (!fp)
		return -1;
	gp_quote(q, sizeof(q), metric);
	gp_quote(qx, sizeof(qx), w->h[a->col]);
	gp_quote(qu, sizeof(qu), a->unit ? a->unit : "");
	fprintf(fp, "# written by dcqcn-sim plot for sweep.gp\n"
		    "metric = %s\nxkey = %s\nxunit = %s\nnseries = %d\nbars = %d\n"
		    "numeric_x = %d\nlog_x = %d\nnx = %d\n",
		q, qx, qu, w->nseries, bars, a->base >= 0,
		a->base >= 0 && lo > 0 && hi / lo >= 100, a->n);
	return data_close(fp, g, file, err, errlen);
}

/* sweep_pass.dat and .vars: the verdicts over the first two axes, the
 * worst over the others; 0, or -1 with err */
static int sw_shape_pass(const struct sw *w, struct fig *g, char *err, size_t errlen)
{
	const struct sw_axis *ax = &w->ax[0], *ay = &w->ax[1];
	int cp = sw_col(w, "criteria_pass");
	if (cp < 0)
		return fail(err, errlen, "sweep.csv has no column criteria_pass");
	FILE *fp = data_open(g, "sweep_pass.dat", err, errlen);
	if (!fp)
		return -1;
	fprintf(fp, "xi\tyi\txlabel\tylabel\tpass\n");
	for (int y = 0; y < ay->n; y++)
		for (int x = 0; x < ax->n; x++) {
			int seen = 0, fails = 0, unjudged = 0;
			for (int r = 0; r < w->nrows; r++) {
				if (strcmp(sw_cell(w, r, ax->col), ax->vals[x]) ||
				    strcmp(sw_cell(w, r, ay->col), ay->vals[y]))
					continue;
				const char *v = sw_cell(w, r, cp);
				seen++;
				fails += !strcmp(v, "0");
				unjudged += strcmp(v, "0") && strcmp(v, "1");
			}
			fprintf(fp, "%d\t%d\t%s\t%s\t%s\n", x, y, ax->vals[x], ay->vals[y],
				!seen ? "NaN" : fails ? "0" : unjudged ? "0.5" : "1");
		}
	if (data_close(fp, g, "sweep_pass.dat", err, errlen))
		return -1;
	fp = data_open(g, "sweep_pass.vars", err, errlen);
	if (!fp)
		return -1;
	char qx[300], qy[300];
	gp_quote(qx, sizeof(qx), w->h[ax->col]);
	gp_quote(qy, sizeof(qy), w->h[ay->col]);
	fprintf(fp, "# written by dcqcn-sim plot for sweep_pass.gp\n"
		    "xkey = %s\nykey = %s\nnx = %d\nny = %d\nmore_axes = %d\n",
		qx, qy, ax->n, ay->n, w->nax > 2);
	return data_close(fp, g, "sweep_pass.vars", err, errlen);
}

int plot_sweep(const char *dir, const char *scripts_dir, const char *format,
	       const char *metrics, char *err, size_t errlen)
{
	if (!format)
		format = "png";
	if (!plot_format_valid(format))
		return fail(err, errlen, "--format %s: not a figure format (png, svg, pdf)", format);
	if (!metrics || !*metrics)
		metrics = SW_DEFAULT_METRICS;
	if (!scripts_dir)
		return fail(err, errlen, "the plot scripts (plots/*.gp) were not found; set "
			    "DCQCN_SIM_PLOTS to their folder");
	char gnuplot[PLOT_PATH_MAX], plots[PLOT_PATH_MAX];
	struct sw *w = calloc(1, sizeof(*w));
	struct fig *g = calloc(1, sizeof(*g));
	int rc = w && g ? sw_read(w, dir, err, errlen) : fail(err, errlen, "out of memory");
	if (rc == 0 && find_gnuplot(gnuplot, sizeof(gnuplot)))
		rc = fail(err, errlen, "gnuplot not found on PATH: install it "
			  "(apt-get install gnuplot-nox) to draw plots");
	if (rc == 0 && (join(plots, sizeof(plots), dir, "plots", err, errlen) ||
			make_dir(plots, err, errlen) ||
			join(g->data, sizeof(g->data), plots, "data", err, errlen) ||
			make_dir(g->data, err, errlen)))
		rc = -1;
	char first[1024] = "", msg[1024], done[1024] = "", skipped[1024] = "";
	char names[SW_METRICS_MAX + 1][160];
	int nfig = 0, failed = 0;
	for (const char *p = metrics; rc == 0 && *p && nfig < SW_METRICS_MAX;) {
		size_t l = strcspn(p, ",");
		snprintf(names[nfig++], sizeof(names[0]), "sweep_%.*s", (int)l, p);
		p += l + (p[l] == ',');
	}
	if (rc == 0 && w->nax >= 2)
		snprintf(names[nfig++], sizeof(names[0]), "sweep_pass");
	if (rc == 0) {
		snprintf(g->dir, sizeof(g->dir), "%s", dir);
		g->ext = format;
	}
	for (int i = 0; rc == 0 && i < nfig; i++) {
		int pass = !strcmp(names[i], "sweep_pass") && i == nfig - 1 && w->nax >= 2;
		g->name = names[i];
		g->script = pass ? "sweep_pass" : "sweep";
		g->note[0] = msg[0] = '\0';
		int r = pass ? sw_shape_pass(w, g, msg, sizeof(msg))
			     : sw_shape_metric(w, g, names[i] + 6, msg, sizeof(msg));
		if (r == 0)
			r = run_gnuplot(gnuplot, g, scripts_dir, msg, sizeof(msg));
		remove_figure(plots, g->name, r == 0 ? format : NULL);
		if (r < 0) {
			if (!failed++)
				snprintf(first, sizeof(first), "%s", msg);
		} else if (r > 0) {
			snprintf(skipped + strlen(skipped), sizeof(skipped) - strlen(skipped),
				 "; skipped %s.%s: %s", g->name, format, g->note);
		} else {
			snprintf(done + strlen(done), sizeof(done) - strlen(done), "%s%s.%s",
				 *done ? " " : "", g->name, format);
		}
	}
	if (w)
		sw_free(w);
	free(w);
	free(g);
	if (rc)
		return rc;
	if (failed)
		return fail(err, errlen, "%s%s", first, failed > 1 ? " (and more figures failed)" : "");
	snprintf(err, errlen, "sweep figures in %s: %s%s", plots, *done ? done : "none", skipped);
	return 0;
}

/* ---- one figure of a directory (calibrate, compare) ------------------- */

/* what drawing figure `name` of dir needs: the format (NULL: png) valid,
 * the scripts, gnuplot (into gnuplot), dir/plots (into plots) and its
 * data folder; g set up for it.  0, or -1 with err. */
static int fig_begin(struct fig *g, const char *dir, const char *scripts_dir, const char *format,
		     const char *name, char *gnuplot, char *plots, char *err, size_t errlen)
{
	if (!format)
		format = "png";
	if (!plot_format_valid(format))
		return fail(err, errlen, "--format %s: not a figure format (png, svg, pdf)", format);
	if (!scripts_dir)
		return fail(err, errlen, "the plot scripts (plots/*.gp) were not found; set "
			    "DCQCN_SIM_PLOTS to their folder");
	if (find_gnuplot(gnuplot, PLOT_PATH_MAX))
		return fail(err, errlen, "gnuplot not found on PATH: install it "
			    "(apt-get install gnuplot-nox) to draw plots");
	if (join(plots, PLOT_PATH_MAX, dir, "plots", err, errlen) ||
	    make_dir(plots, err, errlen) ||
	    join(g->data, sizeof(g->data), plots, "data", err, errlen) ||
	    make_dir(g->data, err, errlen))
		return -1;
	snprintf(g->dir, sizeof(g->dir), "%s", dir);
	g->ext = format;
	g->name = name;
	return 0;
}

/* ---- a calibrate directory: the margin plane ------------------------- */

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

/* a gnuplot array of the values: array NAME[n] = ["v1", ...] */
static void gp_labels(FILE *fp, const char *name, char (*vals)[32], int n)
{
	fprintf(fp, "array %s[%d] = [", name, n);
	for (int i = 0; i < n; i++) {
		char q[80];
		gp_quote(q, sizeof(q), vals[i]);
		fprintf(fp, "%s%s", i ? ", " : "", q);
	}
	fprintf(fp, "]\n");
}

int plot_calibrate(const char *dir, const char *scripts_dir, const char *format, char *err,
		   size_t errlen)
{
	char gnuplot[PLOT_PATH_MAX], plots[PLOT_PATH_MAX];
	struct cal_plane *pl = calloc(1, sizeof(*pl));
	struct fig *g = calloc(1, sizeof(*g));
	int rc = pl && g ? 0 : fail(err, errlen, "out of memory");
	if (rc == 0)
		rc = fig_begin(g, dir, scripts_dir, format, "calibrate", gnuplot, plots, err, errlen);
	if (rc == 0) {
		pl->best_a = pl->best_b = -1;
		pl->dat = data_open(g, "calibrate.dat", err, errlen);
		rc = pl->dat ? 0 : -1;
	}
	if (rc == 0) {
		fprintf(pl->dat, "ia\tib\tmargin_pct\tpass\tlabel\tbinding\n");
		long rows = scan_csv(dir, "plane.csv", plane_cols, plane_row, pl, err, errlen);
		int crc = data_close(pl->dat, g, "calibrate.dat", err, errlen);
		if (rows < 0 || crc)
			rc = -1;
		else if (rows == 0)
			rc = fail(err, errlen, "%s/plane.csv: no points", dir);
	}
	if (rc == 0) {
		FILE *fp = data_open(g, "calibrate.vars", err, errlen);
		rc = fp ? 0 : -1;
		if (fp) {
			char qa[200], qb[200], qt[400], title[300];
			snprintf(title, sizeof(title), "calibrate: the margin of each setting, the "
				 "other keys at the recommendation");
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
	if (rc == 0) {
		rc = run_gnuplot(gnuplot, g, scripts_dir, err, errlen);
		remove_figure(plots, "calibrate", rc == 0 ? g->ext : NULL);
	}
	if (rc == 0)
		snprintf(err, errlen, "calibrate figure in %s: calibrate.%s", plots, g->ext);
	free(pl);
	free(g);
	return rc < 0 ? -1 : rc;
}

/* ---- a compare directory: the fabrics side by side ------------------- */

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

int plot_compare(const char *dir, const char *scripts_dir, const char *format, char *err,
		 size_t errlen)
{
	char gnuplot[PLOT_PATH_MAX], plots[PLOT_PATH_MAX];
	struct fig *g = calloc(1, sizeof(*g));
	if (!g)
		return fail(err, errlen, "out of memory");
	int rc = fig_begin(g, dir, scripts_dir, format, "compare", gnuplot, plots, err, errlen);
	struct cmp_plot cp = { 0 };
	long rows = 0;
	if (rc == 0) {
		cp.dat = data_open(g, "compare.dat", err, errlen);
		rc = cp.dat ? 0 : -1;
	}
	if (rc == 0) {
		fprintf(cp.dat, "i\tfabric\tcollective_ms\tbusbw_pct\tprobe_p99_us\tfct_p99_us\t"
				"retransmitted_MB\tdrops\n");
		rows = scan_csv(dir, "compare.csv", compare_cols, compare_row, &cp, err, errlen);
		int crc = data_close(cp.dat, g, "compare.dat", err, errlen);
		if (rows < 0 || crc)
			rc = -1;
		else if (rows == 0)
			rc = fail(err, errlen, "%s/compare.csv: no fabric", dir);
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
	if (rc == 0) {
		rc = run_gnuplot(gnuplot, g, scripts_dir, err, errlen);
		remove_figure(plots, "compare", rc == 0 ? g->ext : NULL);
	}
	if (rc == 0)
		snprintf(err, errlen, "compare figure in %s: compare.%s", plots, g->ext);
	free(g);
	return rc < 0 ? -1 : rc;
}
