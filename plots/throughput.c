/*
 * throughput.c - the data of throughput.png (throughput.gp): per job, goodput
 * and retransmitted Gbps and drops per sample interval of counters.csv, with
 * the PFC watchdog's storms of pfcwd.csv as shaded spans.
 */
#include "plots/internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#define STORM_SPANS_MAX 64 /* shaded PFC watchdog storm spans */

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

int shape_throughput(struct fig *g, const struct run_info *ri, char *err, size_t errlen)
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
